package tekton

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/celwasm/celwasm/wasm/codec"
	"github.com/celwasm/celwasm/wasm/engine"
	"github.com/celwasm/celwasm/wire"
)

func TestWhenToCEL(t *testing.T) {
	cases := []struct {
		in   []string
		want string
		err  string
	}{
		{[]string{"'$(params.path)' == 'README.md'"}, `string(params.path) == 'README.md'`, ""},
		{[]string{"$(tasks.unit-test.results.test-coverage) >= 0.9"},
			`("unit-test" in tasks && has(tasks["unit-test"].results) && "test-coverage" in tasks["unit-test"].results) && (substituted["tasks.unit-test.results.test-coverage"] >= 0.9)`, ""},
		{[]string{"'$(params[\"my.param\"])' == \"x\""}, `string(params["my.param"]) == "x"`, ""},
		{[]string{"'a $(params.x) b $(params.y)' == ''"}, `('a ' + string(params.x) + ' b ' + string(params.y)) == ''`, ""},
		{[]string{"\"\"\"$(params.x)\"\"\" == ''"}, `string(params.x) == ''`, ""},
		{[]string{"r'\\d$(params.x)' == ''"}, `(r'\d' + string(params.x)) == ''`, ""},
		{[]string{"'$' + '(params.x)' == ''"}, `'$' + '(params.x)' == ''`, ""},
		{[]string{"true", "false"}, `(true) && (false)`, ""},
		{[]string{`{"input":"$(params.env)","operator":"notin","values":["a","$(params.arr[*])"]}`}, `!(string(params.env) in ["a"] + params.arr.map(v, string(v)))`, ""},
		{[]string{"'$(params.x[*])' == ''"}, "", "whole array"},
		{[]string{"'$(workspaces.w.path)' == ''"}, "", "only params, tasks and context"},
		{[]string{"'$(tasks.t.results)' == ''"}, "", "tasks.TASK.results.NAME"},
		{[]string{"$(params.x == ''"}, "", "unterminated"},
		{[]string{"'abc == ''"}, "", "unterminated string"},
		{[]string{"b'$(params.x)' == b''"}, "", "bytes"},
		{[]string{"params.x == ''"}, "", "undeclared reference to 'params'"},
		{nil, "", "no when expressions"},
	}
	for _, c := range cases {
		got, err := WhenToCEL(c.in)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%q: error %v, want %q", c.in, err, c.err)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("%q:\n got %s (%v)\nwant %s", c.in, got, err, c.want)
		}
	}
}

// TestWhenVectors runs the Tekton vectors natively (the CLI and SDK tests
// run them through the module).
func TestWhenVectors(t *testing.T) {
	b, err := os.ReadFile("../../conformance/testdata/tekton/when.json")
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		Cases []struct {
			Name      string
			When      []json.RawMessage
			Context   json.RawMessage
			Result    *bool
			Error     string
			EvalError string
		}
	}
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	var decls []wire.VariableDecl
	for n, ty := range VariableTypes() {
		decls = append(decls, wire.VariableDecl{Name: n, Type: ty})
	}
	env, err := engine.NewEnv(wire.EnvSpec{Base: engine.BaseCEL, Variables: decls})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range f.Cases {
		entries := WhenEntries(c.When)
		expr, err := WhenToCEL(entries)
		if err == nil {
			var prg *engine.Program
			if prg, err = env.Compile(expr); err == nil {
				var act *codec.Activation
				if act, err = codec.NewActivation(env, string(c.Context)); err != nil {
					t.Fatal(err)
				}
				BindSubstituted(act)
				v, _, evalErr := prg.Eval(act, 0)
				got, _ := codec.AppendValue(nil, v)
				switch {
				case c.EvalError != "":
					if evalErr == nil && (string(got) == "true" || string(got) == "false") {
						t.Errorf("%s: %s = %s, want an error with %q", c.Name, expr, got, c.EvalError)
					} else if evalErr != nil && !strings.Contains(evalErr.Error(), c.EvalError) {
						t.Errorf("%s: %v, want %q", c.Name, evalErr, c.EvalError)
					}
				case c.Result != nil:
					if want := map[bool]string{true: "true", false: "false"}[*c.Result]; evalErr != nil || string(got) != want {
						t.Errorf("%s: %s = %s (%v), want %s", c.Name, expr, got, evalErr, want)
					}
				}
			}
		}
		if c.Error != "" {
			if err == nil || !strings.Contains(err.Error(), c.Error) {
				t.Errorf("%s: compile error %v, want %q", c.Name, err, c.Error)
			}
		} else if err != nil {
			t.Errorf("%s: %v", c.Name, err)
		}
	}
}
