package filter

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"net"
	"reflect"
	"strings"
	"time"

	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"
	"github.com/google/cel-go/interpreter"

	"github.com/celwasm/celwasm/wasm/proxywasm/abi"
)

// Host is what the filter needs from the proxy for one request: Envoy's
// attributes (proxy_get_property) and the request header map
// (proxy_get_header_map_pairs).
type Host interface {
	// Property returns the host's serialization of the property at path
	// (Envoy's: strings as bytes, int/uint/timestamp/duration as 8 bytes
	// little endian, bool as one byte, string maps as serialized pairs);
	// found is false when the host has no value there.
	Property(path ...string) (value []byte, found bool, err error)
	// RequestHeaders returns the request's headers as the host holds them.
	RequestHeaders() ([]abi.Pair, error)
	// RequestBody returns the buffered request body; found is false before
	// phase request_body.
	RequestBody() (body []byte, found bool, err error)
	// ResponseHeaders returns the response's headers (phase
	// response_headers).
	ResponseHeaders() ([]abi.Pair, error)
}

// kind is the CEL type an attribute has, as Envoy types it.
type kind uint8

const (
	kString kind = iota
	kInt
	kUint
	kBool
	kTimestamp
	kDuration
	kHeaders   // request.headers: from the header map
	kAddressIP // celwasm addition: the IP part of an address attribute
	kBody      // request.body: the JSON-decoded body (phase request_body)
	kRespHeaders
)

type attribute struct {
	name string
	kind kind
	// from names the attribute an address IP is derived from.
	from int
}

// variable is one top-level CEL variable and the attributes under it.
type variable struct {
	name  string
	attrs []attribute
	index map[string]int
}

// The vocabulary: Envoy's request and connection attributes
// (envoyproxy.io, arch_overview/advanced/attributes) that exist while request
// headers are processed, bound as CEL variables request, source,
// destination and connection, plus source.ip and destination.ip (celwasm
// additions: Envoy's address attributes carry the port, which cidr() and
// ip() do not accept).
var vocabulary = []*variable{
	newVariable("request",
		attribute{name: "path"}, attribute{name: "url_path"}, attribute{name: "host"},
		attribute{name: "scheme"}, attribute{name: "method"},
		attribute{name: "headers", kind: kHeaders},
		attribute{name: "referer"}, attribute{name: "useragent"},
		attribute{name: "time", kind: kTimestamp}, attribute{name: "id"},
		attribute{name: "protocol"}, attribute{name: "query"},
		attribute{name: "duration", kind: kDuration},
		attribute{name: "size", kind: kInt}, attribute{name: "total_size", kind: kInt},
		attribute{name: "body", kind: kBody},
	),
	newVariable("source",
		attribute{name: "address"}, attribute{name: "port", kind: kInt},
		attribute{name: "ip", kind: kAddressIP, from: 0},
	),
	newVariable("destination",
		attribute{name: "address"}, attribute{name: "port", kind: kInt},
		attribute{name: "ip", kind: kAddressIP, from: 0},
	),
	newVariable("connection",
		attribute{name: "id", kind: kUint}, attribute{name: "mtls", kind: kBool},
		attribute{name: "requested_server_name"}, attribute{name: "tls_version"},
		attribute{name: "subject_local_certificate"}, attribute{name: "subject_peer_certificate"},
		attribute{name: "dns_san_local_certificate"}, attribute{name: "dns_san_peer_certificate"},
		attribute{name: "uri_san_local_certificate"}, attribute{name: "uri_san_peer_certificate"},
		attribute{name: "sha256_peer_certificate_digest"}, attribute{name: "termination_details"},
	),
	// Phase response_headers only (neededPhase).
	newVariable("response",
		attribute{name: "code", kind: kInt}, attribute{name: "code_details"},
		attribute{name: "flags", kind: kInt}, attribute{name: "grpc_status", kind: kInt},
		attribute{name: "headers", kind: kRespHeaders},
	),
}

const maxAttrs = 16

func newVariable(name string, attrs ...attribute) *variable {
	if len(attrs) > maxAttrs {
		panic("filter: too many attributes for " + name)
	}
	v := &variable{name: name, attrs: attrs, index: map[string]int{}}
	for i, a := range attrs {
		v.index[a.name] = i
	}
	return v
}

func lookupVariable(name string) (int, *variable) {
	for i, v := range vocabulary {
		if v.name == name {
			return i, v
		}
	}
	return -1, nil
}

// activation is the per-request CEL activation: one lazy map per variable.
// A filter keeps one and resets it per request (an instance is single
// threaded), so a request allocates only the values it reads.
type activation struct {
	host    Host
	adapter types.Adapter
	maps    [5]attrMap
}

