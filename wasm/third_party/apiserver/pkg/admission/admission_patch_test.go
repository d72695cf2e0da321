package admission

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestPatchCutsAuditAndConfigImports: without audit.go and config.go
// (PATCHES.md, "pkg/admission") no file of the package imports pkg/audit or
// the apiserver configuration API.
func TestPatchCutsAuditAndConfigImports(t *testing.T) {
	files, _ := filepath.Glob("*.go")
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		af, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, is := range af.Imports {
			p, _ := strconv.Unquote(is.Path.Value)
			if p == "k8s.io/apiserver/pkg/audit" || strings.HasPrefix(p, "k8s.io/apiserver/pkg/apis/apiserver") {
				t.Errorf("%s imports %s", f, p)
			}
		}
	}
}
