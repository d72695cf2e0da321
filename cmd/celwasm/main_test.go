package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	celwasm "github.com/celwasm/celwasm/host"
)

const td = "../../conformance/testdata"

// TestMain shares one Runtime per engine across the commands the tests run.
func TestMain(m *testing.M) {
	shared := map[string]*celwasm.Runtime{}
	newRuntime = func(ctx context.Context, engine string, stderr io.Writer) (*celwasm.Runtime, error) {
		if rt, ok := shared[engine]; ok {
			return rt, nil
		}
		rt, err := openRuntime(ctx, engine, io.Discard)
		if err == nil {
			shared[engine] = rt
		}
		return rt, err
	}
	release = func(context.Context, *celwasm.Runtime) {}
	code := m.Run()
	for _, rt := range shared {
		rt.Close(context.Background())
	}
	os.Exit(code)
}

func cli(t *testing.T, stdin string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(args, strings.NewReader(stdin), &out, &errb)
	return out.String(), errb.String(), code
}

// TestKEPRuleTable evaluates the rule table of KEP-2876 (CRD validation
// rules) at the spec of a custom resource that satisfies every rule, and of
// one that violates each.
func TestKEPRuleTable(t *testing.T) {
	rules := []string{
		"self.minReplicas <= self.replicas && self.replicas <= self.maxReplicas",
		"'Available' in self.stateCounts",
		"(self.list1.size() == 0) != (self.list2.size() == 0)",
		"!('MY_KEY' in self.map1) || self.map1['MY_KEY'].matches('^[a-zA-Z]*$')",
		"self.envars.filter(e, e.name == 'MY_ENV').all(e, e.value.matches('^[a-zA-Z]*$'))",
		"has(self.expired) && timestamp(self.created) + duration(self.ttl) < timestamp(self.expired)",
		"self.health.startsWith('ok')",
		"self.widgets.exists(w, w.key == 'x' && w.foo < 10)",
		"self.set1.all(e, !(e in self.set2))",
		"self.names.size() == self.details.size() && self.names.all(n, n in self.details)",
	}
	invalid := `{"spec":{"minReplicas":5,"replicas":3,"maxReplicas":4,"stateCounts":{"Progressing":1},"list1":[],"list2":[],
		"map1":{"MY_KEY":"has-dash"},"envars":[{"name":"MY_ENV","value":"prod-1"}],"created":"2026-11-01T10:00:00Z","ttl":"720h",
		"expired":"2026-11-02T00:00:00Z","health":"degraded","widgets":[{"key":"x","foo":12}],"set1":["a","c"],"set2":["c"],
		"names":["alpha"],"details":{"beta":"b"}}}`
	for _, rule := range rules {
		out, errs, code := cli(t, "", "eval", "-e", rule, "--at", "spec", "-i", filepath.Join(td, "k8s/webapp.yaml"))
		if code != 0 || out != "true\n" {
			t.Errorf("%s on webapp.yaml: %q %q exit %d", rule, out, errs, code)
		}
		out, errs, code = cli(t, invalid, "eval", "-e", rule, "--at", "spec", "-i", "-")
		if code != 0 || out != "false\n" {
			t.Errorf("%s on the invalid object: %q %q exit %d", rule, out, errs, code)
		}
	}
	// The table as printed has a typo ('=' for '=='): a compile error with a caret.
	_, errs, code := cli(t, "", "eval", "-e", "self.envars.filter(e, e.name = 'MY_ENV').all(e, e.value.matches('^[a-zA-Z]*$')", "--at", "spec", "-i", filepath.Join(td, "k8s/webapp.yaml"))
	if code != 1 || !strings.Contains(errs, "ERROR: <input>:1:30: Syntax error") || !strings.Contains(errs, " | .............................^") {
		t.Errorf("typo rule: exit %d, stderr %q", code, errs)
	}
}

