package common_test

import (
	"strings"
	"testing"

	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"

	"k8s.io/apiserver/internal/patchcheck"
	"k8s.io/apiserver/pkg/cel/common"
	"k8s.io/apiserver/pkg/cel/openapi"
	"k8s.io/kube-openapi/pkg/validation/spec"
)

// TestValuesPatchIsOnlyTheDeclaredEdits: the files are upstream's with the
// properties taken once per converted value, an unstructured map's isObject
// known when it is made, and every map and object iterator's keys sorted
// (PATCHES.md, "cel/common: an object's properties built once per value"
// and "cel/common: maps iterated in key order").
func TestValuesPatchIsOnlyTheDeclaredEdits(t *testing.T) {
	patchcheck.Check(t, "../../..", patchcheck.Patch{
		File: "pkg/cel/common/valuesunstructured.go",
		Replace: [][2]string{
			{"\t\tif schema.IsXEmbeddedResource() || schema.Properties() != nil {\n\t\t\tif schema.IsXEmbeddedResource() {\n\t\t\t\tschema = schema.WithTypeAndObjectMeta()\n\t\t\t}\n",
				"\t\tembedded := schema.IsXEmbeddedResource()\n\t\tif embedded {\n\t\t\tschema = schema.WithTypeAndObjectMeta()\n\t\t}\n\t\tif props := schema.Properties(); embedded || props != nil {\n"},
			{"if schema, ok := schema.Properties()[key]; ok {", "if schema, ok := props[key]; ok {"},
			{"\t\t\t\t\treturn nil, false\n\t\t\t\t},\n\t\t\t}\n\t\t}\n\t\tif schema.AdditionalProperties()",
				"\t\t\t\t\treturn nil, false\n\t\t\t\t},\n\t\t\t\tisObject: props != nil,\n\t\t\t}\n\t\t}\n\t\tif schema.AdditionalProperties()"},
			{"\tpropSchema func(key string) (Schema, bool)\n}\n", "\tpropSchema func(key string) (Schema, bool)\n\tisObject   bool\n}\n"},
			{"\tisObject := t.schema.Properties() != nil\n", "\tisObject := t.isObject\n"},
			{"\treturn &mapIterator{unstructuredMap: t, keys: keys}\n", "\tsortStringVals(keys[:i])\n\treturn &mapIterator{unstructuredMap: t, keys: keys}\n"},
		},
	})
	patchcheck.Check(t, "../../..", patchcheck.Patch{
		File: "pkg/cel/common/valuesreflect.go",
		Replace: [][2]string{
			{"\t\tif schema.Properties() == nil {\n", "\t\tprops := schema.Properties()\n\t\tif props == nil {\n"},
			{"if schema, ok := schema.Properties()[key]; ok {", "if schema, ok := props[key]; ok {"},
			{"\treturn &mapIter{typedMap: t, keys: keys}\n", "\tsortStringVals(keys)\n\treturn &mapIter{typedMap: t, keys: keys}\n"},
		},
	})
	patchcheck.Check(t, "../../..", patchcheck.Patch{
		File: "pkg/cel/common/valuesschemalesstyped.go",
		Replace: [][2]string{
			{"keys: m.value.MapKeys(), idx: 0}", "keys: sortReflectKeys(m.value.MapKeys()), idx: 0}"},
			{"\treturn &reflectSchemalessTypedStructIterator{", "\tsortNames(keys)\n\treturn &reflectSchemalessTypedStructIterator{"},
		},
	})
}

// counting is a schema that counts the calls of Properties, which builds a
// new map of every property each time.
type counting struct {
	common.Schema
	calls *int
}

func (c counting) Properties() map[string]common.Schema {
	*c.calls++
	return c.Schema.Properties()
}

func object(props map[string]spec.Schema) *spec.Schema {
	return &spec.Schema{SchemaProps: spec.SchemaProps{Type: []string{"object"}, Properties: props}}
}

func scalar(typ string) spec.Schema {
	return spec.Schema{SchemaProps: spec.SchemaProps{Type: []string{typ}}}
}

