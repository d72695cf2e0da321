//go:build !wasip1

package klog

import "os"

// createSymlink is os.Symlink. (celwasm patch: on wasip1 it is a stub, see
// klog_file_symlink_wasip1.go.)
func createSymlink(oldname, newname string) error {
	return os.Symlink(oldname, newname)
}
