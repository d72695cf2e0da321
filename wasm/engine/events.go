package engine

import (
	"encoding/base64"
	"strings"
	"unicode/utf8"

	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/tidwall/gjson"
)

// CloudEvents as activations, for trigger filters (Knative's advanced
// filtering proposal): the variable ce holds every context attribute and
// extension, data the event data.
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
const (
	// EventVariable and DataVariable are the filter variables.
	EventVariable = "ce"
	DataVariable  = "data"
)

// EventActivation returns an activation binding ce and data for one event.
// ev must already be checked (CheckJSON). Errors are *Error with code
// invalid_activation.
func (e *Env) EventActivation(ev gjson.Result) (*JSONActivation, error) {
	if !ev.IsObject() {
		return nil, newErr(CodeInvalidActivation, "cloud event: want a JSON object, got %s", jsonKind(ev))
	}
	a := &JSONActivation{env: e, conv: converter{adapter: e.cel.CELTypeAdapter()}, event: true}
	ce, data, structured, err := structuredEvent(&a.conv, ev)
	switch {
	case err != nil:
		return nil, err
	case structured:
		a.ce, a.data = ce, data
	default:
		h := ev.Get("headers")
		if !h.Exists() {
			return nil, newErr(CodeInvalidActivation, "cloud event: neither a structured event (no \"specversion\") nor a binary envelope (no \"headers\")")
		}
		if a.ce, a.data, err = binaryEvent(&a.conv, ev, h); err != nil {
			return nil, err
		}
	}
	return a, nil
}

// structuredEvent reads the event's members in one pass: the context
// attributes and extensions go to ce, data or data_base64 to data. It
// reports whether the object is a structured event (has specversion).
func structuredEvent(conv *converter, ev gjson.Result) (*jsonMap, ref.Val, bool, error) {
	ce := &jsonMap{conv: conv, keyT: types.StringType, valT: types.DynType, index: &objIndex{}}
	attrs := ce.index
	attrs.entries = attrs.inline[:0]
	var rawData, rawData64 gjson.Result
	contentType := ""
	structured := false
	ev.ForEach(func(k, v gjson.Result) bool {
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
		en := mapEntry{key: k.Str, raw: v}
		if k.Str == "time" {
			en.val = conv.convert(v, types.TimestampType)
		}
		attrs.add(en)
		return true
	})
	if !structured {
		return nil, nil, false, nil
	}
	var data ref.Val
	switch {
	case rawData64.Exists():
		if rawData64.Type != gjson.String {
			return nil, nil, true, newErr(CodeInvalidActivation, "cloud event: data_base64 must be a string")
		}
		b, err := base64.StdEncoding.DecodeString(rawData64.Str)
		if err != nil {
			return nil, nil, true, newErr(CodeInvalidActivation, "cloud event: data_base64 is not base64: %v", err)
		}
		data = types.Bytes(b)
	case rawData.Exists():
		if rawData.Type == gjson.String && contentType != "" && !isJSONContentType(contentType) {
			data = types.String(rawData.Str)
		} else {
			data = conv.natural(rawData)
		}
	}
	return ce, data, true, nil
}

func binaryEvent(conv *converter, ev, headers gjson.Result) (*jsonMap, ref.Val, error) {
	if !headers.IsObject() {
		return nil, nil, newErr(CodeInvalidActivation, "cloud event: \"headers\" must be an object")
	}
	attrs := &objIndex{}
	attrs.entries = attrs.inline[:0]
	contentType := ""
	var bad *Error
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
			bad = newErr(CodeInvalidActivation, "cloud event: header %q must be a string or a list of strings", k.Str)
			return false
		}
		switch {
		case name == "content-type":
			contentType = value
			attrs.add(mapEntry{key: "datacontenttype", val: types.String(value)})
		case strings.HasPrefix(name, "ce-"):
			decoded, ok := percentDecode(value)
			if !ok {
				bad = newErr(CodeInvalidActivation, "cloud event: header %q is not valid percent-encoded UTF-8", k.Str)
				return false
			}
			attr := strings.TrimPrefix(name, "ce-")
			en := mapEntry{key: attr, val: types.String(decoded)}
			if attr == "time" {
				en.val = types.String(decoded).ConvertToType(types.TimestampType)
			}
			attrs.add(en)
		}
		return true
	})
	if bad != nil {
		return nil, nil, bad
	}
	if _, ok := attrs.find("specversion"); !ok {
		return nil, nil, newErr(CodeInvalidActivation, "cloud event: binary envelope without a ce-specversion header")
	}
	var data ref.Val
	if b64 := ev.Get("bodyBase64"); b64.Exists() {
		b, err := base64.StdEncoding.DecodeString(b64.Str)
		if b64.Type != gjson.String || err != nil {
			return nil, nil, newErr(CodeInvalidActivation, "cloud event: bodyBase64 must be a base64 string")
		}
		data = types.Bytes(b)
	} else if body := ev.Get("body"); body.Exists() {
		if body.Type != gjson.String {
			return nil, nil, newErr(CodeInvalidActivation, "cloud event: body must be a string (the HTTP body as text; bodyBase64 for binary)")
		}
		if isJSONContentType(contentType) {
			if err := CheckJSON(body.Str); err != nil {
				return nil, nil, newErr(CodeInvalidActivation, "cloud event: body with content type %q: %v", contentType, err)
			}
			data = conv.natural(gjson.Parse(body.Str))
		} else {
			data = types.String(body.Str)
		}
	}
	return &jsonMap{conv: conv, keyT: types.StringType, valT: types.DynType, index: attrs}, data, nil
}

// add appends an entry, keeping the index's lookup map current.
func (idx *objIndex) add(en mapEntry) {
	if i, ok := idx.find(en.key); ok {
		idx.entries[i] = en
		return
	}
	idx.entries = append(idx.entries, en)
	if idx.byKey != nil {
		idx.byKey[en.key] = len(idx.entries) - 1
	} else if len(idx.entries) > linearLimit {
		idx.byKey = make(map[string]int, len(idx.entries)*2)
		for i := range idx.entries {
			idx.byKey[idx.entries[i].key] = i
		}
	}
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
		if s[i] == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]) {
			b.WriteByte(unhex(s[i+1])<<4 | unhex(s[i+2]))
			i += 2
			continue
		}
		b.WriteByte(s[i])
	}
	out := b.String()
	return out, utf8.ValidString(out)
}

func isHex(c byte) bool {
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
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
