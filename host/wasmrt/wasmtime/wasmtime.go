// Package wasmtime runs the celwasm module on wasmtime-go (Cranelift, cgo
// with a prebuilt static libwasmtime), the faster of the two Go runtimes.
// Users select it with github.com/celwasm/celwasm/host/wasmtime.Option().
//
// The compiled module is serialized to the cache directory, so later
// processes deserialize it instead of compiling again.
package wasmtime

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"unsafe"

	"github.com/celwasm/celwasm/host/internal/cachedir"

	wt "github.com/bytecodealliance/wasmtime-go/v42"

	"github.com/celwasm/celwasm/host/wasmrt"
)

// Version is the wasmtime-go release this package is built against; it
// names the cache files, as serialized code only loads into the same
// wasmtime version.
const Version = "v42.0.0"

type engine struct {
	engine *wt.Engine
	module *wt.Module
	linker *wt.Linker
	memMax int64
}

// New compiles the module with Cranelift at opt level speed, or
// deserializes it from cfg.CacheDir when a previous process stored it there.
func New(ctx context.Context, src wasmrt.Module, cfg wasmrt.EngineConfig) (wasmrt.Engine, error) {
	return newEngine(src, cfg, wt.OptLevelSpeed, "")
}

// NewQuickCompile is New with Cranelift at opt level none: the expression
// module compiles in about 4.7 s instead of 5.7 s (two cores) and
// evaluations take 5–9% longer (RATIONALE.md, "The CLI compiles quickly").
// Its code is cached under its own name ("-o0"), beside New's.
func NewQuickCompile(ctx context.Context, src wasmrt.Module, cfg wasmrt.EngineConfig) (wasmrt.Engine, error) {
	return newEngine(src, cfg, wt.OptLevelNone, "-o0")
}

// CachePath is the file in cacheDir where New (quick false) or
// NewQuickCompile (quick true) keeps its compiled code for the module whose
// sha256 is moduleSHA256; the code is cached when the file exists.
func CachePath(cacheDir, moduleSHA256 string, quick bool) string {
	if quick {
		return cacheFile(cacheDir, moduleSHA256, "-o0")
	}
	return cacheFile(cacheDir, moduleSHA256, "")
}

func cacheFile(dir, sha, suffix string) string {
	return filepath.Join(dir, sha+"-"+Version+"-"+runtime.GOARCH+suffix+".cwasm")
}

func newEngine(src wasmrt.Module, cfg wasmrt.EngineConfig, opt wt.OptLevel, cacheSuffix string) (wasmrt.Engine, error) {
	conf := wt.NewConfig()
	conf.SetCraneliftOptLevel(opt)
	if os.Getenv("CELWASM_WASMTIME_PROFILER") == "perfmap" {
		// For `perf record`: wasmtime writes /tmp/perf-PID.map for the JIT code.
		conf.SetProfiler(wt.ProfilingStrategy(3)) // WASMTIME_PROFILING_STRATEGY_PERFMAP (not named in wasmtime-go)
	}
	e := &engine{engine: wt.NewEngineWithConfig(conf), memMax: -1}
	if cfg.MemoryLimitBytes > 0 {
		e.memMax = int64(cfg.MemoryLimitBytes)
	}
	var mod *wt.Module
	var cachePath string
	if cfg.CacheDir != "" {
		// Named by the recorded sha256: a warm start neither reads nor
		// hashes the module.
		cachePath = cacheFile(cfg.CacheDir, src.SHA256, cacheSuffix)
		if m, err := wt.NewModuleDeserializeFile(e.engine, cachePath); err == nil {
			mod = m
		}
	}
	if mod == nil {
		cfg.NotifyCompiling()
		wasm, err := src.Bytes()
		if err != nil {
			return nil, fmt.Errorf("wasmtime: read module: %w", err)
		}
		m, err := wt.NewModule(e.engine, wasm)
		if err != nil {
			return nil, fmt.Errorf("wasmtime: compile module: %w", err)
		}
		mod = m
		if cachePath != "" {
			if b, err := m.Serialize(); err == nil {
				cachedir.WriteAtomic(cachePath, b)
			}
		}
	}
	e.module = mod
	e.linker = wt.NewLinker(e.engine)
	if err := e.linker.DefineWasi(); err != nil {
		return nil, fmt.Errorf("wasmtime: define WASI: %w", err)
	}
	return e, nil
}

func (e *engine) Name() string { return "wasmtime" }

