//go:build wasip1

package abi

import (
	"unsafe"

	"github.com/celwasm/celwasm/wasm/reactor"
)

// Handlers are the plugin's callbacks. Register them with SetNewRoot from an
// init function of package main (package initialisation runs in
// _initialize, before the host's first callback).

// Root is a plugin (root) context.
type Root interface {
	// OnVMStart receives VM_CONFIGURATION; false fails the VM start.
	OnVMStart(vmConfiguration []byte) bool
	// OnConfigure receives PLUGIN_CONFIGURATION; false fails the plugin
	// start (the host refuses the plugin).
	OnConfigure(pluginConfiguration []byte) bool
	// NewHTTP creates the state of a new HTTP stream context.
	NewHTTP(contextID uint32) HTTP
}

// HTTP is an HTTP stream context.
type HTTP interface {
	OnRequestHeaders(numHeaders int, endOfStream bool) Action
	// OnRequestBody receives the size of the request body buffered so far;
	// ActionPause buffers more (StopIterationAndBuffer), ActionContinue
	// lets the request go on.
	OnRequestBody(bodySize int, endOfStream bool) Action
	OnRequestTrailers(numTrailers int) Action
	OnResponseHeaders(numHeaders int, endOfStream bool) Action
	// OnDone returns true when the host may finalize the context.
	OnDone() bool
	OnLog()
	OnDelete()
}

var (
	newRoot func(contextID uint32) Root
	roots   = map[uint32]Root{}
	streams = map[uint32]HTTP{}
)

// SetNewRoot registers the constructor of root contexts.
func SetNewRoot(f func(contextID uint32) Root) { newRoot = f }

// ---------------------------------------------------------------------------
// Memory handed to the host.
//
// The host returns data (buffers, header maps, properties) by calling
// proxy_on_memory_allocate and writing into the new buffer. Go's collector
// does not move objects but would free an unreferenced one, so every buffer
// stays in `pending` until the host function that asked for it returns and
// the glue takes it (take). Buffers the host allocated but did not hand back
// are dropped when the callback ends (endCallback).

var pending = map[uint32][]byte{}

//go:wasmexport proxy_on_memory_allocate
func proxyOnMemoryAllocate(size uint32) uint32 {
	n := size
	if n == 0 {
		n = 1 // 0 means failure to the host
	}
	b := make([]byte, n)
	p := uint32(uintptr(unsafe.Pointer(unsafe.SliceData(b))))
	pending[p] = b
	return p
}

// take returns the buffer the host allocated at ptr, cut to size.
func take(ptr, size uint32) ([]byte, bool) {
	if size == 0 {
		delete(pending, ptr)
		return []byte{}, true
	}
	b, ok := pending[ptr]
	if !ok || int(size) > len(b) {
		return nil, false
	}
	delete(pending, ptr)
	return b[:size], true
}

func endCallback() {
	if len(pending) > 0 {
		clear(pending)
	}
	reactor.EndCall()
}

// The host writes results through pointers into linear memory. They point
// at package variables (fixed addresses), never at the goroutine stack: Go's
// stack lives in linear memory and may move while the host calls back into
// proxy_on_memory_allocate.
var retPtr, retSize uint32

func addr(p *uint32) uint32 { return uint32(uintptr(unsafe.Pointer(p))) }

// scratch holds data passed to the host (keys, values, bodies), copied into
// a heap buffer for the same reason.
var scratch []byte

// put appends s to scratch and returns its offset; call ptrAt only after
// every put of a call (an append may move scratch).
func put(s string) int {
	off := len(scratch)
	scratch = append(scratch, s...)
	return off
}

func putBytes(b []byte) int {
	off := len(scratch)
	scratch = append(scratch, b...)
	return off
}

func ptrAt(off int) uint32 {
	if len(scratch) == 0 {
		return 0
	}
	return uint32(uintptr(unsafe.Pointer(unsafe.SliceData(scratch)))) + uint32(off)
}

func resetScratch() {
	if cap(scratch) > 1<<20 {
		scratch = nil // do not keep a huge body around
	}
	scratch = scratch[:0]
}

// ---------------------------------------------------------------------------
// Exports.

//go:wasmexport proxy_abi_version_0_2_1
func proxyABIVersion() {}

//go:wasmexport proxy_on_context_create
func proxyOnContextCreate(contextID, parentID uint32) {
	defer endCallback()
	if parentID == 0 {
		if newRoot != nil {
			roots[contextID] = newRoot(contextID)
		}
		return
	}
	if r, ok := roots[parentID]; ok {
		streams[contextID] = r.NewHTTP(contextID)
	}
}

