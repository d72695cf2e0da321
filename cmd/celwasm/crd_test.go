package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const crdTD = "../../conformance/testdata/crd/"

// TestValidateKEP validates the KEP corpus: creates, updates, kubectl's
// message format, exit status.
func TestValidateKEP(t *testing.T) {
	crd := crdTD + "kep/crd.yaml"
	out, errs, code := cli(t, "", "validate", "--crd", crd, crdTD+"kep/valid.yaml")
	if code != 0 || errs != "" || strings.Count(out, ": valid (create, rule cost ") != 4 || !strings.Contains(out, "Warning: unknown field \"spec.unknownField\"\n") {
		t.Errorf("valid: exit %d\n%s%s", code, out, errs)
	}
	out, errs, code = cli(t, "", "validate", "--crd", crd, crdTD+"kep/invalid.yaml")
	for _, want := range []string{
		// one cause: kubectl's one-line form
		"webapp.example.com/singleton in health: invalid (create, rule cost ",
		"The WebApp \"singleton\" is invalid: spec.health: Forbidden: health must start with ok\n",
		// messageExpression
		"The WebApp \"singleton\" is invalid: spec: Invalid value: replicas exceeds maxReplicas\n",
		// several causes: kubectl's "* " list
		"The WebApp \"singleton\" is invalid: \n* spec.items[0]: Invalid value: web must use an unprivileged port (1024-65535)\n* spec.items[1]: Invalid value: item names are lowercase letters\n",
		// a rule on map values
		"spec.stateCounts[Failed]: Invalid value: -2: counts are non-negative\n",
		// optionalOldSelf on create
		"spec.phase: Invalid value: \"Running\": a new WebApp starts in phase Pending\n",
		// generateName, root rule
		"webapp.example.com/web-xxxxx in generated: invalid",
		"The WebApp \"web-xxxxx\" is invalid: <nil>: Invalid value: only one WebApp, named singleton, may exist\n",
		// OpenAPI errors block the rules
		"webapp.example.com/singleton in types: invalid (create, rules not run)\n",
		"* spec.replicas: Invalid value: \"string\": spec.replicas in body must be of type integer: \"string\"\n",
		// a runtime error names the rule by its message
		"no such key: health evaluating rule: health must start with ok\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("invalid: missing %q", want)
		}
	}
	if code != 1 || errs != "" || strings.Count(out, ": invalid (create") != 25 || strings.Contains(out, ": valid (") {
		t.Errorf("invalid: exit %d, %d invalid\n%s%s", code, strings.Count(out, ": invalid (create"), out, errs)
	}
	// Updates, paired with the stored objects by namespace and name.
	out, errs, code = cli(t, "", "validate", "--crd", crd, "--old", crdTD+"kep/old.yaml", crdTD+"kep/new-valid.yaml")
	if code != 0 || strings.Count(out, ": valid (update, ") != 13 ||
		!strings.Contains(out, "webapp.example.com/singleton in ratchet: valid (update, rule cost ") ||
		!strings.Contains(out, "Warning: spec.stateCounts[Failed]: Invalid value: -2: counts are non-negative\n") {
		t.Errorf("valid updates: exit %d\n%s%s", code, out, errs)
	}
	out, _, code = cli(t, "", "validate", "--crd", crd, "--old", crdTD+"kep/old.yaml", "--show-rules", crdTD+"kep/new-invalid.yaml")
	for _, want := range []string{
		"The WebApp \"singleton\" is invalid: spec.priority: Invalid value: \"high\": cannot transition directly between 'low' and 'high'\n",
		"The WebApp \"singleton\" is invalid: spec.items[0]: Invalid value: an item's port is immutable\n",
		"  spec.items[0]: rule \"self.port == oldSelf.port\" (openAPIV3Schema.properties[spec].properties[items].items.x-kubernetes-validations[2])\n",
		"The WebApp \"singleton\" is invalid: spec.stateCounts[Available]: Invalid value: 2: counts never decrease\n",
		"The WebApp \"singleton\" is invalid: spec.phase: Invalid value: \"Running\": phase Done is final\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("invalid updates: missing %q", want)
		}
	}
	if code != 1 || strings.Count(out, ": invalid (update") != 11 {
		t.Errorf("invalid updates: exit %d\n%s", code, out)
	}
}

