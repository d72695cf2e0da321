// Package events filters CloudEvents the way Knative Eventing's broker
// does: trigger filters (FilterToCEL, every dialect: attributes, exact,
// prefix, suffix, all, any, not, cesql, and celwasm's expression and the
// deprecated sourceAndType) become one CEL expression, evaluated over an
// activation built from each event (Activation).
//
// Variables:
//
//	attrs map(string, dyn)  the attributes as Knative reads them (lookup.go)
//	cesql map(string, bool) cesql["<CESQL>"]: the event passes that CESQL filter
//	ce    map(string, dyn)  context attributes and extensions
//	                        ce.type == "com.github.pull.create"
//	                        ce.github.repository == "knative/eventing"
//	                        ce["github.repository"] == "knative/eventing"
//	                        ce.time > timestamp("2024-01-01T00:00:00Z")
//	data  dyn               the event data: data.action == "opened"
//
// An event is either a structured-mode JSON event (an object with
// "specversion") or an HTTP binary-mode envelope:
//
//	{"headers": {"ce-id": "...", "ce-type": "...", "content-type": "application/json"},
//	 "body": "<text>"}          or  "bodyBase64": "<base64>"
//
// In ce, "time" is a timestamp and every other attribute keeps its JSON type
// (binary-mode header values are strings, percent-decoded as the HTTP
// binding requires). Nested extensions are maps (ce.github.repository),
// dotted names are keys (ce["github.repository"]). data is the parsed JSON
// when the content type is JSON (or absent, in structured mode), text for
// other content, bytes for data_base64 or bodyBase64.
package events

import (
	"encoding/base64"
	"strings"
	"unicode/utf8"

	"github.com/celwasm/celwasm/wasm/codec"
	"github.com/celwasm/celwasm/wasm/engine"
	"github.com/celwasm/celwasm/wire"

	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/tidwall/gjson"
)

const (
	// EventVariable and DataVariable are the filter variables.
	EventVariable = "ce"
	DataVariable  = "data"
)

// Activation returns an activation binding ce and data for one event.
// ev must already be checked (codec.CheckJSON). Errors are *wire.Error with
// code invalid_activation.
func Activation(e *engine.Env, ev gjson.Result) (*codec.Activation, error) {
	return new(Scratch).Activation(e, ev, nil, ReadsAll)
}

// Scratch is the memory of one event activation (the activation and its ce
// map), reused by each call of its Activation method: a handler evaluating
// one event at a time keeps one instead of allocating both per event.
type Scratch struct {
	act codec.Activation
	ce  codec.Map
}

// Reads is what a program reads of a CloudEvent activation beyond ce: the
// variables that are then bound. What a program does not read is left
// unbound, as it cannot be observed; an event is still checked the same way
// (data_base64 decoded, a JSON body validated).
type Reads struct {
	Data    bool // data
	Knative bool // attrs and cesql
}

// ReadsAll binds every variable.
var ReadsAll = Reads{Data: true, Knative: true}

// ReadsOf is what p may read (engine.Program.References).
func ReadsOf(p *engine.Program) Reads {
	return Reads{Data: p.References(DataVariable), Knative: p.References(AttributesVariable, CESQLVariable)}
}

// Activation is the package's Activation in s's memory, binding what reads
// names; the activation of the previous call, and every value resolved from
// it, must no longer be in use. ms, when not nil, lists ev's members
// (codec.CheckJSONMembers).
func (s *Scratch) Activation(e *engine.Env, ev gjson.Result, ms *codec.Members, reads Reads) (*codec.Activation, error) {
	if !ev.IsObject() {
		return nil, engine.Errorf(wire.CodeInvalidActivation, "cloud event: want a JSON object, got %s", codec.JSONKind(ev))
	}
	a := &s.act
	a.ResetBound(e)
	data, structured, err := structuredEvent(&s.ce, a.Converter(), ev, ms, reads.Data)
	switch {
	case err != nil:
		return nil, err
	case !structured:
		h := ev.Get("headers")
		if !h.Exists() {
			return nil, engine.Errorf(wire.CodeInvalidActivation, "cloud event: neither a structured event (no \"specversion\") nor a binary envelope (no \"headers\")")
		}
		if data, err = binaryEvent(&s.ce, a.Converter(), ev, h, reads.Data); err != nil {
			return nil, err
		}
	}
	a.Bind(EventVariable, &s.ce)
	if reads.Knative {
		bindKnative(a.Bind, ev)
	}
	if data != nil && reads.Data {
		a.Bind(DataVariable, data)
	}
	return a, nil
}

