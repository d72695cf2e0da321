package cel

import (
	"go/parser"
	"go/token"
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestNoTextTemplatePatch: the fork leaves out prompt.go (AuthoringPrompt and
// its template), so that no module links text/template (celwasm patch 14,
// PATCHES.md). It fails if a file of this package imports text/template again.
func TestNoTextTemplatePatch(t *testing.T) {
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	files := 0
	for _, e := range entries {
		name := e.Name()
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		files++
		for _, imp := range f.Imports {
			if path, _ := strconv.Unquote(imp.Path.Value); path == "text/template" {
				t.Errorf("%s imports text/template", name)
			}
		}
	}
	if files == 0 {
		t.Fatal("no Go files read")
	}
	if _, err := os.Stat("templates"); !os.IsNotExist(err) {
		t.Errorf("templates/ is present (err %v)", err)
	}
}
