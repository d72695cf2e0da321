package proxywasm

import (
	"context"
	"strings"
	"time"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
)

// proxy_status_t.
const (
	statusOK                  = 0
	statusNotFound            = 1
	statusBadArgument         = 2
	statusSerializationFailed = 3
	statusInvalidMemoryAccess = 6
	statusInternalFailure     = 10
	statusUnimplemented       = 12
)

// proxy_buffer_type_t and proxy_map_type_t values this host serves.
const (
	bufferVMConfiguration     = 6
	bufferPluginConfiguration = 7
	mapRequestHeaders         = 0
)

// hostFunctions are the proxy-wasm ABI v0.2.1 functions this host
// implements (module "env"). The celwasm filter imports proxy_log,
// proxy_get_buffer_bytes, proxy_get_header_map_pairs,
// proxy_replace_header_map_value, proxy_remove_header_map_value,
// proxy_get_property and proxy_send_local_response; the rest are here so the
// host serves the request-header surface of the ABI completely.
var hostFunctions = []struct {
	name   string
	params int // all i32, and one i32 result (proxy_status_t)
	fn     func(ctx context.Context, v *vm, mod api.Module, a []uint64) uint32
}{
	{name: "proxy_log", params: 3, fn: hostLog},
	{name: "proxy_get_log_level", params: 1, fn: hostGetLogLevel},
	{name: "proxy_get_current_time_nanoseconds", params: 1, fn: hostGetCurrentTime},
	{name: "proxy_get_buffer_bytes", params: 5, fn: hostGetBufferBytes},
	{name: "proxy_get_buffer_status", params: 3, fn: hostGetBufferStatus},
	{name: "proxy_get_header_map_pairs", params: 3, fn: hostGetHeaderMapPairs},
	{name: "proxy_get_header_map_size", params: 2, fn: hostGetHeaderMapSize},
	{name: "proxy_get_header_map_value", params: 5, fn: hostGetHeaderMapValue},
	{name: "proxy_add_header_map_value", params: 5, fn: hostAddHeaderMapValue},
	{name: "proxy_replace_header_map_value", params: 5, fn: hostReplaceHeaderMapValue},
	{name: "proxy_remove_header_map_value", params: 3, fn: hostRemoveHeaderMapValue},
	{name: "proxy_set_header_map_pairs", params: 3, fn: hostSetHeaderMapPairs},
	{name: "proxy_get_property", params: 4, fn: hostGetProperty},
	{name: "proxy_send_local_response", params: 8, fn: hostSendLocalResponse},
	{name: "proxy_set_effective_context", params: 1, fn: hostSetEffectiveContext},
	{name: "proxy_done", params: 0, fn: hostDone},
}

func instantiateHostModule(ctx context.Context, rt wazero.Runtime) error {
	b := rt.NewHostModuleBuilder("env")
	for _, h := range hostFunctions {
		h := h
		params := make([]api.ValueType, h.params)
		for i := range params {
			params[i] = api.ValueTypeI32
		}
		fn := api.GoModuleFunc(func(ctx context.Context, mod api.Module, stack []uint64) {
			v := vmFrom(ctx)
			if v == nil {
				stack[0] = statusInternalFailure
				return
			}
			// i32 arguments arrive in uint64 slots whose upper bits are
			// not defined: keep the low 32.
			a := stack[:h.params]
			for i := range a {
				a[i] = uint64(uint32(a[i]))
			}
			stack[0] = uint64(h.fn(ctx, v, mod, a))
		})
		b.NewFunctionBuilder().WithGoModuleFunction(fn, params, []api.ValueType{api.ValueTypeI32}).Export(h.name)
	}
	_, err := b.Instantiate(ctx)
	return err
}

// read returns a copy of guest memory.
func read(mod api.Module, ptr, size uint64) (string, bool) {
	if size == 0 {
		return "", true
	}
	b, ok := mod.Memory().Read(uint32(ptr), uint32(size))
	if !ok {
		return "", false
	}
	return string(b), true
}

