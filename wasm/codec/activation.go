// Package codec turns JSON into CEL values and CEL values into canonical
// JSON (docs/value-encoding.md):
//
//   - Activation: variables read lazily from a JSON object, each converted to
//     its declared type on first use; objects and arrays inside are indexed
//     only where the expression looks (Map, and lists).
//   - DecodeValue: canonical typed JSON ({"int":"1"}, {"bytes":"..."}) to a
//     CEL value, for what plain JSON cannot express.
//   - AppendValue: a CEL value to canonical typed JSON, the result bytes every
//     host compares.
//   - CheckJSON: one-pass validation (JSON, UTF-8, nesting at most MaxDepth).
//
// Libraries on top of the engine (events, tekton) build their activations
// from these parts: Converter, Map, Activation.Bind.
package codec

import (
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/interpreter"
	"github.com/tidwall/gjson"

	"github.com/celwasm/celwasm/wasm/engine"
	"github.com/celwasm/celwasm/wire"
)

// MaxDepth is the deepest nesting of JSON arrays and objects an activation
// (or any request) may have. Go code in WebAssembly recurses on the
// runtime's native call stack, whose size differs between runtimes (with
// 5,000 levels wasmtime traps where wazero does not), so the bound is one
// every host runs identically; no CEL rule reads that deep.
const MaxDepth = 1000

// Activation resolves variables from a JSON object without decoding it:
// a variable's value is converted to its declared type on first use, and
// objects and arrays inside it are read only where the expression looks.
// Values bound with Bind or SetTyped take precedence over the JSON ones.
type Activation struct {
	env   *engine.Env
	conv  Converter
	raw   string // the object's JSON text ("": none), what Reset was given
	index *objIndex
	bound map[string]ref.Val
	// members lists raw's members when the caller checked it with
	// CheckJSONMembers (Reset).
	members *Members
	// own is the index of a reused activation (Reset), so that a call
	// over a small object allocates no index.
	own objIndex
	// maps are the objects conv lends once the activation is reused (Reset).
	maps mapPool
}

// NewActivation checks that raw is a JSON object (valid JSON, valid UTF-8,
// nested at most MaxDepth deep) and returns an activation over it. Errors
// are *wire.Error with code invalid_activation. The activation keeps
// references into raw, which must not change while it is in use.
func NewActivation(e *engine.Env, raw string) (*Activation, error) {
	if err := CheckJSON(raw); err != nil {
		return nil, &wire.Error{Code: wire.CodeInvalidActivation, Message: "activation: " + err.Error()}
	}
	return ActivationOver(e, gjson.Parse(raw))
}

// ActivationOver returns an activation over an already checked JSON value
// (see CheckJSON), which must be an object.
func ActivationOver(e *engine.Env, r gjson.Result) (*Activation, error) {
	if !r.IsObject() {
		return nil, engine.Errorf(wire.CodeInvalidActivation, "activation: want a JSON object whose keys are variable names, got %s", JSONKind(r))
	}
	return &Activation{env: e, conv: Converter{Adapter: e.CEL().CELTypeAdapter()}, raw: r.Raw}, nil
}

// Reset makes a an activation over the JSON object whose text is raw
// (already checked, as for ActivationOver) in environment e, reusing a's
// memory: a handler evaluating one request at a time keeps one Activation
// instead of allocating one per call. ms holds raw's members as
// CheckJSONMembers listed them, so that the first read need not scan raw;
// it may be nil. Values resolved from the previous object must no longer
// be in use. The object is given as text, not as a gjson.Result: in the
// module a Result (80 bytes) is made with memory.fill and passed with
// memory.copy, which wasmtime runs as calls out of the guest.
func (a *Activation) Reset(e *engine.Env, raw string, ms *Members) error {
	if len(raw) == 0 || raw[0] != '{' {
		r := gjson.Parse(raw)
		if !r.IsObject() {
			return engine.Errorf(wire.CodeInvalidActivation, "activation: want a JSON object whose keys are variable names, got %s", JSONKind(r))
		}
		raw = r.Raw
	}
	a.reset(e, raw, ms)
	return nil
}

