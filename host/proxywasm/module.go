// Package proxywasm is a proxy-wasm host written in Go on wazero, and a
// reverse proxy that runs a proxy-wasm HTTP filter on every request before
// forwarding it to a backend. It exists to exercise the celwasm filter
// module (build/celwasm-proxywasm.wasm) end to end without Envoy: it
// implements the host side of the proxy-wasm ABI v0.2.1 that the filter uses
// — context lifecycle, configuration buffers, logging, request header maps,
// properties (Envoy's attribute vocabulary, computed from the http.Request)
// and local responses — the way Envoy does (docs/proxy-wasm.md lists what is
// implemented and how it differs).
//
// Like Envoy, it runs one VM (module instance) per worker; a request's
// stream context lives on one VM, and streams interleave on it, each
// callback under the VM's lock. The module is instantiated as Envoy
// instantiates it: WASI preview 1 with no arguments and no environment,
// _initialize, then proxy_on_context_create / proxy_on_vm_start /
// proxy_on_configure for the root context.
package proxywasm

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"

	"github.com/celwasm/celwasm/host/internal/cachedir"
)

// Module is a compiled proxy-wasm module on its own wazero runtime. Plugins
// made from it share the compiled code. It is safe for concurrent use.
type Module struct {
	rt       wazero.Runtime
	compiled wazero.CompiledModule
	cache    wazero.CompilationCache
	sha256   string
}

// Option configures Compile.
type Option func(*options)

type options struct {
	cacheDir    *string
	memoryLimit uint64
}

// WithCacheDir sets wazero's compilation cache directory; "" disables it.
// Default: $XDG_CACHE_HOME/celwasm/wazero-proxywasm/<module sha256 prefix>
// (os.UserCacheDir). A cold compile of the filter module takes 10-20 s, a
// cached one well under one.
func WithCacheDir(dir string) Option { return func(o *options) { o.cacheDir = &dir } }

// WithMemoryLimit caps each VM's linear memory (default 1 GiB). A VM that
// runs out traps and is replaced.
func WithMemoryLimit(bytes uint64) Option { return func(o *options) { o.memoryLimit = bytes } }

// DefaultMemoryLimit is the default per-VM linear memory cap.
const DefaultMemoryLimit = 1 << 30

const wasmPageSize = 65536

// Compile compiles a proxy-wasm module (from the cache when possible).
func Compile(ctx context.Context, wasm []byte, opts ...Option) (*Module, error) {
	o := options{memoryLimit: DefaultMemoryLimit}
	for _, opt := range opts {
		opt(&o)
	}
	sum := sha256.Sum256(wasm)
	m := &Module{sha256: hex.EncodeToString(sum[:])}
	cacheDir := ""
	if o.cacheDir != nil {
		cacheDir = *o.cacheDir
	} else if d, err := os.UserCacheDir(); err == nil {
		cacheDir = cachedir.ForModule(filepath.Join(d, "celwasm", "wazero-proxywasm"), m.sha256)
	}
	rc := wazero.NewRuntimeConfigCompiler()
	if o.memoryLimit > 0 {
		pages := o.memoryLimit / wasmPageSize
		if pages > 65536 {
			pages = 65536
		}
		rc = rc.WithMemoryLimitPages(uint32(pages))
	}
	if cacheDir != "" {
		if err := os.MkdirAll(cacheDir, 0o755); err == nil {
			if c, err := wazero.NewCompilationCacheWithDir(cacheDir); err == nil {
				m.cache = c
				rc = rc.WithCompilationCache(c)
			}
		}
	}
	m.rt = wazero.NewRuntimeWithConfig(ctx, rc)
	if _, err := wasi_snapshot_preview1.Instantiate(ctx, m.rt); err != nil {
		m.Close(ctx)
		return nil, err
	}
	if err := instantiateHostModule(ctx, m.rt); err != nil {
		m.Close(ctx)
		return nil, fmt.Errorf("proxy-wasm host functions: %w", err)
	}
	compiled, err := m.rt.CompileModule(ctx, wasm)
	if err != nil {
		m.Close(ctx)
		return nil, fmt.Errorf("compile module: %w", err)
	}
	if _, ok := compiled.ExportedFunctions()["proxy_abi_version_0_2_1"]; !ok {
		m.Close(ctx)
		return nil, fmt.Errorf("the module does not export proxy_abi_version_0_2_1 (the only ABI version this host implements)")
	}
	m.compiled = compiled
	return m, nil
}

// SHA256 is the module's sha256 in hex.
func (m *Module) SHA256() string { return m.sha256 }

// Close releases the runtime (and every plugin's VMs).
func (m *Module) Close(ctx context.Context) error {
	err := m.rt.Close(ctx)
	if m.cache != nil {
		m.cache.Close(ctx)
	}
	return err
}
