package engine_test

import (
	"strings"
	"testing"

	"github.com/celwasm/celwasm/wasm/codec"
	"github.com/celwasm/celwasm/wasm/engine"
	"github.com/celwasm/celwasm/wire"

	"github.com/tidwall/gjson"
)

// eval compiles expr with vars in the kubernetes base and evaluates it over
// the JSON activation; it returns the canonical JSON or the error code.
func eval(t *testing.T, spec wire.EnvSpec, expr, act string) (string, string) {
	t.Helper()
	env, err := engine.NewEnv(spec)
	if err != nil {
		return "", err.(*wire.Error).Code + ": " + err.Error()
	}
	prg, err := env.Compile(expr)
	if err != nil {
		return "", err.(*wire.Error).Code
	}
	a, err := codec.NewActivation(env, act)
	if err != nil {
		return "", err.(*wire.Error).Code
	}
	v, _, err := prg.Eval(a, 0)
	if err != nil {
		return "", err.(*wire.Error).Code
	}
	b, err := codec.AppendValue(nil, v)
	if err != nil {
		t.Fatalf("%s: encode: %v", expr, err)
	}
	return string(b), ""
}

func vars(kv ...string) wire.EnvSpec {
	var s wire.EnvSpec
	for i := 0; i < len(kv); i += 2 {
		s.Variables = append(s.Variables, wire.VariableDecl{Name: kv[i], Type: kv[i+1]})
	}
	return s
}

