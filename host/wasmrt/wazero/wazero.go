// Package wazero runs the celwasm module on wazero, the pure-Go
// WebAssembly runtime (no cgo): the host's default runtime.
package wazero

import (
	"context"
	"crypto/rand"
	"fmt"
	"io"
	"os"
	"strings"
	"unsafe"

	"github.com/celwasm/celwasm/host/wasmrt"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/experimental"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"
)

// wasmPageSize is the WebAssembly page size in bytes.
const wasmPageSize = 65536

type wazeroEngine struct {
	name     string
	rt       wazero.Runtime
	compiled wazero.CompiledModule
	cache    wazero.CompilationCache
}

// New compiles the module with wazero's optimizing compiler,
// using a compilation cache in cfg.CacheDir when set (a cold compile of the
// module takes seconds; a cached one well under one).
// Instances close when a call's context is done, so cancellation and
// deadlines stop a running evaluation.
func New(ctx context.Context, mod wasmrt.Module, cfg wasmrt.EngineConfig) (wasmrt.Engine, error) {
	return newEngine(ctx, mod, cfg, wazero.NewRuntimeConfigCompiler(), "wazero")
}

// NewInterpreter runs the module on wazero's interpreter: no machine code is
// generated, so it starts in about a second where a first compilation takes
// several, and evaluates many times slower. Nothing is cached.
func NewInterpreter(ctx context.Context, mod wasmrt.Module, cfg wasmrt.EngineConfig) (wasmrt.Engine, error) {
	cfg.CacheDir = ""
	cfg.Compiling = nil
	return newEngine(ctx, mod, cfg, wazero.NewRuntimeConfigInterpreter(), "wazero-interpreter")
}

func newEngine(ctx context.Context, mod wasmrt.Module, cfg wasmrt.EngineConfig, rc wazero.RuntimeConfig, name string) (wasmrt.Engine, error) {
	// wazero decodes and validates the module even when its cache has the
	// code, and keys the cache by its own hash of the bytes.
	wasm, err := mod.Bytes()
	if err != nil {
		return nil, fmt.Errorf("wazero: read module: %w", err)
	}
	// No WithCloseOnContextDone: it costs 3-5x on this module; interrupts use
	// the guest's flag instead (see wasmrt.Instance.Flag).
	if cfg.MemoryLimitBytes > 0 {
		pages := cfg.MemoryLimitBytes / wasmPageSize
		if pages > 65536 {
			pages = 65536
		}
		rc = rc.WithMemoryLimitPages(uint32(pages))
	}
	e := &wazeroEngine{name: name}
	// wazero does not say whether its cache holds this module's code; a
	// missing or empty cache directory means it does not.
	if entries, err := os.ReadDir(cfg.CacheDir); cfg.CacheDir == "" || err != nil || len(entries) == 0 {
		cfg.NotifyCompiling()
	}
	if cfg.CacheDir != "" {
		if err := os.MkdirAll(cfg.CacheDir, 0o755); err == nil {
			if c, err := wazero.NewCompilationCacheWithDir(cfg.CacheDir); err == nil {
				e.cache = c
				rc = rc.WithCompilationCache(c)
			}
		}
	}
	e.rt = wazero.NewRuntimeWithConfig(ctx, rc)
	if _, err := wasi_snapshot_preview1.Instantiate(ctx, e.rt); err != nil {
		e.rt.Close(ctx)
		return nil, err
	}
	compiled, err := e.rt.CompileModule(ctx, wasm)
	if err != nil {
		e.rt.Close(ctx)
		return nil, fmt.Errorf("wazero: compile module: %w", err)
	}
	e.compiled = compiled
	return e, nil
}

func (e *wazeroEngine) Name() string { return e.name }

func (e *wazeroEngine) Instantiate(ctx context.Context, cfg wasmrt.InstanceConfig) (wasmrt.Instance, error) {
	stderr := cfg.Stderr
	if stderr == nil {
		stderr = io.Discard
	}
	mc := wazero.NewModuleConfig()
	for _, kv := range cfg.Env {
		if k, v, ok := strings.Cut(kv, "="); ok {
			mc = mc.WithEnv(k, v)
		}
	}
	mc = mc.
		WithName("").
		WithArgs(cfg.Args...).
		WithStartFunctions("_initialize").
		WithStderr(stderr).
		WithStdout(stderr).
		WithSysWalltime().
		WithSysNanotime().
		WithSysNanosleep().
		WithRandSource(rand.Reader)
	mod, err := e.rt.InstantiateModule(experimental.WithMemoryAllocator(ctx, newMemoryAllocator()), e.compiled, mc)
	if err != nil {
		return nil, fmt.Errorf("wazero: instantiate: %w", err)
	}
	in := &wazeroInstance{mod: mod, mem: mod.Memory()}
	for i, name := range wasmrt.ExportNames {
		f := mod.ExportedFunction(name)
		if f == nil {
			mod.Close(ctx)
			return nil, fmt.Errorf("wazero: module has no export %q", name)
		}
		in.fns[i] = f
	}
	return in, nil
}

func (e *wazeroEngine) Close(ctx context.Context) error {
	err := e.rt.Close(ctx)
	if e.cache != nil {
		e.cache.Close(ctx)
	}
	return err
}

type wazeroInstance struct {
	mod   api.Module
	mem   api.Memory
	fns   [wasmrt.NumExports]api.Function
	stack [wasmrt.MaxArgs]uint64
}

func (in *wazeroInstance) Call(ctx context.Context, fn wasmrt.Export, args ...uint32) (uint64, error) {
	st := in.stack[:]
	for i, a := range args {
		st[i] = uint64(a)
	}
	if err := in.fns[fn].CallWithStack(ctx, st); err != nil {
		return 0, err
	}
	return st[0], nil
}

func (in *wazeroInstance) Memory() []byte {
	b, _ := in.mem.Read(0, in.mem.Size())
	return b
}

// Flag points into the memory buffer, which never moves: its address range
// is reserved up to the limit (reservedMemory).
func (in *wazeroInstance) Flag(addr uint32) *uint32 {
	b, ok := in.mem.Read(addr, 4)
	if !ok || addr%4 != 0 {
		return nil
	}
	return (*uint32)(unsafe.Pointer(&b[0]))
}

func (in *wazeroInstance) Close(ctx context.Context) error { return in.mod.Close(ctx) }
