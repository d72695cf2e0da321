//go:build !wasip1

package klog

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// celwasm patch (PATCHES.md): off wasip1, create still makes the log file's
// convenience symlink, as upstream does.
func TestCreateSymlinkPatch(t *testing.T) {
	dir := t.TempDir()
	saved := logDirs
	defer func() { logDirs = saved }()
	onceLogDirs.Do(createLogDirs) // so that create does not overwrite logDirs
	logDirs = []string{dir}
	f, fname, err := create("INFO", time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC), true)
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	_, link := logName("INFO", time.Now())
	target, err := os.Readlink(filepath.Join(dir, link))
	if err != nil {
		t.Fatalf("no symlink %s: %v", link, err)
	}
	if target != filepath.Base(fname) {
		t.Fatalf("symlink %s -> %s, want %s", link, target, filepath.Base(fname))
	}
}