func TestEvalCLI(t *testing.T) {
	dep := filepath.Join(td, "k8s/deployment.yaml")
	cases := []struct {
		args []string
		in   string
		out  string
		code int
	}{
		{[]string{"eval", "-e", "self.spec.template.spec.containers.map(c, c.resources.limits.memory)", "-i", dep, "-o", "text"}, "", "[\"512Mi\", \"64Mi\"]\n", 0},
		{[]string{"eval", "-e", "self.spec.template.spec.containers.all(c, quantity(c.resources.limits.memory).isLessThan(quantity('1Gi')))", "-i", dep}, "", "true\n", 0},
		{[]string{"eval", "-e", "ip(self.spec.clusterIP).family()", "-i", filepath.Join(td, "k8s/service.yaml")}, "", `{"int":"4"}` + "\n", 0},
		// multi-document YAML: each document
		{[]string{"eval", "-e", "self.count * 2", "-i", "-"}, "count: 1\n---\ncount: 2\n", "{\"int\":\"2\"}\n{\"int\":\"4\"}\n", 0},
		{[]string{"eval", "-e", "x + 1", "--var", "x=int", "--activation", "-i", "-", "-o", "text"}, `{"x": 41}`, "42\n", 0},
		{[]string{"eval", "-e", "t.getFullYear()", "--var", "t=timestamp", "--activation", "-i", "-"}, `{"t": "2026-11-21T10:00:00Z"}`, "{\"int\":\"2026\"}\n", 0},
		{[]string{"eval", "-e", "math.greatest(1, 7, 3)", "--ext", "math"}, "", "{\"int\":\"7\"}\n", 0},
		{[]string{"eval", "--engine", "wazero", "-e", "quantity('1Gi').asInteger()"}, "", "{\"int\":\"1073741824\"}\n", 0},
		// format.* is a Kubernetes 1.31 library: not for new expressions at 1.30, fine when stored
		{[]string{"eval", "-e", "format.dns1123Label().validate('ok').hasValue()", "--k8s-version", "1.30"}, "", "", 1},
		{[]string{"eval", "-e", "format.dns1123Label().validate('ok').hasValue()", "--k8s-version", "1.30", "--stored"}, "", "false\n", 0},
		{[]string{"eval", "-e", "self.nope", "-i", "-"}, `{"a": 1}`, "", 1},
		{[]string{"eval", "-e", "1 +"}, "", "", 1},
		{[]string{"eval", "-e", "1", "-o", "yaml"}, "", "", 2},
		{[]string{"eval"}, "", "", 2},
		{[]string{"frobnicate"}, "", "", 2},
		{[]string{"check", "-e", "self.minReplicas <= self.replicas", "--var", "self=map(string, int)", "-o", "json"}, "", "{\"outputType\":\"bool\",\"costEstimate\":{\"min\":5,\"max\":5}}\n", 0},
	}
	for _, c := range cases {
		out, errs, code := cli(t, c.in, c.args...)
		if out != c.out || code != c.code {
			t.Errorf("celwasm %s: got %q (stderr %q) exit %d, want %q exit %d", strings.Join(c.args, " "), out, errs, code, c.out, c.code)
		}
	}
}

