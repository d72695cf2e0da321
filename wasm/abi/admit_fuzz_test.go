package abi_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/celwasm/celwasm/wasm/abi"
	"github.com/celwasm/celwasm/wasm/abi/admithandler"
)

// FuzzAdmit: the admit export (package admithandler) with the invariants of
// fuzz_test.go, seeded with the admission corpus (conformance/admission/
// cases): the cluster's documents and the requests under admission are the
// two inputs the fuzzer mutates.
func FuzzAdmit(f *testing.F) {
	paths, err := filepath.Glob("../../conformance/admission/cases/*.yaml")
	if err != nil || len(paths) < 40 {
		f.Fatalf("admission corpus: %d cases, %v", len(paths), err)
	}
	sort.Strings(paths)
	for _, p := range paths {
		raw, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		js, err := yaml.YAMLToJSON(raw)
		if err != nil {
			f.Fatalf("%s: %v", p, err)
		}
		var c struct {
			Documents json.RawMessage `json:"documents"`
			Requests  json.RawMessage `json:"requests"`
		}
		if err := json.Unmarshal(js, &c); err != nil || len(c.Documents) == 0 || len(c.Requests) == 0 {
			f.Fatalf("%s: no documents or requests (%v)", p, err)
		}
		f.Add(string(c.Documents), string(c.Requests))
	}
	f.Fuzz(func(t *testing.T, documents, requests string) {
		req, err := json.Marshal(map[string]json.RawMessage{"documents": json.RawMessage(documents), "requests": json.RawMessage(requests)})
		if err != nil {
			return
		}
		resp := abi.Clone(admithandler.New(abi.NewHandler()).Admit(req))
		if !abi.CheckResponse(t, "admit", resp, "results") {
			if again := admithandler.New(abi.NewHandler()).Admit(req); !bytes.Equal(resp, again) {
				t.Fatalf("admit not deterministic:\n%s\n%s", resp, again)
			}
		}
	})
}
