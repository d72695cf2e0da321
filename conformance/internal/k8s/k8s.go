// Package k8s builds the Kubernetes part of the conformance corpus: cases
// over every function and overload of kube-apiserver's CEL libraries and
// the extensions of its base environment, with expected values, cost
// estimates and actual costs computed by kube-apiserver's own library code
// (k8s.io/apiserver/pkg/cel/environment and cel-go, natively).
package k8s

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/celwasm/celwasm/conformance/internal/corpus"
	"github.com/google/cel-go/cel"
	"k8s.io/apimachinery/pkg/util/version"
	"k8s.io/apiserver/pkg/cel/environment"
	"k8s.io/apiserver/pkg/cel/library"
	"sigs.k8s.io/yaml"
)

type compileRequest struct {
	Expression string  `json:"expression"`
	Env        envSpec `json:"env"`
}

type envSpec struct {
	Base                 string   `json:"base"`
	CompatibilityVersion string   `json:"compatibilityVersion"`
	EnvType              string   `json:"envType"`
	Extensions           []string `json:"extensions,omitempty"`
	Variables            []struct {
		Name string `json:"name"`
		Type string `json:"type"`
	} `json:"variables,omitempty"`
}

type evalRequest struct {
	CostLimit       uint64          `json:"costLimit,omitempty"`
	TypedActivation json.RawMessage `json:"typedActivation,omitempty"`
	Activation      json.RawMessage `json:"activation,omitempty"`
}

// Generate returns the Kubernetes corpus tests. deployment is a Deployment
// manifest (YAML) that realistic cases read as `object`.
func Generate(deployment []byte) ([]corpus.Test, error) {
	obj, err := yaml.YAMLToJSON(deployment) // object keys come out sorted
	if err != nil {
		return nil, err
	}
	cases := Cases(string(obj))
	covered := map[string]bool{}
	errorsByLib := map[string]int{}
	libs := map[string]bool{}
	var out []corpus.Test
	seen := map[string]bool{}
	for _, c := range cases {
		id := c.ID()
		if seen[id] {
			return nil, fmt.Errorf("duplicate case id %q", id)
		}
		seen[id] = true
		if err := sortedKeys(c.Act); err != nil {
			return nil, fmt.Errorf("%s: %v", id, err)
		}
		ref, err := reference(c)
		if err != nil {
			return nil, fmt.Errorf("%s: reference: %v", id, err)
		}
		for o := range ref.overload {
			covered[o] = true
		}
		libs[c.Lib] = true
		if ref.expect.CompileError || ref.expect.EvalError {
			errorsByLib[c.Lib]++
		}
		t, err := test(id, c, ref.expect)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", id, err)
		}
		out = append(out, t)
	}
	if missing := uncovered(covered); len(missing) > 0 {
		return nil, fmt.Errorf("no case calls these overloads of the Kubernetes environment: %s", strings.Join(missing, ", "))
	}
	for lib := range libs {
		if errorsByLib[lib] == 0 {
			return nil, fmt.Errorf("library %q has no error case", lib)
		}
	}
	return out, nil
}

func test(id string, c Case, expect corpus.Expect) (corpus.Test, error) {
	env := envSpec{Base: "kubernetes", CompatibilityVersion: c.version(), EnvType: c.envType(), Extensions: c.Exts}
	for _, v := range c.Vars {
		env.Variables = append(env.Variables, struct {
			Name string `json:"name"`
			Type string `json:"type"`
		}{v.Name, v.Type})
	}
	compile, err := corpus.Marshal(compileRequest{Expression: c.Expr, Env: env})
	if err != nil {
		return corpus.Test{}, err
	}
	t := corpus.Test{ID: id, Compile: compile, Expect: expect}
	if expect.CompileError {
		return t, nil
	}
	ev := evalRequest{CostLimit: c.CostLimit}
	if c.Typed != "" {
		ev.TypedActivation = compact(c.Typed)
	}
	if c.Act != "" {
		ev.Activation = compact(c.Act)
	}
	if t.Eval, err = corpus.Marshal(ev); err != nil {
		return corpus.Test{}, err
	}
	return t, nil
}

func compact(s string) json.RawMessage {
	var buf bytes.Buffer
	if err := json.Compact(&buf, []byte(s)); err != nil {
		panic(err)
	}
	return buf.Bytes()
}

// sortedKeys checks that every object of a JSON activation lists its keys
// in sorted order: the module iterates JSON objects in document order and
// the reference's Go maps in sorted order, so the two then agree. (Go's JSON
// encoder writes map keys sorted: a sorted document re-encodes to itself.)
func sortedKeys(doc string) error {
	if doc == "" {
		return nil
	}
	d := json.NewDecoder(strings.NewReader(doc))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return err
	}
	again, err := corpus.Marshal(v)
	if err != nil {
		return err
	}
	if !bytes.Equal(again, compact(doc)) {
		return fmt.Errorf("activation objects must list their keys in sorted order")
	}
	return nil
}

// uncovered lists the overloads of the Kubernetes environment (newest
// compatibility version, stored expressions, with jsonpatch) that cel-go's
// standard library lacks and no case calls.
func uncovered(covered map[string]bool) []string {
	set := environment.MustBaseEnvSet(version.MajorMinor(1, 37))
	set, err := set.Extend(environment.VersionedOptions{IntroducedVersion: version.MajorMinor(1, 32), EnvOptions: []cel.EnvOption{library.JSONPatch()}})
	if err != nil {
		return []string{err.Error()}
	}
	env, err := set.Env(environment.StoredExpressions)
	if err != nil {
		return []string{err.Error()}
	}
	std, err := cel.NewEnv()
	if err != nil {
		return []string{err.Error()}
	}
	inStd := map[string]bool{}
	for _, f := range std.Functions() {
		for _, o := range f.OverloadDecls() {
			inStd[o.ID()] = true
		}
	}
	var missing []string
	for _, f := range env.Functions() {
		for _, o := range f.OverloadDecls() {
			if !inStd[o.ID()] && !covered[o.ID()] {
				missing = append(missing, f.Name()+"/"+o.ID())
			}
		}
	}
	sort.Strings(missing)
	return missing
}
