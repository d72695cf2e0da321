// Package module is the export table of the celwasm WebAssembly modules:
// the JSON ABI of docs/abi.md, built with GOOS=wasip1 GOARCH=wasm
// -buildmode=c-shared (a reactor: hosts call _initialize once, then the
// exports). Two main packages choose what each export serves (Serve):
// wasm/module/celwasm, the expression module, and wasm/module/celwasm-full,
// which also links CRD validation and CloudEvents SQL (RATIONALE.md, "Two
// modules"). Both have the same exports.
//
// Request path: the host writes request bytes into a buffer from
// celwasm_alloc and calls an export with its address and length; serve finds
// the buffer and hands the bytes to the export's handler (package abi:
// decoding, the engine, the codec); the response bytes stay in linear
// memory until the next call, their address and length packed into the
// result.
package module

import (
	"encoding/json"
	"unsafe"

	"github.com/celwasm/celwasm/wasm/engine"
	"github.com/celwasm/celwasm/wasm/reactor"
	"github.com/celwasm/celwasm/wire"
)

var (
	// pinned keeps buffers handed to the host reachable until celwasm_dealloc.
	pinned = map[uintptr][]byte{}
	// last is the buffer the previous request lay in (hosts reuse one), to
	// skip the search of pinned.
	last []byte
)

// Table is what a module serves: one handler per request/response export
// (request bytes in, response bytes out, valid until the next call), Free
// for celwasm_free, and EvalActivation for celwasm_eval_activation.
type Table struct {
	Compile, Eval, EvalBatch, Validate, Cost, Input, Admit func(req []byte) []byte
	Version                                                func() []byte
	Free                                                   func(handle uint32) bool
	// EvalActivation evaluates a program over an activation's JSON alone
	// (abi.Handler.EvalActivation): a packed bool result, or response bytes.
	EvalActivation func(handle uint32, costLimit uint64, activation []byte) (packed uint32, resp []byte)
}

// Serve sets the table; a module's main package calls it from init.
func Serve(t Table) {
	handlers = [...]func([]byte) []byte{
		exportCompile:   t.Compile,
		exportEval:      t.Eval,
		exportEvalBatch: t.EvalBatch,
		exportValidate:  t.Validate,
		exportCost:      t.Cost,
		exportVersion:   func([]byte) []byte { return t.Version() },
		exportInput:     t.Input,
		exportAdmit:     t.Admit,
	}
	free = t.Free
	evalActivationHandler = t.EvalActivation
}

// celwasm_alloc returns the address of a new buffer of size bytes, which
// the host may write a request into. It stays valid until celwasm_dealloc.
//
//go:wasmexport celwasm_alloc
func alloc(size uint32) uint32 {
	if size == 0 {
		size = 1
	}
	b := make([]byte, size)
	p := uintptr(unsafe.Pointer(&b[0]))
	pinned[p] = b
	return uint32(p)
}

// celwasm_dealloc releases a buffer from celwasm_alloc.
//
//go:wasmexport celwasm_dealloc
func dealloc(ptr uint32) {
	if len(last) > 0 && uintptr(unsafe.Pointer(&last[0])) == uintptr(ptr) {
		last = nil
	}
	delete(pinned, uintptr(ptr))
}

// request returns the bytes the host wrote at ptr, or ok=false when they do
// not lie inside a buffer from celwasm_alloc.
func request(ptr, length uint32) (req []byte, ok bool) {
	start, end := uintptr(ptr), uintptr(ptr)+uintptr(length)
	if len(last) > 0 {
		p := uintptr(unsafe.Pointer(&last[0]))
		if start >= p && end <= p+uintptr(len(last)) {
			return last[start-p : end-p], true
		}
	}
	for p, b := range pinned {
		if start >= p && end <= p+uintptr(len(b)) {
			last = b
			return b[start-p : end-p], true
		}
	}
	return nil, length == 0
}

var outside = []byte(`{"error":{"code":"bad_request","message":"request is not inside a buffer from celwasm_alloc"}}`)

// serve runs the handler of one request/response export: the request must
// lie in a buffer from celwasm_alloc. The result packs the response's
// address (high 32 bits) and length (low 32 bits); the response stays valid
// until the next call of any export.
func serve(x export, ptr, length uint32) uint64 {
	defer reactor.EndCall()
	req, ok := request(ptr, length)
	b := outside
	if ok {
		b = handlers[x](req)
	}
	return packed(b)
}

