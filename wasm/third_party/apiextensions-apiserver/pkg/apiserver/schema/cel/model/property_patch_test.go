package model

import (
	"reflect"
	"testing"

	"k8s.io/apiextensions-apiserver/internal/patchcheck"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
)

// TestPropertyPatchIsOnlyTheDeclaredEdit: adaptor.go adds Property (PATCHES.md,
// "schema/cel/model: one property's schema, not all of them").
func TestPropertyPatchIsOnlyTheDeclaredEdit(t *testing.T) {
	patchcheck.Check(t, "../../../../..", patchcheck.Patch{
		File: "pkg/apiserver/schema/cel/model/adaptor.go",
		Replace: [][2]string{{"func (s *Structural) AdditionalProperties() common.SchemaOrBool {",
			"func (s *Structural) Property(name string) (common.Schema, bool) {\n\tprop, ok := s.Structural.Properties[name]\n\tif !ok {\n\t\treturn nil, false\n\t}\n\treturn &Structural{Structural: &prop}, true\n}\n\nfunc (s *Structural) AdditionalProperties() common.SchemaOrBool {"}},
	})
}

// TestPropertyPatchSameSchemas: Property(name) is Properties()[name].
func TestPropertyPatchSameSchemas(t *testing.T) {
	max := int64(3)
	s := &Structural{Structural: &schema.Structural{Generic: schema.Generic{Type: "object"}, Properties: map[string]schema.Structural{
		"a": {Generic: schema.Generic{Type: "string"}, ValueValidation: &schema.ValueValidation{MaxLength: &max}},
		"b": {Generic: schema.Generic{Type: "integer"}},
		"c": {Generic: schema.Generic{Type: "array"}, Items: &schema.Structural{Generic: schema.Generic{Type: "string"}}},
	}}}
	for _, name := range []string{"a", "b", "c", "missing"} {
		got, ok := s.Property(name)
		want, wantOK := s.Properties()[name]
		if ok != wantOK || !reflect.DeepEqual(got, want) {
			t.Errorf("Property(%q) = %v, %t; Properties() has %v, %t", name, got, ok, want, wantOK)
		}
	}
}
