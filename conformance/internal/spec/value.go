package spec

import (
	"encoding/base64"
	"fmt"
	"sort"
	"strconv"

	celpb "cel.dev/expr"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/anypb"
	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/structpb"
	"google.golang.org/protobuf/types/known/timestamppb"
	"google.golang.org/protobuf/types/known/wrapperspb"

	"github.com/celwasm/celwasm/wasm/codec"
)

// Canonical writes a cel.expr.Value in celwasm's canonical typed JSON
// (docs/value-encoding.md). It works from the protobuf value, not from
// cel-go or the engine: only the engine's lexical formatters for doubles,
// strings, timestamps, durations and message JSON are shared (they are
// checked against JavaScript's output in wasm/engine).
func Canonical(v *celpb.Value) ([]byte, error) {
	return appendValue(nil, v)
}

func appendValue(dst []byte, v *celpb.Value) ([]byte, error) {
	switch k := v.GetKind().(type) {
	case *celpb.Value_NullValue:
		return append(dst, "null"...), nil
	case *celpb.Value_BoolValue:
		return strconv.AppendBool(dst, k.BoolValue), nil
	case *celpb.Value_Int64Value:
		return appendInt(dst, k.Int64Value), nil
	case *celpb.Value_Uint64Value:
		return appendUint(dst, k.Uint64Value), nil
	case *celpb.Value_DoubleValue:
		return appendDouble(dst, k.DoubleValue), nil
	case *celpb.Value_StringValue:
		return codec.AppendString(dst, k.StringValue), nil
	case *celpb.Value_BytesValue:
		return appendBytes(dst, k.BytesValue), nil
	case *celpb.Value_EnumValue:
		// Legacy (int) enums, as cel-go evaluates them.
		return appendInt(dst, int64(k.EnumValue.GetValue())), nil
	case *celpb.Value_TypeValue:
		dst = append(dst, `{"type":`...)
		dst = codec.AppendString(dst, k.TypeValue)
		return append(dst, '}'), nil
	case *celpb.Value_ListValue:
		dst = append(dst, '[')
		for i, e := range k.ListValue.GetValues() {
			if i > 0 {
				dst = append(dst, ',')
			}
			var err error
			if dst, err = appendValue(dst, e); err != nil {
				return dst, err
			}
		}
		return append(dst, ']'), nil
	case *celpb.Value_MapValue:
		var entries []entry
		for _, e := range k.MapValue.GetEntries() {
			key, err := mapKey(e.GetKey())
			if err != nil {
				return dst, err
			}
			val, err := appendValue(nil, e.GetValue())
			if err != nil {
				return dst, err
			}
			entries = append(entries, entry{key: key, val: val})
		}
		return appendMap(dst, entries), nil
	case *celpb.Value_ObjectValue:
		return appendAny(dst, k.ObjectValue)
	}
	return dst, fmt.Errorf("value kind %T is not supported", v.GetKind())
}

func appendInt(dst []byte, i int64) []byte {
	dst = append(dst, `{"int":"`...)
	dst = strconv.AppendInt(dst, i, 10)
	return append(dst, `"}`...)
}

func appendUint(dst []byte, u uint64) []byte {
	dst = append(dst, `{"uint":"`...)
	dst = strconv.AppendUint(dst, u, 10)
	return append(dst, `"}`...)
}

func appendDouble(dst []byte, f float64) []byte {
	dst = append(dst, `{"double":"`...)
	dst = codec.AppendDouble(dst, f)
	return append(dst, `"}`...)
}

func appendBytes(dst, b []byte) []byte {
	dst = append(dst, `{"bytes":"`...)
	dst = base64.StdEncoding.AppendEncode(dst, b)
	return append(dst, `"}`...)
}

// key is a map key with its canonical order: kind (bool < int < uint <
// string), then value.
type key struct {
	rank int
	b    bool
	i    int64
	u    uint64
	s    string
	json []byte
}

type entry struct {
	key key
	val []byte
}

func mapKey(v *celpb.Value) (key, error) {
	j, err := appendValue(nil, v)
	if err != nil {
		return key{}, err
	}
	switch k := v.GetKind().(type) {
	case *celpb.Value_BoolValue:
		return key{rank: 0, b: k.BoolValue, json: j}, nil
	case *celpb.Value_Int64Value:
		return key{rank: 1, i: k.Int64Value, json: j}, nil
	case *celpb.Value_Uint64Value:
		return key{rank: 2, u: k.Uint64Value, json: j}, nil
	case *celpb.Value_StringValue:
		return key{rank: 3, s: k.StringValue, json: j}, nil
	}
	return key{}, fmt.Errorf("map key kind %T is not a CEL map key", v.GetKind())
}