// give copies data into a buffer from the guest's allocator and writes its
// address and size to the return pointers.
func give(ctx context.Context, v *vm, mod api.Module, data []byte, retPtr, retSize uint64) uint32 {
	mem := mod.Memory()
	var p uint32
	if len(data) > 0 {
		st := v.allocStack[:]
		st[0] = uint64(len(data))
		if err := v.fns.alloc.CallWithStack(ctx, st); err != nil {
			// A trap inside the allocator: unwind the whole guest call.
			panic(err)
		}
		p = uint32(st[0])
		if p == 0 || !mem.Write(p, data) {
			return statusInvalidMemoryAccess
		}
	}
	if !mem.WriteUint32Le(uint32(retPtr), p) || !mem.WriteUint32Le(uint32(retSize), uint32(len(data))) {
		return statusInvalidMemoryAccess
	}
	return statusOK
}

func hostLog(_ context.Context, v *vm, mod api.Module, a []uint64) uint32 {
	level := LogLevel(a[0])
	if level > LevelCritical {
		return statusBadArgument
	}
	msg, ok := read(mod, a[1], a[2])
	if !ok {
		return statusInvalidMemoryAccess
	}
	v.guestLog(level, msg)
	return statusOK
}

func hostGetLogLevel(_ context.Context, v *vm, mod api.Module, a []uint64) uint32 {
	if !mod.Memory().WriteUint32Le(uint32(a[0]), uint32(v.w.p.cfg.LogLevel)) {
		return statusInvalidMemoryAccess
	}
	return statusOK
}

func hostGetCurrentTime(_ context.Context, _ *vm, mod api.Module, a []uint64) uint32 {
	if !mod.Memory().WriteUint64Le(uint32(a[0]), uint64(time.Now().UnixNano())) {
		return statusInvalidMemoryAccess
	}
	return statusOK
}

// buffer returns the buffer readable in the current callback.
func (v *vm) bufferFor(t uint64) ([]byte, uint32) {
	switch t {
	case bufferVMConfiguration, bufferPluginConfiguration:
		if v.buffer == nil && v.cur == nil {
			return []byte{}, statusOK
		}
		if v.cur != nil {
			return nil, statusNotFound
		}
		return v.buffer, statusOK
	case 0, 1, 2, 3, 4, 5, 8:
		return nil, statusNotFound // bodies, data, calls: not served
	}
	return nil, statusBadArgument
}

func hostGetBufferBytes(ctx context.Context, v *vm, mod api.Module, a []uint64) uint32 {
	buf, st := v.bufferFor(a[0])
	if st != statusOK {
		return st
	}
	start, max := a[1], a[2]
	if start > uint64(len(buf)) {
		return statusBadArgument
	}
	end := start + max
	if end > uint64(len(buf)) {
		end = uint64(len(buf))
	}
	return give(ctx, v, mod, buf[start:end], a[3], a[4])
}

func hostGetBufferStatus(_ context.Context, v *vm, mod api.Module, a []uint64) uint32 {
	buf, st := v.bufferFor(a[0])
	if st != statusOK {
		return st
	}
	mem := mod.Memory()
	if !mem.WriteUint32Le(uint32(a[1]), uint32(len(buf))) || !mem.WriteUint32Le(uint32(a[2]), 0) {
		return statusInvalidMemoryAccess
	}
	return statusOK
}

// headerMapFor returns the current stream's map of type t; only request
// headers are served (the filter works at request headers).
func (v *vm) headerMapFor(t uint64) (*headerMap, uint32) {
	if t > 7 {
		return nil, statusBadArgument
	}
	if t != mapRequestHeaders || v.cur == nil {
		return nil, statusNotFound
	}
	return &v.cur.headers, statusOK
}

func hostGetHeaderMapPairs(ctx context.Context, v *vm, mod api.Module, a []uint64) uint32 {
	h, st := v.headerMapFor(a[0])
	if st == statusBadArgument {
		return st
	}
	var data []byte
	if h != nil {
		data = serializePairs(h.pairs)
	}
	return give(ctx, v, mod, data, a[1], a[2])
}

func hostGetHeaderMapSize(_ context.Context, v *vm, mod api.Module, a []uint64) uint32 {
	h, st := v.headerMapFor(a[0])
	if st != statusOK {
		return st
	}
	if !mod.Memory().WriteUint32Le(uint32(a[1]), uint32(len(serializePairs(h.pairs)))) {
		return statusInvalidMemoryAccess
	}
	return statusOK
}