func newActivation(adapter types.Adapter) *activation {
	a := &activation{adapter: adapter}
	for i := range a.maps {
		a.maps[i] = attrMap{act: a, v: vocabulary[i]}
	}
	return a
}

func (a *activation) reset(h Host) {
	a.host = h
	for i := range a.maps {
		m := &a.maps[i]
		if m.fetched != 0 {
			m.vals = [maxAttrs]ref.Val{}
			m.fetched, m.present = 0, 0
		}
	}
}

// ResolveName implements interpreter.Activation.
func (a *activation) ResolveName(name string) (any, bool) {
	switch name {
	case "request":
		return &a.maps[0], true
	case "source":
		return &a.maps[1], true
	case "destination":
		return &a.maps[2], true
	case "connection":
		return &a.maps[3], true
	case "response":
		return &a.maps[4], true
	}
	return nil, false
}

// Parent implements interpreter.Activation.
func (a *activation) Parent() interpreter.Activation { return nil }

// attrMap is a CEL map over one variable's attributes, fetched from the host
// on first access and cached for the request. Absent attributes are absent
// keys: reading one is CEL's "no such key" error, has() is false.
type attrMap struct {
	act     *activation
	v       *variable
	vals    [maxAttrs]ref.Val
	fetched uint32 // bit i: attribute i was looked up
	present uint32 // bit i: and the host had a value
}

var (
	_ traits.Mapper = (*attrMap)(nil)
)

func (m *attrMap) get(i int) (ref.Val, bool) {
	bit := uint32(1) << i
	if m.fetched&bit != 0 {
		return m.vals[i], m.present&bit != 0
	}
	m.fetched |= bit
	v, err := m.fetch(i)
	if err != nil {
		v = types.NewErr("%s.%s: %v", m.v.name, m.v.attrs[i].name, err)
		m.vals[i] = v
		m.present |= bit
		return v, true
	}
	if v == nil {
		return nil, false
	}
	m.vals[i] = v
	m.present |= bit
	return v, true
}

func (m *attrMap) fetch(i int) (ref.Val, error) {
	a := m.v.attrs[i]
	h := m.act.host
	if h == nil {
		return nil, nil
	}
	switch a.kind {
	case kHeaders:
		pairs, err := h.RequestHeaders()
		if err != nil {
			return nil, err
		}
		return types.NewStringStringMap(m.act.adapter, joinHeaders(pairs)), nil
	case kRespHeaders:
		pairs, err := h.ResponseHeaders()
		if err != nil {
			return nil, err
		}
		return types.NewStringStringMap(m.act.adapter, joinHeaders(pairs)), nil
	case kBody:
		return m.body()
	case kAddressIP:
		addr, ok := m.get(a.from)
		if !ok {
			return nil, nil
		}
		s, isStr := addr.(types.String)
		if !isStr {
			return nil, fmt.Errorf("%s.%s is not a string", m.v.name, m.v.attrs[a.from].name)
		}
		return types.String(addressIP(string(s))), nil
	}
	b, found, err := h.Property(m.v.name, a.name)
	if err != nil {
		return nil, err
	}
	if !found {
		return nil, nil
	}
	return decode(a.kind, b)
}

// body returns request.body: the buffered body decoded as JSON when the
// request's content type is JSON (application/json or */*+json), absent
// otherwise. Invalid JSON is an error of the rules that read it.
func (m *attrMap) body() (ref.Val, error) {
	b, found, err := m.act.host.RequestBody()
	if err != nil || !found {
		return nil, err
	}
	hi, ok := m.v.index["headers"]
	if !ok {
		return nil, nil
	}
	hv, ok := m.get(hi)
	if !ok {
		return nil, nil
	}
	hm, ok := hv.(traits.Mapper)
	if !ok {
		return nil, nil
	}
	ct, ok := hm.Find(types.String("content-type"))
	if !ok {
		return nil, nil
	}
	s, _ := ct.(types.String)
	if !IsJSONContentType(string(s)) {
		return nil, nil
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		return nil, fmt.Errorf("the body is not valid JSON: %v", err)
	}
	return m.act.adapter.NativeToValue(v), nil
}

// IsJSONContentType reports whether a Content-Type is JSON.
func IsJSONContentType(ct string) bool {
	mt, _, _ := strings.Cut(ct, ";")
	mt = strings.ToLower(strings.TrimSpace(mt))
	return mt == "application/json" || strings.HasSuffix(mt, "+json")
}