// TestValidateJSON: -o json gives the module's results, in input order.
func TestValidateJSON(t *testing.T) {
	obj := `{"apiVersion":"example.com/v1","kind":"WebApp","metadata":{"name":"singleton","namespace":"x"},"spec":{"replicas":1}}`
	out, errs, code := cli(t, obj, "validate", "-o", "json", "--crd", crdTD+"kep/crd.yaml", "-")
	var res []struct {
		Valid     bool   `json:"valid"`
		Operation string `json:"operation"`
		Reason    string `json:"reason"`
		Code      int    `json:"code"`
		Errors    []struct {
			Field, Type, Message string
			Rule                 *struct{ SchemaPath, Rule, Message string }
		} `json:"errors"`
		Cost       uint64 `json:"cost"`
		CostBudget uint64 `json:"costBudget"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil || code != 1 || errs != "" {
		t.Fatalf("exit %d %v\n%s%s", code, err, out, errs)
	}
	r := res[0]
	if len(res) != 1 || r.Valid || r.Operation != "create" || r.Reason != "Invalid" || r.Code != 422 || r.CostBudget != 10_000_000 || r.Cost == 0 || len(r.Errors) == 0 {
		t.Fatalf("%+v", res)
	}
	// The object lacks most fields: the first rule to run fails on a missing key.
	e := r.Errors[0]
	if e.Field != "spec" || e.Type != "FieldValueInvalid" || e.Rule == nil || !strings.HasPrefix(e.Rule.SchemaPath, "openAPIV3Schema.properties[spec].x-kubernetes-validations[") {
		t.Errorf("%+v", r.Errors)
	}
}

// TestValidateRouting: objects go to the CRD of their kind; unknown kinds,
// rejected CRDs and bad input are errors.
func TestValidateRouting(t *testing.T) {
	objs := filepath.Join(t.TempDir(), "objs.yaml")
	os.WriteFile(objs, []byte(`apiVersion: v1
kind: List
items:
- {apiVersion: budget.example.com/v1, kind: Inventory, metadata: {name: tiny}, spec: {items: [{sku: a, tags: [x]}]}}
- {apiVersion: example.com/v1, kind: WebApp, metadata: {name: other}, spec: {replicas: 1}}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: cm}
`), 0o644)
	out, errs, code := cli(t, "", "validate", "--crd", crdTD+"kep/crd.yaml", "--crd", crdTD+"budget/crd.yaml", objs)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != 1 || errs != "" || len(lines) < 4 || !strings.HasPrefix(lines[0], "inventory.budget.example.com/tiny: valid (create, rule cost ") ||
		!strings.HasPrefix(lines[1], "webapp.example.com/other in default: invalid (create,") ||
		lines[len(lines)-1] != "error: "+objs+": no CustomResourceDefinition for kind \"ConfigMap\" in group \"\"" {
		t.Errorf("exit %d\n%s%s", code, out, errs)
	}
	// A CRD kube-apiserver would reject: kubectl's message for the CRD, exit 1.
	_, errs, code = cli(t, "", "validate", "--crd", crdTD+"invalid/crd.yaml", objs)
	if code != 1 || !strings.HasPrefix(errs, "The CustomResourceDefinition \"widgets.invalid.example.com\" is invalid: \n* spec.validation.openAPIV3Schema.properties[spec].properties[tags].items.x-kubernetes-validations[0].rule: Invalid value: \"self == oldSelf\": oldSelf cannot be used on the uncorrelatable portion of the schema") ||
		!strings.Contains(errs, "compilation failed: ERROR: <input>:1:30: Syntax error: token recognition error at: '= '\n | self.envars.filter(e, e.name = 'MY_ENV')") {
		t.Errorf("rejected CRD: exit %d\n%s", code, errs)
	}
	// with no object of its kind, it is still checked
	if _, errs, code := cli(t, `{"apiVersion":"v1","kind":"ConfigMap"}`, "validate", "--crd", crdTD+"invalid/fields-crd.yaml", "-"); code != 1 || !strings.Contains(errs, ".x-kubernetes-validations[0].reason: Unsupported value: \"FieldValueTooLong\"") {
		t.Errorf("CRD without objects: exit %d\n%s", code, errs)
	}
	for _, tc := range []struct {
		args   []string
		stdin  string
		code   int
		stderr string
	}{
		{[]string{"validate", crdTD + "kep/valid.yaml"}, "", 2, "--crd and at least one object file are required"},
		{[]string{"validate", "--crd", crdTD + "kep/crd.yaml"}, "", 2, "--crd and at least one object file are required"},
		{[]string{"validate", "--crd", crdTD + "kep/valid.yaml", crdTD + "kep/valid.yaml"}, "", 2, "is not a CustomResourceDefinition"},
		{[]string{"validate", "--crd", crdTD + "kep/crd.yaml", "-"}, "a: [unclosed", 2, "celwasm validate: stdin is neither JSON nor YAML (yaml: line 1"},
		{[]string{"validate", "--crd", crdTD + "kep/crd.yaml", "/nonexistent.yaml"}, "", 2, "no such file"},
		{[]string{"validate", "--crd", "-", "-o", "json", crdTD + "kep/valid.yaml"}, `{"apiVersion":"apiextensions.k8s.io/v1beta1","kind":"CustomResourceDefinition"}`, 1, "invalid_crd: want an apiextensions.k8s.io/v1 CustomResourceDefinition"},
		{[]string{"cost"}, "", 2, "--crd is required"},
		{[]string{"validate", "--crd", crdTD + "kep/crd.yaml", "-"}, "just a string\n---\n- a list\n", 1, "-: a document is not an object: \"just a string\""},
	} {
		out, errs, code := cli(t, tc.stdin, tc.args...)
		if code != tc.code || !strings.Contains(errs+out, tc.stderr) {
			t.Errorf("%v: exit %d, want %d with %q\n%s%s", tc.args, code, tc.code, tc.stderr, out, errs)
		}
	}
	// An object the module cannot validate: per-object error, exit 1.
	out, _, code = cli(t, `{"apiVersion":"example.com/v2","kind":"WebApp","metadata":{"name":"a"}}`, "validate", "--crd", crdTD+"kep/crd.yaml", "-")
	if code != 1 || !strings.Contains(out, `error: -: object: CRD webapps.example.com has no version "v2" (versions: v1)`) {
		t.Errorf("unknown version: exit %d %s", code, out)
	}
}

// TestCost: the report, the explanation of rules over the limit, exit status.
func TestCost(t *testing.T) {
	out, errs, code := cli(t, "", "cost", "--crd", crdTD+"kep/crd.yaml")
	if code != 0 || errs != "" || !strings.HasPrefix(out, "CustomResourceDefinition webapps.example.com\n\nspec.validation.openAPIV3Schema (versions v1): total estimated cost ") ||
		strings.Contains(out, "EXCEEDS") || !strings.Contains(out, "spec.items[*]  properties[spec].properties[items].items.x-kubernetes-validations[1].rule\n      self.name.matches('^[a-z]+$')\n") {
		t.Errorf("kep: exit %d\n%s%s", code, out, errs)
	}
	out, _, code = cli(t, "", "cost", "--crd", crdTD+"expensive/crd.yaml")
	for _, want := range []string{
		"total estimated cost unbounded of 100,000,000  EXCEEDS\n",
		"   1,723,858,944  spec.routes[*].matches[*]  properties[spec].properties[routes].items.properties[matches].items.x-kubernetes-validations[0].rule  EXCEEDS 10,000,000\n",
		"      estimated cost 1,723,858,944 = 1,644 per run × 1,048,576 runs (no maxItems on spec.routes: runs bounded only by the 3 MiB request size); over the limit of 10,000,000\n",
		"      runs once per item of spec.routes: no maxItems → up to 1,048,576 times (what fits in a 3 MiB request)\n",
		"      fix: maxItems ≤ 760 on spec.routes (estimated cost then 9,995,520)\n",
		"       99.9%  matches  self.path.matches(\"^/[a-z0-9/._-]*$\") (at 1:20)\n",
		"      fix (together): maxLength ≤ 2497 on spec.hosts[*], maxItems ≤ 2497 on spec.hosts (estimated cost then 9,988,003)\n",
		"      fix: maxItems ≤ 558 on spec.listeners (estimated cost then 9,967,557)\n",
		"      unbounded size: e.value (passed to matches, at 1:51)\n",
		"      unbounded size: string(self.replicas) (passed to +, at 1:45)\n",
		"The CustomResourceDefinition \"gateways.expensive.example.com\" is invalid: \n* spec.validation.openAPIV3Schema: Forbidden: x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget by factor of more than 100x",
		"* spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[2].rule: Forbidden: estimated rule cost exceeds budget by factor of more than 100x",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("expensive: missing %q", want)
		}
	}
	if code != 1 {
		t.Errorf("expensive: exit %d", code)
	}
	// JSON: the module's report; --version picks one schema.
	out, _, code = cli(t, "", "cost", "-o", "json", "--version", "v1", "--crd", crdTD+"budget/crd.yaml")
	var reps []struct {
		Valid   bool
		Schemas []struct {
			Versions  []string
			TotalCost uint64
			Rules     []struct {
				Path, Node, Kind     string
				Cost, PerCall, Limit uint64
				Cardinality          uint64
				Explanation          *struct{ Summary string }
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &reps); err != nil || code != 0 || len(reps) != 1 || !reps[0].Valid || len(reps[0].Schemas) != 1 || len(reps[0].Schemas[0].Rules) != 5 {
		t.Fatalf("json: exit %d %v\n%s", code, err, out)
	}
	r := reps[0].Schemas[0].Rules[1]
	if r.Node != "spec.items[*]" || r.Cardinality != 200 || r.Cost != r.PerCall*200 || r.Limit != 10_000_000 || r.Explanation == nil ||
		!strings.HasPrefix(r.Explanation.Summary, "estimated cost ") {
		t.Errorf("json rule: %+v", r)
	}
}

// TestValidateEngines: wazero and wasmtime print the same bytes.
func TestValidateEngines(t *testing.T) {
	args := []string{"--crd", crdTD + "kep/crd.yaml", "--old", crdTD + "kep/old.yaml", "-o", "json", crdTD + "kep/new-invalid.yaml"}
	a, _, ca := cli(t, "", append([]string{"validate", "--engine", "wazero"}, args...)...)
	b, _, cb := cli(t, "", append([]string{"validate", "--engine", "wasmtime"}, args...)...)
	if a != b || ca != cb || ca != 1 {
		t.Errorf("wazero and wasmtime differ (exit %d, %d)", ca, cb)
	}
}
