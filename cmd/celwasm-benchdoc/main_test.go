package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A section missing from the results directory keeps its last results from
// the previous document; a fresh one replaces it.
func TestRunKeepsOtherSections(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "bench")
	os.Mkdir(in, 0o755)
	targets := filepath.Join(dir, "targets.json")
	os.WriteFile(targets, []byte(`{"order":["go","js"],"targets":[{"issue":17,"target":"t","op":"<=","value":1,"unit":"µs","measures":[{"metric":"js.node.true_us"}]}]}`), 0o644)
	out := filepath.Join(dir, "benchmarks.md")
	write := func(name, text string) { os.WriteFile(filepath.Join(in, name), []byte(text), 0o644) }

	write("go.json", `{"section":"go","title":"Go host","command":"make bench-go","date":"2026-11-24","machine":"m","metrics":{"go.true.wazero_us":4.6}}`)
	write("js.json", `{"section":"js","title":"JS","command":"make -C sdk-js bench","date":"2026-11-24","machine":"m","metrics":{"js.node.true_us":4.9}}`)
	if err := run(in, targets, out, true); err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(in, "go.json"))
	write("js.json", `{"section":"js","title":"JS","command":"make -C sdk-js bench","date":"2026-11-25","machine":"m","metrics":{"js.node.true_us":0.9}}`)
	if err := run(in, targets, out, true); err != nil {
		t.Fatal(err)
	}
	doc, _ := os.ReadFile(out)
	for _, want := range []string{"## Go host", "Measured 2026-11-24", "## JS", "Measured 2026-11-25", "| #17 | t | ≤ 1 µs | 0.9 µs | met |"} {
		if !strings.Contains(string(doc), want) {
			t.Errorf("missing %q in\n%s", want, doc)
		}
	}
	// Without -keep only the results directory counts.
	if err := run(in, targets, out, false); err != nil {
		t.Fatal(err)
	}
	doc, _ = os.ReadFile(out)
	if strings.Contains(string(doc), "## Go host") {
		t.Error("-keep=false kept the Go section")
	}
	// A broken results file stops the renderer with the file's name.
	write("bad.json", `{"section": "bad",`)
	if err := run(in, targets, out, true); err == nil || !strings.Contains(err.Error(), "bad.json") {
		t.Errorf("bad JSON: got %v", err)
	}
}
