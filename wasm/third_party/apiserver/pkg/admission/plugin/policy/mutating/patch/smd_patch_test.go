package patch

import (
	"testing"

	"k8s.io/apiserver/internal/patchcheck"
	"sigs.k8s.io/structured-merge-diff/v6/typed"
)

// TestSMDPatchIsOnlyTheDeclaredEdits: findAtomics walks a map in key order,
// not Go's map order; nothing else changes (PATCHES.md, "mutating/patch:
// atomics named in key order").
func TestSMDPatchIsOnlyTheDeclaredEdits(t *testing.T) {
	patchcheck.Check(t, "../../../../../..", patchcheck.Patch{
		File: "pkg/admission/plugin/policy/mutating/patch/smd.go",
		Replace: [][2]string{{
			"v.AsMap().Iterate(func(key string, val value.Value) bool {",
			"value.MapZip(v.AsMap(), nil, value.LexicalKeyOrder, func(key string, val, _ value.Value) bool {",
		}},
	})
}

// TestSMDPatchAtomicsInKeyOrder: an apply configuration that sets several
// atomic lists is refused with the lists named in key order, the same on
// every call; upstream named them in Go's map order.
func TestSMDPatchAtomicsInKeyOrder(t *testing.T) {
	parser, err := typed.NewParser(`types:
- name: root
  map:
    fields:
    - {name: a, type: {namedType: atomicList}}
    - {name: b, type: {namedType: atomicList}}
    - {name: z, type: {namedType: atomicList}}
    - {name: c, type: {namedType: inner}}
- name: inner
  map:
    fields:
    - {name: d, type: {namedType: atomicList}}
    - {name: e, type: {namedType: atomicList}}
    - {name: f, type: {scalar: string}}
- name: atomicList
  list:
    elementType: {scalar: untyped}
    elementRelationship: atomic
`)
	if err != nil {
		t.Fatal(err)
	}
	const want = "may not mutate atomic arrays, maps or structs: .a, .b, .c.d, .c.e, .z"
	for i := 0; i < 200; i++ {
		v, err := parser.Type("root").FromUnstructured(map[string]interface{}{
			"z": []interface{}{int64(1)}, "b": []interface{}{int64(2)}, "a": []interface{}{int64(3)},
			"c": map[string]interface{}{"e": []interface{}{"x"}, "d": []interface{}{"y"}, "f": "scalar"},
		})
		if err != nil {
			t.Fatal(err)
		}
		if err := validatePatch(v); err == nil || err.Error() != want {
			t.Fatalf("call %d: %v, want %q", i, err, want)
		}
	}
}