// TestFilterExamples runs every filter example of the Knative advanced
// filtering proposal (conformance/testdata/filters) over real events in
// structured and binary mode.
func TestFilterExamples(t *testing.T) {
	events := filepath.Join(td, "cloudevents/events.ndjson")
	ids := eventIDs(t, events)
	cases := []struct {
		file    string
		matches []int // 1-based event numbers in events.ndjson
		errors  int   // evaluation errors (fail closed)
		compile bool  // the filter does not compile
	}{
		{"01-single-attribute-sourceandtype.yaml", []int{1}, 0, false},
		{"02-single-attribute-attributes.yaml", []int{1}, 0, false},
		{"03-single-attribute-expression.yaml", []int{1}, 0, false},
		{"04-multiple-attributes-sourceandtype.yaml", []int{1}, 0, false},
		{"05-multiple-attributes-attributes.yaml", []int{1}, 0, false},
		{"06-multiple-attributes-expression.yaml", []int{1}, 0, false},
		{"07-prefix-startswith.yaml", []int{1, 2, 3, 7}, 0, false},
		{"08-prefix-match-not-cel.yaml", nil, 0, true},
		{"09-prefix-matches-regex.yaml", []int{1, 2, 3, 7}, 0, false},
		{"10-complex-boolean-as-printed.yaml", nil, 0, true},
		{"11-complex-boolean.yaml", []int{1, 2}, 0, false},
		{"12-official-and-extension-attributes.yaml", []int{2}, 0, false},
		{"13-official-and-extension-expression.yaml", []int{2}, 0, false},
		{"14-dotted-extension-attributes.yaml", []int{2, 3}, 0, false},
		{"15-dotted-extension-expression.yaml", []int{2}, 7, false},
		{"16-nested-extension-expression.yaml", []int{3}, 6, false},
		{"17-data-string-field-as-printed.yaml", nil, 0, true},
		{"18-data-string-field.yaml", []int{2, 6}, 6, false},
		{"19-data-number-field.yaml", []int{6}, 0, false},
		{"20-subscriptions-dialects.yaml", []int{1, 2, 3}, 0, false},
	}
	for _, c := range cases {
		out, errs, code := cli(t, "", "filter", "--filter", filepath.Join(td, "filters", c.file), "-i", events)
		if c.compile {
			if code != 1 || !strings.Contains(errs, "ERROR: <input>") {
				t.Errorf("%s: want a compile error with a caret, got exit %d, %q", c.file, code, errs)
			}
			continue
		}
		var want []string
		for _, n := range c.matches {
			want = append(want, ids[n-1])
		}
		got := outputIDs(t, out)
		summary := "matched " + strconv.Itoa(len(c.matches)) + " of 8 events, " + strconv.Itoa(c.errors) + " evaluation errors (fail closed)"
		if code != 0 || !reflect.DeepEqual(got, want) || !strings.Contains(errs, summary) {
			t.Errorf("%s: exit %d, matched %v, want %v; stderr %q", c.file, code, got, want, errs)
		}
	}
	// --explain shows the CEL a structured filter became.
	out, _, code := cli(t, "", "filter", "--explain", "--filter", filepath.Join(td, "filters/14-dotted-extension-attributes.yaml"))
	want := `("github.repository" in ce && string(ce["github.repository"]) == "proposals") || (has(ce.github) && type(ce.github) == map && has(ce.github.repository) && string(ce.github.repository) == "proposals")` + "\n"
	if code != 0 || out != want {
		t.Errorf("explain: %q, want %q", out, want)
	}
	// Fail open delivers the events whose evaluation failed.
	out, _, _ = cli(t, "", "filter", "--fail-open", "--filter", filepath.Join(td, "filters/16-nested-extension-expression.yaml"), "-i", events)
	if n := len(outputIDs(t, out)); n != 7 {
		t.Errorf("fail open: %d events delivered, want 7", n)
	}
}

func TestFilterRejects(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{
		"two.yaml":     "attributes: {type: a}\nexpression: ce.type == 'a'\n",
		"unknown.yaml": "regex: {type: a}\n",
		"exact2.yaml":  "exact: {type: a, source: b}\n",
		"cesql.yaml":   "cesql: \"type = 'a'\"\n",
		"both.yaml":    "spec:\n  filter: {attributes: {type: a}}\n  filters: [{exact: {type: a}}]\n",
		"badexpr.yaml": "expression: ce.type ==\n",
		"notbool.yaml": "expression: ce.type\n",
	} {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(body), 0o644)
		out, errs, code := cli(t, `{"specversion":"1.0","id":"1","source":"s","type":"a"}`, "filter", "--filter", p, "-i", "-")
		if name == "notbool.yaml" {
			if code != 0 || out != "" || !strings.Contains(errs, "not a bool") {
				t.Errorf("%s: exit %d, %q %q", name, code, out, errs)
			}
			continue
		}
		if code != 1 || out != "" || !strings.Contains(errs, "error") {
			t.Errorf("%s: exit %d, %q %q", name, code, out, errs)
		}
	}
	// Malformed events are errors, counted; the rest is filtered.
	p := filepath.Join(dir, "ok.yaml")
	os.WriteFile(p, []byte("attributes: {type: a}\n"), 0o644)
	in := "{\"specversion\":\"1.0\",\"type\":\"a\"}\n{not json\n{\"no\":\"specversion\"}\n{\"headers\":{\"ce-specversion\":\"1.0\",\"ce-type\":\"a\",\"content-type\":\"application/json\"},\"body\":\"{bad\"}\n{\"specversion\":\"1.0\",\"type\":\"b\"}\n"
	out, errs, code := cli(t, in, "filter", "--filter", p, "-i", "-")
	if code != 0 || strings.Count(out, "\n") != 1 || !strings.Contains(errs, "matched 1 of 5 events, 3 evaluation errors (fail closed)") {
		t.Errorf("malformed events: exit %d, %q %q", code, out, errs)
	}
}