// TestValuesPatchReadsPropertiesOnce: an object's fields read through
// the converted value are the document's, absent ones are absent, and the
// schema's properties are built once for the value, however many fields
// are read (upstream: once more per read).
func TestValuesPatchReadsPropertiesOnce(t *testing.T) {
	nested := *object(map[string]spec.Schema{"c": scalar("string")})
	root := object(map[string]spec.Schema{"a": scalar("string"), "b": scalar("integer"), "nested": nested})
	doc := map[string]any{"a": "x", "b": int64(1), "nested": map[string]any{"c": "y"}}

	calls := 0
	v := common.UnstructuredToVal(doc, counting{&openapi.Schema{Schema: root}, &calls})
	m := v.(traits.Mapper)
	for i := 0; i < 3; i++ {
		if got := m.Get(types.String("a")); got != types.String("x") {
			t.Fatalf("a = %v", got)
		}
	}
	if got := m.Get(types.String("b")); got != types.Int(1) {
		t.Fatalf("b = %v", got)
	}
	if got := m.Get(types.String("nested")).(traits.Mapper).Get(types.String("c")); got != types.String("y") {
		t.Fatalf("nested.c = %v", got)
	}
	if got, found := m.Find(types.String("missing")); found {
		t.Fatalf("missing found: %v", got)
	}
	if calls != 1 {
		t.Errorf("6 reads of an unstructured object built its properties %d times, want 1", calls)
	}

	// What isObject decides: a null field of an object with properties is
	// absent, and its keys are escaped (iteration) and unescaped (lookup).
	calls = 0
	ov := common.UnstructuredToVal(map[string]any{"a-b": "x", "n": nil},
		counting{&openapi.Schema{Schema: object(map[string]spec.Schema{"a-b": scalar("string"), "n": scalar("string")})}, &calls}).(traits.Mapper)
	if got, found := ov.Find(types.String("n")); found {
		t.Fatalf("null field n found: %v", got)
	}
	if got := ov.Get(types.String("a__dash__b")); got != types.String("x") {
		t.Fatalf("a__dash__b = %v", got)
	}
	keys := iterate(t, ov)
	if len(keys) != 2 || (keys[0] != "a__dash__b" && keys[1] != "a__dash__b") {
		t.Fatalf("keys %v, want a__dash__b among them", keys)
	}
	if calls != 1 {
		t.Errorf("reads and an iteration of an object built its properties %d times, want 1", calls)
	}
	// Without properties (additionalProperties), keys are not escaped.
	av := common.UnstructuredToVal(map[string]any{"a-b": "x"}, &openapi.Schema{Schema: &spec.Schema{SchemaProps: spec.SchemaProps{
		Type: []string{"object"}, AdditionalProperties: &spec.SchemaOrBool{Allows: true, Schema: &spec.Schema{SchemaProps: spec.SchemaProps{Type: []string{"string"}}}}}}}).(traits.Mapper)
	if got := av.Get(types.String("a-b")); got != types.String("x") {
		t.Fatalf("additionalProperties a-b = %v", got)
	}

	// An embedded resource gains apiVersion, kind and metadata.
	emb := object(map[string]spec.Schema{"spec": scalar("string")})
	emb.Extensions = spec.Extensions{"x-kubernetes-embedded-resource": true}
	ev := common.UnstructuredToVal(map[string]any{"kind": "K", "spec": "s"}, &openapi.Schema{Schema: emb}).(traits.Mapper)
	if got := ev.Get(types.String("kind")); got != types.String("K") {
		t.Fatalf("embedded kind = %v", got)
	}
	if got := ev.Get(types.String("spec")); got != types.String("s") {
		t.Fatalf("embedded spec = %v", got)
	}

	// A typed struct (TypedToVal) reads its fields the same way.
	type typed struct {
		A string `json:"a"`
		B int64  `json:"b"`
	}
	calls = 0
	tv := common.TypedToVal(typed{A: "x", B: 2}, counting{&openapi.Schema{Schema: object(map[string]spec.Schema{"a": scalar("string"), "b": scalar("integer")})}, &calls}).(traits.Indexer)
	for _, c := range []struct {
		key  string
		want ref.Val
	}{{"a", types.String("x")}, {"b", types.Int(2)}, {"a", types.String("x")}} {
		if got := tv.Get(types.String(c.key)); got.Equal(c.want) != types.True {
			t.Fatalf("typed %s = %v, want %v", c.key, got, c.want)
		}
	}
	if calls != 1 {
		t.Errorf("3 reads of a typed struct built its properties %d times, want 1", calls)
	}
}

