package pruning

import (
	"reflect"
	"testing"

	"k8s.io/apiextensions-apiserver/internal/patchcheck"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
)

// TestPropCopyPatchIsOnlyTheDeclaredEdits: one copy of a property's schema
// per object in prune and skipPrune (PATCHES.md, "schema: one copy of a
// property's schema per object").
func TestPropCopyPatchIsOnlyTheDeclaredEdits(t *testing.T) {
	patchcheck.Check(t, "../../../..", patchcheck.Patch{
		File: "pkg/apiserver/schema/pruning/algorithm.go",
		Replace: [][2]string{
			{"\t\tfor k, v := range x {\n\t\t\tif s.XEmbeddedResource && metaFields[k] {\n\t\t\t\tcontinue\n\t\t\t}\n\t\t\tprop, ok := s.Properties[k]\n\t\t\tif ok {\n",
				"\t\tvar prop structuralschema.Structural\n\t\tfor k, v := range x {\n\t\t\tif s.XEmbeddedResource && metaFields[k] {\n\t\t\t\tcontinue\n\t\t\t}\n\t\t\tp, ok := s.Properties[k]\n\t\t\tif ok {\n\t\t\t\tprop = p\n"},
			{"\t\tfor k, v := range x {\n\t\t\tif s.XEmbeddedResource && metaFields[k] {\n\t\t\t\tcontinue\n\t\t\t}\n\t\t\tif prop, ok := s.Properties[k]; ok {\n",
				"\t\tvar prop structuralschema.Structural\n\t\tfor k, v := range x {\n\t\t\tif s.XEmbeddedResource && metaFields[k] {\n\t\t\t\tcontinue\n\t\t\t}\n\t\t\tif p, ok := s.Properties[k]; ok {\n\t\t\t\tprop = p\n"},
		},
	})
}

func obj(props map[string]structuralschema.Structural) structuralschema.Structural {
	return structuralschema.Structural{Generic: structuralschema.Generic{Type: "object"}, Properties: props}
}

// TestPropCopyPatchEachFieldItsSchema: sibling objects with different
// properties each keep their own fields, also under a field that preserves
// unknown fields (skipPrune), and nothing is allocated when nothing is pruned.
func TestPropCopyPatchEachFieldItsSchema(t *testing.T) {
	str := structuralschema.Structural{Generic: structuralschema.Generic{Type: "string"}}
	keep := obj(map[string]structuralschema.Structural{"k": obj(map[string]structuralschema.Structural{"x": str})})
	keep.XPreserveUnknownFields = true
	s := obj(map[string]structuralschema.Structural{
		"a": obj(map[string]structuralschema.Structural{"x": str}),
		"b": obj(map[string]structuralschema.Structural{"y": str}),
		"p": keep,
	})
	x := map[string]interface{}{
		"a": map[string]interface{}{"x": "1", "y": "2"},
		"b": map[string]interface{}{"x": "3", "y": "4"},
		"p": map[string]interface{}{"free": "5", "k": map[string]interface{}{"x": "6", "y": "7"}},
	}
	Prune(x, &s, false)
	want := map[string]interface{}{
		"a": map[string]interface{}{"x": "1"},
		"b": map[string]interface{}{"y": "4"},
		"p": map[string]interface{}{"free": "5", "k": map[string]interface{}{"x": "6"}},
	}
	if !reflect.DeepEqual(x, want) {
		t.Errorf("got %v, want %v", x, want)
	}
	if n := testing.AllocsPerRun(100, func() { Prune(x, &s, false) }); n > 1 {
		t.Errorf("%v allocations for an object with nothing to prune", n)
	}
}