//go:wasmexport proxy_on_vm_start
func proxyOnVMStart(rootID, size uint32) uint32 {
	defer endCallback()
	r, ok := roots[rootID]
	if !ok {
		return 0
	}
	var cfg []byte
	if size > 0 {
		var st Status
		if cfg, st = GetBufferBytes(BufferVMConfiguration, 0, int(size)); st != StatusOK {
			Log(LogError, "celwasm: cannot read the VM configuration: "+st.String())
			return 0
		}
	}
	return b2u(r.OnVMStart(cfg))
}

//go:wasmexport proxy_on_configure
func proxyOnConfigure(rootID, size uint32) uint32 {
	defer endCallback()
	r, ok := roots[rootID]
	if !ok {
		return 0
	}
	var cfg []byte
	if size > 0 {
		var st Status
		if cfg, st = GetBufferBytes(BufferPluginConfiguration, 0, int(size)); st != StatusOK {
			Log(LogError, "celwasm: cannot read the plugin configuration: "+st.String())
			return 0
		}
	}
	return b2u(r.OnConfigure(cfg))
}

//go:wasmexport proxy_on_request_headers
func proxyOnRequestHeaders(contextID, numHeaders, endOfStream uint32) uint32 {
	defer endCallback()
	s, ok := streams[contextID]
	if !ok {
		return uint32(ActionContinue)
	}
	return uint32(s.OnRequestHeaders(int(numHeaders), endOfStream != 0))
}

//go:wasmexport proxy_on_request_body
func proxyOnRequestBody(contextID, bodySize, endOfStream uint32) uint32 {
	defer endCallback()
	s, ok := streams[contextID]
	if !ok {
		return uint32(ActionContinue)
	}
	return uint32(s.OnRequestBody(int(bodySize), endOfStream != 0))
}

//go:wasmexport proxy_on_request_trailers
func proxyOnRequestTrailers(contextID, numTrailers uint32) uint32 {
	defer endCallback()
	s, ok := streams[contextID]
	if !ok {
		return uint32(ActionContinue)
	}
	return uint32(s.OnRequestTrailers(int(numTrailers)))
}

//go:wasmexport proxy_on_response_headers
func proxyOnResponseHeaders(contextID, numHeaders, endOfStream uint32) uint32 {
	defer endCallback()
	s, ok := streams[contextID]
	if !ok {
		return uint32(ActionContinue)
	}
	return uint32(s.OnResponseHeaders(int(numHeaders), endOfStream != 0))
}

//go:wasmexport proxy_on_done
func proxyOnDone(contextID uint32) uint32 {
	defer endCallback()
	if s, ok := streams[contextID]; ok {
		return b2u(s.OnDone())
	}
	return 1
}

//go:wasmexport proxy_on_log
func proxyOnLog(contextID uint32) {
	defer endCallback()
	if s, ok := streams[contextID]; ok {
		s.OnLog()
	}
}

//go:wasmexport proxy_on_delete
func proxyOnDelete(contextID uint32) {
	defer endCallback()
	if s, ok := streams[contextID]; ok {
		s.OnDelete()
		delete(streams, contextID)
		return
	}
	delete(roots, contextID)
}

func b2u(b bool) uint32 {
	if b {
		return 1
	}
	return 0
}

// ---------------------------------------------------------------------------
// Imports and their wrappers.

//go:wasmimport env proxy_log
func proxyLog(level, msgPtr, msgSize uint32) uint32

//go:wasmimport env proxy_get_buffer_bytes
func proxyGetBufferBytes(bufferType, start, maxSize, retData, retSize uint32) uint32

//go:wasmimport env proxy_get_header_map_pairs
func proxyGetHeaderMapPairs(mapType, retData, retSize uint32) uint32

//go:wasmimport env proxy_get_header_map_value
func proxyGetHeaderMapValue(mapType, keyPtr, keySize, retData, retSize uint32) uint32

//go:wasmimport env proxy_add_header_map_value
func proxyAddHeaderMapValue(mapType, keyPtr, keySize, valuePtr, valueSize uint32) uint32

//go:wasmimport env proxy_replace_header_map_value
func proxyReplaceHeaderMapValue(mapType, keyPtr, keySize, valuePtr, valueSize uint32) uint32

//go:wasmimport env proxy_remove_header_map_value
func proxyRemoveHeaderMapValue(mapType, keyPtr, keySize uint32) uint32

//go:wasmimport env proxy_get_property
func proxyGetProperty(pathPtr, pathSize, retData, retSize uint32) uint32

//go:wasmimport env proxy_send_local_response
func proxySendLocalResponse(status, detailsPtr, detailsSize, bodyPtr, bodySize, headersPtr, headersSize, grpcStatus uint32) uint32

