// Package abi is the guest side of the proxy-wasm ABI v0.2.1
// (github.com/proxy-wasm/spec, abi-versions/v0.2.1), written for standard Go
// (GOOS=wasip1, //go:wasmexport and //go:wasmimport). It is the small glue the
// celwasm filter module needs and nothing more:
//
// Exports (callbacks the host calls):
//
//	proxy_abi_version_0_2_1   marker, never called
//	proxy_on_memory_allocate  the host's allocator for data it returns
//	proxy_on_context_create   root (plugin) and HTTP stream contexts
//	proxy_on_vm_start         reads VM_CONFIGURATION (ignored by the filter)
//	proxy_on_configure        reads PLUGIN_CONFIGURATION
//	proxy_on_request_headers, proxy_on_request_body,
//	proxy_on_request_trailers, proxy_on_response_headers
//	                          the HTTP stream callbacks
//	proxy_on_done, proxy_on_log, proxy_on_delete
//
// Imports (host functions, module "env"):
//
//	proxy_log, proxy_get_buffer_bytes, proxy_get_header_map_pairs,
//	proxy_get_header_map_value, proxy_replace_header_map_value,
//	proxy_remove_header_map_value, proxy_get_property,
//	proxy_send_local_response, proxy_define_metric, proxy_increment_metric
//
// (plus proxy_add_header_map_value, declared for completeness; the Go linker
// only emits imports that are reachable). Everything else of the ABI
// (response bodies, trailers, HTTP and gRPC calls, shared data, queues,
// timers) is not implemented; the host never sees a callback it did
// not ask for, because absent exports are simply not called.
//
// This file holds the ABI's constants and its map serialization, which build
// on every platform (so they are unit tested natively); the exports and
// imports live in abi_wasip1.go.
package abi

import (
	"encoding/binary"
	"errors"
	"strconv"
)

// Status is proxy_status_t, the result of every host function.
type Status uint32

const (
	StatusOK                   Status = 0
	StatusNotFound             Status = 1
	StatusBadArgument          Status = 2
	StatusSerializationFailure Status = 3
	StatusParseFailure         Status = 4
	StatusInvalidMemoryAccess  Status = 6
	StatusEmpty                Status = 7
	StatusCASMismatch          Status = 8
	StatusInternalFailure      Status = 10
	StatusUnimplemented        Status = 12
)

var statusNames = map[Status]string{
	StatusOK: "OK", StatusNotFound: "NOT_FOUND", StatusBadArgument: "BAD_ARGUMENT",
	StatusSerializationFailure: "SERIALIZATION_FAILURE", StatusParseFailure: "PARSE_FAILURE",
	StatusInvalidMemoryAccess: "INVALID_MEMORY_ACCESS", StatusEmpty: "EMPTY",
	StatusCASMismatch: "CAS_MISMATCH", StatusInternalFailure: "INTERNAL_FAILURE",
	StatusUnimplemented: "UNIMPLEMENTED",
}

func (s Status) String() string {
	if n, ok := statusNames[s]; ok {
		return n
	}
	return "status " + strconv.Itoa(int(s))
}

// Error makes a non-OK status usable as an error.
func (s Status) Error() string { return "proxy-wasm host returned " + s.String() }

// LogLevel is proxy_log_level_t.
type LogLevel uint32

const (
	LogTrace LogLevel = iota
	LogDebug
	LogInfo
	LogWarn
	LogError
	LogCritical
)

// Action is proxy_action_t, returned by the stream callbacks.
type Action uint32

const (
	ActionContinue Action = 0
	ActionPause    Action = 1
)

// BufferType is proxy_buffer_type_t.
type BufferType uint32

const (
	BufferHTTPRequestBody     BufferType = 0
	BufferHTTPResponseBody    BufferType = 1
	BufferVMConfiguration     BufferType = 6
	BufferPluginConfiguration BufferType = 7
)

// MetricType is proxy_metric_type_t.
type MetricType uint32

const (
	MetricCounter   MetricType = 0
	MetricGauge     MetricType = 1
	MetricHistogram MetricType = 2
)

// MapType is proxy_map_type_t.
type MapType uint32

const (
	MapHTTPRequestHeaders   MapType = 0
	MapHTTPRequestTrailers  MapType = 1
	MapHTTPResponseHeaders  MapType = 2
	MapHTTPResponseTrailers MapType = 3
)

// NoGRPCStatus is the grpc_status argument of proxy_send_local_response for
// a plain HTTP response (the SDKs pass -1).
const NoGRPCStatus = 0xFFFFFFFF

// Pair is one header (or map) entry.
type Pair struct{ Key, Value string }

// AppendPairs appends the ABI's serialization of pairs to dst: the number
// of pairs (u32, little endian), the key and value sizes of each pair (u32,
// u32), then each key and value followed by a NUL byte. An empty list
// serializes to nothing.
func AppendPairs(dst []byte, pairs []Pair) []byte {
	if len(pairs) == 0 {
		return dst
	}
	dst = binary.LittleEndian.AppendUint32(dst, uint32(len(pairs)))
	for _, p := range pairs {
		dst = binary.LittleEndian.AppendUint32(dst, uint32(len(p.Key)))
		dst = binary.LittleEndian.AppendUint32(dst, uint32(len(p.Value)))
	}
	for _, p := range pairs {
		dst = append(dst, p.Key...)
		dst = append(dst, 0)
		dst = append(dst, p.Value...)
		dst = append(dst, 0)
	}
	return dst
}

var errPairs = errors.New("malformed serialized map")

// ParsePairs decodes the ABI's map serialization (see AppendPairs). An empty
// input and a single 0x00 byte are both the empty map.
func ParsePairs(b []byte) ([]Pair, error) {
	if len(b) == 0 || (len(b) == 1 && b[0] == 0) {
		return nil, nil
	}
	if len(b) < 4 {
		return nil, errPairs
	}
	n := int(binary.LittleEndian.Uint32(b))
	if n > (len(b)-4)/10 { // each pair needs 8 size bytes and 2 NULs at least
		return nil, errPairs
	}
	sizes := b[4:]
	data := sizes[8*n:]
	// One string for all keys and values; the pairs slice it.
	str := string(data)
	off := 0
	pairs := make([]Pair, n)
	for i := 0; i < n; i++ {
		k32 := binary.LittleEndian.Uint32(sizes[8*i:])
		v32 := binary.LittleEndian.Uint32(sizes[8*i+4:])
		if uint64(k32)+uint64(v32)+2 > uint64(len(data)) {
			return nil, errPairs
		}
		k, v := int(k32), int(v32)
		if data[k] != 0 || data[k+1+v] != 0 {
			return nil, errPairs
		}
		pairs[i] = Pair{Key: str[off : off+k], Value: str[off+k+1 : off+k+1+v]}
		data = data[k+v+2:]
		off += k + v + 2
	}
	return pairs, nil
}
