// Package cachedir names the directories where hosts cache compiled
// WebAssembly code, one per module, and prunes the stale ones.
package cachedir

import (
	"os"
	"path/filepath"
	"time"
)

// ForModule returns base/<first 16 hex digits of the module's sha256> and
// removes the directories of other modules under base that were last used
// more than an hour ago (each holds 100+ MB of compiled code), except those
// of the modules in keep (sha256 hex: the other modules of this release,
// which a process loads only when it needs them).
func ForModule(base, sha256Hex string, keep ...string) string {
	name := sha256Hex[:16]
	dir := filepath.Join(base, name)
	kept := map[string]bool{name: true}
	for _, k := range keep {
		if len(k) >= 16 {
			kept[k[:16]] = true
		}
	}
	if entries, err := os.ReadDir(base); err == nil {
		for _, e := range entries {
			if kept[e.Name()] {
				continue
			}
			if info, err := e.Info(); err == nil && time.Since(info.ModTime()) > time.Hour {
				os.RemoveAll(filepath.Join(base, e.Name()))
			}
		}
	}
	if err := os.MkdirAll(dir, 0o755); err == nil {
		now := time.Now()
		os.Chtimes(dir, now, now) // mark as in use
	}
	return dir
}

// WriteAtomic writes b to path through a temporary file in the same
// directory and a rename, so readers never see a partial file. A failure
// leaves nothing behind and only costs the next process the work again.
func WriteAtomic(path string, b []byte) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".tmp-*")
	if err != nil {
		return
	}
	_, werr := tmp.Write(b)
	cerr := tmp.Close()
	if werr != nil || cerr != nil || os.Rename(tmp.Name(), path) != nil {
		os.Remove(tmp.Name())
	}
}
