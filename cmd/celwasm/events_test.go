package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// TestKnativeVectors runs conformance/testdata/knative/eventfilter.json
// (Knative's eventfilter tests as vectors) through `celwasm filter`, one
// event per case on stdin.
func TestKnativeVectors(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(td, "knative/eventfilter.json"))
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		Cases []struct {
			Name    string
			Filter  json.RawMessage
			Event   json.RawMessage
			Deliver *bool
			Error   string
		}
	}
	if err := json.Unmarshal(b, &f); err != nil || len(f.Cases) < 100 {
		t.Fatalf("%d cases, %v", len(f.Cases), err)
	}
	dir := t.TempDir()
	for i, c := range f.Cases {
		p := filepath.Join(dir, strconv.Itoa(i)+".json")
		os.WriteFile(p, c.Filter, 0o644)
		out, errs, code := cli(t, string(c.Event), "filter", "--filter", p, "-i", "-")
		if c.Error != "" {
			if code != 1 || !strings.Contains(errs, c.Error) {
				t.Errorf("%s: exit %d, stderr %q, want the error %q", c.Name, code, errs, c.Error)
			}
			continue
		}
		delivered := strings.TrimSpace(out) != ""
		if code != 0 || delivered != *c.Deliver || strings.Contains(errs, "event 1:") {
			t.Errorf("%s: exit %d, delivered %v, want %v; stderr %q", c.Name, code, delivered, *c.Deliver, errs)
		}
	}
}

// TestTektonVectors runs conformance/testdata/tekton/when.json (Tekton's
// when tests as vectors) through `celwasm when`.
func TestTektonVectors(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(td, "tekton/when.json"))
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
	if err := json.Unmarshal(b, &f); err != nil || len(f.Cases) < 50 {
		t.Fatalf("%d cases, %v", len(f.Cases), err)
	}
	dir := t.TempDir()
	for i, c := range f.Cases {
		p := filepath.Join(dir, strconv.Itoa(i)+".json")
		os.WriteFile(p, c.Context, 0o644)
		args := []string{"when", "--context", p}
		for _, w := range c.When {
			var s string
			if json.Unmarshal(w, &s) != nil {
				s = string(w)
			}
			args = append(args, "-e", s)
		}
		out, errs, code := cli(t, "", args...)
		switch {
		case c.Error != "" || c.EvalError != "":
			want := c.Error + c.EvalError
			if code != 2 || out != "" || !strings.Contains(errs, want) {
				t.Errorf("%s: exit %d, %q, stderr %q, want an error with %q", c.Name, code, out, errs, want)
			}
		case *c.Result:
			if code != 0 || out != "true\n" {
				t.Errorf("%s: exit %d, %q, stderr %q, want true", c.Name, code, out, errs)
			}
		default:
			if code != 1 || out != "false\n" {
				t.Errorf("%s: exit %d, %q, stderr %q, want false", c.Name, code, out, errs)
			}
		}
	}
}

// TestREADMEExamples runs the README's filter and when example block
// verbatim in bash, with build/celwasm built from this tree.
func TestREADMEExamples(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	s := string(readme)
	i := strings.Index(s, "## CloudEvents trigger filters and Tekton when expressions")
	if i < 0 {
		t.Fatal("README: no filters section")
	}
	s = s[i:]
	a := strings.Index(s, "```sh\n")
	z := strings.Index(s[a+6:], "```")
	if a < 0 || z < 0 {
		t.Fatal("README: no sh block in the filters section")
	}
	block := s[a+6 : a+6+z]
	bin := buildCLI(t)
	script := "set -e -o pipefail\n" + strings.ReplaceAll(block, "build/celwasm", bin)
	cmd := exec.Command("bash", "-c", script)
	cmd.Dir = "../.."
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("README block failed: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "true\n") || !strings.Contains(string(out), "matched ") {
		t.Errorf("README block output:\n%s", out)
	}
}

