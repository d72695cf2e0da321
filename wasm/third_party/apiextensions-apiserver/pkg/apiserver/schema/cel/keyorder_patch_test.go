package cel

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"k8s.io/apiextensions-apiserver/internal/patchcheck"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// TestKeyOrderPatchIsOnlyTheDeclaredEdits: validation.go is upstream's with
// validateMap's two loops over an object's fields walking them in key order
// (PATCHES.md, "schema/cel: fields validated in key order") and one copy of
// a property's validator per object ("schema: one copy of a property's
// schema per object").
func TestKeyOrderPatchIsOnlyTheDeclaredEdits(t *testing.T) {
	patchcheck.Check(t, "../../../..", patchcheck.Patch{
		File: "pkg/apiserver/schema/cel/validation.go",
		Replace: [][2]string{
			{"\tif s.AdditionalProperties != nil {\n\t\tfor k, v := range obj {\n",
				"\tif s.AdditionalProperties != nil {\n\t\tfor k, v := range inKeyOrder(obj) {\n"},
			{"\tif s.Properties != nil {\n\t\tfor k, v := range obj {\n\t\t\tsub, ok := s.Properties[k]\n\t\t\tif ok {\n",
				"\tif s.Properties != nil {\n\t\tvar sub Validator\n\t\tfor k, v := range inKeyOrder(obj) {\n\t\t\tp, ok := s.Properties[k]\n\t\t\tif ok {\n\t\t\t\tsub = p\n"},
		},
	})
}

// TestKeyOrderPatchSpendsTheBudgetInKeyOrder: when the cost budget runs out
// part-way through an object, the rules that ran are those of its first
// fields in key order, the same on every call, for declared properties and
// for additionalProperties alike.
func TestKeyOrderPatchSpendsTheBudgetInKeyOrder(t *testing.T) {
	str := schema.Structural{Generic: schema.Generic{Type: "string"}}
	str.XValidations = apiextensionsv1.ValidationRules{{Rule: "self == 'ok'"}}
	keys := []string{"q", "e", "x", "a", "m", "c", "z", "b"}
	props := map[string]schema.Structural{}
	obj := map[string]interface{}{}
	for _, k := range keys {
		props[k] = str
		obj[k] = "no"
	}
	for _, c := range []struct {
		name   string
		s      schema.Structural
		fields string // of the first three errors
	}{
		{"properties", schema.Structural{Generic: schema.Generic{Type: "object"}, Properties: props}, "root.a root.b root.c"},
		{"additionalProperties", schema.Structural{Generic: schema.Generic{Type: "object"}, AdditionalProperties: &schema.StructuralOrBool{Bool: true, Structural: &str}}, "root[a] root[b] root[c]"},
	} {
		s := c.s
		t.Run(c.name, func(t *testing.T) {
			v := NewValidator(&s, false, 1000000)
			all, left := v.Validate(context.Background(), field.NewPath("root"), &s, obj, nil, 1<<40)
			if len(all) != len(keys) {
				t.Fatalf("with budget to spare: %d errors, want %d: %v", len(all), len(keys), all)
			}
			perRule := (1<<40 - left) / int64(len(keys))
			var first string
			for i := 0; i < 50; i++ {
				errs, _ := v.Validate(context.Background(), field.NewPath("root"), &s, obj, nil, 3*perRule+perRule/2)
				got := fmt.Sprint(errs)
				if i == 0 {
					first = got
					if len(errs) != 4 || errs[0].Field+" "+errs[1].Field+" "+errs[2].Field != c.fields ||
						!strings.Contains(errs[3].Error(), "cost budget") {
						t.Fatalf("budget for three rules: %v", errs)
					}
				} else if got != first {
					t.Fatalf("call %d: %s, then %s", i, first, got)
				}
			}
		})
	}
}
