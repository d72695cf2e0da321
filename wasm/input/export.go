package input

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/celwasm/celwasm/wasm/input/celtext"
)

// Request is the header line of a celwasm_input request; the input's bytes
// follow it, after one \n, untouched (any bytes, also none).
type Request struct {
	// Op is documents, objects, events, select, keys, text or json, or one
	// a module adds with RegisterOp (the admission module's yaml).
	Op string `json:"op"`
	// Path is select's dotted field path.
	Path string `json:"path,omitempty"`
}

// Header is the first line of a successful response; Count lines follow it.
type Header struct {
	Count int `json:"count"`
	// Objects holds, for objects, each object's identity, in order.
	Objects []ObjectInfo `json:"objects,omitempty"`
}

// Error codes of celwasm_input (the ABI's error object).
const (
	CodeBadRequest   = "bad_request"   // the header is not a Request
	CodeInvalidInput = "invalid_input" // the input cannot be read as the op asks
	CodeInternal     = "internal"
)

type errorBody struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// moreOps are the ops only some modules serve: name → the item (a string).
var moreOps = map[string]func(data []byte) (string, error){}

// RegisterOp adds an op whose answer is one string item; a module's main
// package (or a package it imports) calls it from init.
func RegisterOp(name string, f func(data []byte) (string, error)) { moreOps[name] = f }

// Handle answers one celwasm_input request (docs/abi.md, "input"): a header
// line, then one line per item — documents, objects and events as JSON
// without line breaks, select's value, keys, text and json's output as JSON
// strings — or a
// single {"error":{code,message}} line.
func Handle(req []byte) (resp []byte) {
	defer func() {
		if r := recover(); r != nil {
			resp = fail(CodeInternal, fmt.Sprint("input: panic: ", r))
		}
	}()
	head, data, _ := bytes.Cut(req, []byte("\n"))
	var r Request
	dec := json.NewDecoder(bytes.NewReader(head))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		return fail(CodeBadRequest, "input header: "+err.Error())
	}
	var items [][]byte
	var h Header
	var err error
	switch r.Op {
	case "documents":
		items, err = Documents(data)
	case "objects":
		if items, err = Objects(data); err == nil {
			h.Objects = make([]ObjectInfo, len(items))
			for i, it := range items {
				h.Objects[i] = Info(it)
			}
		}
	case "events":
		items, err = Events(data)
	case "select":
		if r.Path == "" {
			return fail(CodeBadRequest, "input header: select needs a path")
		}
		var v []byte
		if v, err = Select(data, r.Path); err == nil {
			items = [][]byte{v}
		}
	case "keys":
		var keys []string
		if keys, err = Keys(data); err == nil {
			for _, k := range keys {
				items = append(items, jsonString(k))
			}
		}
	case "json":
		var b []byte
		if b, err = Indent(data); err == nil {
			items = [][]byte{jsonString(string(b))}
		}
	case "text":
		var s string
		if s, err = celtext.Format(data); err == nil {
			items = [][]byte{jsonString(s)}
		}
	default:
		op, ok := moreOps[r.Op]
		if !ok {
			return fail(CodeBadRequest, fmt.Sprintf("input header: unknown op %q", r.Op))
		}
		var s string
		if s, err = op(data); err == nil {
			items = [][]byte{jsonString(s)}
		}
	}
	if err != nil {
		return fail(CodeInvalidInput, err.Error())
	}
	h.Count = len(items)
	out, _ := json.Marshal(h)
	for _, it := range items {
		out = append(out, '\n')
		out = append(out, it...)
	}
	return out
}

// jsonString encodes s as encoding/json does, without HTML escaping.
func jsonString(s string) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(s)
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

func fail(code, msg string) []byte {
	b, _ := json.Marshal(map[string]errorBody{"error": {Code: code, Message: msg}})
	return b
}
