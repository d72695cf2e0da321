package check

import (
	"encoding/json"
	"testing"

	"github.com/celwasm/celwasm/conformance/internal/corpus"
)

func TestEqual(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want bool
	}{
		{`{"map":[["a",{"int":"1"}],["b",{"int":"2"}]]}`, `{"map":[["b",{"int":"2"}],["a",{"int":"1"}]]}`, true},
		{`{"map":[["a",{"int":"1"}]]}`, `{"map":[["a",{"int":"2"}]]}`, false},
		{`{"map":[["a",1],["a",1]]}`, `{"map":[["a",1],["b",1]]}`, false},
		{`{"double":"0"}`, `{"double":"-0"}`, true},
		{`{"double":"NaN"}`, `{"double":"NaN"}`, true},
		{`{"double":"1"}`, `{"double":"1.0000000000000002"}`, false},
		{`{"double":"1e+21"}`, `{"double":"1000000000000000000000"}`, true},
		{`{"int":"1"}`, `{"uint":"1"}`, false},
		{`{"message":{"type":"a.B","json":{"x":1,"y":[1,2]}}}`, `{"message":{"type":"a.B","json":{"y":[1,2],"x":1}}}`, true},
		{`{"message":{"type":"a.B","json":{"y":[1,2]}}}`, `{"message":{"type":"a.B","json":{"y":[2,1]}}}`, false},
		{`[1,2]`, `[2,1]`, false},
		{`null`, `false`, false},
		{`"a"`, `"a"`, true},
	} {
		got, err := Equal([]byte(c.a), []byte(c.b))
		if err != nil || got != c.want {
			t.Errorf("Equal(%s, %s) = %v, %v; want %v", c.a, c.b, got, err, c.want)
		}
	}
}

func TestJudge(t *testing.T) {
	cost := uint64(7)
	tc := func(expect corpus.Expect, eval bool) corpus.Test {
		t := corpus.Test{ID: "x", Compile: json.RawMessage(`{}`), Expect: expect}
		if eval {
			t.Eval = json.RawMessage(`{}`)
		}
		return t
	}
	value := corpus.Expect{Value: json.RawMessage(`{"int":"3"}`)}
	withCost := corpus.Expect{Value: json.RawMessage(`true`), CostEstimate: &corpus.CostEstimate{Min: 1, Max: 9}, Cost: &cost}
	for _, c := range []struct {
		name string
		test corpus.Test
		line string
		want Outcome
	}{
		{"value", tc(value, true), `{"id":"x","compile":{"outputType":"int"},"eval":{"value":{"int":"3"},"cost":1}}`, Passed},
		{"wrong value", tc(value, true), `{"id":"x","compile":{"outputType":"int"},"eval":{"value":{"int":"4"},"cost":1}}`, Failed},
		{"eval error instead of value", tc(value, true), `{"id":"x","compile":{"outputType":"int"},"eval":{"error":{"code":"eval_error","message":"m","cost":1}}}`, Failed},
		{"compile error instead of value", tc(value, true), `{"id":"x","compile":{"error":{"code":"compile_error","message":"m"}},"eval":null}`, Failed},
		{"eval error", tc(corpus.Expect{EvalError: true}, true), `{"id":"x","compile":{"outputType":"int"},"eval":{"error":{"code":"eval_error","message":"other text"}}}`, Passed},
		{"eval error not raised", tc(corpus.Expect{EvalError: true}, true), `{"id":"x","compile":{"outputType":"int"},"eval":{"value":1,"cost":1}}`, Failed},
		{"compile error", tc(corpus.Expect{CompileError: true}, false), `{"id":"x","compile":{"error":{"code":"compile_error","message":"m"}},"eval":null}`, Passed},
		{"invalid env is no compile error", tc(corpus.Expect{CompileError: true}, false), `{"id":"x","compile":{"error":{"code":"invalid_env","message":"m"}},"eval":null}`, Failed},
		{"type", tc(corpus.Expect{Type: "list(int)"}, false), `{"id":"x","compile":{"outputType":"list(int)"},"eval":null}`, Passed},
		{"wrong type", tc(corpus.Expect{Type: "list(int)"}, false), `{"id":"x","compile":{"outputType":"list(dyn)"},"eval":null}`, Failed},
		{"costs", tc(withCost, true), `{"id":"x","compile":{"outputType":"bool","costEstimate":{"min":1,"max":9}},"eval":{"value":true,"cost":7}}`, Passed},
		{"actual cost differs", tc(withCost, true), `{"id":"x","compile":{"outputType":"bool","costEstimate":{"min":1,"max":9}},"eval":{"value":true,"cost":8}}`, Failed},
		{"estimate differs", tc(withCost, true), `{"id":"x","compile":{"outputType":"bool","costEstimate":{"min":1,"max":8}},"eval":{"value":true,"cost":7}}`, Failed},
		{"host error", tc(value, true), `{"id":"x","hostError":"trap"}`, Failed},
		{"wrong id", tc(value, true), `{"id":"y","compile":{"outputType":"int"},"eval":{"value":{"int":"3"},"cost":1}}`, Failed},
		{"ran a skipped test", corpus.Test{ID: "x", Skip: "why"}, `{"id":"x","compile":{},"eval":null}`, Failed},
		{"skipped", corpus.Test{ID: "x", Skip: "why"}, `{"id":"x","skip":true}`, Skipped},
		{"skipped a test", tc(value, true), `{"id":"x","skip":true}`, Failed},
	} {
		if got, why := Judge(c.test, []byte(c.line)); got != c.want {
			t.Errorf("%s: got %v (%s), want %v", c.name, got, why, c.want)
		}
	}
}