// TestBatchedEvents: a batched-mode request is filtered event by event.
func TestBatchedEvents(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f.yaml")
	os.WriteFile(p, []byte("exact: {type: a}\n"), 0o644)
	batch := `{"headers":{"Content-Type":"application/cloudevents-batch+json; charset=utf-8"},"body":"[{\"specversion\":\"1.0\",\"id\":\"1\",\"source\":\"s\",\"type\":\"a\"},{\"specversion\":\"1.0\",\"id\":\"2\",\"source\":\"s\",\"type\":\"b\"},{\"specversion\":\"1.0\",\"id\":\"3\",\"source\":\"s\",\"type\":\"a\"}]"}` + "\n" +
		`{"specversion":"1.0","id":"4","source":"s","type":"a"}` + "\n"
	out, errs, code := cli(t, batch, "filter", "--filter", p, "-i", "-")
	if got := outputIDs(t, out); code != 0 || !reflect.DeepEqual(got, []string{"1", "3", "4"}) || !strings.Contains(errs, "matched 3 of 4 events") {
		t.Errorf("batch: exit %d, ids %v, stderr %q", code, got, errs)
	}
	_, errs, code = cli(t, `{"headers":{"content-type":"application/cloudevents-batch+json"},"body":"{}"}`, "filter", "--filter", p, "-i", "-")
	if code != 2 || !strings.Contains(errs, "JSON array") { // unreadable input: exit 2
		t.Errorf("bad batch: exit %d, %q", code, errs)
	}
}

