package abi

import "testing"

func benchEval(b *testing.B, expr, decl, act string) {
	h := NewHandler()
	h.Compile([]byte(`{"expression":"` + expr + `","env":{"variables":[` + decl + `]}}`))
	req := []byte(`{"program":1,"activation":` + act + `}`)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		h.Eval(req)
	}
}

func BenchmarkEvalTrue(b *testing.B) { benchEval(b, "true", "", "{}") }
func BenchmarkEvalB(b *testing.B) {
	benchEval(b, "self.minReplicas <= self.replicas && self.replicas <= self.maxReplicas", `{"name":"self","type":"dyn"}`, `{"self":{"minReplicas":1,"replicas":3,"maxReplicas":5}}`)
}
