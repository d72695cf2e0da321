package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
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
	// The test binary is not the CLI: compile in the foreground.
	startBackground = func(string, string) error { return errors.New("no background compile in tests") }
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
