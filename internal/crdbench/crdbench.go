// Package crdbench is the CRD validation workload of docs/benchmarks.md: a
// WebApp with 200 list items against the rule-heavy CRD of
// conformance/testdata/crd/kep (40 x-kubernetes-validations: the KEP-2876
// rule table, transition rules, three rules on every item), as a create and
// as an update of the same object. cmd/celwasm-crd-bench times it on every
// path; wasm/crd's BenchmarkValidateKEP profiles the engine on it natively
// (make profile-crd).
package crdbench

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/celwasm/celwasm/wasm/input"
)

// Files of the workload, relative to the repository's root.
const (
	CRDFile = "conformance/testdata/crd/kep/crd.yaml"
	ObjFile = "conformance/testdata/crd/kep/valid.yaml"
	// Items is the length of the object's spec.items.
	Items = 200
)

// Workload reads the CRD and the first valid KEP object under root (the
// repository's root) and builds the 200-item object and its update
// (replicas and counter changed): the JSON bytes of each.
func Workload(root string) (crd, obj, updated []byte, err error) {
	if crd, err = firstDoc(filepath.Join(root, CRDFile)); err != nil {
		return nil, nil, nil, err
	}
	first, err := firstDoc(filepath.Join(root, ObjFile))
	if err != nil {
		return nil, nil, nil, err
	}
	var o map[string]any
	if err := json.Unmarshal(first, &o); err != nil {
		return nil, nil, nil, err
	}
	spec, ok := o["spec"].(map[string]any)
	if !ok {
		return nil, nil, nil, fmt.Errorf("%s: the first object has no spec", ObjFile)
	}
	var list []any
	for i := 0; i < Items; i++ {
		list = append(list, map[string]any{"name": "svc" + letters(i), "port": 8000 + i})
	}
	spec["items"] = list
	if obj, err = json.Marshal(o); err != nil {
		return nil, nil, nil, err
	}
	spec["replicas"] = 4
	spec["counter"] = 6
	if updated, err = json.Marshal(o); err != nil {
		return nil, nil, nil, err
	}
	return crd, obj, updated, nil
}

// firstDoc is the first object of file as JSON, read as the CLI reads it
// (wasm/input: YAML or JSON documents, a kind: List's items).
func firstDoc(file string) ([]byte, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	objs, err := input.Objects(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	if len(objs) == 0 {
		return nil, fmt.Errorf("%s: no document", file)
	}
	return objs[0], nil
}

// letters spells i in lowercase letters (item names must match ^[a-z]+$).
func letters(i int) string {
	s := ""
	for {
		s = string(rune('a'+i%26)) + s
		i /= 26
		if i == 0 {
			return s
		}
	}
}