// decode converts a property's bytes as Envoy serializes them.
func decode(k kind, b []byte) (ref.Val, error) {
	switch k {
	case kString:
		return types.String(b), nil
	case kBool:
		if len(b) != 1 {
			return nil, fmt.Errorf("bool property of %d bytes", len(b))
		}
		return types.Bool(b[0] != 0), nil
	}
	if len(b) != 8 {
		return nil, fmt.Errorf("numeric property of %d bytes, want 8", len(b))
	}
	u := binary.LittleEndian.Uint64(b)
	switch k {
	case kInt:
		return types.Int(int64(u)), nil
	case kUint:
		return types.Uint(u), nil
	case kTimestamp:
		return types.Timestamp{Time: time.Unix(0, int64(u)).UTC()}, nil
	case kDuration:
		return types.Duration{Duration: time.Duration(int64(u))}, nil
	}
	return nil, fmt.Errorf("unknown attribute kind %d", k)
}

// joinHeaders builds Envoy's request.headers map: lower-cased names,
// repeated values joined with ",".
func joinHeaders(pairs []abi.Pair) map[string]string {
	m := make(map[string]string, len(pairs))
	for _, p := range pairs {
		k := p.Key
		if hasUpper(k) {
			k = strings.ToLower(k)
		}
		if old, ok := m[k]; ok {
			m[k] = old + "," + p.Value
		} else {
			m[k] = p.Value
		}
	}
	return m
}

func hasUpper(s string) bool {
	for i := 0; i < len(s); i++ {
		if 'A' <= s[i] && s[i] <= 'Z' {
			return true
		}
	}
	return false
}

// addressIP returns the IP of "ip:port" or "[ip6]:port"; an address without
// a port (a pipe, or an IP alone) is returned as is.
func addressIP(addr string) string {
	if host, _, err := net.SplitHostPort(addr); err == nil {
		return host
	}
	return addr
}

// keys lists the attributes the host has, in vocabulary order.
func (m *attrMap) keys() []string {
	var ks []string
	for i, a := range m.v.attrs {
		if _, ok := m.get(i); ok {
			ks = append(ks, a.name)
		}
	}
	return ks
}

// materialize fetches every attribute into an ordinary CEL map (for
// equality, conversion and iteration, which need all of them).
func (m *attrMap) materialize() traits.Mapper {
	out := map[ref.Val]ref.Val{}
	for i, a := range m.v.attrs {
		if v, ok := m.get(i); ok {
			out[types.String(a.name)] = v
		}
	}
	return types.NewRefValMap(m.act.adapter, out)
}

// Find implements traits.Mapper.
func (m *attrMap) Find(key ref.Val) (ref.Val, bool) {
	k, ok := key.(types.String)
	if !ok {
		if types.IsUnknownOrError(key) {
			return key, false
		}
		return nil, false
	}
	i, ok := m.v.index[string(k)]
	if !ok {
		return nil, false
	}
	v, found := m.get(i)
	if !found {
		return nil, false
	}
	return v, true
}

// Get implements traits.Indexer.
func (m *attrMap) Get(key ref.Val) ref.Val {
	v, ok := m.Find(key)
	if !ok {
		if v != nil {
			return v
		}
		return types.NewErr("no such key: %v", key)
	}
	return v
}

// Contains implements traits.Container.
func (m *attrMap) Contains(key ref.Val) ref.Val {
	v, ok := m.Find(key)
	if !ok && v != nil {
		return v
	}
	return types.Bool(ok)
}

// Size implements traits.Sizer.
func (m *attrMap) Size() ref.Val { return types.Int(len(m.keys())) }

// Iterator implements traits.Iterable: the present keys in vocabulary order.
func (m *attrMap) Iterator() traits.Iterator {
	return types.NewStringList(m.act.adapter, m.keys()).Iterator()
}

// ConvertToNative implements ref.Val.
func (m *attrMap) ConvertToNative(t reflect.Type) (any, error) {
	return m.materialize().ConvertToNative(t)
}

// ConvertToType implements ref.Val.
func (m *attrMap) ConvertToType(t ref.Type) ref.Val {
	if t.TypeName() == types.MapType.TypeName() {
		return m
	}
	return m.materialize().ConvertToType(t)
}

// Equal implements ref.Val.
func (m *attrMap) Equal(other ref.Val) ref.Val {
	if o, ok := other.(*attrMap); ok && o == m {
		return types.True
	}
	return m.materialize().Equal(other)
}

// Type implements ref.Val.
func (m *attrMap) Type() ref.Type { return types.MapType }

// Value implements ref.Val.
func (m *attrMap) Value() any { return m.materialize().Value() }
