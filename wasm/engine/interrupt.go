package engine

import (
	"sync/atomic"
	"unsafe"

	"github.com/google/cel-go/interpreter"
)

// interruptFlag is set (non-zero) by the host, from another thread, to stop
// the running evaluation. The host writes it directly into linear memory at
// InterruptFlagAddress: a WebAssembly instance cannot be signalled
// otherwise without compiling checks into every loop of the module (which
// costs wazero 3-5× on this module; see RATIONALE.md). The host clears it
// before each call.
var interruptFlag uint32

// InterruptFlagAddress returns the address of the interrupt flag (a 4-byte
// aligned uint32 in linear memory when built for wasm).
func InterruptFlagAddress() uintptr { return uintptr(unsafe.Pointer(&interruptFlag)) }

// SetInterrupted sets or clears the interrupt flag (for native callers).
func SetInterrupted(on bool) {
	var v uint32
	if on {
		v = 1
	}
	atomic.StoreUint32(&interruptFlag, v)
}

// Interrupted reports whether the host has set the interrupt flag.
func Interrupted() bool { return atomic.LoadUint32(&interruptFlag) != 0 }

// Every evaluation in the module with cost tracking (the engine's programs,
// and the CRD validator's, which kube-apiserver's code builds) checks the
// flag before each function call (patched cel-go; PATCHES.md).
func init() { interpreter.Interrupted = Interrupted }
