package filter

import (
	"encoding/json"
	"os"
	"testing"
)

// BenchmarkDecide is one request's decision natively, over the fake host from
// the loopback address the Envoy benchmark's requests come from, for each
// configuration of host/envoy/cmd/envoy-bench/policies.json (the 4-rule
// policy, and the one rule `true`). For a profile: make profile-proxywasm.
func BenchmarkDecide(b *testing.B) {
	raw, err := os.ReadFile("../../../host/envoy/cmd/envoy-bench/policies.json")
	if err != nil {
		b.Fatal(err)
	}
	var policies map[string]json.RawMessage
	if err := json.Unmarshal(raw, &policies); err != nil {
		b.Fatal(err)
	}
	for _, name := range []string{"policy", "true"} {
		b.Run(name, func(b *testing.B) {
			f, err := New(policies[name])
			if err != nil {
				b.Fatal(err)
			}
			h := newHost()
			h.props["source.address"] = []byte("127.0.0.1:40000")
			b.ReportAllocs()
			for b.Loop() {
				h.calls = h.calls[:0]
				if d := f.Decide(h); !d.Allow {
					b.Fatalf("denied: %+v", d)
				}
			}
		})
	}
}
