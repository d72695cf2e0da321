package codec

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"

	"github.com/celwasm/celwasm/wasm/engine"
	"github.com/celwasm/celwasm/wire"
)

// TestConvertRawIsConvert: a member's value converted from its JSON text
// (convertRaw, the fast path without a gjson.Result) is what Convert gives
// for the same text, for every kind of JSON value against every kind of
// declared type, with numeric strings read as numbers and not.
func TestConvertRawIsConvert(t *testing.T) {
	raws := []string{
		"", "0", "-7", "42", "123456789012345678", "1234567890123456789", "99999999999999999999",
		"1.5", "-0.0", "1e3", "2E-2",
		`{}`, `{"a":1,"b":{"c":"d"}}`, `[]`, `[1,"x"]`,
		`""`, `"abc"`, `"12"`, `"1.5"`, `"a\"b"`, `"\u00e9"`, `"768Mi"`,
		"true", "false", "null",
	}
	typeOf := map[string]*types.Type{
		"nil":                 nil,
		"dyn":                 types.DynType,
		"int":                 types.IntType,
		"uint":                types.UintType,
		"double":              types.DoubleType,
		"string":              types.StringType,
		"bool":                types.BoolType,
		"bytes":               types.BytesType,
		"null":                types.NullType,
		"list(dyn)":           types.NewListType(types.DynType),
		"map(string, int)":    types.NewMapType(types.StringType, types.IntType),
		"map(int, dyn)":       types.NewMapType(types.IntType, types.DynType),
		"optional(int)":       types.NewOptionalType(types.IntType),
		"wrapper(int)":        types.NewNullableType(types.IntType),
		"type param":          types.NewTypeParamType("T"),
		"timestamp":           types.TimestampType,
		"google.protobuf.Any": types.AnyType,
	}
	env, err := engine.NewEnv(wire.EnvSpec{})
	if err != nil {
		t.Fatal(err)
	}
	fast := 0
	for _, numeric := range []bool{false, true} {
		for name, typ := range typeOf {
			for _, raw := range raws {
				c := Converter{Adapter: env.CEL().CELTypeAdapter(), NumericStrings: numeric}
				got, want := c.convertRaw(raw, typ), c.Convert(convertible(raw), typ)
				if g, w := describe(got), describe(want); g != w {
					t.Errorf("numeric strings %v, %s, %q: convertRaw %s, Convert %s", numeric, name, raw, g, w)
				}
				if _, isMap := got.(*Map); isMap || (raw != "" && raw[0] != '[' && !types.IsError(got)) {
					fast++
				}
			}
		}
	}
	if fast == 0 {
		t.Fatal("compared no converted value")
	}
}

// describe is a converted value as the tests compare it: its type and
// value, an error's message, or a Map's raw text and member types.
func describe(v ref.Val) string {
	switch v := v.(type) {
	case *Map:
		return fmt.Sprintf("map %q key %v value %v", v.raw, v.keyT, v.valT)
	case *types.Err:
		return "error " + v.Error()
	case *jsonList:
		return fmt.Sprintf("list %q of %v", v.raw.Raw, v.elem)
	}
	return fmt.Sprintf("%T %v", v, v)
}

// TestResetTakesObjectText: Reset reads an object given as its text, with
// white space before it as well, and refuses every other JSON value with
// the kind it is.
func TestResetTakesObjectText(t *testing.T) {
	env, err := engine.NewEnv(wire.EnvSpec{Variables: []wire.VariableDecl{{Name: "self", Type: "dyn"}}})
	if err != nil {
		t.Fatal(err)
	}
	var a Activation
	for _, doc := range []string{`{"self":3}`, " \n{\"self\":3}"} {
		if err := a.Reset(env, doc, nil); err != nil {
			t.Fatalf("%q: %v", doc, err)
		}
		if v, ok := a.ResolveName("self"); !ok || v != types.Int(3) {
			t.Errorf("%q: self = %v, %v", doc, v, ok)
		}
		a.Drop()
	}
	for doc, kind := range map[string]string{`[1]`: "array", `"x"`: "string", `null`: "null", `1`: "number", ``: ""} {
		err := a.Reset(env, doc, nil)
		if err == nil {
			t.Errorf("%q: no error", doc)
			continue
		}
		if want := "invalid_activation: activation: want a JSON object whose keys are variable names, got " + kind; !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%q: %v, want %s", doc, err, want)
		}
	}
}