//go:wasmimport env proxy_define_metric
func proxyDefineMetric(metricType, namePtr, nameSize, retID uint32) uint32

//go:wasmimport env proxy_increment_metric
func proxyIncrementMetric(metricID uint32, offset int64) uint32

var retID uint32

// DefineMetric defines (or finds) a metric of the host by name and returns
// its id.
func DefineMetric(t MetricType, name string) (uint32, Status) {
	defer resetScratch()
	off := put(name)
	st := Status(proxyDefineMetric(uint32(t), ptrAt(off), uint32(len(name)), addr(&retID)))
	return retID, st
}

// IncrementMetric adds offset to a counter or gauge.
func IncrementMetric(id uint32, offset int64) Status {
	return Status(proxyIncrementMetric(id, offset))
}

// Log writes msg to the host's log at level.
func Log(level LogLevel, msg string) Status {
	defer resetScratch()
	off := put(msg)
	return Status(proxyLog(uint32(level), ptrAt(off), uint32(len(msg))))
}

// result takes the buffer the host returned through retPtr/retSize.
func result(st uint32) ([]byte, Status) {
	if Status(st) != StatusOK {
		retPtr, retSize = 0, 0
		return nil, Status(st)
	}
	b, ok := take(retPtr, retSize)
	retPtr, retSize = 0, 0
	if !ok {
		return nil, StatusInvalidMemoryAccess
	}
	return b, StatusOK
}

// GetBufferBytes reads up to maxSize bytes from start of a host buffer.
func GetBufferBytes(t BufferType, start, maxSize int) ([]byte, Status) {
	return result(proxyGetBufferBytes(uint32(t), uint32(start), uint32(maxSize), addr(&retPtr), addr(&retSize)))
}

// GetHeaderMapPairs returns every entry of a header map.
func GetHeaderMapPairs(t MapType) ([]Pair, Status) {
	b, st := result(proxyGetHeaderMapPairs(uint32(t), addr(&retPtr), addr(&retSize)))
	if st != StatusOK {
		return nil, st
	}
	pairs, err := ParsePairs(b)
	if err != nil {
		return nil, StatusSerializationFailure
	}
	return pairs, StatusOK
}

// GetHeaderMapValue returns the (first) value of key in a header map.
func GetHeaderMapValue(t MapType, key string) (string, Status) {
	defer resetScratch()
	k := put(key)
	b, st := result(proxyGetHeaderMapValue(uint32(t), ptrAt(k), uint32(len(key)), addr(&retPtr), addr(&retSize)))
	return string(b), st
}

// AddHeaderMapValue adds an entry to a header map.
func AddHeaderMapValue(t MapType, key, value string) Status {
	defer resetScratch()
	k, v := put(key), put(value)
	return Status(proxyAddHeaderMapValue(uint32(t), ptrAt(k), uint32(len(key)), ptrAt(v), uint32(len(value))))
}

// ReplaceHeaderMapValue sets key to value, replacing existing entries.
func ReplaceHeaderMapValue(t MapType, key, value string) Status {
	defer resetScratch()
	k, v := put(key), put(value)
	return Status(proxyReplaceHeaderMapValue(uint32(t), ptrAt(k), uint32(len(key)), ptrAt(v), uint32(len(value))))
}

// RemoveHeaderMapValue removes every entry of key.
func RemoveHeaderMapValue(t MapType, key string) Status {
	defer resetScratch()
	k := put(key)
	return Status(proxyRemoveHeaderMapValue(uint32(t), ptrAt(k), uint32(len(key))))
}

// GetProperty returns the host's serialized value of the property at path
// (segments joined with NUL on the wire).
func GetProperty(path ...string) ([]byte, Status) {
	defer resetScratch()
	start := len(scratch)
	for i, p := range path {
		if i > 0 {
			scratch = append(scratch, 0)
		}
		put(p)
	}
	size := len(scratch) - start
	return result(proxyGetProperty(ptrAt(start), uint32(size), addr(&retPtr), addr(&retSize)))
}

// SendLocalResponse answers the stream with an HTTP response instead of
// forwarding it upstream.
func SendLocalResponse(status int, details string, body []byte, headers []Pair, grpcStatus uint32) Status {
	defer resetScratch()
	d := put(details)
	b := putBytes(body)
	h := len(scratch)
	scratch = AppendPairs(scratch, headers)
	hs := len(scratch) - h
	return Status(proxySendLocalResponse(uint32(status), ptrAt(d), uint32(len(details)), ptrAt(b), uint32(len(body)), ptrAt(h), uint32(hs), grpcStatus))
}