// structuredEvent reads the event's members in one pass: the context
// attributes and extensions go to ce, data or data_base64 to data. It
// reports whether the object is a structured event (has specversion).
// Without wantData, JSON data is not converted (nil).
func structuredEvent(ce *codec.Map, conv *codec.Converter, ev gjson.Result, ms *codec.Members, wantData bool) (ref.Val, bool, error) {
	ce.ResetObject(conv)
	var rawData, rawData64 gjson.Result
	contentType := ""
	structured := false
	ms.ForEach(ev, func(k, v gjson.Result) bool {
		switch k.Str {
		case "specversion":
			structured = true
		case "data":
			rawData = v
			return true
		case "data_base64":
			rawData64 = v
			return true
		case "datacontenttype":
			contentType = v.Str
		}
		if k.Str == "time" {
			ce.PutAs(k.Str, v, types.TimestampType) // converted when read
		} else {
			ce.Put(k.Str, v, nil)
		}
		return true
	})
	if !structured {
		return nil, false, nil
	}
	var data ref.Val
	switch {
	case rawData64.Exists():
		if rawData64.Type != gjson.String {
			return nil, true, engine.Errorf(wire.CodeInvalidActivation, "cloud event: data_base64 must be a string")
		}
		b, err := base64.StdEncoding.DecodeString(rawData64.Str)
		if err != nil {
			return nil, true, engine.Errorf(wire.CodeInvalidActivation, "cloud event: data_base64 is not base64: %v", err)
		}
		data = types.Bytes(b)
	case rawData.Exists() && wantData:
		if rawData.Type == gjson.String && contentType != "" && !isJSONContentType(contentType) {
			data = types.String(rawData.Str)
		} else {
			data = conv.Natural(rawData)
		}
	}
	return data, true, nil
}

func binaryEvent(attrs *codec.Map, conv *codec.Converter, ev, headers gjson.Result, wantData bool) (ref.Val, error) {
	if !headers.IsObject() {
		return nil, engine.Errorf(wire.CodeInvalidActivation, "cloud event: \"headers\" must be an object")
	}
	attrs.ResetObject(conv)
	contentType := ""
	var bad *wire.Error
	headers.ForEach(func(k, v gjson.Result) bool {
		name := strings.ToLower(k.Str)
		var value string
		switch {
		case v.Type == gjson.String:
			value = v.Str
		case v.IsArray():
			var parts []string
			for _, p := range v.Array() {
				parts = append(parts, p.String())
			}
			value = strings.Join(parts, ",")
		default:
			bad = engine.Errorf(wire.CodeInvalidActivation, "cloud event: header %q must be a string or a list of strings", k.Str)
			return false
		}
		switch {
		case name == "content-type":
			contentType = value
			attrs.Put("datacontenttype", gjson.Result{}, types.String(value))
		case strings.HasPrefix(name, "ce-"):
			decoded, ok := percentDecode(value)
			if !ok {
				bad = engine.Errorf(wire.CodeInvalidActivation, "cloud event: header %q is not valid percent-encoded UTF-8", k.Str)
				return false
			}
			attr := strings.TrimPrefix(name, "ce-")
			var val ref.Val = types.String(decoded)
			if attr == "time" {
				val = types.String(decoded).ConvertToType(types.TimestampType)
			}
			attrs.Put(attr, gjson.Result{}, val)
		}
		return true
	})
	if bad != nil {
		return nil, bad
	}
	if !attrs.Has("specversion") {
		return nil, engine.Errorf(wire.CodeInvalidActivation, "cloud event: binary envelope without a ce-specversion header")
	}
	var data ref.Val
	if b64 := ev.Get("bodyBase64"); b64.Exists() {
		b, err := base64.StdEncoding.DecodeString(b64.Str)
		if b64.Type != gjson.String || err != nil {
			return nil, engine.Errorf(wire.CodeInvalidActivation, "cloud event: bodyBase64 must be a base64 string")
		}
		data = types.Bytes(b)
	} else if body := ev.Get("body"); body.Exists() {
		if body.Type != gjson.String {
			return nil, engine.Errorf(wire.CodeInvalidActivation, "cloud event: body must be a string (the HTTP body as text; bodyBase64 for binary)")
		}
		if isJSONContentType(contentType) {
			if err := codec.CheckJSON(body.Str); err != nil {
				return nil, engine.Errorf(wire.CodeInvalidActivation, "cloud event: body with content type %q: %v", contentType, err)
			}
			if wantData {
				data = conv.Natural(gjson.Parse(body.Str))
			}
		} else {
			data = types.String(body.Str)
		}
	}
	return data, nil
}

// isJSONContentType: application/json, text/json, and any +json media type.
func isJSONContentType(ct string) bool {
	mt, _, _ := strings.Cut(ct, ";")
	mt = strings.ToLower(strings.TrimSpace(mt))
	return mt == "application/json" || mt == "text/json" || strings.HasSuffix(mt, "+json")
}

// percentDecode decodes %XX sequences (the CloudEvents HTTP binding's
// header encoding) and checks that the result is UTF-8.
func percentDecode(s string) (string, bool) {
	if !strings.Contains(s, "%") {
		return s, utf8.ValidString(s)
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) && codec.IsHex(s[i+1]) && codec.IsHex(s[i+2]) {
			b.WriteByte(unhex(s[i+1])<<4 | unhex(s[i+2]))
			i += 2
			continue
		}
		b.WriteByte(s[i])
	}
	out := b.String()
	return out, utf8.ValidString(out)
}

func unhex(c byte) byte {
	switch {
	case c >= '0' && c <= '9':
		return c - '0'
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10
	}
	return c - 'A' + 10
}
