package engine

import (
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/interpreter"
	"github.com/tidwall/gjson"
)

// MaxDepth is the deepest nesting of JSON arrays and objects an activation
// (or any request) may have. Go code in WebAssembly recurses on the
// runtime's native call stack, whose size differs between runtimes (with
// 5,000 levels wasmtime traps where wazero does not), so the bound is one
// every host runs identically; no CEL rule reads that deep.
const MaxDepth = 1000

// JSONActivation resolves variables from a JSON object without decoding it:
// a variable's value is converted to its declared type on first use, and
// objects and arrays inside it are read only where the expression looks.
type JSONActivation struct {
	env   *Env
	conv  converter
	raw   gjson.Result
	index *objIndex
	typed map[string]ref.Val
	// A CloudEvent activation binds ce and data (see events.go).
	event bool
	ce    *jsonMap
	data  ref.Val
}

// SetTyped adds variables given in canonical typed JSON (an object of
// name → typed value); they take precedence over the plain JSON ones.
func (a *JSONActivation) SetTyped(obj gjson.Result) error {
	if !obj.IsObject() {
		return newErr(CodeInvalidActivation, "typedActivation: want a JSON object of name → typed value")
	}
	var err error
	obj.ForEach(func(k, v gjson.Result) bool {
		var val ref.Val
		if val, err = a.env.DecodeValue(v); err != nil {
			err = &Error{Code: CodeInvalidActivation, Message: "typedActivation." + k.Str + ": " + err.(*Error).Message}
			return false
		}
		if a.typed == nil {
			a.typed = map[string]ref.Val{}
		}
		a.typed[k.Str] = val
		return true
	})
	return err
}

// NewJSONActivation checks that raw is a JSON object (valid JSON, valid
// UTF-8, nested at most MaxDepth deep) and returns an activation over it.
// Errors are *Error with code invalid_activation. The activation keeps
// references into raw, which must not change while it is in use.
func (e *Env) NewJSONActivation(raw string) (*JSONActivation, error) {
	if err := CheckJSON(raw); err != nil {
		return nil, &Error{Code: CodeInvalidActivation, Message: "activation: " + err.Error()}
	}
	return e.ActivationOver(gjson.Parse(raw))
}

// ActivationOver returns an activation over an already checked JSON value
// (see CheckJSON), which must be an object.
func (e *Env) ActivationOver(r gjson.Result) (*JSONActivation, error) {
	if !r.IsObject() {
		return nil, newErr(CodeInvalidActivation, "activation: want a JSON object whose keys are variable names, got %s", jsonKind(r))
	}
	return &JSONActivation{env: e, conv: converter{adapter: e.cel.CELTypeAdapter()}, raw: r}, nil
}

// ResolveName implements interpreter.Activation.
func (a *JSONActivation) ResolveName(name string) (any, bool) {
	if a.event {
		switch name {
		case EventVariable:
			return a.ce, true
		case DataVariable:
			return a.data, a.data != nil
		}
		return nil, false
	}
	if v, ok := a.typed[name]; ok {
		return v, true
	}
	if a.index == nil {
		a.index = buildIndex(a.raw)
	}
	i, ok := a.index.find(name)
	if !ok {
		return nil, false
	}
	e := &a.index.entries[i]
	if e.val == nil {
		e.val = a.conv.convert(e.raw, a.env.varTypes[name])
	}
	return e.val, true
}

// TektonResults makes the task results in the "tasks" variable
// (tasks.TASK.results.NAME) that are integer or decimal literals read as
// numbers, as Tekton when expressions compare them (see tekton.go).
func (a *JSONActivation) TektonResults() {
	if a.index == nil {
		a.index = buildIndex(a.raw)
	}
	i, ok := a.index.find("tasks")
	if !ok || !a.index.entries[i].raw.IsObject() {
		return
	}
	numeric := &converter{adapter: a.conv.adapter, numericStrings: true}
	tasks := newJSONMap(&a.conv, a.index.entries[i].raw, types.StringType, types.DynType)
	tidx := tasks.idx()
	for j := range tidx.entries {
		task := &tidx.entries[j]
		if !task.raw.IsObject() {
			continue
		}
		tm := newJSONMap(&a.conv, task.raw, types.StringType, types.DynType)
		if k, ok := tm.idx().find("results"); ok && tm.index.entries[k].raw.IsObject() {
			tm.index.entries[k].val = newJSONMap(numeric, tm.index.entries[k].raw, types.StringType, types.DynType)
		}
		task.val = tm
	}
	a.index.entries[i].val = tasks
}

// Parent implements interpreter.Activation.
func (a *JSONActivation) Parent() interpreter.Activation { return nil }

var _ interpreter.Activation = (*JSONActivation)(nil)

// CheckJSON reports whether s is one valid JSON value, in valid UTF-8, whose
// arrays and objects nest at most MaxDepth deep (validateJSON: one pass,
// no recursion, so hostile nesting cannot exhaust the stack).
func CheckJSON(s string) error {
	return validateJSON(s, MaxDepth)
}

type errString string

func (e errString) Error() string { return string(e) }
