// Package wasmrt is the runtime plumbing of the Go host: the interface a
// WebAssembly runtime implements to compile and instantiate the celwasm
// module (Engine, Instance), the module's export names, and the adapters
// beside it: wasmrt/wazero (pure Go, the default) and wasmrt/wasmtime
// (wasmtime-go, cgo). The user API is the parent package.
package wasmrt

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io"
)

// Engine is a WebAssembly runtime that has compiled the celwasm module and
// makes instances of it (wasmrt/wazero, wasmrt/wasmtime).
type Engine interface {
	// Name identifies the runtime, e.g. "wazero" or "wasmtime".
	Name() string
	// Instantiate creates a fresh instance and runs its _initialize.
	Instantiate(ctx context.Context, cfg InstanceConfig) (Instance, error)
	// Close releases the compiled module.
	Close(ctx context.Context) error
}

// InstanceConfig is what the runtime asks of every instance.
type InstanceConfig struct {
	// Args is the guest's argv; argv[0] must be set (klog reads it at init).
	Args []string
	// Stderr receives the guest's stderr (Go runtime fatal errors, klog).
	Stderr io.Writer
	// Env is the guest's environment, "KEY=value" (the Go runtime reads
	// GOGC from it).
	Env []string
}

// Factory compiles the module for a WebAssembly runtime.
type Factory func(ctx context.Context, mod Module, cfg EngineConfig) (Engine, error)

// Module is the module an Engine compiles: its sha256, which names the
// engine's compiled-code cache entry, and its bytes, which an engine reads
// only when it needs them (wasmtime does not when its cache has the code).
// For an embedded module the sha256 is the one `make wasm` recorded and the
// bytes come from a 23–47 MB file, so a warm start neither reads nor hashes it.
type Module struct {
	// SHA256 is the hex sha256 of the bytes Bytes returns.
	SHA256 string
	// Bytes returns the module's bytes; callers must not modify them.
	Bytes func() ([]byte, error)
}

// ModuleBytes is the Module of wasm, hashed now.
func ModuleBytes(wasm []byte) Module {
	s := sha256.Sum256(wasm)
	return Module{SHA256: hex.EncodeToString(s[:]), Bytes: func() ([]byte, error) { return wasm, nil }}
}

// EngineConfig configures an Engine when it compiles the module.
type EngineConfig struct {
	// CacheDir holds the runtime's compiled-code cache; "" disables it.
	CacheDir string
	// MemoryLimitBytes caps each instance's linear memory, in bytes.
	MemoryLimitBytes uint64
	// Compiling, when set, is called once before the engine compiles the
	// module, and not when it reads compiled code back from CacheDir.
	// Compiling takes seconds (RATIONALE.md, "Winch first, Cranelift in the
	// background"), so callers announce it from here.
	Compiling func()
}

// NotifyCompiling calls cfg.Compiling when it is set.
func (cfg EngineConfig) NotifyCompiling() {
	if cfg.Compiling != nil {
		cfg.Compiling()
	}
}

// Export names the module's exports.
type Export int

// The module's exports (docs/abi.md).
const (
	ExportAlloc Export = iota
	ExportDealloc
	ExportCompile
	ExportEval
	ExportFree
	ExportVersion
	ExportInterruptFlag
	ExportEvalBatch
	ExportValidate
	ExportCost
	ExportInput
	ExportEvalActivation
	ExportAdmit
	// NumExports is the number of exports.
	NumExports
)

// ExportNames are the exports' names in the module.
var ExportNames = [NumExports]string{
	"celwasm_alloc", "celwasm_dealloc", "celwasm_compile", "celwasm_eval", "celwasm_free", "celwasm_version",
	"celwasm_interrupt_flag", "celwasm_eval_batch",
	"celwasm_validate", "celwasm_cost", "celwasm_input", "celwasm_eval_activation",
	"celwasm_admit",
}

// MaxArgs is the most arguments an export takes (celwasm_eval_activation).
const MaxArgs = 5

// Instance is one instantiated module: single threaded, one call at a time.
// A call that traps, exits, or is interrupted by its context returns an
// error, after which the instance must not be used again.
type Instance interface {
	// Call invokes an export with i32 arguments (at most MaxArgs) and
	// returns its single result (0 for exports without one), zero-extended
	// to uint64.
	Call(ctx context.Context, fn Export, args ...uint32) (uint64, error)
	// Memory returns a view of the guest's linear memory, valid until the
	// next Call (memory may grow and move).
	Memory() []byte
	// Flag returns a pointer to the 4-byte word at addr in linear memory
	// that stays valid, and does not move, for the instance's lifetime. The
	// host stores to it atomically from another goroutine while Call runs,
	// to interrupt an evaluation (see the celwasm_interrupt_flag export).
	Flag(addr uint32) *uint32
	// Close releases the instance.
	Close(ctx context.Context) error
}

// MemoryRanger is an Instance that reads a range of its linear memory more
// cheaply than through Memory (wasmtime-go's Memory is two cgo calls). The
// host writes every request and reads every response through it when an
// instance has it.
type MemoryRanger interface {
	// MemoryRange returns the n bytes at ptr in linear memory (valid until
	// the next Call), or false when they are not all inside it.
	MemoryRange(ptr, n uint32) ([]byte, bool)
}
