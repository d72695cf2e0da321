// Package wasmtime selects wasmtime-go (Cranelift, cgo with a prebuilt
// static libwasmtime), the faster of the two Go runtimes, for a
// celwasm.Runtime:
//
//	rt, err := celwasm.New(ctx, wasmtime.Option())
//
// The compiled module is serialized to the cache directory, so later
// processes deserialize it instead of compiling again. The adapter itself is
// host/wasmrt/wasmtime.
package wasmtime

import (
	celwasm "github.com/celwasm/celwasm/host"
	"github.com/celwasm/celwasm/host/wasmrt/wasmtime"
)

// Version is the wasmtime-go release the adapter is built against; it names
// the cache files, as serialized code only loads into the same wasmtime
// version.
const Version = wasmtime.Version

// Option selects wasmtime for a celwasm.Runtime.
func Option() celwasm.Option { return celwasm.WithEngine("wasmtime", NewEngine) }

// NewEngine compiles the module with Cranelift, or deserializes it from
// cfg.CacheDir when a previous process stored it there.
var NewEngine celwasm.EngineFactory = wasmtime.New

// QuickCompileOption selects wasmtime with Cranelift at opt level none: a
// module compiles about 18% faster (the expression module: 4.7 s instead of
// 5.7 s on two cores) and each evaluation takes 5–9% longer. It suits a
// process that runs a few evaluations, such as the celwasm CLI, whose first
// run compiles; a long-running service keeps Option. The compiled code is
// cached under its own file name, so both can share a cache directory.
func QuickCompileOption() celwasm.Option {
	return celwasm.WithEngine("wasmtime", NewQuickCompileEngine)
}

// NewQuickCompileEngine is NewEngine at Cranelift opt level none
// (QuickCompileOption).
var NewQuickCompileEngine celwasm.EngineFactory = wasmtime.NewQuickCompile

// CachePath is the file in cacheDir (a module's cache directory,
// celwasm.ModuleCacheDir) where NewEngine (quick false) or
// NewQuickCompileEngine (quick true) keeps the compiled code of the module
// whose sha256 is moduleSHA256; the code is cached when the file exists.
func CachePath(cacheDir, moduleSHA256 string, quick bool) string {
	return wasmtime.CachePath(cacheDir, moduleSHA256, quick)
}
