package defaulting

import (
	"reflect"
	"testing"

	"k8s.io/apiextensions-apiserver/internal/patchcheck"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
)

const propCopy = "\t\tvar prop structuralschema.Structural\n"

// TestPropCopyPatchIsOnlyTheDeclaredEdits: one copy of a property's schema
// per object in Default and PruneNonNullableNullsWithoutDefaults (PATCHES.md,
// "schema: one copy of a property's schema per object").
func TestPropCopyPatchIsOnlyTheDeclaredEdits(t *testing.T) {
	patchcheck.Check(t, "../../../..", patchcheck.Patch{
		File: "pkg/apiserver/schema/defaulting/algorithm.go",
		Replace: [][2]string{{"\t\tfor k := range x {\n\t\t\tif prop, found := s.Properties[k]; found {\n",
			propCopy + "\t\tfor k := range x {\n\t\t\tif p, found := s.Properties[k]; found {\n\t\t\t\tprop = p\n"}},
	})
	patchcheck.Check(t, "../../../..", patchcheck.Patch{
		File: "pkg/apiserver/schema/defaulting/prunenulls.go",
		Replace: [][2]string{
			{"func getSchemaForField(field string, s *structuralschema.Structural) *structuralschema.Structural {",
				"func getSchemaForField(field string, s *structuralschema.Structural, schema *structuralschema.Structural) *structuralschema.Structural {"},
			{"\tschema, ok := s.Properties[field]\n\tif ok {\n\t\treturn &schema\n", "\tprop, ok := s.Properties[field]\n\tif ok {\n\t\t*schema = prop\n\t\treturn schema\n"},
			{"\t\tfor k, v := range x {\n\t\t\tschema := getSchemaForField(k, s)\n", propCopy + "\t\tfor k, v := range x {\n\t\t\tschema := getSchemaForField(k, s, &prop)\n"},
		},
	})
}

func obj(props map[string]structuralschema.Structural) structuralschema.Structural {
	return structuralschema.Structural{Generic: structuralschema.Generic{Type: "object"}, Properties: props}
}

func withDefault(typ string, v interface{}) structuralschema.Structural {
	return structuralschema.Structural{Generic: structuralschema.Generic{Type: typ, Default: structuralschema.JSON{Object: v}}}
}

// TestPropCopyPatchEachFieldItsSchema: sibling fields with different
// schemas get their own defaults and pruning, and nothing is allocated when
// nothing changes.
func TestPropCopyPatchEachFieldItsSchema(t *testing.T) {
	s := obj(map[string]structuralschema.Structural{
		"a": obj(map[string]structuralschema.Structural{"x": withDefault("integer", int64(1))}),
		"b": obj(map[string]structuralschema.Structural{"y": withDefault("string", "z")}),
		"c": {Generic: structuralschema.Generic{Type: "array"}, Items: func() *structuralschema.Structural {
			o := obj(map[string]structuralschema.Structural{"w": withDefault("boolean", true)})
			return &o
		}()},
		"n": {Generic: structuralschema.Generic{Type: "string"}},
		"m": {Generic: structuralschema.Generic{Type: "string", Nullable: true}},
	})
	x := map[string]interface{}{"a": map[string]interface{}{}, "b": map[string]interface{}{}, "c": []interface{}{map[string]interface{}{}}, "n": nil, "m": nil}
	PruneNonNullableNullsWithoutDefaults(x, &s)
	Default(x, &s)
	want := map[string]interface{}{"a": map[string]interface{}{"x": int64(1)}, "b": map[string]interface{}{"y": "z"}, "c": []interface{}{map[string]interface{}{"w": true}}, "m": nil}
	if !reflect.DeepEqual(x, want) {
		t.Errorf("got %v, want %v", x, want)
	}
	if n := testing.AllocsPerRun(100, func() { PruneNonNullableNullsWithoutDefaults(x, &s); Default(x, &s) }); n != 0 {
		t.Errorf("%v allocations for an object with nothing to change", n)
	}
}
