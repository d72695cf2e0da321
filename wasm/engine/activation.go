package engine

import (
	"strconv"
	"unicode/utf8"

	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/interpreter"
	"github.com/tidwall/gjson"
)

// MaxDepth is the deepest nesting of JSON arrays and objects an activation
// may have (the same bound as Kubernetes' JSON decoding, sigs.k8s.io/json).
const MaxDepth = 10000

// JSONActivation resolves variables from a JSON object without decoding it:
// a variable's value is converted to its declared type on first use, and
// objects and arrays inside it are read only where the expression looks.
type JSONActivation struct {
	env   *Env
	conv  converter
	raw   gjson.Result
	index *objIndex
	typed map[string]ref.Val
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

// Parent implements interpreter.Activation.
func (a *JSONActivation) Parent() interpreter.Activation { return nil }

var _ interpreter.Activation = (*JSONActivation)(nil)

// CheckJSON reports whether s is one valid JSON value, in valid UTF-8, whose
// arrays and objects nest at most MaxDepth deep. The depth is checked first,
// without recursion, so that hostile nesting cannot exhaust the stack.
func CheckJSON(s string) error {
	if err := checkDepth(s, MaxDepth); err != nil {
		return err
	}
	if !utf8.ValidString(s) {
		return errString("invalid UTF-8")
	}
	if !gjson.Valid(s) {
		return errString("invalid JSON")
	}
	return nil
}

type errString string

func (e errString) Error() string { return string(e) }

func checkDepth(s string, limit int) error {
	depth := 0
	inString := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if inString {
			switch c {
			case '\\':
				i++
			case '"':
				inString = false
			}
			continue
		}
		switch c {
		case '"':
			inString = true
		case '[', '{':
			depth++
			if depth > limit {
				return errString("nesting deeper than the limit of " + strconv.Itoa(limit))
			}
		case ']', '}':
			depth--
		}
	}
	return nil
}
