package openapi

import (
	"reflect"
	"testing"

	"k8s.io/apiserver/internal/patchcheck"
	"k8s.io/apiserver/pkg/cel/common"
	"k8s.io/kube-openapi/pkg/validation/spec"
)

// TestPropertyPatchIsOnlyTheDeclaredEdits: equality.go looks up one
// property through Property, which the adaptor adds (PATCHES.md,
// "cel/common: one property's schema, not all of them").
func TestPropertyPatchIsOnlyTheDeclaredEdits(t *testing.T) {
	patchcheck.Check(t, "../../..", patchcheck.Patch{
		File:    "pkg/cel/common/equality.go",
		Replace: [][2]string{{"if prop, exists := r.Schema.Properties()[field]; exists {", "if prop, exists := property(r.Schema, field); exists {"}},
	})
	patchcheck.Check(t, "../../..", patchcheck.Patch{
		File: "pkg/cel/openapi/adaptor.go",
		Replace: [][2]string{{"func (s *Schema) AdditionalProperties() common.SchemaOrBool {",
			"func (s *Schema) Property(name string) (common.Schema, bool) {\n\tprop, ok := s.Schema.Properties[name]\n\tif !ok {\n\t\treturn nil, false\n\t}\n\treturn &Schema{Schema: &prop}, true\n}\n\nfunc (s *Schema) AdditionalProperties() common.SchemaOrBool {"}},
	})
}

// TestPropertyPatchSameSchemas: Property(name) is Properties()[name], and a
// correlated object's child has the schema upstream's lookup gives.
func TestPropertyPatchSameSchemas(t *testing.T) {
	s := &Schema{Schema: &spec.Schema{SchemaProps: spec.SchemaProps{Type: []string{"object"}, Properties: map[string]spec.Schema{
		"a": *spec.StringProperty().WithMaxLength(3),
		"b": *spec.Int64Property(),
		"c": *spec.MapProperty(spec.StringProperty()),
	}}}}
	for _, name := range []string{"a", "b", "c", "missing"} {
		got, ok := s.Property(name)
		want, wantOK := s.Properties()[name]
		if ok != wantOK || !reflect.DeepEqual(got, want) {
			t.Errorf("Property(%q) = %v, %t; Properties() has %v, %t", name, got, ok, want, wantOK)
		}
	}
	obj := map[string]interface{}{"a": "x", "b": int64(1)}
	old := map[string]interface{}{"a": "y", "b": int64(2)}
	c := common.NewCorrelatedObject(obj, old, s)
	child := c.Key("a")
	want, _ := s.Properties()["a"]
	if child == nil || !reflect.DeepEqual(child.Schema, want) || child.Value != "x" || child.OldValue != "y" {
		t.Errorf("Key(\"a\") = %+v", child)
	}
	if c.Key("missing") != nil {
		t.Error("a missing field was correlated")
	}
}
