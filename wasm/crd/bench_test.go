package crd

import (
	"testing"

	"github.com/celwasm/celwasm/internal/crdbench"
)

// BenchmarkValidateKEP validates the CRD benchmark's workload
// (internal/crdbench, docs/benchmarks.md "CRD validation") natively: the
// code the module runs, for pprof (make profile-crd).
func BenchmarkValidateKEP(b *testing.B) {
	doc, obj, updated, err := crdbench.Workload("../..")
	if err != nil {
		b.Fatal(err)
	}
	c, err := Load(doc)
	if err != nil {
		b.Fatal(err)
	}
	for _, bc := range []struct {
		name     string
		obj, old []byte
	}{{"create", obj, nil}, {"update", updated, obj}} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				r, err := c.Validate("", bc.obj, bc.old)
				if err != nil {
					b.Fatal(err)
				}
				if !r.Valid {
					b.Fatalf("invalid: %s", r.Message)
				}
			}
		})
	}
}
