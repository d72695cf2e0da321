package typed_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"sigs.k8s.io/structured-merge-diff/v6/typed"
)

// upstreamFile reads a file of the structured-merge-diff version go.mod
// requires from the module cache.
func upstreamFile(t *testing.T, rel string) string {
	out, err := exec.Command("go", "mod", "download", "-json", "sigs.k8s.io/structured-merge-diff/v6@v6.4.2").Output()
	if err != nil {
		t.Fatalf("go mod download: %v", err)
	}
	var m struct{ Dir string }
	if err := json.Unmarshal(out, &m); err != nil || m.Dir == "" {
		t.Fatalf("go mod download: %s", out)
	}
	b, err := os.ReadFile(filepath.Join(m.Dir, rel))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestOrderPatchIsOnlyTheTraversal: validate.go and merge.go are upstream's
// with one line each changed, the map traversal (PATCHES.md).
func TestOrderPatchIsOnlyTheTraversal(t *testing.T) {
	for file, edit := range map[string][2]string{
		"validate.go": {
			"\tm.IterateUsing(v.allocator, func(key string, val value.Value) bool {\n",
			"\tvalue.MapZipUsing(v.allocator, m, nil, value.LexicalKeyOrder, func(key string, val, _ value.Value) bool {\n",
		},
		"merge.go": {
			"\tvalue.MapZipUsing(w.allocator, lhs, rhs, value.Unordered, func(key string, lhsValue, rhsValue value.Value) bool {\n",
			"\tvalue.MapZipUsing(w.allocator, lhs, rhs, value.LexicalKeyOrder, func(key string, lhsValue, rhsValue value.Value) bool {\n",
		},
	} {
		up := upstreamFile(t, "typed/"+file)
		if strings.Count(up, edit[0]) != 1 {
			t.Fatalf("%s: upstream does not have the traversal line once", file)
		}
		mine, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if want := strings.Replace(up, edit[0], edit[1], 1); string(mine) != want {
			t.Errorf("%s is not upstream's with only the map traversal changed", file)
		}
	}
}

var orderParser = func() *typed.Parser {
	p, err := typed.NewParser(`types:
- name: root
  map:
    fields:
    - name: a
      type: {scalar: numeric}
    - name: b
      type: {namedType: inner}
    - name: lists
      type: {map: {elementType: {namedType: keyedList}}}
- name: inner
  map:
    fields:
    - name: x
      type: {scalar: numeric}
- name: keyedList
  list:
    elementType: {namedType: item}
    elementRelationship: associative
    keys: [name]
- name: item
  map:
    fields:
    - name: name
      type: {scalar: string}
    - name: v
      type: {scalar: numeric}
`)
	if err != nil {
		panic(err)
	}
	return p
}()

func object(t *testing.T, js string) map[string]interface{} {
	var m map[string]interface{}
	if err := json.Unmarshal([]byte(js), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// TestOrderPatchValidationErrors: a map's validation stops at the first
// field its schema does not declare. Upstream visits the fields in Go's map
// order, so which undeclared field is named, and which of the other fields'
// errors come before it, changed from one call to the next. In key order the
// error is the same every time.
func TestOrderPatchValidationErrors(t *testing.T) {
	const want = "errors:\n  .b.v2: field not declared in schema\n  .c: field not declared in schema"
	for i := 0; i < 200; i++ {
		obj := object(t, `{"zz":1,"b":{"y":1,"w":2,"x":1,"v2":3},"a":1,"m":1,"c":1,"q":1}`)
		_, err := orderParser.Type("root").FromUnstructured(obj)
		if err == nil || err.Error() != want {
			t.Fatalf("call %d: %v, want %q", i, err, want)
		}
	}
}

// TestOrderPatchMergeErrors: a merge reports its maps' errors in key order.
func TestOrderPatchMergeErrors(t *testing.T) {
	lhs, err := orderParser.Type("root").FromUnstructured(object(t, `{"lists":{"p":[{"name":"a"}],"q":[{"name":"b"}]}}`))
	if err != nil {
		t.Fatal(err)
	}
	var first string
	for i := 0; i < 200; i++ {
		rhs, err := orderParser.Type("root").FromUnstructured(object(t,
			`{"lists":{"s":[{"name":"z"},{"name":"z"}],"q":[{"name":"x"},{"name":"x"}],"p":[{"name":"y"},{"name":"y"}],"r":[{"name":"w"},{"name":"w"}]}}`),
			typed.AllowDuplicates)
		if err != nil {
			t.Fatal(err)
		}
		_, err = lhs.Merge(rhs)
		if err == nil {
			t.Fatal("merge of duplicate entries: no error")
		}
		if i == 0 {
			first = err.Error()
			at := -1
			for _, k := range []string{".lists.p:", ".lists.q:", ".lists.r:", ".lists.s:"} {
				j := strings.Index(first, k)
				if j <= at {
					t.Fatalf("errors not in key order (%s):\n%s", k, first)
				}
				at = j
			}
		} else if err.Error() != first {
			t.Fatalf("call %d:\n%s\nwant\n%s", i, err, first)
		}
	}
}
