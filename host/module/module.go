// Package module embeds the celwasm WebAssembly module, compressed, so that
// `go get github.com/celwasm/celwasm/host` works with no build step: `make
// wasm` builds the module (GOOS=wasip1 GOARCH=wasm -buildmode=c-shared, from
// wasm/module) and compresses it into celwasm.wasm.zst, which is committed;
// `make check-embed` fails when the committed bytes differ from the
// reproducible build. The first process that needs the module decompresses
// it once into the user's cache directory ($XDG_CACHE_HOME/celwasm/module);
// later processes read that file back and check its sha256.
package module

import (
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/celwasm/celwasm/host/internal/cachedir"

	"github.com/celwasm/celwasm/host/module/internal/zst"
)

//go:embed celwasm.wasm.zst
var compressed []byte

//go:embed celwasm.wasm.sha256
var recorded string

// SHA256 returns the hex sha256 of the (uncompressed) module as `make wasm`
// recorded it, so that no process has to hash the module to name its
// compile cache.
func SHA256() string { return strings.TrimSpace(recorded) }

// Bytes returns the module's bytes, decompressing them on first use (from
// the cache directory when an earlier process left them there). Callers
// must not modify them. It panics if the embedded module is corrupt, which
// `make check-embed` rules out for a released tree.
func Bytes() []byte {
	b, err := load()
	if err != nil {
		panic("celwasm: embedded module: " + err.Error())
	}
	return b
}

var load = sync.OnceValues(func() ([]byte, error) {
	want := SHA256()
	path := ""
	if dir, err := os.UserCacheDir(); err == nil {
		path = filepath.Join(dir, "celwasm", "module", want+".wasm")
		if b, err := os.ReadFile(path); err == nil && sum(b) == want {
			return b, nil
		}
	}
	b, err := zst.Decompress(compressed)
	if err != nil {
		return nil, err
	}
	if got := sum(b); got != want {
		return nil, fmt.Errorf("sha256 %s, recorded %s", got, want)
	}
	if path != "" {
		cachedir.WriteAtomic(path, b)
	}
	return b, nil
})

func sum(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}
