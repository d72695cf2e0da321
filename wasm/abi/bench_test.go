package abi

import (
	"bytes"
	"encoding/json"
	"os"
	"testing"

	sigsyaml "sigs.k8s.io/yaml"
)

// The reference cases of docs/benchmarks.md, (a)–(d), and `true`, through
// the handler as the module runs them (JSON request in, JSON response out).
// make profile runs them with -cpuprofile and -memprofile; cmd/celwasm-bench
// reports their allocations per call.

type refCase struct {
	name, expr, variable string
	activation           []byte // {variable: document}
	want                 string // the response
}

func refCases(tb testing.TB) []refCase {
	event, err := os.ReadFile("../../conformance/testdata/cloudevents/github-pull-request.json")
	if err != nil {
		tb.Fatal(err)
	}
	webapp, err := os.ReadFile("../../conformance/testdata/k8s/webapp.yaml")
	if err != nil {
		tb.Fatal(err)
	}
	webappJSON, err := sigsyaml.YAMLToJSON(webapp)
	if err != nil {
		tb.Fatal(err)
	}
	var cr struct {
		Spec json.RawMessage `json:"spec"`
	}
	if err := json.Unmarshal(webappJSON, &cr); err != nil {
		tb.Fatal(err)
	}
	wrap := func(name string, doc []byte) []byte {
		var b bytes.Buffer
		if err := json.Compact(&b, doc); err != nil {
			tb.Fatal(err)
		}
		return []byte(`{"` + name + `":` + b.String() + `}`)
	}
	return []refCase{
		{"true", "true", "self", []byte(`{}`), `{"value":true,"cost":0}`},
		{"a", `ce.type == "com.github.pull.create" && ce.source.startsWith("https://github.com")`, "ce", wrap("ce", event), `{"value":true,"cost":9}`},
		{"b", `self.minReplicas <= self.replicas && self.replicas <= self.maxReplicas`, "self", wrap("self", []byte(`{"minReplicas":1,"replicas":3,"maxReplicas":5}`)), `{"value":true,"cost":10}`},
		{"c", `self.items.all(i, i.name.matches('^[a-z]+$'))`, "self", wrap("self", cr.Spec), ""},
		{"d", `quantity(self.mem).isLessThan(quantity('1Gi'))`, "self", wrap("self", []byte(`{"mem":"768Mi"}`)), `{"value":true,"cost":5}`},
	}
}

// compileRef compiles c on h and returns its handle.
func compileRef(tb testing.TB, h *Handler, c refCase) uint32 {
	req, _ := json.Marshal(map[string]any{"expression": c.expr, "env": map[string]any{"variables": []any{map[string]string{"name": c.variable, "type": "dyn"}}}})
	resp := h.Compile(req)
	var cr struct{ Program uint32 }
	if err := json.Unmarshal(resp, &cr); err != nil || cr.Program == 0 {
		tb.Fatalf("compile %s: %s", c.name, resp)
	}
	return cr.Program
}

func BenchmarkEval(b *testing.B) {
	for _, c := range refCases(b) {
		b.Run(c.name, func(b *testing.B) {
			h := NewHandler()
			id := compileRef(b, h, c)
			req := []byte(`{"program":` + itoa(id) + `,"activation":` + string(c.activation) + `}`)
			resp := h.Eval(req)
			if !bytes.HasPrefix(resp, []byte(`{"value":`)) || (c.want != "" && string(resp) != c.want) {
				b.Fatalf("%s: %s", c.name, resp)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				h.Eval(req)
			}
		})
	}
}

// BenchmarkEvalActivation: the same cases through the integer envelope
// (celwasm_eval_activation).
func BenchmarkEvalActivation(b *testing.B) {
	for _, c := range refCases(b) {
		b.Run(c.name, func(b *testing.B) {
			h := NewHandler()
			id := compileRef(b, h, c)
			if packed, resp := h.EvalActivation(id, 0, c.activation); packed == 0 && (c.want != "" || !bytes.HasPrefix(resp, []byte(`{"value":`))) {
				b.Fatalf("%s: %s", c.name, resp)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				h.EvalActivation(id, 0, c.activation)
			}
		})
	}
}

func itoa(n uint32) string { b, _ := json.Marshal(n); return string(b) }

// TestWriteRefCases writes the reference cases for the guest profiler
// (scripts/profile-guest.mjs) when CELWASM_REF_CASES names a file.
func TestWriteRefCases(t *testing.T) {
	f := os.Getenv("CELWASM_REF_CASES")
	if f == "" {
		t.Skip("CELWASM_REF_CASES not set")
	}
	var out []map[string]any
	for _, c := range refCases(t) {
		out = append(out, map[string]any{"name": c.name, "expression": c.expr, "variable": c.variable, "activation": json.RawMessage(c.activation)})
	}
	b, _ := json.Marshal(out)
	if err := os.WriteFile(f, b, 0o644); err != nil {
		t.Fatal(err)
	}
}
