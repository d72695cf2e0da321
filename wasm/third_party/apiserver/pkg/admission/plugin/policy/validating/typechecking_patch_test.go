package validating

import (
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/internal/patchcheck"
	"k8s.io/kube-openapi/pkg/validation/spec"
)

// TestTypeCheckingPatchIsOnlyTheDeclaredEdits: typechecking.go names a
// resolved kind's type by its place in the type-checking context instead of
// the clock (PATCHES.md, "validating: type names from the context, not the
// clock").
func TestTypeCheckingPatchIsOnlyTheDeclaredEdits(t *testing.T) {
	patchcheck.Check(t, "../../../../..", patchcheck.Patch{
		File:          "pkg/admission/plugin/policy/validating/typechecking.go",
		RemoveImports: []string{"time"},
		Replace: [][2]string{
			{"for _, gvk := range allGvks {\n\t\tdeclType, err := c.declType(gvk)", "for i, gvk := range allGvks {\n\t\tdeclType, err := c.declType(gvk, i)"},
			{"c.declType(paramsGVK)", "c.declType(paramsGVK, len(allGvks))"},
			{"func generateUniqueTypeName(kind string) string {\n\treturn fmt.Sprintf(\"%s%d\", kind, time.Now().Nanosecond())", "func generateUniqueTypeName(kind string, n int) string {\n\treturn fmt.Sprintf(\"%s%d\", kind, n)"},
			{"declType(gvk schema.GroupVersionKind) (", "declType(gvk schema.GroupVersionKind, n int) ("},
			{"generateUniqueTypeName(gvk.Kind))", "generateUniqueTypeName(gvk.Kind, n))"},
		},
	})
}

type oneSchema struct{ s *spec.Schema }

func (r oneSchema) ResolveSchema(schema.GroupVersionKind) (*spec.Schema, error) { return r.s, nil }

// TestPatchTypeNamesFromTheContext: the same kind at the same place gets the same
// type name every time (so type-checking warnings that name it are
// reproducible), and another place another name.
func TestPatchTypeNamesFromTheContext(t *testing.T) {
	s := &spec.Schema{SchemaProps: spec.SchemaProps{Type: []string{"object"}, Properties: map[string]spec.Schema{
		"metadata": {SchemaProps: spec.SchemaProps{Type: []string{"object"}, Properties: map[string]spec.Schema{
			"name": {SchemaProps: spec.SchemaProps{Type: []string{"string"}}}}}}}}}
	c := &TypeChecker{SchemaResolver: oneSchema{s}}
	gvk := schema.GroupVersionKind{Version: "v1", Kind: "Namespace"}
	name := func(n int) string {
		d, err := c.declType(gvk, n)
		if err != nil || d == nil {
			t.Fatalf("declType: %v, %v", d, err)
		}
		return d.TypeName()
	}
	if a, b := name(0), name(0); a != "Namespace0" || b != a {
		t.Fatalf("names %q, %q; want Namespace0 twice", a, b)
	}
	if got := name(1); got != "Namespace1" {
		t.Fatalf("name at place 1: %q", got)
	}
}
