package crd

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/celwasm/celwasm/wire"

	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/yaml"
)

const crdTestdata = "../../conformance/testdata/crd/"

func readYAMLDocs(t *testing.T, path string) [][]byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out [][]byte
	rd := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(data)))
	for {
		doc, err := rd.Read()
		if err == io.EOF {
			break
		}
		j, err := yaml.YAMLToJSON(doc)
		if err != nil {
			t.Fatal(err)
		}
		if string(j) != "null" {
			out = append(out, j)
		}
	}
	return out
}

// setBound sets bound (maxItems, maxLength, maxProperties) on the schema
// node at a custom resource path ("spec.routes[*].matches[*].path") of the
// CRD's first version, and returns the new CRD JSON.
func setBound(t *testing.T, crd []byte, path, bound string, value int64) []byte {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(crd, &m); err != nil {
		t.Fatal(err)
	}
	node := m["spec"].(map[string]any)["versions"].([]any)[0].(map[string]any)["schema"].(map[string]any)["openAPIV3Schema"].(map[string]any)
	for _, st := range splitFieldPath(path) {
		if st.index {
			if items, ok := node["items"].(map[string]any); ok {
				node = items
			} else {
				node = node["additionalProperties"].(map[string]any)
			}
			continue
		}
		node = node["properties"].(map[string]any)[st.name].(map[string]any)
	}
	node[bound] = value
	out, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func ruleByPath(chk *CRDCheck, path string) *RuleCost {
	for _, sc := range chk.Schemas {
		for _, r := range sc.Rules {
			if r.Path == path {
				return r
			}
		}
	}
	return nil
}

// TestCRDCostFixes applies every fix the explanation proposes for the rules
// over the limit and checks, by running kube-apiserver's cost check on the
// changed CRD, that the fix brings the rule to the limit and that one more
// (maxItems+1, ...) does not: the bounds are computed, not guessed.
func TestCRDCostFixes(t *testing.T) {
	for _, file := range []string{"expensive/crd.yaml", "budget/crd.yaml"} {
		crd := readYAMLDocs(t, crdTestdata+file)[0]
		if file == "budget/crd.yaml" {
			// make the item rules too expensive: 1,000 items
			crd = setBound(t, crd, "spec.items", "maxItems", 1000)
		}
		c, err := Load(crd)
		if err != nil {
			t.Fatal(err)
		}
		chk := c.CostReport()
		fixes := 0
		for _, sc := range chk.Schemas {
			for _, r := range sc.Rules {
				if !r.Exceeds {
					continue
				}
				e := r.Explanation
				if e == nil || (len(e.Fixes) == 0 && len(e.CombinedFix) == 0 && e.NoFix == "") {
					t.Errorf("%s %s: over the limit, no fix and no reason", file, r.Path)
					continue
				}
				for _, f := range e.Fixes {
					fixes++
					at := func(v int64) uint64 {
						c2, err := Load(setBound(t, crd, f.Path, f.Set, v))
						if err != nil {
							t.Fatal(err)
						}
						r2 := ruleByPath(c2.Check(), r.Path)
						if r2 == nil {
							t.Fatalf("%s: no rule %s after setting %s", file, r.Path, f.Path)
						}
						return r2.Cost
					}
					if got := at(f.Value); got > e.Target || got != f.Cost {
						t.Errorf("%s %s: %s %d on %s gives %d (explanation: %d), target %d", file, r.Path, f.Set, f.Value, f.Path, got, f.Cost, e.Target)
					}
					if got := at(f.Value + 1); got <= e.Target {
						t.Errorf("%s %s: %s %d on %s is not the largest that fits: %d gives %d", file, r.Path, f.Set, f.Value, f.Path, f.Value+1, got)
					}
				}
				if len(e.CombinedFix) > 0 {
					fixes++
					patched := crd
					for _, f := range e.CombinedFix {
						patched = setBound(t, patched, f.Path, f.Set, f.Value)
					}
					c2, _ := Load(patched)
					if got := ruleByPath(c2.Check(), r.Path).Cost; got > e.Target || got != e.CombinedFix[0].Cost {
						t.Errorf("%s %s: the combined fix gives %d, target %d", file, r.Path, got, e.Target)
					}
				}
			}
		}
		if fixes < 3 {
			t.Errorf("%s: only %d fixes checked", file, fixes)
		}
	}
}

// TestCRDCostExplanation checks what the explanation says about where the
// cost comes from.
func TestCRDCostExplanation(t *testing.T) {
	c, err := Load(readYAMLDocs(t, crdTestdata+"expensive/crd.yaml")[0])
	if err != nil {
		t.Fatal(err)
	}
	chk := c.CostReport()
	const spec = "spec.validation.openAPIV3Schema.properties[spec]"
	// The filtered list's items lose their maxLength: no bound can help.
	r := ruleByPath(chk, spec+".x-kubernetes-validations[0].rule")
	if e := r.Explanation; len(e.UnknownSizes) != 1 || e.UnknownSizes[0].Expression != "e.value" || e.UnknownSizes[0].Function != "matches" ||
		len(e.Fixes) != 0 || !strings.Contains(e.NoFix, "e.value") {
		t.Errorf("filter rule: %+v", e)
	}
	// matches over unbounded strings of an unbounded list: both bounds are candidates.
	r = ruleByPath(chk, spec+".x-kubernetes-validations[1].rule")
	e := r.Explanation
	if len(e.Calls) == 0 || e.Calls[0].Function != "matches" || e.Calls[0].Percent < 99 || len(e.Fixes) != 2 || len(e.CombinedFix) != 2 {
		t.Errorf("hosts rule: %+v", e)
	}
	sizes := map[string]bool{}
	for _, s := range e.Sizes {
		sizes[s.Path+" "+s.Kind+" "+strconv.FormatBool(s.FromRequestSize)] = true
	}
	if !sizes["spec.hosts list true"] || !sizes["spec.hosts[*] string true"] {
		t.Errorf("hosts rule sizes: %+v", e.Sizes)
	}
	// Quadratic: exists_one inside all dominates; maxItems on listeners fixes it.
	r = ruleByPath(chk, spec+".x-kubernetes-validations[2].rule")
	e = r.Explanation
	if len(e.Calls) == 0 || e.Calls[0].Function != "exists_one" || e.Calls[0].Expression != "self.listeners.exists_one(o, o.name == l.name)" ||
		len(e.Fixes) != 1 || e.Fixes[0].Path != "spec.listeners" || e.Fixes[0].Set != "maxItems" {
		t.Errorf("listeners rule: %+v", e)
	}
	// Runs: the rule on route matches runs once per match of every route.
	r = ruleByPath(chk, spec+".properties[routes].items.properties[matches].items.x-kubernetes-validations[0].rule")
	e = r.Explanation
	if r.Node != "spec.routes[*].matches[*]" || len(e.Runs) != 2 || !e.RunsFromRequestSize || e.Runs[0].Path != "spec.routes" || !e.Runs[0].FromRequestSize ||
		e.Runs[1].Bound == nil || *e.Runs[1].Bound != 8 || e.Fixes[0].Path != "spec.routes" {
		t.Errorf("route match rule: node %q %+v", r.Node, e)
	}
	// string(int) in a messageExpression: unbounded, no bound helps.
	r = ruleByPath(chk, spec+".x-kubernetes-validations[4].messageExpression")
	if e := r.Explanation; r.Kind != "messageExpression" || len(e.UnknownSizes) != 1 || e.UnknownSizes[0].Expression != "string(self.replicas)" {
		t.Errorf("messageExpression: %+v", e)
	}
}

// TestCRDBadInput: input that is not a usable CRD or object gets a typed
// error, never a panic.
func TestCRDBadInput(t *testing.T) {
	kep := readYAMLDocs(t, crdTestdata+"kep/crd.yaml")[0]
	for _, tc := range []struct {
		name, crd, code, msg string
	}{
		{"not JSON", `{"apiVersion":`, wire.CodeInvalidCRD, "CRD:"},
		{"an array", `[1,2]`, wire.CodeInvalidCRD, "want a JSON object"},
		{"v1beta1", `{"apiVersion":"apiextensions.k8s.io/v1beta1","kind":"CustomResourceDefinition"}`, wire.CodeInvalidCRD, "apiextensions.k8s.io/v1 CustomResourceDefinition"},
		{"a Deployment", `{"apiVersion":"apps/v1","kind":"Deployment"}`, wire.CodeInvalidCRD, `kind "Deployment"`},
		{"no versions", `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"a.b"},"spec":{"group":"b","scope":"Namespaced","names":{"kind":"A","plural":"a"}}}`, wire.CodeInvalidCRD, "at least one version"},
		{"wrong type", `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","spec":{"versions":"v1"}}`, wire.CodeInvalidCRD, "cannot unmarshal"},
	} {
		_, err := Load([]byte(tc.crd))
		var e *wire.Error
		if !errors.As(err, &e) || e.Code != tc.code || !strings.Contains(e.Message, tc.msg) {
			t.Errorf("%s: %v", tc.name, err)
		}
	}
	c, err := Load(kep)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, obj, old, msg string }{
		{"a list", `[1]`, "", "want a JSON object, got an array"},
		{"a string", `"x"`, "", "want a JSON object, got a string"},
		{"no kind", `{"apiVersion":"example.com/v1"}`, "", "Object 'Kind' is missing"},
		{"another kind", `{"apiVersion":"example.com/v1","kind":"Other"}`, "", "is not a WebApp"},
		{"unknown version", `{"apiVersion":"example.com/v9","kind":"WebApp"}`, "", `no version "v9"`},
		{"metadata not an object", `{"apiVersion":"example.com/v1","kind":"WebApp","metadata":[1]}`, "", "object:"},
		{"old of another kind", `{"apiVersion":"example.com/v1","kind":"WebApp"}`, `{"apiVersion":"example.com/v1","kind":"Other"}`, "oldObject"},
		{"deep nesting", `{"apiVersion":"example.com/v1","kind":"WebApp","spec":` + strings.Repeat("[", 20000) + strings.Repeat("]", 20000) + `}`, "", "nesting deeper"},
	} {
		var old []byte
		if tc.old != "" {
			old = []byte(tc.old)
		}
		_, err := c.Validate("", []byte(tc.obj), old)
		var e *wire.Error
		if !errors.As(err, &e) || (e.Code != wire.CodeInvalidObject && e.Code != wire.CodeInvalidCRD) || !strings.Contains(e.Message, tc.msg) {
			t.Errorf("%s: %v", tc.name, err)
		}
	}
	// A non-structural CRD: its check reports kube-apiserver's errors, and a
	// version cannot be built.
	ns, err := Load(readYAMLDocs(t, crdTestdata+"nonstructural/crd.yaml")[0])
	if err != nil {
		t.Fatal(err)
	}
	if chk := ns.Check(); len(chk.Errors) != 2 || !strings.Contains(chk.Message, "must not be empty for specified object fields") {
		t.Errorf("nonstructural check: %+v", chk.Errors)
	}
	if _, err := ns.Version("v1"); err == nil || !strings.Contains(err.Error(), "not structural") {
		t.Errorf("nonstructural version: %v", err)
	}
}