func TestActivationConversions(t *testing.T) {
	cases := []struct {
		spec      wire.EnvSpec
		expr, act string
		want      string
		wantErr   string
	}{
		// natural mapping: integral → int, else double
		{vars("x", "dyn"), "x", `{"x":5}`, `{"int":"5"}`, ""},
		{vars("x", "dyn"), "x", `{"x":5.0}`, `{"double":"5"}`, ""},
		{vars("x", "dyn"), "x", `{"x":1e3}`, `{"double":"1000"}`, ""},
		{vars("x", "dyn"), "x", `{"x":-9223372036854775808}`, `{"int":"-9223372036854775808"}`, ""},
		{vars("x", "dyn"), "x", `{"x":9223372036854775808}`, `{"double":"9223372036854776000"}`, ""},
		{vars("x", "dyn"), "x", `{"x":[1,"a",null,true,{"k":[]}]}`, `[{"int":"1"},"a",null,true,{"map":[["k",[]]]}]`, ""},
		// declared types convert
		{vars("x", "uint"), "x", `{"x":18446744073709551615}`, `{"uint":"18446744073709551615"}`, ""},
		{vars("x", "uint"), "x", `{"x":"18446744073709551615"}`, `{"uint":"18446744073709551615"}`, ""},
		{vars("x", "int"), "x", `{"x":"-42"}`, `{"int":"-42"}`, ""},
		{vars("x", "int"), "x", `{"x":2.0}`, `{"int":"2"}`, ""},
		{vars("x", "int"), "x", `{"x":2.5}`, "", wire.CodeEval},
		{vars("x", "double"), "x", `{"x":2}`, `{"double":"2"}`, ""},
		{vars("x", "double"), "x", `{"x":"-Infinity"}`, `{"double":"-Infinity"}`, ""},
		{vars("x", "bytes"), "x", `{"x":"/wA="}`, `{"bytes":"/wA="}`, ""},
		{vars("x", "timestamp"), "x", `{"x":"2009-02-13T23:31:30.5+01:00"}`, `{"timestamp":"2009-02-13T22:31:30.500Z"}`, ""},
		{vars("x", "google.protobuf.Timestamp"), "x.getFullYear()", `{"x":"2009-02-13T23:31:30Z"}`, `{"int":"2009"}`, ""},
		{vars("x", "duration"), "x", `{"x":"1h30m"}`, `{"duration":"5400s"}`, ""},
		{vars("x", "timestamp"), "x", `{"x":"yesterday"}`, "", wire.CodeEval},
		{vars("x", "list(timestamp)"), "x[1] - x[0]", `{"x":["2020-01-01T00:00:00Z","2020-01-02T00:00:00Z"]}`, `{"duration":"86400s"}`, ""},
		{vars("x", "map(string, duration)"), "x.a + x.b", `{"x":{"a":"1s","b":"500ms"}}`, `{"duration":"1.500s"}`, ""},
		{vars("x", "map(int, string)"), "x[2]", `{"x":{"1":"a","2":"b"}}`, `"b"`, ""},
		{vars("x", "optional_type(int)"), "x.orValue(7)", `{"x":null}`, `{"int":"7"}`, ""},
		{vars("x", "optional_type(int)"), "x.orValue(7)", `{"x":3}`, `{"int":"3"}`, ""},
		{vars("x", "string"), "x", `{"x":3}`, "", wire.CodeEval},
		{vars("x", "google.protobuf.Int64Value"), "x == null", `{"x":null}`, `true`, ""},
		// maps over JSON objects behave as CEL maps
		{vars("m", "dyn"), "m == {'a': dyn(1), 'b': dyn([true])}", `{"m":{"b":[true],"a":1}}`, `true`, ""},
		{vars("m", "dyn"), "{'a': dyn(1), 'b': dyn([true])} == m", `{"m":{"b":[true],"a":1}}`, `true`, ""},
		{vars("m", "dyn"), "m == {'a': 1}", `{"m":{"a":1,"b":2}}`, `false`, ""},
		{vars("m", "dyn"), "'a' in m && !('z' in m) && has(m.a) && !has(m.z)", `{"m":{"a":null}}`, `true`, ""},
		{vars("m", "dyn"), "m.a", `{"m":{"a":1,"a":2}}`, `{"int":"2"}`, ""}, // last duplicate wins
		{vars("m", "dyn"), "m.size()", `{"m":{"a":1,"a":2,"b":3}}`, `{"int":"2"}`, ""},
		{vars("m", "dyn"), "m.z", `{"m":{"a":1}}`, "", wire.CodeEval},
		{vars("m", "dyn"), "m.map(k, k)", `{"m":{"z":1,"a":2,"m":3}}`, `["z","a","m"]`, ""},
		{vars("m", "dyn"), "m.all(k, v, v > 0)", `{"m":{"z":1,"a":2}}`, `true`, ""},
		{vars("m", "dyn"), "m", `{"m":{"z":1,"a":2,"é":3,"B":4}}`, `{"map":[["B",{"int":"4"}],["a",{"int":"2"}],["z",{"int":"1"}],["é",{"int":"3"}]]}`, ""},
		{vars("l", "dyn"), "l + [4] == [1, 2, 3, 4] && 2 in l && l[2] == 3", `{"l":[1,2,3]}`, `true`, ""},
		{vars("l", "dyn"), "l.join('-')", `{"l":["a","b"]}`, `"a-b"`, ""},
		{vars("l", "list(int)"), "l.sum()", `{"l":[1,2,3]}`, `{"int":"6"}`, ""},
		// keys with many fields (indexed by hash)
		{vars("m", "dyn"), "m.k12 + m.k0", `{"m":{"k0":0,"k1":1,"k2":2,"k3":3,"k4":4,"k5":5,"k6":6,"k7":7,"k8":8,"k9":9,"k10":10,"k11":11,"k12":12}}`, `{"int":"12"}`, ""},
		// activation problems
		{vars("x", "dyn"), "x", `{"x":[[[`, "", wire.CodeInvalidActivation},
		{vars("x", "dyn"), "x", "{\"x\":\"\xff\"}", "", wire.CodeInvalidActivation},
		{vars("x", "dyn"), "x", `[1]`, "", wire.CodeInvalidActivation},
		{vars("x", "dyn"), "x", `{"x":` + strings.Repeat("[", codec.MaxDepth+1) + strings.Repeat("]", codec.MaxDepth+1) + `}`, "", wire.CodeInvalidActivation},
		{vars("x", "dyn"), "x.size()", `{"x":` + strings.Repeat("[", codec.MaxDepth-1) + strings.Repeat("]", codec.MaxDepth-1) + `}`, `{"int":"1"}`, ""},
		{vars("x", "dyn"), "y", `{"x":1}`, "", wire.CodeCompile},
		{vars("x", "dyn"), "x", `{}`, "", wire.CodeEval},
	}
	for _, c := range cases {
		got, code := eval(t, c.spec, c.expr, c.act)
		if code != c.wantErr || got != c.want {
			act := c.act
			if len(act) > 80 {
				act = act[:80] + "…"
			}
			t.Errorf("%s over %s = %s (err %q), want %s (err %q)", c.expr, act, got, code, c.want, c.wantErr)
		}
	}
}

