package abi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"testing"
)

func BenchmarkBatchEvents(b *testing.B) {
	tmpl, _ := os.ReadFile("../../conformance/testdata/cloudevents/github-pull-request.json")
	var ev map[string]any
	json.Unmarshal(tmpl, &ev)
	h := NewHandler()
	resp := h.Compile([]byte(`{"cloudEventFilter":{"expression":"has(ce.type) && ce.type == 'com.github.pull.create' && has(ce.source) && ce.source == 'https://github.com/knative/eventing/pulls/123'"}}`))
	if !bytes.HasPrefix(resp, []byte(`{"program":1`)) {
		b.Fatal(string(resp))
	}
	var req bytes.Buffer
	req.WriteString(`{"program":1,"items":"cloudEvents"}`)
	for i := 0; i < 1000; i++ {
		ev["id"] = fmt.Sprint(i)
		e, _ := json.Marshal(ev)
		req.WriteByte('\n')
		req.Write(e)
	}
	r := req.Bytes()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		h.EvalBatch(r)
	}
}
