// Package module embeds the celwasm WebAssembly modules, compressed, so that
// `go get github.com/celwasm/celwasm/host` works with no build step: `make
// wasm` builds them (GOOS=wasip1 GOARCH=wasm -buildmode=c-shared, from
// wasm/module/celwasm, celwasm-full and celwasm-admission) and compresses each into
// <name>.wasm.zst, which is committed; `make check-embed` fails when the
// committed bytes differ from the reproducible build. The first process that
// needs a module decompresses it once into the user's cache directory
// ($XDG_CACHE_HOME/celwasm/module); later processes read that file back and
// check its sha256.
//
// Two modules (RATIONALE.md, "Two modules"): Expr, the expression module
// every Runtime loads, and Full, which serves every request and which a
// Runtime loads only for what Expr answers with code needs_module (CRD
// validation, Knative's attrs and cesql filters); Admission, loaded only for
// admission policies (admit).
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

var (
	//go:embed celwasm.wasm.zst
	exprZst []byte
	//go:embed celwasm.wasm.sha256
	exprSHA string
	//go:embed celwasm-full.wasm.zst
	fullZst []byte
	//go:embed celwasm-full.wasm.sha256
	fullSHA string
	//go:embed celwasm-admission.wasm.zst
	admissionZst []byte
	//go:embed celwasm-admission.wasm.sha256
	admissionSHA string
)

// A Module is one embedded module.
type Module struct {
	// Name is the module's name (wire.ModuleExpr, wire.ModuleFull, wire.ModuleAdmission).
	Name       string
	compressed []byte
	recorded   string
	load       func() ([]byte, error)
}

// The embedded modules.
var (
	Expr = newModule("celwasm", exprZst, exprSHA)
	Full = newModule("celwasm-full", fullZst, fullSHA)
	// Admission serves admit (admission policies); loaded only for it.
	Admission = newModule("celwasm-admission", admissionZst, admissionSHA)
)

// All lists the embedded modules, Expr first.
func All() []*Module { return []*Module{Expr, Full, Admission} }

func newModule(name string, z []byte, sha string) *Module {
	m := &Module{Name: name, compressed: z, recorded: strings.TrimSpace(sha)}
	m.load = sync.OnceValues(m.decompress)
	return m
}

// SHA256 returns the hex sha256 of the (uncompressed) module as `make wasm`
// recorded it, so that no process has to hash the module to name its
// compile cache.
func (m *Module) SHA256() string { return m.recorded }

// Size is the module's uncompressed size in bytes, read from the zstd frame
// header without decompressing (the module's bytes when the header has none).
func (m *Module) Size() int {
	if n, ok := zst.ContentSize(m.compressed); ok {
		return n
	}
	return len(m.Bytes())
}

// CompressedSize is the size of the embedded zstd stream, in bytes.
func (m *Module) CompressedSize() int { return len(m.compressed) }

// Bytes returns the module's bytes, decompressing them on first use (from
// the cache directory when an earlier process left them there). Callers
// must not modify them. It panics if the embedded module is corrupt, which
// `make check-embed` rules out for a released tree.
func (m *Module) Bytes() []byte {
	b, err := m.load()
	if err != nil {
		panic("celwasm: embedded module " + m.Name + ": " + err.Error())
	}
	return b
}

// Load is Bytes with the error returned instead of panicking.
func (m *Module) Load() ([]byte, error) { return m.load() }

// CachePath is where the decompressed module is kept ("" without a user
// cache directory).
func (m *Module) CachePath() string {
	dir, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "celwasm", "module", m.recorded+".wasm")
}

func (m *Module) decompress() ([]byte, error) {
	path := m.CachePath()
	if path != "" {
		if b, err := os.ReadFile(path); err == nil && sum(b) == m.recorded {
			return b, nil
		}
	}
	b, err := zst.Decompress(m.compressed)
	if err != nil {
		return nil, err
	}
	if got := sum(b); got != m.recorded {
		return nil, fmt.Errorf("sha256 %s, recorded %s", got, m.recorded)
	}
	if path != "" {
		cachedir.WriteAtomic(path, b)
	}
	return b, nil
}

// SHA256 is Expr.SHA256.
func SHA256() string { return Expr.SHA256() }

// Bytes is Expr.Bytes.
func Bytes() []byte { return Expr.Bytes() }

func sum(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}
