package abi

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/celwasm/celwasm/wire"
)

// TestSmoke runs compile and eval requests through the handler and checks
// the response bytes: values of every kind in canonical typed JSON
// (docs/value-encoding.md), library objects, the cost limit, a compile error
// with its caret, and a timestamp activation.
func TestSmoke(t *testing.T) {
	h := NewHandler()
	for _, c := range []struct{ compile, wantCompile, eval, wantEval string }{
		{`{"expression":"self.replicas > 1 && self.name.startsWith('a')","env":{"variables":[{"name":"self","type":"dyn"}]}}`,
			`{"program":1,"outputType":"bool","costEstimate":{"min":2,"max":4}}`,
			`{"program":1,"activation":{"self":{"replicas":3,"name":"abc"}}}`, `{"value":true,"cost":6}`},
		{`{"expression":"{'b': 1.5, 'a': [1u, b'\\xff', duration('1.5s'), timestamp('2009-02-13T23:31:30.123Z'), optional.of(1), type(1), null, -0.0, 1e21, 0.1, 123.456e-10, 5e-324]}","env":{"base":"cel"}}`,
			`{"program":2,"outputType":"map(string, dyn)","costEstimate":{"min":44,"max":44}}`,
			`{"program":2}`,
			`{"value":{"map":[["a",[{"uint":"1"},{"bytes":"/w=="},{"duration":"1.500s"},{"timestamp":"2009-02-13T23:31:30.123Z"},{"optional":[{"int":"1"}]},{"type":"int"},null,{"double":"-0"},{"double":"1e+21"},{"double":"0.1"},{"double":"1.23456e-8"},{"double":"5e-324"}]],["b",{"double":"1.5"}]]},"cost":44}`},
		{`{"expression":"quantity('1Gi').isLessThan(quantity('2Gi')) && quantity('1Gi')  == quantity('1024Mi')","env":{}}`,
			`{"program":3,"outputType":"bool","costEstimate":{"min":3,"max":6}}`,
			`{"program":3}`, `{"value":true,"cost":6}`},
		{`{"expression":"[dyn(quantity('1Gi')), dyn(ip('10.0.0.1')), dyn(cidr('10.0.0.0/8')), dyn(url('https://x/y')), dyn(semver('1.2.3'))]","env":{"base":"kubernetes","envType":"StoredExpressions"}}`,
			`{"program":4,"outputType":"list(dyn)","costEstimate":{"min":21,"max":21}}`,
			`{"program":4}`,
			`{"value":[{"object":{"type":"kubernetes.Quantity","value":"1Gi"}},{"object":{"type":"net.IP","value":"10.0.0.1"}},{"object":{"type":"net.CIDR","value":"10.0.0.0/8"}},{"object":{"type":"kubernetes.URL","value":"https://x/y"}},{"object":{"type":"kubernetes.Semver","value":"1.2.3"}}],"cost":21}`},
		// 110³ list elements pass kube-apiserver's per-call limit of 1,000,000.
		{`{"expression":"x.map(i, x.map(j, x.map(k, i+j+k))).size()","env":{"variables":[{"name":"x","type":"list(int)"}]}}`,
			`{"program":5,"outputType":"int","costEstimate":{"min":13,"max":18446744073709551615}}`,
			`{"program":5,"activation":{"x":[` + strings.TrimSuffix(strings.Repeat("7,", 110), ",") + `]}}`,
			`{"error":{"code":"cost_limit_exceeded","message":"operation cancelled: actual cost limit exceeded","cost":1000008}}`},
		{`{"expression":"x + ","env":{}}`,
			`{"error":{"code":"compile_error","message":"ERROR: <input>:1:5: Syntax error: mismatched input '<EOF>' expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}\n | x + \n | ....^","issues":[{"line":1,"column":5,"message":"Syntax error: mismatched input '<EOF>' expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}","snippet":"ERROR: <input>:1:5: Syntax error: mismatched input '<EOF>' expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}\n | x + \n | ....^"}]}}`,
			``, ``},
		{`{"expression":"t + duration('1h')","env":{"variables":[{"name":"t","type":"timestamp"}]}}`,
			`{"program":6,"outputType":"timestamp","costEstimate":{"min":3,"max":3}}`,
			`{"program":6,"activation":{"t":"2020-01-01T00:00:00Z"}}`, `{"value":{"timestamp":"2020-01-01T01:00:00Z"},"cost":2}`},
	} {
		if got := string(h.Compile([]byte(c.compile))); got != c.wantCompile {
			t.Errorf("compile %s\n got %s\nwant %s", c.compile, got, c.wantCompile)
		}
		if c.eval != "" {
			if got := string(h.Eval([]byte(c.eval))); got != c.wantEval {
				t.Errorf("eval %s\n got %s\nwant %s", c.eval, got, c.wantEval)
			}
		}
	}
	var v wire.VersionInfo
	if err := json.Unmarshal(h.Version(), &v); err != nil {
		t.Fatal(err)
	}
	if v.ABI != Version || v.Module != ModuleVersion || v.DefaultCostLimit != 1_000_000 || len(v.CompatibilityVersions) == 0 ||
		v.DefaultCompatibilityVersion != v.CompatibilityVersions[len(v.CompatibilityVersions)-1] {
		t.Errorf("version: %+v", v)
	}
}
