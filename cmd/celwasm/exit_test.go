package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/celwasm/celwasm/wasm/codec"
)

// exitCase is one run of the CLI with the exit status the rule in the
// package doc gives it, and a part of its stderr.
type exitCase struct {
	args   []string
	stdin  string
	code   int
	stderr string
}

// exitCases cover every command with each status it can exit with;
// python -m celwasm exits and prints the same (sdk-python/tests/test_cli_exit.py).
func exitCases(dir string) []exitCase {
	f := func(name string) string { return filepath.Join(dir, name) }
	ev := filepath.Join(td, "cloudevents/ping.json")
	ctx := filepath.Join(td, "tekton/pipelinerun-context.json")
	return []exitCase{
		{[]string{"eval", "-e", "1 + 1"}, "", 0, ""},
		{[]string{"eval", "-e", "self.a", "-i", "-"}, "a: 1\n", 0, ""},
		{[]string{"eval", "-e", "1 +"}, "", 1, "Syntax error"},
		{[]string{"eval", "-e", "self.b", "-i", "-"}, "a: 1\n", 1, "error: eval_error: no such key: b"},
		{[]string{"eval", "-e", "1", "-o", "yaml"}, "", 2, "-o must be json or text"},
		{[]string{"eval", "-e", "1", "--engine", "foo"}, "", 2, "celwasm eval: --engine must be wazero or wasmtime\n"},
		{[]string{"eval", "-e", "self", "-i", f("missing.json")}, "", 2, "celwasm eval: open " + f("missing.json") + ": no such file or directory\n"},
		{[]string{"eval", "-e", "self", "-i", f("bad.yaml")}, "", 2, "celwasm eval: " + f("bad.yaml") + " is neither JSON nor YAML (yaml: line 1: did not find expected node content)\n"},
		{[]string{"eval", "-e", "self", "-i", f("deep.json")}, "", 2, "celwasm eval: " + f("deep.json") + ": document 1 is nested deeper than the limit of 1000\n"},
		{[]string{"eval", "-e", "self", "-i", "-"}, strings.Repeat("[", 1001) + strings.Repeat("]", 1001), 2, "celwasm eval: stdin: document 1 is nested deeper than the limit of 1000\n"},
		{[]string{"eval", "-e", "self.spec.replicas > 1"}, "", 2, "celwasm eval: no input given, and the expression reads 'self': give it with -i FILE (JSON or YAML; - for stdin)\n"},
		{[]string{"eval", "-e", "x + 1", "--activation"}, "", 2, "celwasm eval: no input given, and the expression reads 'x': "},
		{[]string{"eval", "-e", "y + 1", "-i", "-"}, "a: 1\n", 1, "undeclared reference to 'y'"},
		{[]string{"eval", "-e", "self", "--at", "spec", "-i", "-"}, "a: 1\n", 2, "celwasm eval: --at spec: document 1: "},
		{[]string{"eval", "-e", "a", "--activation", "-i", "-"}, "[1]", 2, "celwasm eval: --activation needs each document to be a JSON/YAML object\n"},

		{[]string{"check", "-e", "self.all(x, x.size() > 1)", "--var", "self=list(string)"}, "", 0, ""},
		{[]string{"check", "-e", "1 +"}, "", 1, "Syntax error"},
		{[]string{"check", "-e", "1", "-o", "yaml"}, "", 2, "-o is text or json"},
		{[]string{"check", "-e", "1", "--engine", "foo"}, "", 2, "celwasm check: --engine must be wazero or wasmtime\n"},

		{[]string{"filter", "--filter", f("ok.yaml"), "-i", ev}, "", 0, "matched 1 of 1 events"},
		{[]string{"filter", "--filter", f("badexpr.yaml"), "-i", ev}, "", 1, "Syntax error"},
		{[]string{"filter", "--filter", f("missing.yaml"), "-i", ev}, "", 2, "no such file or directory"},
		{[]string{"filter", "--filter", f("bad.yaml"), "-i", ev}, "", 2, " is neither JSON nor YAML ("},
		{[]string{"filter", "--filter", dir, "-i", ev}, "", 2, "celwasm filter: read " + dir + ": is a directory\n"},
		{[]string{"eval", "-e", "self", "-i", dir}, "", 2, "celwasm eval: read " + dir + ": is a directory\n"},
		{[]string{"filter", "--filter", f("empty.yaml"), "-i", ev}, "", 2, "celwasm filter: " + f("empty.yaml") + " holds no filter\n"},
		{[]string{"filter", "--filter", f("ok.yaml"), "-i", f("missing.json")}, "", 2, "no such file or directory"},
		{[]string{"filter", "--filter", f("ok.yaml"), "-i", ev, "--engine", "foo"}, "", 2, "celwasm filter: --engine must be wazero or wasmtime\n"},

		{[]string{"when", "--context", ctx, "-e", "'$(params.path)' == 'README.md'"}, "", 0, ""},
		{[]string{"when", "--context", ctx, "-e", "'$(params.path)' == 'nope'"}, "", 1, ""},
		{[]string{"when", "--context", ctx, "-e", "'$(params.path)' =="}, "", 2, "Syntax error"},
		{[]string{"when", "--context", f("missing.json"), "-e", "true"}, "", 2, "no such file or directory"},
		{[]string{"when", "-e", "true", "--engine", "foo"}, "", 2, "celwasm when: --engine must be wazero or wasmtime\n"},
		{[]string{"when", "--context", f("bad.yaml"), "-e", "true"}, "", 2, "celwasm when: " + f("bad.yaml") + " is neither JSON nor YAML ("},
		{[]string{"when", "--context", f("two.yaml"), "-e", "true"}, "", 2, "celwasm when: " + f("two.yaml") + " must hold one JSON or YAML document, not 2\n"},
		{[]string{"when", "--context", dir, "-e", "true"}, "", 2, "celwasm when: read " + dir + ": is a directory\n"},

		{[]string{"validate", "--crd", crdTD + "kep/crd.yaml", crdTD + "kep/valid.yaml"}, "", 0, ""},
		{[]string{"validate", "--crd", crdTD + "kep/crd.yaml", crdTD + "kep/invalid.yaml"}, "", 1, ""},
		{[]string{"validate", "--crd", crdTD + "kep/crd.yaml", f("missing.yaml")}, "", 2, "celwasm validate: open " + f("missing.yaml") + ": no such file or directory\n"},
		{[]string{"validate", "--crd", f("bad.yaml"), crdTD + "kep/valid.yaml"}, "", 2, "celwasm validate: " + f("bad.yaml") + " is neither JSON nor YAML ("},
		{[]string{"validate", "--crd", crdTD + "kep/valid.yaml", crdTD + "kep/valid.yaml"}, "", 2, "is not a CustomResourceDefinition"},
		{[]string{"validate", "--crd", crdTD + "kep/crd.yaml", "-o", "yaml", crdTD + "kep/valid.yaml"}, "", 2, "-o is text or json"},
		{[]string{"validate", "--crd", crdTD + "kep/crd.yaml", "--engine", "foo", crdTD + "kep/valid.yaml"}, "", 2, "celwasm validate: --engine must be wazero or wasmtime\n"},

		{[]string{"cost", "--crd", crdTD + "kep/crd.yaml"}, "", 0, ""},
		{[]string{"cost", "--crd", crdTD + "expensive/crd.yaml"}, "", 1, ""},
		{[]string{"cost", "--crd", f("missing.yaml")}, "", 2, "celwasm cost: open " + f("missing.yaml") + ": no such file or directory\n"},
		{[]string{"cost", "--crd", f("bad.yaml")}, "", 2, " is neither JSON nor YAML ("},
		{[]string{"cost", "--crd", crdTD + "kep/crd.yaml", "--engine", "foo"}, "", 2, "celwasm cost: --engine must be wazero or wasmtime\n"},

		{[]string{"version"}, "", 0, ""},
		{[]string{"version", "--engine", "foo"}, "", 2, "celwasm version: --engine must be wazero or wasmtime\n"},
		{[]string{"version", "extra"}, "", 0, ""},
		{[]string{"version", "--nope"}, "", 2, "flag provided but not defined: -nope"},
		{[]string{"frobnicate"}, "", 2, "unknown command"},
		{nil, "", 2, "Exit status: 0 a result"},
	}
}