// TestFilterExamples runs every filter example of the Knative advanced
// filtering proposal (conformance/testdata/filters) over real events in
// structured and binary mode. The proposal's events 1-3 carry nested or
// dotted extensions, which CloudEvents forbids: Knative's broker refuses
// them, so every filter that reads attributes the Knative way reports them
// as evaluation errors; the proposal's dotted attribute names (14) fail
// Knative's webhook.
func TestFilterExamples(t *testing.T) {
	events := filepath.Join(td, "cloudevents/events.ndjson")
	ids := eventIDs(t, events)
	cases := []struct {
		file    string
		matches []int // 1-based event numbers in events.ndjson
		errors  int   // evaluation errors (fail closed)
		compile bool  // the filter does not compile
	}{
		{"01-single-attribute-sourceandtype.yaml", nil, 3, false},
		{"02-single-attribute-attributes.yaml", nil, 3, false},
		{"03-single-attribute-expression.yaml", []int{1}, 0, false},
		{"04-multiple-attributes-sourceandtype.yaml", nil, 3, false},
		{"05-multiple-attributes-attributes.yaml", nil, 3, false},
		{"06-multiple-attributes-expression.yaml", []int{1}, 0, false},
		{"07-prefix-startswith.yaml", []int{1, 2, 3, 7}, 0, false},
		{"08-prefix-match-not-cel.yaml", nil, 0, true},
		{"09-prefix-matches-regex.yaml", []int{1, 2, 3, 7}, 0, false},
		{"10-complex-boolean-as-printed.yaml", nil, 0, true},
		{"11-complex-boolean.yaml", []int{1, 2}, 0, false},
		{"12-official-and-extension-attributes.yaml", nil, 3, false},
		{"13-official-and-extension-expression.yaml", []int{2}, 0, false},
		{"14-dotted-extension-attributes.yaml", nil, 0, true},
		{"15-dotted-extension-expression.yaml", []int{2}, 7, false},
		{"16-nested-extension-expression.yaml", []int{3}, 6, false},
		{"17-data-string-field-as-printed.yaml", nil, 0, true},
		{"18-data-string-field.yaml", []int{2, 6}, 6, false},
		{"19-data-number-field.yaml", []int{6}, 0, false},
		{"20-subscriptions-dialects.yaml", nil, 3, false},
	}
	for _, c := range cases {
		out, errs, code := cli(t, "", "filter", "--filter", filepath.Join(td, "filters", c.file), "-i", events)
		if c.compile {
			if code != 1 || !(strings.Contains(errs, "ERROR: <input>") || strings.Contains(errs, "invalid key name")) {
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
	out, _, code := cli(t, "", "filter", "--explain", "--filter", filepath.Join(td, "filters/20-subscriptions-dialects.yaml"))
	want := `(string(attrs.type).startsWith("com.github.")) && ((string(attrs.subject) == "123") || (string(attrs.source).endsWith("/proposals"))) && (!(string(attrs.type) == "com.github.push"))` + "\n"
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
		"badname.yaml": "exact: {Type: a}\n",
		"cesql.yaml":   "cesql: \"type = \"\n",
		"multi.yaml":   "exact: {type: a}\nprefix: {type: b}\n",
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
	in := "{\"specversion\":\"1.0\",\"id\":\"1\",\"source\":\"s\",\"type\":\"a\"}\n{not json\n{\"no\":\"specversion\"}\n{\"headers\":{\"ce-specversion\":\"1.0\",\"ce-type\":\"a\",\"content-type\":\"application/json\"},\"body\":\"{bad\"}\n{\"specversion\":\"1.0\",\"id\":\"2\",\"source\":\"s\",\"type\":\"b\"}\n{\"specversion\":\"1.0\",\"type\":\"a\"}\n"
	out, errs, code := cli(t, in, "filter", "--filter", p, "-i", "-")
	if code != 0 || strings.Count(out, "\n") != 1 || !strings.Contains(errs, "matched 1 of 6 events, 4 evaluation errors (fail closed)") || !strings.Contains(errs, "event 6: eval_error: cloud event: Knative's broker would refuse this event") {
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
		{[]string{"'$(params.path)' == 'README.md'"}, "true\n", 0},
		{[]string{"'$(tasks.check-file.results.exists)' in ['yes']"}, "true\n", 0},
		{[]string{"'$(tasks.echo-file-exists.status)' == 'Succeeded'", "'$(tasks.status)' == 'Succeeded'", "'$(tasks.check-file.results.exists)' == 'yes'", "'$(params.path)' == 'README.md'"}, "true\n", 0},
		{[]string{"'$(params.param1)' != '' || '$(params.param2)' == '8.5' || '$(params.param2)' == '8.6'"}, "true\n", 0},
		{[]string{"$(tasks.unit-test.results.test-coverage) >= 0.9"}, "true\n", 0},
		{[]string{"$(tasks.unit-test.results.test-coverage) >= 0.95"}, "false\n", 1},
		{[]string{"$(tasks.unit-test.results.failures) == 0"}, "true\n", 0},
		{[]string{"'$(params.branch)'.matches('release/.*')"}, "true\n", 0},
		{[]string{"'foo' in ['foo', 'bar']", "!('duh' in ['foo', 'bar'])"}, "true\n", 0},
		{[]string{"'refs/heads/$(params.branch)' == 'refs/heads/release/v1.2'"}, "true\n", 0},
		{[]string{"'$(context.pipelineRun.name)'.startsWith('guarded-pr-')", "'$(params.path)' == 'nope'"}, "false\n", 1},
		{[]string{`{"input":"$(params.path)","operator":"in","values":["README.md"]}`, "'$(tasks.status)' == 'Succeeded'"}, "true\n", 0},
		// A value holding CEL is a value: the injection attempt compares false.
		{[]string{"'$(params.injection)' == 'x'"}, "false\n", 1},
		// Errors: unquoted text (Tekton would compile the substituted text), not
		// a bool, bare variables, unknown reference, missing value, syntax.
		{[]string{"$(params.path) == 'README.md'"}, "", 2},
		{[]string{"$(params.injection) == 'x'"}, "", 2},
		{[]string{"'$(params.path)'"}, "", 2},
		{[]string{"params.path == 'README.md'"}, "", 2},
		{[]string{"'$(workspaces.source.path)' == ''"}, "", 2},
		{[]string{"'$(params.nope)' == ''"}, "", 2},
		{[]string{"'$(params.path)' =="}, "", 2},
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
