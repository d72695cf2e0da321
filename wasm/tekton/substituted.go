package tekton

import (
	"reflect"
	"strconv"

	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"
	"github.com/tidwall/gjson"

	"github.com/celwasm/celwasm/wasm/codec"
)

// substitutedMap answers substituted["params.x"] from the activation's
// JSON, on demand.
type substitutedMap struct {
	act *codec.Activation
}

var _ traits.Mapper = (*substitutedMap)(nil)

func (m *substitutedMap) Find(key ref.Val) (ref.Val, bool) {
	k, ok := key.(types.String)
	if !ok {
		return types.MaybeNoSuchOverloadErr(key), true
	}
	r, err := parseReference(string(k), false)
	if err != nil {
		return types.NewErr("%v", err), true
	}
	raw, ok := m.act.Raw(r.segs[0].(string))
	for _, seg := range r.segs[1:] {
		if !ok {
			break
		}
		switch s := seg.(type) {
		case string:
			raw = raw.Get(gjson.Escape(s))
		case int:
			raw = raw.Get(strconv.Itoa(s))
		}
		ok = raw.Exists()
	}
	if !ok {
		return types.NewErr("when: $(%s): no such value in the context", k), true
	}
	var text string
	switch raw.Type {
	case gjson.String:
		text = raw.Str
	case gjson.Number, gjson.True, gjson.False:
		text = raw.Raw
	default:
		return types.NewErr("when: $(%s) is an array or object; Tekton substitutes only strings into cel", k), true
	}
	if v, ok := literal(text); ok {
		return v, true
	}
	return types.NewErr("when: $(%s) is %q, which Tekton's text substitution would not make a CEL number or bool: quote the reference ('$(%s)')", k, text, k), true
}

func (m *substitutedMap) Get(key ref.Val) ref.Val      { v, _ := m.Find(key); return v }
func (m *substitutedMap) Contains(key ref.Val) ref.Val { _, ok := m.Find(key); return types.Bool(ok) }
func (m *substitutedMap) Size() ref.Val                { return types.Int(0) }
func (m *substitutedMap) Iterator() traits.Iterator {
	return types.NewStringList(types.DefaultTypeAdapter, nil).Iterator()
}
func (m *substitutedMap) Type() ref.Type          { return types.MapType }
func (m *substitutedMap) Value() any              { return nil }
func (m *substitutedMap) Equal(o ref.Val) ref.Val { return types.Bool(false) }
func (m *substitutedMap) ConvertToType(t ref.Type) ref.Val {
	if t == types.TypeType {
		return types.MapType
	}
	return types.NewErr("type conversion error from map to '%s'", t)
}
func (m *substitutedMap) ConvertToNative(t reflect.Type) (any, error) {
	return nil, types.NewErr("substituted is not convertible").(*types.Err)
}