// exitFiles are the files exitCases read.
var exitFiles = map[string]string{
	"bad.yaml":     "a: [\n",
	"deep.json":    strings.Repeat(`{"a":`, 5000) + "1" + strings.Repeat("}", 5000),
	"ok.yaml":      "attributes: {type: dev.knative.sources.ping}\n",
	"badexpr.yaml": "expression: ce.type ==\n",
	"empty.yaml":   "# nothing\n",
	"two.yaml":     "a: 1\n---\nb: 2\n",
}

func writeExitFiles(t *testing.T) string {
	dir := t.TempDir()
	for name, body := range exitFiles {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestExitStatus checks the exit-status rule for every command.
func TestExitStatus(t *testing.T) {
	for _, c := range exitCases(writeExitFiles(t)) {
		_, errs, code := cli(t, c.stdin, c.args...)
		if code != c.code || !strings.Contains(errs, c.stderr) {
			t.Errorf("celwasm %s: exit %d, stderr %q; want exit %d, stderr with %q", strings.Join(c.args, " "), code, errs, c.code, c.stderr)
		}
	}
}

// TestCheckCosts: check's text prints costs as cost does; its JSON keeps numbers.
func TestCheckCosts(t *testing.T) {
	args := []string{"check", "-e", "self.all(x, x.size() > 1)", "--var", "self=list(string)"}
	if out, _, _ := cli(t, "", args...); out != "type: bool\ncost estimate: 2..unbounded cost units (per-call limit 1,000,000)\n" {
		t.Errorf("text: %q", out)
	}
	if out, _, _ := cli(t, "", append(args, "-o", "json")...); out != `{"outputType":"bool","costEstimate":{"min":2,"max":18446744073709551615}}`+"\n" {
		t.Errorf("json: %q", out)
	}
}

// TestInputDepthLimit: the CLI's limit is the module's.
func TestInputDepthLimit(t *testing.T) {
	if maxInputDepth != codec.MaxDepth {
		t.Errorf("maxInputDepth %d, the module's MaxDepth %d", maxInputDepth, codec.MaxDepth)
	}
	for doc, want := range map[string]int{`1`: 0, `[]`: 1, `{"a":[{}]}`: 3, `["[[[", "\"{{"]`: 1, `[[],[[]]]`: 3} {
		if got := nestingDepth([]byte(doc)); got != want {
			t.Errorf("nestingDepth(%s) = %d, want %d", doc, got, want)
		}
	}
}

// TestCompileLine: the progress line printed before a module is compiled
// (host.WithBeforeCompile, tested in host), with and without a cache.
func TestCompileLine(t *testing.T) {
	dir := t.TempDir()
	if got := compileLine("celwasm", dir); got != "celwasm: compiling the WebAssembly module for this machine, once (up to a minute); the compiled code is cached in "+dir {
		t.Errorf("with a cache: %q", got)
	}
	if got := compileLine("celwasm", ""); got != "celwasm: compiling the WebAssembly module for this machine (up to a minute; no cache directory, so every run compiles)" {
		t.Errorf("no cache: %q", got)
	}
	// celwasm-full, loaded for CRD validation and Knative filters, is named.
	if got := compileLine("celwasm-full", ""); got != "celwasm: compiling the WebAssembly module celwasm-full for this machine (up to a minute; no cache directory, so every run compiles)" {
		t.Errorf("full, no cache: %q", got)
	}
}