func (a key) less(b key) bool {
	if a.rank != b.rank {
		return a.rank < b.rank
	}
	switch a.rank {
	case 0:
		return !a.b && b.b
	case 1:
		return a.i < b.i
	case 2:
		return a.u < b.u
	}
	return a.s < b.s
}

func appendMap(dst []byte, entries []entry) []byte {
	sort.SliceStable(entries, func(i, j int) bool { return entries[i].key.less(entries[j].key) })
	dst = append(dst, `{"map":[`...)
	for i, e := range entries {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, '[')
		dst = append(dst, e.key.json...)
		dst = append(dst, ',')
		dst = append(dst, e.val...)
		dst = append(dst, ']')
	}
	return append(dst, "]}"...)
}

// appendAny writes a packed message as CEL sees it: well-known types as
// their CEL values, other messages as {"message":{"type","json"}}.
func appendAny(dst []byte, a *anypb.Any) ([]byte, error) {
	m, err := a.UnmarshalNew()
	if err != nil {
		return dst, fmt.Errorf("object_value %s: %v", a.GetTypeUrl(), err)
	}
	return appendMessage(dst, m)
}

func appendMessage(dst []byte, m proto.Message) ([]byte, error) {
	switch x := m.(type) {
	case *anypb.Any:
		return appendAny(dst, x)
	case *timestamppb.Timestamp:
		dst = append(dst, `{"timestamp":"`...)
		dst = codec.AppendTimestamp(dst, x.AsTime())
		return append(dst, `"}`...), nil
	case *durationpb.Duration:
		dst = append(dst, `{"duration":"`...)
		dst = codec.AppendDuration(dst, x.AsDuration())
		return append(dst, `"}`...), nil
	case *wrapperspb.BoolValue:
		return strconv.AppendBool(dst, x.Value), nil
	case *wrapperspb.BytesValue:
		return appendBytes(dst, x.Value), nil
	case *wrapperspb.DoubleValue:
		return appendDouble(dst, x.Value), nil
	case *wrapperspb.FloatValue:
		return appendDouble(dst, float64(x.Value)), nil
	case *wrapperspb.Int32Value:
		return appendInt(dst, int64(x.Value)), nil
	case *wrapperspb.Int64Value:
		return appendInt(dst, x.Value), nil
	case *wrapperspb.UInt32Value:
		return appendUint(dst, uint64(x.Value)), nil
	case *wrapperspb.UInt64Value:
		return appendUint(dst, x.Value), nil
	case *wrapperspb.StringValue:
		return codec.AppendString(dst, x.Value), nil
	case *structpb.Struct:
		return appendJSON(dst, structpb.NewStructValue(x))
	case *structpb.Value:
		return appendJSON(dst, x)
	case *structpb.ListValue:
		return appendJSON(dst, structpb.NewListValue(x))
	}
	b, err := protojson.Marshal(m)
	if err != nil {
		return dst, err
	}
	dst = append(dst, `{"message":{"type":`...)
	dst = codec.AppendString(dst, string(m.ProtoReflect().Descriptor().FullName()))
	dst = append(dst, `,"json":`...)
	if dst, err = codec.AppendCanonicalJSON(dst, b); err != nil {
		return dst, err
	}
	return append(dst, "}}"...), nil
}

// appendJSON writes a google.protobuf.Value as CEL sees it: null, bool,
// double, string, list, map(string, dyn).
func appendJSON(dst []byte, v *structpb.Value) ([]byte, error) {
	switch k := v.GetKind().(type) {
	case *structpb.Value_NullValue:
		return append(dst, "null"...), nil
	case *structpb.Value_BoolValue:
		return strconv.AppendBool(dst, k.BoolValue), nil
	case *structpb.Value_NumberValue:
		return appendDouble(dst, k.NumberValue), nil
	case *structpb.Value_StringValue:
		return codec.AppendString(dst, k.StringValue), nil
	case *structpb.Value_ListValue:
		dst = append(dst, '[')
		for i, e := range k.ListValue.GetValues() {
			if i > 0 {
				dst = append(dst, ',')
			}
			var err error
			if dst, err = appendJSON(dst, e); err != nil {
				return dst, err
			}
		}
		return append(dst, ']'), nil
	case *structpb.Value_StructValue:
		var entries []entry
		for name, f := range k.StructValue.GetFields() {
			val, err := appendJSON(nil, f)
			if err != nil {
				return dst, err
			}
			entries = append(entries, entry{key: key{rank: 3, s: name, json: codec.AppendString(nil, name)}, val: val})
		}
		return appendMap(dst, entries), nil
	}
	return dst, fmt.Errorf("google.protobuf.Value without a kind")
}