func (e *engine) Instantiate(ctx context.Context, cfg wasmrt.InstanceConfig) (wasmrt.Instance, error) {
	// WASI in wasmtime-go writes stderr to a file only: a private temp
	// file, read back for trap messages.
	errFile, err := os.CreateTemp("", "celwasm-stderr-*")
	if err != nil {
		return nil, err
	}
	errFile.Close()
	wasi := wt.NewWasiConfig()
	wasi.SetArgv(cfg.Args)
	var keys, values []string
	for _, kv := range cfg.Env {
		if k, v, ok := strings.Cut(kv, "="); ok {
			keys, values = append(keys, k), append(values, v)
		}
	}
	wasi.SetEnv(keys, values)
	if err := wasi.SetStderrFile(errFile.Name()); err != nil {
		os.Remove(errFile.Name())
		return nil, err
	}
	store := wt.NewStore(e.engine)
	store.SetWasi(wasi)
	store.Limiter(e.memMax, -1, -1, -1, -1)
	in := &instance{store: store, stderrPath: errFile.Name(), stderr: cfg.Stderr}
	inst, err := e.linker.Instantiate(store, e.module)
	if err != nil {
		in.Close(ctx)
		return nil, fmt.Errorf("wasmtime: instantiate: %w", err)
	}
	if init := inst.GetFunc(store, "_initialize"); init != nil {
		if _, err := init.Call(store); err != nil {
			in.Close(ctx)
			return nil, fmt.Errorf("wasmtime: _initialize: %w", in.withStderr(err))
		}
	}
	for i, name := range wasmrt.ExportNames {
		f := inst.GetFunc(store, name)
		if f == nil {
			in.Close(ctx)
			return nil, fmt.Errorf("wasmtime: module has no export %q", name)
		}
		in.fns[i] = f
	}
	ext := inst.GetExport(store, "memory")
	if ext == nil || ext.Memory() == nil {
		in.Close(ctx)
		return nil, errors.New("wasmtime: module exports no memory")
	}
	in.mem = ext.Memory()
	if os.Getenv("CELWASM_WASMTIME_CALLS") != "generic" {
		if raw, err := newRawCaller(store, in.fns[:]); err == nil {
			in.raw = raw
		}
	}
	return in, nil
}

func (e *engine) Close(ctx context.Context) error {
	e.linker.Close()
	e.module.Close()
	e.engine.Close()
	return nil
}

type instance struct {
	store      *wt.Store
	mem        *wt.Memory
	view       []byte // the memory as Memory last read it (MemoryRange)
	fns        [len(wasmrt.ExportNames)]*wt.Func
	raw        *rawCaller // nil: wasmtime-go's Func.Call
	stderrPath string
	stderr     interface{ Write([]byte) (int, error) }
	closeOnce  sync.Once
}

func (in *instance) Call(ctx context.Context, fn wasmrt.Export, args ...uint32) (uint64, error) {
	if in.raw != nil {
		r, err := in.raw.call(fn, args)
		if err != nil {
			return 0, in.withStderr(err)
		}
		return r, nil
	}
	var res any
	var err error
	switch len(args) {
	case 0:
		res, err = in.fns[fn].Call(in.store)
	case 1:
		res, err = in.fns[fn].Call(in.store, int32(args[0]))
	case 2:
		res, err = in.fns[fn].Call(in.store, int32(args[0]), int32(args[1]))
	default:
		vals := make([]any, len(args))
		for i, a := range args {
			vals[i] = int32(a)
		}
		res, err = in.fns[fn].Call(in.store, vals...)
	}
	if err != nil {
		return 0, in.withStderr(err)
	}
	switch v := res.(type) {
	case int32:
		return uint64(uint32(v)), nil
	case int64:
		return uint64(v), nil
	}
	return 0, nil
}

// withStderr copies what the guest wrote to stderr to the configured
// writer, so that trap messages carry it.
func (in *instance) withStderr(err error) error {
	if b, rerr := os.ReadFile(in.stderrPath); rerr == nil && len(b) > 0 && in.stderr != nil {
		in.stderr.Write(b)
	}
	return err
}

// Memory returns the linear memory. wasmtime reserves the whole 4 GiB
// address range of a 32-bit memory up front, so the base never moves.
func (in *instance) Memory() []byte {
	in.view = in.mem.UnsafeData(in.store)
	return in.view
}

// MemoryRange implements wasmrt.MemoryRanger: memory never moves (above)
// and never shrinks, so a view read earlier still holds every range inside
// it, and only a range beyond it (the guest grew its memory since) reads
// the memory again: two cgo calls, a sixth of evaluating `true`, saved on
// nearly every request and response.
func (in *instance) MemoryRange(ptr, n uint32) ([]byte, bool) {
	end := uint64(ptr) + uint64(n)
	if end > uint64(len(in.view)) && end > uint64(len(in.Memory())) {
		return nil, false
	}
	return in.view[ptr:end:end], true
}

func (in *instance) Flag(addr uint32) *uint32 {
	b := in.Memory()
	if uint64(addr)+4 > uint64(len(b)) || addr%4 != 0 {
		return nil
	}
	return (*uint32)(unsafe.Pointer(&b[addr]))
}

func (in *instance) Close(ctx context.Context) error {
	in.closeOnce.Do(func() {
		in.store.Close()
		os.Remove(in.stderrPath)
	})
	return nil
}
