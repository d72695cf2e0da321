package listtype

import (
	"testing"

	"k8s.io/apiextensions-apiserver/internal/patchcheck"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// TestPropCopyPatchIsOnlyTheDeclaredEdit: one copy of a property's schema per
// object (PATCHES.md, "schema: one copy of a property's schema per object").
func TestPropCopyPatchIsOnlyTheDeclaredEdit(t *testing.T) {
	patchcheck.Check(t, "../../../..", patchcheck.Patch{
		File: "pkg/apiserver/schema/listtype/validation.go",
		Replace: [][2]string{{"\t\tfor k, v := range obj {\n\t\t\tif sub, ok := s.Properties[k]; ok {\n",
			"\t\tvar sub schema.Structural\n\t\tfor k, v := range obj {\n\t\t\tif p, ok := s.Properties[k]; ok {\n\t\t\t\tsub = p\n"}},
	})
}

// TestPropCopyPatchEachFieldItsSchema: of two sibling lists holding the same
// duplicates, only the set is an error.
func TestPropCopyPatchEachFieldItsSchema(t *testing.T) {
	set := "set"
	str := schema.Structural{Generic: schema.Generic{Type: "string"}}
	s := schema.Structural{Generic: schema.Generic{Type: "object"}, Properties: map[string]schema.Structural{
		"set":   {Generic: schema.Generic{Type: "array"}, Items: &str, Extensions: schema.Extensions{XListType: &set}},
		"plain": {Generic: schema.Generic{Type: "array"}, Items: &str},
	}}
	obj := map[string]interface{}{"set": []interface{}{"a", "a"}, "plain": []interface{}{"a", "a"}}
	errs := ValidateListSetsAndMaps(field.NewPath("spec"), &s, obj)
	if len(errs) != 1 || errs[0].Field != "spec.set[1]" {
		t.Errorf("errors: %v", errs)
	}
	if errs := ValidateListSetsAndMaps(field.NewPath("spec"), &s, map[string]interface{}{"set": []interface{}{"a", "b"}, "plain": []interface{}{"a", "a"}}); len(errs) != 0 {
		t.Errorf("errors for a valid object: %v", errs)
	}
}