// The request/response exports (docs/abi.md), one table.
type export int

const (
	exportCompile export = iota
	exportEval
	exportEvalBatch
	exportValidate
	exportCost
	exportVersion
	exportInput
	exportAdmit
	numExports
)

var (
	handlers              [numExports]func([]byte) []byte
	free                  func(handle uint32) bool
	evalActivationHandler func(handle uint32, costLimit uint64, activation []byte) (uint32, []byte)
)

//go:wasmexport celwasm_compile
func compile(ptr, length uint32) uint64 { return serve(exportCompile, ptr, length) }

//go:wasmexport celwasm_eval
func eval(ptr, length uint32) uint64 { return serve(exportEval, ptr, length) }

//go:wasmexport celwasm_eval_batch
func evalBatch(ptr, length uint32) uint64 { return serve(exportEvalBatch, ptr, length) }

//go:wasmexport celwasm_validate
func validate(ptr, length uint32) uint64 { return serve(exportValidate, ptr, length) }

//go:wasmexport celwasm_cost
func cost(ptr, length uint32) uint64 { return serve(exportCost, ptr, length) }

// celwasm_eval_activation evaluates a program over an activation object
// (its JSON bytes alone, in a buffer from celwasm_alloc) with the cost
// limit as two 32-bit halves (0: the default). A bool result with a cost
// below 2^30 comes back in the low 32 bits (bits 30–31: 1 false, 2 true;
// bits 0–29: the cost; the high 32 bits zero); anything else as the JSON
// exports return, packed address and length of exactly what celwasm_eval
// answers (docs/abi.md, "eval_activation").
//
//go:wasmexport celwasm_eval_activation
func evalActivation(program, limitLo, limitHi, ptr, length uint32) uint64 {
	defer reactor.EndCall()
	act, ok := request(ptr, length)
	if !ok {
		return packed(outside)
	}
	scalar, resp := evalActivationHandler(program, uint64(limitHi)<<32|uint64(limitLo), act)
	if scalar != 0 {
		return uint64(scalar)
	}
	return packed(resp)
}

func packed(b []byte) uint64 {
	if len(b) == 0 {
		return 0
	}
	return uint64(uintptr(unsafe.Pointer(&b[0])))<<32 | uint64(len(b))
}

// celwasm_version describes the module (versions, compatibility versions,
// extensions).
//
//go:wasmexport celwasm_version
func version() uint64 {
	return serve(exportVersion, 0, 0)
}

// celwasm_input reads a CLI's input (JSON or YAML documents, objects,
// events, --at, keys, the text form) as the Go CLI does (docs/abi.md, "input").
//
//go:wasmexport celwasm_input
func readInput(ptr, length uint32) uint64 { return serve(exportInput, ptr, length) }

// celwasm_admit answers admission requests (docs/abi.md, "admit"); only
// the admission module serves them, the others answer needs_module.
//
//go:wasmexport celwasm_admit
func admit(ptr, length uint32) uint64 { return serve(exportAdmit, ptr, length) }

// celwasm_free releases a program; it returns 1 if the handle was known.
//
//go:wasmexport celwasm_free
func freeProgram(handle uint32) uint32 {
	if free(handle) {
		return 1
	}
	return 0
}

// celwasm_interrupt_flag returns the address of a 4-byte flag in linear
// memory. A host that writes a non-zero value there while an evaluation
// runs (from another thread) stops it at its next function call with error
// code "canceled". The host clears the flag before each call.
//
//go:wasmexport celwasm_interrupt_flag
func interruptFlag() uint32 {
	return uint32(engine.InterruptFlagAddress())
}

func main() {}

// Elsewhere answers every request of an export with code needs_module,
// naming the module that serves it and why this one does not
// (RATIONALE.md, "Two modules").
func Elsewhere(export, module, why string) func([]byte) []byte {
	b, _ := json.Marshal(struct {
		Error *wire.Error `json:"error"`
	}{&wire.Error{Code: wire.CodeNeedsModule, Module: module,
		Message: export + " needs the module " + module + " (" + why + ")"}})
	return func([]byte) []byte { return b }
}
