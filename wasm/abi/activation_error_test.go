package abi

import (
	"strings"
	"testing"
)

// TestActivationLimitsAsOnItsOwn: an activation inside an eval request is
// held to codec.MaxDepth and reported with offsets into itself, the same as
// a batch item on its own line (whose errors say "item: ").
func TestActivationLimitsAsOnItsOwn(t *testing.T) {
	h := NewHandler()
	h.Compile([]byte(`{"expression":"true","env":{"variables":[{"name":"self","type":"dyn"}]}}`))
	nest := func(n int) string {
		return `{"self":` + strings.Repeat("[", n) + "1" + strings.Repeat("]", n) + "}"
	}
	for _, c := range []struct{ activation, eval, batch string }{
		{nest(999), `{"value":true,"cost":0}`, `{"value":true,"cost":0}`},
		{nest(1000), `{"error":{"code":"invalid_activation","message":"activation: nesting deeper than the limit of 1000"}}`,
			`{"error":{"code":"invalid_activation","message":"activation: nesting deeper than the limit of 1000"}}`},
		{`{"self":NaN}`, `{"error":{"code":"invalid_activation","message":"activation: invalid JSON at offset 8: unexpected 'N', want a value"}}`,
			`{"error":{"code":"invalid_activation","message":"activation: invalid JSON at offset 8: unexpected 'N', want a value"}}`},
		{`{"self":1} x`, `{"error":{"code":"invalid_activation","message":"activation: invalid JSON at offset 11: unexpected data after the value"}}`,
			`{"error":{"code":"invalid_activation","message":"activation: invalid JSON at offset 11: unexpected data after the value"}}`},
	} {
		if got := string(h.Eval([]byte(`{"program":1,"activation":` + c.activation + `}`))); got != c.eval {
			t.Errorf("eval %.40s...\n got %s\nwant %s", c.activation, got, c.eval)
		}
		got := string(h.EvalBatch([]byte(`{"program":1,"items":"activations"}` + "\n" + c.activation + "\n")))
		if want := strings.Replace(c.batch, `"activation: `, `"item: `, 1); !strings.Contains(got, want) {
			t.Errorf("batch %.40s...\n got %s\nwant %s in it", c.activation, got, want)
		}
	}
}
