package engine

import (
	"fmt"
	"testing"

	"github.com/celwasm/celwasm/wire"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/interpreter"
)

// plain plans p as kube-apiserver does, without decorateConstCtors.
func plain(t *testing.T, p *Program) evaluator {
	t.Helper()
	prg, err := p.Env.cel.Program(p.AST, cel.CostLimit(DefaultCostLimit))
	if err != nil {
		t.Fatal(err)
	}
	return prg.(evaluator)
}

// outcome is a value (or error) and the cost it was charged.
func outcome(prg evaluator, x string) string {
	act, _ := interpreter.NewActivation(map[string]any{"x": x})
	v, cost, _, err := prg.EvalCost(act)
	if err != nil {
		return fmt.Sprintf("error %v, cost %d", err, cost)
	}
	return fmt.Sprintf("%v (%T), cost %d", v.Value(), v.Value(), cost)
}

// TestConstCtorsAsPlanned: each constructor of a constant gives the value
// and cost of kube-apiserver's program, evaluation after evaluation, in
// every order of inputs, including those that make resource.Quantity change
// itself (a comparison with an inf.Dec quantity) before isInteger() reads it.
func TestConstCtorsAsPlanned(t *testing.T) {
	env, err := NewEnv(wire.EnvSpec{Variables: []wire.VariableDecl{{Name: "x", Type: "string"}}})
	if err != nil {
		t.Fatal(err)
	}
	qs := []string{"123456789012345678901234", "1", "1Gi", "123456789012345678901234", "2Gi"}
	ips := []string{"10.0.0.1", "10.1.0.1", "::1", "11.0.0.1"}
	cases := []struct {
		expr string
		xs   []string
	}{
		{`[quantity('1Gi')].map(q, [q.isLessThan(quantity(x)), q.isInteger(), q.compareTo(quantity(x)) == 0, q.add(quantity(x)).isInteger()])`, qs},
		{`quantity('1Gi').isLessThan(quantity(x))`, qs},
		{`quantity('0.0000000001').isInteger() || quantity(x).isInteger()`, qs},
		{`ip('10.0.0.1') == ip(x)`, ips},
		{`cidr('10.0.0.0/8').containsIP(x)`, ips},
		{`url('https://example.com/a/very/long/path/that/costs/more/than/one/unit?q=1').getQuery()`, []string{""}},
		{`url('https://example.com:8443/p').getPort() + x`, []string{"", "x"}},
		{`semver('1.2.3-rc.1+build').isLessThan(semver(x))`, []string{"1.2.3", "2.0.0", "1.2.3-rc.0"}},
		{`[ip('::1'), ip('::1')].map(i, i.family())`, []string{""}},
	}
	for _, c := range cases {
		expr := c.expr
		p, err := env.Compile(expr)
		if err != nil {
			t.Fatalf("%s: %v", expr, err)
		}
		got, err := p.program(DefaultCostLimit)
		if err != nil {
			t.Fatal(err)
		}
		// Twice through, so every input follows every other.
		for _, x := range append(c.xs, c.xs...) {
			if g, w := outcome(got, x), outcome(plain(t, p), x); g != w {
				t.Errorf("%s, x=%q:\n got %s\nwant %s", expr, x, g, w)
			}
		}
	}
}

// TestConstCtorsPlannedOnce: the constant is no longer parsed per
// evaluation, which is what the decorator is for (fewer allocations).
func TestConstCtorsPlannedOnce(t *testing.T) {
	env, err := NewEnv(wire.EnvSpec{Variables: []wire.VariableDecl{{Name: "x", Type: "string"}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, expr := range []string{`semver('1.2.3-rc.1') == semver(x)`, `url('https://example.com/p').getHost() == x`, `quantity('1.5Gi').isLessThan(quantity(x))`} {
		p, err := env.Compile(expr)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := p.program(DefaultCostLimit)
		want := plain(t, p)
		act, _ := interpreter.NewActivation(map[string]any{"x": "1.2.3"})
		a := testing.AllocsPerRun(100, func() { got.EvalCost(act) })
		b := testing.AllocsPerRun(100, func() { want.EvalCost(act) })
		if a >= b {
			t.Errorf("%s: %v allocations per evaluation, kube-apiserver's program %v; want fewer", expr, a, b)
		}
	}
}
