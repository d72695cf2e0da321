package abi

import "testing"

func TestSmoke(t *testing.T) {
	h := NewHandler()
	for _, c := range []struct{ compile, eval string }{
		{`{"expression":"self.replicas > 1 && self.name.startsWith('a')","env":{"variables":[{"name":"self","type":"dyn"}]}}`, `{"program":1,"activation":{"self":{"replicas":3,"name":"abc"}}}`},
		{`{"expression":"{'b': 1.5, 'a': [1u, b'\\xff', duration('1.5s'), timestamp('2009-02-13T23:31:30.123Z'), optional.of(1), type(1), null, -0.0, 1e21, 0.1, 123.456e-10, 5e-324]}","env":{"base":"cel"}}`, `{"program":2}`},
		{`{"expression":"quantity('1Gi').isLessThan(quantity('2Gi')) && quantity('1Gi')  == quantity('1024Mi')","env":{}}`, `{"program":3}`},
		{`{"expression":"[dyn(quantity('1Gi')), dyn(ip('10.0.0.1')), dyn(cidr('10.0.0.0/8')), dyn(url('https://x/y')), dyn(semver('1.2.3'))]","env":{"base":"kubernetes","envType":"StoredExpressions"}}`, `{"program":4}`},
		{`{"expression":"x.map(i, x.map(j, x.map(k, i+j+k))).size()","env":{"variables":[{"name":"x","type":"list(int)"}]}}`, `{"program":5,"activation":{"x":[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50,51,52,53,54,55,56,57,58,59,60,61,62,63,64,65,66,67,68,69,70,71,72,73,74,75,76,77,78,79,80,81,82,83,84,85,86,87,88,89,90,91,92,93,94,95,96,97,98,99,100,101,102,103,104,105,106,107,108,109,110]}}`},
		{`{"expression":"x + ","env":{}}`, ``},
		{`{"expression":"t + duration('1h')","env":{"variables":[{"name":"t","type":"timestamp"}]}}`, `{"program":6,"activation":{"t":"2020-01-01T00:00:00Z"}}`},
	} {
		t.Logf("compile: %s", h.Compile([]byte(c.compile)))
		if c.eval != "" {
			t.Logf("eval: %s", h.Eval([]byte(c.eval)))
		}
	}
	t.Logf("%s", h.Version())
}
