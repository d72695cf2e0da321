// Package importpatch is not part of the CloudEvents SQL module it sits in:
// the patch tests of the celwasm copy (PATCHES.md) use it to prove that each
// Go file of a package is upstream's v2.16.2 file, or that file with its
// import of the SDK's root package replaced by the event package and nothing
// else changed, and that the package no longer imports the root package.
package importpatch

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

const (
	// Module is the upstream module at the version go.mod requires.
	Module = "github.com/cloudevents/sdk-go/sql/v2@v2.16.2"
	// Root is the SDK package whose import links its HTTP client.
	Root = "github.com/cloudevents/sdk-go/v2"
	// From and To are the one line each patched file changes; every
	// identifier the files take from Root is Event, an alias of event.Event.
	From = `cloudevents "github.com/cloudevents/sdk-go/v2"`
	To   = `cloudevents "github.com/cloudevents/sdk-go/v2/event"`
)

// Check compares every non-test Go file of the package in the current
// directory (the test's) with upstream's file at rel, the package's path in
// the module, and returns how many carry the patch.
func Check(t *testing.T, rel string) (patched int) {
	t.Helper()
	out, err := exec.Command("go", "mod", "download", "-json", Module).Output()
	if err != nil {
		t.Fatalf("go mod download %s: %v", Module, err)
	}
	var m struct{ Dir string }
	if err := json.Unmarshal(out, &m); err != nil || m.Dir == "" {
		t.Fatalf("go mod download %s: %s", Module, out)
	}
	files, _ := filepath.Glob("*.go")
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		mine, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		theirs, err := os.ReadFile(filepath.Join(m.Dir, rel, f))
		if err != nil {
			t.Fatalf("%s: not upstream's: %v", f, err)
		}
		p, err := Compare(f, mine, theirs)
		if err != nil {
			t.Errorf("%s: %v", filepath.Join(rel, f), err)
		}
		if p {
			patched++
		}
	}
	return patched
}

// Compare says whether upstream's file (theirs) imports Root, and returns an
// error unless mine is theirs with that import line replaced by To (or, when
// it has none, theirs as is) and mine does not import Root.
func Compare(name string, mine, theirs []byte) (patched bool, err error) {
	from := []byte(From + "\n")
	if n := bytes.Count(theirs, from); n > 1 {
		return false, fmt.Errorf("upstream has the line %s %d times", From, n)
	}
	patched = bytes.Contains(theirs, from)
	want := bytes.Replace(theirs, from, []byte(To+"\n"), 1)
	if !bytes.Equal(mine, want) {
		return patched, fmt.Errorf("not upstream's file with the import line %s replaced by %s", From, To)
	}
	parsed, err := parser.ParseFile(token.NewFileSet(), name, mine, parser.ImportsOnly)
	if err != nil {
		return patched, err
	}
	for _, imp := range parsed.Imports {
		if p, _ := strconv.Unquote(imp.Path.Value); p == Root {
			return patched, fmt.Errorf("still imports %s", Root)
		}
	}
	return patched, nil
}