func hostGetHeaderMapValue(ctx context.Context, v *vm, mod api.Module, a []uint64) uint32 {
	h, st := v.headerMapFor(a[0])
	if st != statusOK {
		if st == statusNotFound {
			st = statusBadArgument // map not available in this callback (Envoy)
		}
		return st
	}
	key, ok := read(mod, a[1], a[2])
	if !ok {
		return statusInvalidMemoryAccess
	}
	val, found := h.get(key)
	if !found {
		return statusNotFound
	}
	return give(ctx, v, mod, []byte(val), a[3], a[4])
}

func modifyHeaderMap(v *vm, mod api.Module, a []uint64, withValue bool, f func(h *headerMap, k, val string)) uint32 {
	h, st := v.headerMapFor(a[0])
	if st != statusOK {
		if st == statusNotFound {
			st = statusBadArgument
		}
		return st
	}
	key, ok := read(mod, a[1], a[2])
	if !ok {
		return statusInvalidMemoryAccess
	}
	val := ""
	if withValue {
		if val, ok = read(mod, a[3], a[4]); !ok {
			return statusInvalidMemoryAccess
		}
	}
	f(h, key, val)
	v.cur.modified = true
	return statusOK
}

func hostAddHeaderMapValue(_ context.Context, v *vm, mod api.Module, a []uint64) uint32 {
	return modifyHeaderMap(v, mod, a, true, (*headerMap).add)
}

func hostReplaceHeaderMapValue(_ context.Context, v *vm, mod api.Module, a []uint64) uint32 {
	return modifyHeaderMap(v, mod, a, true, (*headerMap).replace)
}

func hostRemoveHeaderMapValue(_ context.Context, v *vm, mod api.Module, a []uint64) uint32 {
	return modifyHeaderMap(v, mod, a, false, func(h *headerMap, k, _ string) { h.remove(k) })
}

func hostSetHeaderMapPairs(_ context.Context, v *vm, mod api.Module, a []uint64) uint32 {
	h, st := v.headerMapFor(a[0])
	if st != statusOK {
		if st == statusNotFound {
			st = statusBadArgument
		}
		return st
	}
	data, ok := read(mod, a[1], a[2])
	if !ok {
		return statusInvalidMemoryAccess
	}
	pairs, err := parsePairs([]byte(data))
	if err != nil {
		return statusBadArgument
	}
	for i := range pairs {
		pairs[i].Key = strings.ToLower(pairs[i].Key)
	}
	h.pairs = pairs
	v.cur.modified = true
	return statusOK
}

func hostGetProperty(ctx context.Context, v *vm, mod api.Module, a []uint64) uint32 {
	path, ok := read(mod, a[0], a[1])
	if !ok {
		return statusInvalidMemoryAccess
	}
	val, found := v.property(v.cur, strings.Split(path, "\x00"))
	if !found {
		return statusNotFound
	}
	return give(ctx, v, mod, val, a[2], a[3])
}

func hostSendLocalResponse(_ context.Context, v *vm, mod api.Module, a []uint64) uint32 {
	s := v.cur
	if s == nil {
		return statusBadArgument
	}
	details, ok1 := read(mod, a[1], a[2])
	body, ok2 := read(mod, a[3], a[4])
	hdrs, ok3 := read(mod, a[5], a[6])
	if !ok1 || !ok2 || !ok3 {
		return statusInvalidMemoryAccess
	}
	pairs, err := parsePairs([]byte(hdrs))
	if err != nil {
		return statusBadArgument
	}
	status := int(uint32(a[0]))
	if status < 100 || status > 999 {
		return statusBadArgument
	}
	s.local = &LocalResponse{Status: status, Details: details, Body: []byte(body), Headers: pairs}
	return statusOK
}

func hostSetEffectiveContext(_ context.Context, v *vm, _ api.Module, a []uint64) uint32 {
	id := uint32(a[0])
	if id == rootContextID || (v.cur != nil && v.cur.id == id) {
		return statusOK
	}
	return statusBadArgument
}

func hostDone(context.Context, *vm, api.Module, []uint64) uint32 { return statusNotFound }
