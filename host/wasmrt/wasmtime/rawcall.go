package wasmtime

/*
#include <stddef.h>
#include <stdint.h>

// The part of wasmtime's C API (wasmtime/func.h, extern.h, val.h, error.h,
// wasm.h of the release wasmtime-go links) for calling an export without
// wasmtime-go's generic Func.Call, which looks the function's type up and
// converts every argument with a cgo call of its own on each call. The
// library itself is linked by wasmtime-go.
typedef struct wasmtime_context wasmtime_context_t;
typedef struct wasm_trap_t wasm_trap_t;
typedef struct wasmtime_error wasmtime_error_t;
typedef struct { uint64_t store_id; void *private_; } celwasm_func_t;
typedef union {
	int32_t i32;
	int64_t i64;
	float f32;
	double f64;
	uint8_t v128[16];
	uint32_t anyref;
	uint32_t externref;
	void *funcref;
} celwasm_val_raw_t;
typedef struct { size_t size; char *data; } celwasm_byte_vec_t;

extern wasmtime_error_t *wasmtime_func_call_unchecked(wasmtime_context_t *, const celwasm_func_t *, celwasm_val_raw_t *, size_t, wasm_trap_t **);
extern void wasm_trap_message(const wasm_trap_t *, celwasm_byte_vec_t *);
extern void wasm_trap_delete(wasm_trap_t *);
extern void wasmtime_error_message(const wasmtime_error_t *, celwasm_byte_vec_t *);
extern void wasmtime_error_delete(wasmtime_error_t *);
extern void wasm_byte_vec_delete(celwasm_byte_vec_t *);

// celwasm_call calls f with args (n slots, the result in slot 0) and returns
// the error or trap message (to free with free_message), or NULL.
static celwasm_byte_vec_t *celwasm_call(wasmtime_context_t *ctx, const celwasm_func_t *f, celwasm_val_raw_t *args, size_t n, celwasm_byte_vec_t *msg) {
	wasm_trap_t *trap = NULL;
	wasmtime_error_t *err = wasmtime_func_call_unchecked(ctx, f, args, n, &trap);
	if (err != NULL) {
		wasmtime_error_message(err, msg);
		wasmtime_error_delete(err);
		return msg;
	}
	if (trap != NULL) {
		wasm_trap_message(trap, msg);
		wasm_trap_delete(trap);
		return msg;
	}
	return NULL;
}
*/
import "C"

import (
	"errors"
	"runtime"
	"unsafe"

	wt "github.com/bytecodealliance/wasmtime-go/v42"

	"github.com/celwasm/celwasm/host/wasmrt"
)

// rawFunc is an export prepared for wasmtime_func_call_unchecked: the
// function as the C API names it, its argument slot count, and whether its
// result is an i64.
type rawFunc struct {
	fn    C.celwasm_func_t
	slots int
	i64   bool
}

// rawCaller calls exports through the C API directly, one cgo call each.
type rawCaller struct {
	ctx *C.wasmtime_context_t
	fns [wasmrt.NumExports]rawFunc
	// args holds the wasmtime_val_raw_t slots: 16 bytes each, kept as
	// uint64 pairs so that they are 8-aligned in Go's view too (cgo gives
	// the C union alignment 1).
	args [wasmrt.MaxArgs][2]uint64
	msg  C.celwasm_byte_vec_t
}

// newRawCaller prepares the exports; it fails when a function's C form is
// not where this file expects it (another wasmtime-go layout).
func newRawCaller(store *wt.Store, fns []*wt.Func) (*rawCaller, error) {
	r := &rawCaller{ctx: (*C.wasmtime_context_t)(unsafe.Pointer(store.Context()))}
	for i, f := range fns {
		ext := f.AsExtern()
		// wasmtime_extern_t: a one-byte kind, then the union (8-aligned)
		// whose func member is {store_id, private}.
		if *(*uint8)(unsafe.Pointer(&ext)) != 0 { // WASMTIME_EXTERN_FUNC
			return nil, errors.New("wasmtime: unexpected extern layout")
		}
		// Copied bytewise: cgo gives the union alignment 1, so a pointer
		// conversion would be misaligned in Go's view (checkptr).
		copy(unsafe.Slice((*byte)(unsafe.Pointer(&r.fns[i].fn)), unsafe.Sizeof(r.fns[i].fn)),
			unsafe.Slice((*byte)(unsafe.Add(unsafe.Pointer(&ext), 8)), unsafe.Sizeof(r.fns[i].fn)))
		if r.fns[i].fn.store_id == 0 {
			return nil, errors.New("wasmtime: unexpected extern layout")
		}
		ty := f.Type(store)
		params, results := ty.Params(), ty.Results()
		r.fns[i].slots = max(len(params), len(results), 1)
		r.fns[i].i64 = len(results) == 1 && results[0].Kind() == wt.KindI64
	}
	runtime.KeepAlive(store)
	return r, nil
}

// call runs an export with i32 arguments; the result is zero-extended.
func (r *rawCaller) call(fn wasmrt.Export, args []uint32) (uint64, error) {
	f := &r.fns[fn]
	for i, a := range args {
		r.args[i][0] = uint64(int64(int32(a))) // the i32 member, sign-extended as wasmtime stores it
	}
	if m := C.celwasm_call(r.ctx, &f.fn, (*C.celwasm_val_raw_t)(unsafe.Pointer(&r.args[0])), C.size_t(f.slots), &r.msg); m != nil {
		text := C.GoStringN(m.data, C.int(m.size))
		C.wasm_byte_vec_delete(m)
		return 0, errors.New(text)
	}
	if f.i64 {
		return r.args[0][0], nil
	}
	return uint64(uint32(r.args[0][0])), nil
}
