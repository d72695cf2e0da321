// Package reactor holds what the exports of every celwasm module share as a
// WASI reactor (GOOS=wasip1, -buildmode=c-shared, //go:wasmexport): the
// main modules (wasm/module), the proxy-wasm filter and the Extism plugin.
package reactor

import "runtime"

// YieldEvery is how many export calls pass between two yields to the Go
// scheduler (EndCall).
const YieldEvery = 32

var calls uint32

// EndCall ends an export call: every YieldEvery-th call it yields to the Go
// scheduler once (runtime.Gosched, about 0.4 µs under V8).
//
// Without it a collection can stall for good. On wasm the Go runtime has no
// sysmon thread, so its GC CPU limiter (which stops mark assists while the
// collector has used more than half the CPU) is re-evaluated only at the end
// of an assist or when the scheduler looks for a GC worker. An
// allocation-heavy call (a cost bomb, a 3 MiB list) can turn the limiter on;
// assists then stop, and an exported function returns to the host without
// ever entering the scheduler, so the collection in progress never ends and
// the heap grows with every later call until the memory cap traps. Measured
// before this: 175 → 334 MiB of linear memory over 20,000 small evaluations
// after one such call (Go host), Envoy's RSS +217 MiB over 200,000 requests
// (RATIONALE.md, "A reactor's collections need the scheduler").
func EndCall() {
	calls++
	if calls%YieldEvery == 0 {
		runtime.Gosched()
	}
}
