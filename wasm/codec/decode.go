package codec

import (
	"encoding/base64"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/celwasm/celwasm/wasm/authz"
	"github.com/celwasm/celwasm/wasm/engine"
	"github.com/celwasm/celwasm/wire"

	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/tidwall/gjson"
)

// DecodeValue reads a value in canonical typed JSON (docs/value-encoding.md)
// back into a CEL value: the inverse of AppendValue, so that hosts can pass
// values plain JSON cannot express (uint64 beyond 2^53, bytes, timestamps
// under dyn, maps with int keys, optionals, messages). Errors are *wire.Error
// with code invalid_activation.
func DecodeValue(e *engine.Env, r gjson.Result) (ref.Val, error) {
	v, err := decode(e, r, 0)
	if err != nil {
		return nil, &wire.Error{Code: wire.CodeInvalidActivation, Message: "typed value: " + err.Error()}
	}
	return v, nil
}

func decode(e *engine.Env, r gjson.Result, depth int) (ref.Val, error) {
	if depth > MaxDepth {
		return nil, fmt.Errorf("nesting deeper than %d", MaxDepth)
	}
	adapter := e.CEL().CELTypeAdapter()
	switch r.Type {
	case gjson.Null:
		return types.NullValue, nil
	case gjson.True:
		return types.True, nil
	case gjson.False:
		return types.False, nil
	case gjson.String:
		return types.String(r.Str), nil
	case gjson.Number:
		return nil, fmt.Errorf("bare JSON number %s: numbers are tagged ({\"int\":\"1\"}, {\"double\":\"1.5\"})", truncate(r.Raw))
	}
	if r.IsArray() {
		var vals []ref.Val
		var err error
		r.ForEach(func(_, v gjson.Result) bool {
			var d ref.Val
			if d, err = decode(e, v, depth+1); err != nil {
				return false
			}
			vals = append(vals, d)
			return true
		})
		if err != nil {
			return nil, err
		}
		if vals == nil {
			vals = []ref.Val{}
		}
		return types.NewRefValList(adapter, vals), nil
	}
	var tag string
	var body gjson.Result
	n := 0
	r.ForEach(func(k, v gjson.Result) bool {
		tag, body = k.Str, v
		n++
		return true
	})
	if n != 1 {
		return nil, fmt.Errorf("a tagged value has exactly one key, got %d", n)
	}
	s := body.Str
	isString := body.Type == gjson.String
	switch tag {
	case "int":
		if isString {
			if i, err := strconv.ParseInt(s, 10, 64); err == nil {
				return types.Int(i), nil
			}
		}
	case "uint":
		if isString {
			if u, err := strconv.ParseUint(s, 10, 64); err == nil {
				return types.Uint(u), nil
			}
		}
	case "double":
		if isString {
			switch s {
			case "NaN":
				return types.Double(math.NaN()), nil
			case "Infinity":
				return types.Double(math.Inf(1)), nil
			case "-Infinity":
				return types.Double(math.Inf(-1)), nil
			}
			if f, err := strconv.ParseFloat(s, 64); err == nil {
				return types.Double(f), nil
			}
		}
	case "bytes":
		if isString {
			if b, err := base64.StdEncoding.DecodeString(s); err == nil {
				return types.Bytes(b), nil
			}
		}
	case "timestamp":
		if isString {
			if v := types.String(s).ConvertToType(types.TimestampType); !types.IsError(v) {
				return v, nil
			}
		}
	case "duration":
		if isString {
			if v := types.String(s).ConvertToType(types.DurationType); !types.IsError(v) {
				return v, nil
			}
		}
	case "type":
		if isString {
			if t, ok := e.CEL().CELTypeProvider().FindIdent(s); ok {
				return t, nil
			}
			return nil, fmt.Errorf("unknown type %q", s)
		}
	case "optional":
		if body.IsArray() {
			elems := body.Array()
			switch len(elems) {
			case 0:
				return types.OptionalNone, nil
			case 1:
				v, err := decode(e, elems[0], depth+1)
				if err != nil {
					return nil, err
				}
				return types.OptionalOf(v), nil
			}
		}
	case "map":
		if body.IsArray() {
			entries := map[ref.Val]ref.Val{}
			var err error
			body.ForEach(func(_, pair gjson.Result) bool {
				kv := pair.Array()
				if !pair.IsArray() || len(kv) != 2 {
					err = fmt.Errorf("map entries are [key, value] pairs")
					return false
				}
				var k, v ref.Val
				if k, err = decode(e, kv[0], depth+1); err != nil {
					return false
				}
				switch k.(type) {
				case types.Bool, types.Int, types.Uint, types.String:
				default:
					err = fmt.Errorf("map keys are bool, int, uint or string, got %s", k.Type().TypeName())
					return false
				}
				if v, err = decode(e, kv[1], depth+1); err != nil {
					return false
				}
				entries[k] = v
				return true
			})
			if err != nil {
				return nil, err
			}
			return types.NewRefValMap(adapter, entries), nil
		}
	case "object":
		t, val := body.Get("type").Str, body.Get("value")
		if authz.IsTableType(t) {
			if !val.IsObject() {
				return nil, fmt.Errorf("a %s value is a table object (docs/value-encoding.md)", t)
			}
			return authz.Decode(t, val.Raw)
		}
		fn, ok := objectConstructors[t]
		if !ok || val.Type != gjson.String {
			return nil, fmt.Errorf("objects of type %q cannot be decoded (known: %s)", t, strings.Join(objectTypeNames(), ", "))
		}
		return e.Construct(fn, val.Str)
	case "message":
		return e.DecodeMessage(body)
	default:
		return nil, fmt.Errorf("unknown tag %q", tag)
	}
	return nil, fmt.Errorf("malformed %q value %s", tag, truncate(body.Raw))
}

// objectConstructors maps the Kubernetes library's object types to the CEL
// function that builds them from their string form.
var objectConstructors = map[string]string{
	"kubernetes.Quantity": "quantity",
	"kubernetes.URL":      "url",
	"kubernetes.Semver":   "semver",
	"net.IP":              "ip",
	"net.CIDR":            "cidr",
}

func objectTypeNames() []string {
	return []string{"kubernetes.Quantity", "kubernetes.Semver", "kubernetes.URL", "net.CIDR", "net.IP"}
}