// iterate returns the keys v's iterator yields.
func iterate(t *testing.T, v ref.Val) []string {
	var keys []string
	for it := v.(traits.Iterable).Iterator(); it.HasNext() == types.True; {
		k, ok := it.Next().(types.String)
		if !ok {
			t.Fatalf("%T iterator yielded a non-string key", v)
		}
		keys = append(keys, string(k))
	}
	return keys
}

// TestKeyOrderPatchIteratesInKeyOrder: every map and object value the
// Kubernetes libraries make (unstructured with and without properties,
// typed with a schema, schemaless typed maps and structs) iterates its keys
// sorted, the same on every call; upstream used Go's map order, so a
// comprehension's result, first error and cost changed between calls.
func TestKeyOrderPatchIteratesInKeyOrder(t *testing.T) {
	names := []string{"q", "b", "z", "a", "m", "c", "y", "d", "x", "e", "w", "f", "v", "g", "u", "h"}
	doc := map[string]any{}
	strs := map[string]string{}
	props := map[string]spec.Schema{}
	for _, n := range names {
		doc[n], strs[n], props[n] = n, n, scalar("string")
	}
	doc["a-b"], props["a-b"] = "x", scalar("string") // escaped: a__dash__b
	additional := &spec.Schema{SchemaProps: spec.SchemaProps{Type: []string{"object"},
		AdditionalProperties: &spec.SchemaOrBool{Allows: true, Schema: &spec.Schema{SchemaProps: spec.SchemaProps{Type: []string{"string"}}}}}}
	type fields struct {
		Zeta  string `json:"zeta"`
		Alpha string `json:"alpha"`
		Mu    string `json:"mu"`
		Beta  string `json:"beta"`
		Omit  string `json:"omit,omitempty"`
		Gamma string `json:"gamma"`
	}
	cases := []struct {
		name string
		keys int
		make func() ref.Val
	}{
		{"unstructured object", 17, func() ref.Val { return common.UnstructuredToVal(doc, &openapi.Schema{Schema: object(props)}) }},
		{"unstructured map", 17, func() ref.Val { return common.UnstructuredToVal(doc, &openapi.Schema{Schema: additional}) }},
		{"typed map", 16, func() ref.Val { return common.TypedToVal(strs, &openapi.Schema{Schema: additional}) }},
		{"schemaless map", 16, func() ref.Val { return common.SchemalessTypedToVal(strs) }},
		{"schemaless struct", 5, func() ref.Val {
			return common.SchemalessTypedToVal(fields{Zeta: "z", Alpha: "a", Mu: "m", Beta: "b", Gamma: "g"})
		}},
	}
	for _, c := range cases {
		first := iterate(t, c.make())
		if len(first) != c.keys {
			t.Fatalf("%s: %d keys %v, want %d", c.name, len(first), first, c.keys)
		}
		for i := 1; i < len(first); i++ {
			if first[i-1] >= first[i] {
				t.Fatalf("%s: keys not sorted: %v", c.name, first)
			}
		}
		for i := 0; i < 50; i++ {
			if got := iterate(t, c.make()); strings.Join(got, ",") != strings.Join(first, ",") {
				t.Fatalf("%s: iteration %d gave %v, then %v", c.name, i, first, got)
			}
		}
	}
	if got := iterate(t, cases[0].make()); got[0] != "a" || got[1] != "a__dash__b" {
		t.Fatalf("object keys are sorted as CEL sees them (escaped): %v", got)
	}
}