// TestCRDCache: the same bytes give the same compiled CRD.
func TestCRDCache(t *testing.T) {
	kep := readYAMLDocs(t, crdTestdata+"kep/crd.yaml")[0]
	a, err := Load(kep)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Load(append([]byte(nil), kep...))
	if a != b || len(a.SHA256) != 64 {
		t.Errorf("not cached: %p %p %q", a, b, a.SHA256)
	}
	v1, _ := a.Version("")
	v2, _ := b.Version("v1")
	if v1 != v2 {
		t.Error("version not cached")
	}
}

// TestFieldPathLess: list indices order numerically.
func TestFieldPathLess(t *testing.T) {
	for _, tc := range [][2]string{{"spec.a[2]", "spec.a[10]"}, {"spec", "spec.a"}, {"spec.a[9].x", "spec.a[10]"}, {"<nil>", "spec"}} {
		if !fieldPathLess(tc[0], tc[1]) || fieldPathLess(tc[1], tc[0]) {
			t.Errorf("%q < %q", tc[0], tc[1])
		}
	}
}

// TestCRDVersions: each object is validated against the version its
// apiVersion names; a requested version converts (None strategy) or refuses
// (a conversion webhook).
func TestCRDVersions(t *testing.T) {
	const crd = `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"things.v.example.com"},
	"spec":{"group":"v.example.com","scope":"Cluster","names":{"plural":"things","singular":"thing","kind":"Thing"},%s"versions":[
	{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object","properties":{"spec":{"type":"object",
	  "x-kubernetes-validations":[{"rule":"self.n < 10","message":"v1: n < 10"}],"properties":{"n":{"type":"integer"}}}}}}},
	{"name":"v2","served":true,"storage":false,"schema":{"openAPIV3Schema":{"type":"object","properties":{"spec":{"type":"object",
	  "x-kubernetes-validations":[{"rule":"self.n < 5","message":"v2: n < 5"}],"properties":{"n":{"type":"integer"}}}}}}},
	{"name":"v0","served":false,"storage":false,"schema":{"openAPIV3Schema":{"type":"object"}}}]}}`
	c, err := Load([]byte(fmt.Sprintf(crd, "")))
	if err != nil {
		t.Fatal(err)
	}
	if c.DefaultVersion() != "v1" {
		t.Errorf("default version %q", c.DefaultVersion())
	}
	obj := func(v string) []byte {
		return []byte(`{"apiVersion":"v.example.com/` + v + `","kind":"Thing","metadata":{"name":"a"},"spec":{"n":7}}`)
	}
	for _, tc := range []struct{ version, obj, want string }{
		{"", "v1", ""},                  // valid under v1
		{"", "v2", "v2: n < 5"},         // its own version
		{"v2", "v1", "v2: n < 5"},       // converted to v2
		{"v1", "v2", ""},                // converted to v1
		{"", "v0", "is not served"},     // not served
		{"v3", "v1", `no version "v3"`}, // no such version
	} {
		res, err := c.Validate(tc.version, obj(tc.obj), nil)
		got := ""
		switch {
		case err != nil:
			got = err.Error()
		case !res.Valid:
			got = res.Errors[0].Message
		}
		if (tc.want == "") != (got == "") || !strings.Contains(got, tc.want) {
			t.Errorf("version %q, object %s: %q, want %q", tc.version, tc.obj, got, tc.want)
		}
	}
	webhook, err := Load([]byte(fmt.Sprintf(crd, `"conversion":{"strategy":"Webhook","webhook":{"conversionReviewVersions":["v1"],"clientConfig":{"url":"https://x"}}},`)))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := webhook.Validate("v2", obj("v1"), nil); err == nil || !strings.Contains(err.Error(), "needs the CRD's conversion webhook") {
		t.Errorf("webhook conversion: %v", err)
	}
}
