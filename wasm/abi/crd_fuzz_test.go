package abi_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/celwasm/celwasm/wasm/abi"
	"github.com/celwasm/celwasm/wasm/abi/crdhandler"
)

// FuzzValidate and FuzzCost: the CRD exports (package crdhandler) with the
// invariants of fuzz_test.go.

func FuzzValidate(f *testing.F) {
	crds, objects := abi.CRDSeeds(f)
	for _, c := range crds {
		f.Add(c, objects[0], "")
		f.Add(c, objects[0], objects[0])
	}
	f.Fuzz(func(t *testing.T, crd, object, old string) {
		item := map[string]json.RawMessage{"object": json.RawMessage(object)}
		if old != "" {
			item["oldObject"] = json.RawMessage(old)
		}
		req, err := json.Marshal(map[string]any{"crd": json.RawMessage(crd), "objects": []any{item}})
		if err != nil {
			return
		}
		resp := abi.Clone(crdhandler.New(abi.NewHandler()).Validate(req))
		if !abi.CheckResponse(t, "validate", resp, "crd", "results") {
			if again := crdhandler.New(abi.NewHandler()).Validate(req); !bytes.Equal(resp, again) {
				t.Fatalf("validate not deterministic:\n%s\n%s", resp, again)
			}
		}
	})
}

func FuzzCost(f *testing.F) {
	crds, _ := abi.CRDSeeds(f)
	for _, c := range crds {
		f.Add(c)
	}
	f.Fuzz(func(t *testing.T, crd string) {
		req, err := json.Marshal(map[string]json.RawMessage{"crd": json.RawMessage(crd)})
		if err != nil {
			return
		}
		resp := abi.Clone(crdhandler.New(abi.NewHandler()).Cost(req))
		if !abi.CheckResponse(t, "cost", resp, "crd", "valid", "schemas") {
			if again := crdhandler.New(abi.NewHandler()).Cost(req); !bytes.Equal(resp, again) {
				t.Fatalf("cost not deterministic:\n%s\n%s", resp, again)
			}
		}
	})
}
