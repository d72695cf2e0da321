package celwasm

import (
	"github.com/celwasm/celwasm/host/module"
	"github.com/celwasm/celwasm/host/wasmrt"
	"github.com/celwasm/celwasm/host/wasmrt/wazero"
)

// The runtime plumbing lives in host/wasmrt; these names keep it reachable
// from the user API for programs that bring their own runtime.
type (
	// Engine is a WebAssembly runtime that has compiled the module.
	Engine = wasmrt.Engine
	// Instance is one instantiated module: single threaded, one call at a time.
	Instance = wasmrt.Instance
	// InstanceConfig is what the runtime asks of every instance.
	InstanceConfig = wasmrt.InstanceConfig
	// EngineConfig configures an Engine when it compiles the module.
	EngineConfig = wasmrt.EngineConfig
	// EngineFactory compiles the module for a WebAssembly runtime.
	EngineFactory = wasmrt.Factory
	// EngineModule is what an EngineFactory compiles: the module's sha256
	// and its bytes, read only when the engine needs them.
	EngineModule = wasmrt.Module
	// Export names one of the module's exports.
	Export = wasmrt.Export
)

// NewWazeroEngine compiles the module with wazero's optimizing compiler
// (the default runtime; host/wasmrt/wazero).
var NewWazeroEngine EngineFactory = wazero.New

// NewWazeroInterpreterEngine runs the module on wazero's interpreter: a
// first result in about 1.3 s where compiling takes 5-6 s, then evaluations
// about 50 times slower than compiled code; nothing is cached. The CLI runs
// on it while a first compilation happens in the background.
var NewWazeroInterpreterEngine EngineFactory = wazero.NewInterpreter

// ModuleBytes is the EngineModule of wasm, hashed now.
func ModuleBytes(wasm []byte) EngineModule { return wasmrt.ModuleBytes(wasm) }

// EmbeddedModule is the EngineModule of an embedded module, as New passes it
// to an engine: the sha256 `make wasm` recorded, the bytes read only when the
// engine asks for them.
func EmbeddedModule(m *module.Module) EngineModule {
	return EngineModule{SHA256: m.SHA256(), Bytes: m.Load}
}

// The module's exports (docs/abi.md).
const (
	ExportAlloc          = wasmrt.ExportAlloc
	ExportDealloc        = wasmrt.ExportDealloc
	ExportCompile        = wasmrt.ExportCompile
	ExportEval           = wasmrt.ExportEval
	ExportFree           = wasmrt.ExportFree
	ExportVersion        = wasmrt.ExportVersion
	ExportInterruptFlag  = wasmrt.ExportInterruptFlag
	ExportEvalBatch      = wasmrt.ExportEvalBatch
	ExportValidate       = wasmrt.ExportValidate
	ExportCost           = wasmrt.ExportCost
	ExportAdmit          = wasmrt.ExportAdmit
	ExportInput          = wasmrt.ExportInput
	ExportEvalActivation = wasmrt.ExportEvalActivation
)

// ExportNames are the exports' names in the module.
var ExportNames = wasmrt.ExportNames

// maxArgs is the most arguments an export takes.
const maxArgs = wasmrt.MaxArgs