// ResetBound makes a an activation with no JSON variables in environment e
// (as BoundActivation), reusing a's memory. Values resolved from its
// previous use must no longer be in use.
func (a *Activation) ResetBound(e *engine.Env) { a.reset(e, "", nil) }

func (a *Activation) reset(e *engine.Env, raw string, ms *Members) {
	if a.env != e {
		a.env, a.conv.Adapter = e, e.CEL().CELTypeAdapter()
	}
	a.conv.NumericStrings = false
	a.Drop()
	if a.conv.maps == nil {
		a.conv.maps = &a.maps
	}
	a.raw, a.members = raw, ms
}

// indexed builds the index of the activation's object on first use.
func (a *Activation) indexed() {
	if a.index == nil {
		a.own.build(a.raw, a.members, a.conv.maps)
		a.index = &a.own
	}
}

// Converter returns the activation's converter (its environment's adapter).
func (a *Activation) Converter() *Converter { return &a.conv }

// Bind sets a variable to a value, ahead of the JSON object's members.
func (a *Activation) Bind(name string, v ref.Val) {
	if a.bound == nil {
		a.bound = map[string]ref.Val{}
	}
	a.bound[name] = v
}

// SetTyped adds variables given in canonical typed JSON (an object of
// name → typed value); they take precedence over the plain JSON ones.
func (a *Activation) SetTyped(obj gjson.Result) error {
	if !obj.IsObject() {
		return engine.Errorf(wire.CodeInvalidActivation, "typedActivation: want a JSON object of name → typed value")
	}
	var err error
	obj.ForEach(func(k, v gjson.Result) bool {
		var val ref.Val
		if val, err = DecodeValue(a.env, v); err != nil {
			err = &wire.Error{Code: wire.CodeInvalidActivation, Message: "typedActivation." + k.Str + ": " + err.(*wire.Error).Message}
			return false
		}
		a.Bind(k.Str, val)
		return true
	})
	return err
}

// Raw returns the JSON of a variable, as given in the activation object.
func (a *Activation) Raw(name string) (gjson.Result, bool) {
	a.indexed()
	i, ok := a.index.find(name)
	if !ok {
		return gjson.Result{}, false
	}
	return jsonValue(a.index.entries[i].raw), true
}

// ResolveName implements interpreter.Activation.
func (a *Activation) ResolveName(name string) (any, bool) {
	if len(a.bound) > 0 {
		if v, ok := a.bound[name]; ok {
			return v, true
		}
	}
	a.indexed()
	i, ok := a.index.find(name)
	if !ok {
		return nil, false
	}
	e := &a.index.entries[i]
	if e.val == nil {
		e.val = a.conv.convertRaw(e.raw, a.env.VariableType(name))
	}
	return e.val, true
}

// Parent implements interpreter.Activation.
func (a *Activation) Parent() interpreter.Activation { return nil }

var _ interpreter.Activation = (*Activation)(nil)

// CheckJSON reports whether s is one valid JSON value, in valid UTF-8, whose
// arrays and objects nest at most MaxDepth deep (validateJSON: one pass,
// no recursion, so hostile nesting cannot exhaust the stack).
func CheckJSON(s string) error {
	return validateJSON(s, MaxDepth)
}

// CheckRequestJSON is CheckJSON for a request object whose members are
// documents (an eval request's "activation"): one level deeper, so that a
// document may nest MaxDepth deep inside it, as on its own.
func CheckRequestJSON(s string) error {
	return validateJSON(s, MaxDepth+1)
}

type errString string

func (e errString) Error() string { return string(e) }

// Drop drops every reference into the JSON the activation was reset to,
// keeping its memory: after a call that read its activation in place, so
// that nothing it left behind can see what the host writes there next.
func (a *Activation) Drop() {
	a.raw, a.members, a.index = "", nil, nil
	if a.maps.lent() {
		a.maps.release()
	}
	a.own.reset()
	if len(a.bound) > 0 {
		clear(a.bound)
	}
}

// IsBound reports whether Bind or SetTyped set name.
func (a *Activation) IsBound(name string) bool {
	_, ok := a.bound[name]
	return ok
}
