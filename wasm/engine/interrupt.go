package engine

import (
	"sync/atomic"
	"unsafe"

	"github.com/google/cel-go/common/types/ref"
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

// interruptingEstimator wraps the environment's actual-cost estimator,
// which cel-go calls on every function call of an evaluation, and stops the
// evaluation there when the interrupt flag is set.
type interruptingEstimator struct {
	inner interpreter.ActualCostEstimator
}

func (e interruptingEstimator) CallCost(function, overloadID string, args []ref.Val, result ref.Val) *uint64 {
	if atomic.LoadUint32(&interruptFlag) != 0 {
		panic(interpreter.EvalCancelledError{Cause: interpreter.ContextCancelled, Message: "operation interrupted by the host"})
	}
	if e.inner == nil {
		return nil
	}
	return e.inner.CallCost(function, overloadID, args, result)
}
