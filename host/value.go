package celwasm

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// Optional is a CEL optional value: Value is meaningful when Present.
type Optional struct {
	Present bool
	Value   any
}

// TypeValue is a CEL type used as a value, e.g. the result of type(1): "int".
type TypeValue string

// Object is a value of a library object type without a JSON mapping, such as
// kubernetes.Quantity or net.IP: its CEL type name and its string form.
type Object struct {
	Type  string
	Value string
}

// Message is a protobuf message value: its full name and its canonical
// protobuf JSON.
type Message struct {
	Type string
	JSON json.RawMessage
}

// Decode turns canonical typed JSON (docs/value-encoding.md) into Go values:
//
//	null → nil, bool → bool, string → string, list → []any,
//	int → int64, uint → uint64, double → float64, bytes → []byte,
//	timestamp → time.Time (UTC), duration → time.Duration,
//	map → map[string]any when every key is a string, else map[any]any,
//	optional → Optional, type → TypeValue, object → Object, message → Message.
//
// Durations beyond ±292 years do not fit time.Duration and are an error.
func Decode(b []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var raw any
	if err := dec.Decode(&raw); err != nil {
		return nil, err
	}
	return decodeValue(raw)
}

func decodeValue(v any) (any, error) {
	switch x := v.(type) {
	case nil, bool, string:
		return x, nil
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			d, err := decodeValue(e)
			if err != nil {
				return nil, err
			}
			out[i] = d
		}
		return out, nil
	case map[string]any:
		if len(x) != 1 {
			return nil, fmt.Errorf("celwasm: typed value must have one tag, got %d keys", len(x))
		}
		for tag, body := range x {
			return decodeTagged(tag, body)
		}
	}
	return nil, fmt.Errorf("celwasm: unexpected JSON %T in a canonical value", v)
}

func decodeTagged(tag string, body any) (any, error) {
	s, isString := body.(string)
	switch tag {
	case "int":
		if isString {
			return strconv.ParseInt(s, 10, 64)
		}
	case "uint":
		if isString {
			return strconv.ParseUint(s, 10, 64)
		}
	case "double":
		if isString {
			switch s {
			case "NaN":
				return math.NaN(), nil
			case "Infinity":
				return math.Inf(1), nil
			case "-Infinity":
				return math.Inf(-1), nil
			}
			return strconv.ParseFloat(s, 64)
		}
	case "bytes":
		if isString {
			return base64.StdEncoding.DecodeString(s)
		}
	case "timestamp":
		if isString {
			return time.Parse(time.RFC3339Nano, s)
		}
	case "duration":
		if isString {
			return parseDuration(s)
		}
	case "type":
		if isString {
			return TypeValue(s), nil
		}
	case "optional":
		if l, ok := body.([]any); ok && len(l) <= 1 {
			if len(l) == 0 {
				return Optional{}, nil
			}
			v, err := decodeValue(l[0])
			return Optional{Present: true, Value: v}, err
		}
	case "map":
		if l, ok := body.([]any); ok {
			return decodeMap(l)
		}
	case "object":
		if m, ok := body.(map[string]any); ok {
			o := Object{}
			o.Type, _ = m["type"].(string)
			o.Value, _ = m["value"].(string)
			return o, nil
		}
	case "message":
		if m, ok := body.(map[string]any); ok {
			t, _ := m["type"].(string)
			j, err := json.Marshal(m["json"])
			return Message{Type: t, JSON: j}, err
		}
	}
	return nil, fmt.Errorf("celwasm: malformed %q value", tag)
}

func decodeMap(entries []any) (any, error) {
	allStrings := true
	keys := make([]any, len(entries))
	vals := make([]any, len(entries))
	for i, e := range entries {
		pair, ok := e.([]any)
		if !ok || len(pair) != 2 {
			return nil, fmt.Errorf("celwasm: map entry must be [key, value]")
		}
		k, err := decodeValue(pair[0])
		if err != nil {
			return nil, err
		}
		v, err := decodeValue(pair[1])
		if err != nil {
			return nil, err
		}
		if _, ok := k.(string); !ok {
			allStrings = false
		}
		keys[i], vals[i] = k, v
	}
	if allStrings {
		m := make(map[string]any, len(keys))
		for i, k := range keys {
			m[k.(string)] = vals[i]
		}
		return m, nil
	}
	m := make(map[any]any, len(keys))
	for i, k := range keys {
		m[k] = vals[i]
	}
	return m, nil
}

// parseDuration reads the canonical "[-]S[.fff|.ffffff|.fffffffff]s" form.
func parseDuration(s string) (time.Duration, error) {
	body, ok := strings.CutSuffix(s, "s")
	if !ok {
		return 0, fmt.Errorf("celwasm: malformed duration %q", s)
	}
	neg := strings.HasPrefix(body, "-")
	body = strings.TrimPrefix(body, "-")
	secStr, frac, _ := strings.Cut(body, ".")
	secs, err := strconv.ParseInt(secStr, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("celwasm: malformed duration %q", s)
	}
	var nanos int64
	if frac != "" {
		if len(frac) > 9 {
			return 0, fmt.Errorf("celwasm: malformed duration %q", s)
		}
		nanos, err = strconv.ParseInt(frac+strings.Repeat("0", 9-len(frac)), 10, 64)
		if err != nil {
			return 0, fmt.Errorf("celwasm: malformed duration %q", s)
		}
	}
	if secs > math.MaxInt64/int64(time.Second) {
		return 0, fmt.Errorf("celwasm: duration %q out of time.Duration range", s)
	}
	d := time.Duration(secs)*time.Second + time.Duration(nanos)
	if neg {
		d = -d
	}
	return d, nil
}