func TestCostLimitAndEstimate(t *testing.T) {
	env, err := engine.NewEnv(vars("l", "list(int)"))
	if err != nil {
		t.Fatal(err)
	}
	prg, err := env.Compile("l.map(x, l.map(y, l.map(z, x + y + z))).size()")
	if err != nil {
		t.Fatal(err)
	}
	if prg.CostEstimate == nil || prg.CostEstimate.Max < engine.DefaultCostLimit {
		t.Fatalf("estimate %+v should exceed the per-call limit", prg.CostEstimate)
	}
	items := make([]string, 200)
	for i := range items {
		items[i] = "1"
	}
	a, err := codec.NewActivation(env, `{"l":[`+strings.Join(items, ",")+`]}`)
	if err != nil {
		t.Fatal(err)
	}
	_, cost, err := prg.Eval(a, 0)
	e, ok := err.(*wire.Error)
	if !ok || e.Code != wire.CodeCostLimit || cost <= engine.DefaultCostLimit {
		t.Fatalf("got cost %d, err %v; want cost_limit_exceeded past %d", cost, err, engine.DefaultCostLimit)
	}
	// A smaller list fits, and reports its actual cost.
	a, _ = codec.NewActivation(env, `{"l":[1,2,3]}`)
	v, cost, err := prg.Eval(a, 0)
	if err != nil || cost == 0 || v.Value() != int64(3) {
		t.Fatalf("got %v, cost %d, err %v", v, cost, err)
	}
}

func TestCompatibilityVersions(t *testing.T) {
	// format.* arrived in Kubernetes 1.31: new expressions at 1.30 cannot
	// use it; stored expressions can.
	expr := "format.dns1123Label().validate('my-name').hasValue()"
	if _, code := eval(t, wire.EnvSpec{CompatibilityVersion: "1.30"}, expr, "{}"); code != wire.CodeCompile {
		t.Errorf("1.30 engine.NewExpressions: got %q, want compile_error", code)
	}
	if got, code := eval(t, wire.EnvSpec{CompatibilityVersion: "1.30", EnvType: engine.StoredExpressions}, expr, "{}"); got != "false" {
		t.Errorf("1.30 engine.StoredExpressions: got %s %s, want false", got, code)
	}
	if got, _ := eval(t, wire.EnvSpec{CompatibilityVersion: "1.31"}, expr, "{}"); got != "false" {
		t.Errorf("1.31: got %s, want false", got)
	}
	if _, code := eval(t, wire.EnvSpec{CompatibilityVersion: "1.29"}, "1", "{}"); !strings.HasPrefix(code, wire.CodeInvalidEnv) {
		t.Errorf("1.29: got %q, want invalid_env", code)
	}
	// extensions on top of the base; one the base already has is refused
	if got, _ := eval(t, wire.EnvSpec{Extensions: []wire.ExtensionRef{{Name: "math"}}}, "math.greatest(1, 5, 3)", "{}"); got != `{"int":"5"}` {
		t.Errorf("math extension: got %s", got)
	}
	if _, code := eval(t, wire.EnvSpec{Extensions: []wire.ExtensionRef{{Name: "strings"}}}, "1", "{}"); !strings.HasPrefix(code, wire.CodeInvalidEnv) {
		t.Errorf("strings twice: got %q, want invalid_env", code)
	}
	if got, _ := eval(t, wire.EnvSpec{Base: engine.BaseCEL, Extensions: []wire.ExtensionRef{{Name: "strings", Version: "3"}}}, "'abc'.reverse()", "{}"); got != `"cba"` {
		t.Errorf("cel base with strings v3: got %s", got)
	}
}

func TestInterrupt(t *testing.T) {
	env, _ := engine.NewEnv(vars("l", "list(int)"))
	prg, err := env.Compile("l.map(x, l.map(y, x + y)).size()")
	if err != nil {
		t.Fatal(err)
	}
	a, _ := codec.NewActivation(env, `{"l":[1,2,3]}`)
	engine.SetInterrupted(true)
	defer engine.SetInterrupted(false)
	_, _, err = prg.Eval(a, 0)
	if e, ok := err.(*wire.Error); !ok || e.Code != wire.CodeCanceled {
		t.Fatalf("got %v, want canceled", err)
	}
}

