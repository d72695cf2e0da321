package objectmeta

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"k8s.io/apiextensions-apiserver/internal/patchcheck"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// TestPropCopyPatchIsOnlyTheDeclaredEdits: one copy of a property's schema
// per object in coerce and validate (PATCHES.md, "schema: one copy of a
// property's schema per object").
func TestPropCopyPatchIsOnlyTheDeclaredEdits(t *testing.T) {
	patchcheck.Check(t, "../../../..", patchcheck.Patch{
		File: "pkg/apiserver/schema/objectmeta/algorithm.go",
		Replace: [][2]string{
			{"\tcase map[string]interface{}:\n\t\tfor k, v := range x {\n\t\t\tif s.XEmbeddedResource {\n",
				"\tcase map[string]interface{}:\n\t\tvar prop structuralschema.Structural\n\t\tfor k, v := range x {\n\t\t\tif s.XEmbeddedResource {\n"},
			{"\t\t\tprop, ok := s.Properties[k]\n\t\t\tif ok {\n", "\t\t\tp, ok := s.Properties[k]\n\t\t\tif ok {\n\t\t\t\tprop = p\n"},
		},
	})
	patchcheck.Check(t, "../../../..", patchcheck.Patch{
		File: "pkg/apiserver/schema/objectmeta/validation.go",
		Replace: [][2]string{{"\t\tfor k, v := range x {\n\t\t\tprop, ok := s.Properties[k]\n\t\t\tif ok {\n",
			"\t\tvar prop structuralschema.Structural\n\t\tfor k, v := range x {\n\t\t\tp, ok := s.Properties[k]\n\t\t\tif ok {\n\t\t\t\tprop = p\n"}},
	})
}

// TestPropCopyPatchEachFieldItsSchema: of two sibling fields holding the same
// malformed metadata, only the embedded resource's is coerced and validated.
func TestPropCopyPatchEachFieldItsSchema(t *testing.T) {
	embedded := structuralschema.Structural{Generic: structuralschema.Generic{Type: "object"}, Extensions: structuralschema.Extensions{XEmbeddedResource: true, XPreserveUnknownFields: true}}
	plain := structuralschema.Structural{Generic: structuralschema.Generic{Type: "object"}, Extensions: structuralschema.Extensions{XPreserveUnknownFields: true}}
	s := structuralschema.Structural{Generic: structuralschema.Generic{Type: "object"}, Properties: map[string]structuralschema.Structural{"e": embedded, "p": plain}}
	bad := func() map[string]interface{} {
		return map[string]interface{}{"apiVersion": "v1", "kind": "K", "metadata": map[string]interface{}{"name": "Not_Valid", "labels": int64(1)}}
	}
	x := map[string]interface{}{"e": bad(), "p": bad()}
	if err, _ := CoerceWithOptions(nil, x, &s, false, CoerceOptions{DropInvalidFields: true}); err != nil {
		t.Fatal(err)
	}
	if got := x["e"].(map[string]interface{})["metadata"]; !reflect.DeepEqual(got, map[string]interface{}{"name": "Not_Valid"}) {
		t.Errorf("embedded metadata after coercion: %v", got)
	}
	if !reflect.DeepEqual(x["p"], bad()) {
		t.Errorf("the plain field was coerced: %v", x["p"])
	}
	noKind := func() map[string]interface{} {
		return map[string]interface{}{"apiVersion": "v1", "metadata": map[string]interface{}{"name": "n"}}
	}
	errs := Validate(context.Background(), field.NewPath("spec"), map[string]interface{}{"e": noKind(), "p": noKind()}, &s, false)
	if len(errs) != 1 || !strings.HasPrefix(errs[0].Field, "spec.e.kind") {
		t.Errorf("errors: %v", errs)
	}
}
