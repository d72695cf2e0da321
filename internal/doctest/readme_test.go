// Package doctest runs the README's examples as a new user would: the Go
// example as its own module that requires github.com/celwasm/celwasm from a
// clean clone of the committed tree (what `go get` would fetch: no make step,
// the compressed module inside), its output compared with the README's.
package doctest

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// goExamples returns each complete Go program in a Markdown file (a ```go
// block with "package main") and the ``` block after the next "Output:"
// line, if any.
func goExamples(t *testing.T, md string) (progs, outputs []string) {
	src, err := os.ReadFile(md)
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile("(?s)```go\n(package main\n.*?)```\n(?:\\s*Output:\n\n```\n(.*?)```\n)?")
	for _, m := range re.FindAllStringSubmatch(string(src), -1) {
		progs = append(progs, m[1])
		outputs = append(outputs, m[2])
	}
	return progs, outputs
}

func run(t *testing.T, dir string, env []string, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %s: %v\n%s%s", name, strings.Join(args, " "), err, out.String(), errb.String())
	}
	return out.String()
}

func TestREADMEGoExampleFromCleanClone(t *testing.T) {
	if testing.Short() {
		t.Skip("clones the repository and fetches modules")
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	progs, outputs := goExamples(t, filepath.Join(root, "README.md"))
	if len(progs) == 0 {
		t.Fatal("README.md has no complete Go example")
	}
	tmp := t.TempDir()
	clone := filepath.Join(tmp, "celwasm")
	run(t, root, nil, "git", "clone", "-q", root, clone)
	if _, err := os.Stat(filepath.Join(clone, "host/module/celwasm.wasm.zst")); err != nil {
		t.Fatalf("the committed tree has no compressed module: %v", err)
	}
	env := []string{"GOFLAGS=-mod=mod", "GOWORK=off"}
	for i, prog := range progs {
		dir := filepath.Join(tmp, "user")
		os.RemoveAll(dir)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		gomod := "module example.com/user\n\ngo 1.26.0\n\nrequire github.com/celwasm/celwasm v0.0.0\n\nreplace github.com/celwasm/celwasm => " + clone + "\n"
		if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(gomod), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(prog), 0o644); err != nil {
			t.Fatal(err)
		}
		run(t, dir, env, "go", "mod", "tidy")
		got := run(t, dir, append(env, "XDG_CACHE_HOME="+filepath.Join(tmp, "cache")), "go", "run", ".")
		if outputs[i] != "" && got != outputs[i] {
			t.Errorf("README Go example %d printed\n%s\nthe README shows\n%s", i+1, got, outputs[i])
		}
	}
}
