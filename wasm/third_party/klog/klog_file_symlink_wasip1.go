//go:build wasip1

package klog

import (
	"os"
	"syscall"
)

// createSymlink fails with ENOSYS without calling os.Symlink. (celwasm patch.)
// os.Symlink would make the module import WASI's path_symlink, which some
// proxy-wasm hosts (Envoy 1.40) declare with another signature, so the module
// would not load there at all. klog ignores this error: only the
// "<program>.<tag>" convenience link next to a log file is not made.
func createSymlink(oldname, newname string) error {
	return &os.LinkError{Op: "symlink", Old: oldname, New: newname, Err: syscall.ENOSYS}
}