// TestWhenExpressions runs TEP-0145's examples against a PipelineRun context.
func TestWhenExpressions(t *testing.T) {
	ctx := filepath.Join(td, "tekton/pipelinerun-context.json")
	cases := []struct {
		exprs []string
		out   string
		code  int
	}{
		{[]string{"$(params.path) == 'README.md'"}, "true\n", 0},
		{[]string{"$(tasks.check-file.results.exists) in ['yes']"}, "true\n", 0},
		{[]string{"$(tasks.echo-file-exists.status) == 'Succeeded'", "$(tasks.status) == 'Succeeded'", "$(tasks.check-file.results.exists) == 'yes'", "$(params.path) == 'README.md'"}, "true\n", 0},
		{[]string{"$(params.param1) != '' || $(params.param2) == '8.5' || $(params.param2) == '8.6'"}, "true\n", 0},
		{[]string{"$(tasks.unit-test.results.test-coverage) >= 0.9"}, "true\n", 0},
		{[]string{"$(tasks.unit-test.results.test-coverage) >= 0.95"}, "false\n", 1},
		{[]string{"$(params.branch).matches('release/.*')"}, "true\n", 0},
		{[]string{"'foo' in ['foo', 'bar']", "!('duh' in ['foo', 'bar'])"}, "true\n", 0},
		{[]string{"'refs/heads/$(params.branch)' == 'refs/heads/release/v1.2'"}, "true\n", 0},
		{[]string{"$(context.pipelineRun.name).startsWith('guarded-pr-')", "$(params.path) == 'nope'"}, "false\n", 1},
		// A value holding CEL is a value: the injection attempt compares false.
		{[]string{"$(params.injection) == 'x'"}, "false\n", 1},
		{[]string{"'$(params.injection)' == 'x'"}, "false\n", 1},
		// Errors: not a bool, unknown reference, missing value, syntax.
		{[]string{"$(params.path)"}, "", 2},
		{[]string{"$(workspaces.source.path) == ''"}, "", 2},
		{[]string{"$(params.nope) == ''"}, "", 2},
		{[]string{"$(params.path) =="}, "", 2},
	}
	for _, c := range cases {
		args := []string{"when", "--context", ctx}
		for _, e := range c.exprs {
			args = append(args, "-e", e)
		}
		out, errs, code := cli(t, "", args...)
		if out != c.out || code != c.code {
			t.Errorf("when %q: %q (stderr %q) exit %d, want %q exit %d", c.exprs, out, errs, code, c.out, c.code)
		}
	}
	// The injection stays a string: explain shows no trace of its content.
	_, errs, _ := cli(t, "", "when", "--explain", "--context", ctx, "-e", "'$(params.injection)' == 'x'")
	if !strings.HasPrefix(errs, "string(params.injection) == 'x'\n") {
		t.Errorf("explain: %q", errs)
	}
}

func eventIDs(t *testing.T, file string) []string {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	return outputIDs(t, string(data))
}

// outputIDs returns each NDJSON event's id (structured or binary).
func outputIDs(t *testing.T, ndjson string) []string {
	t.Helper()
	var ids []string
	for _, line := range strings.Split(strings.TrimSpace(ndjson), "\n") {
		if line == "" {
			continue
		}
		var ev struct {
			ID      string            `json:"id"`
			Headers map[string]string `json:"headers"`
		}
		if err := json.Unmarshal([]byte(line), &ev); err != nil {
			t.Fatalf("output line %q: %v", line, err)
		}
		if ev.ID == "" {
			ev.ID = ev.Headers["ce-id"]
		}
		ids = append(ids, ev.ID)
	}
	return ids
}