// TestDecodeRoundTrip: every canonical value decodes back to a value that
// encodes to the same bytes.
func TestDecodeRoundTrip(t *testing.T) {
	env, err := engine.NewEnv(wire.EnvSpec{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []string{
		`null`, `true`, `"s\u0001"`, `[]`, `{"int":"-9223372036854775808"}`, `{"uint":"18446744073709551615"}`,
		`{"double":"-0"}`, `{"double":"NaN"}`, `{"double":"1e+21"}`, `{"double":"5e-324"}`, `{"bytes":"/wA="}`,
		`{"timestamp":"0001-01-01T00:00:00Z"}`, `{"timestamp":"9999-12-31T23:59:59.999999999Z"}`,
		`{"duration":"-9223372036.854775808s"}`, `{"duration":"0.000000001s"}`,
		`{"map":[[false,"f"],[true,"t"],[{"int":"-1"},null],[{"uint":"2"},[]],["k",{"map":[]}]]}`,
		`{"optional":[]}`, `{"optional":[{"optional":[{"int":"1"}]}]}`, `{"type":"google.protobuf.Timestamp"}`, `{"type":"int"}`,
		`[{"object":{"type":"kubernetes.Quantity","value":"1536Mi"}},{"object":{"type":"net.IP","value":"::1"}},{"object":{"type":"net.CIDR","value":"10.0.0.0/8"}},{"object":{"type":"kubernetes.URL","value":"https://example.com/a?b=c"}},{"object":{"type":"kubernetes.Semver","value":"1.2.3-rc.1"}}]`,
		`{"message":{"type":"google.protobuf.Duration","json":"1.500s"}}`,
	} {
		v, err := codec.DecodeValue(env, gjson.Parse(c))
		if err != nil {
			t.Errorf("decode %s: %v", c, err)
			continue
		}
		got, err := codec.AppendValue(nil, v)
		want := c
		if strings.Contains(c, "google.protobuf.Duration\",\"json") {
			want = `{"duration":"1.500s"}` // a Duration message is a CEL duration
		}
		if err != nil || string(got) != want {
			t.Errorf("round trip %s = %s (%v)", c, got, err)
		}
	}
	for _, bad := range []string{`1`, `{"int":1}`, `{"int":"x"}`, `{"a":1,"b":2}`, `{"map":[[1.5,1]]}`, `{"map":[[{"double":"1"},1]]}`, `{"object":{"type":"x.Y","value":"1"}}`, `{"object":{"type":"net.IP","value":"not-an-ip"}}`, `{"message":{"type":"no.Such","json":{}}}`} {
		if _, err := codec.DecodeValue(env, gjson.Parse(bad)); err == nil {
			t.Errorf("decode %s: want an error", bad)
		}
	}
}

// TestReferences: a checked program names the variables it reads; one that
// was not type-checked may read any.
func TestReferences(t *testing.T) {
	vars := []wire.VariableDecl{{Name: "attrs", Type: "map(string, dyn)"}, {Name: "ce", Type: "map(string, dyn)"}}
	for _, c := range []struct {
		expr      string
		unchecked bool
		want      bool
	}{
		{expr: "ce.type == 'a'", want: false},
		{expr: "has(attrs.type)", want: true},
		{expr: "[1].exists(x, attrs.size() > x)", want: true},
		{expr: "[1].exists(attrs, attrs > 0)", want: true}, // a comprehension variable of that name counts too: binding more is harmless
		{expr: "ce.type == 'a'", unchecked: true, want: true},
	} {
		env, err := engine.NewEnv(wire.EnvSpec{Base: engine.BaseCEL, Variables: vars, DisableTypeCheck: c.unchecked})
		if err != nil {
			t.Fatal(err)
		}
		prg, err := env.Compile(c.expr)
		if err != nil {
			t.Fatalf("%s: %v", c.expr, err)
		}
		if got := prg.References("attrs", "cesql"); got != c.want {
			t.Errorf("%s (unchecked %v): References = %v, want %v", c.expr, c.unchecked, got, c.want)
		}
	}
}
