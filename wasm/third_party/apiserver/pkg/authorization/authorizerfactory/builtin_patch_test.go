package authorizerfactory

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestPatchCutsTheWebhookAuthorizer: without delegating.go and metrics.go
// (PATCHES.md, "authorization/authorizerfactory") no file of the package
// imports the webhook authorizer, its metrics or client-go.
func TestPatchCutsTheWebhookAuthorizer(t *testing.T) {
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
			if strings.HasPrefix(p, "k8s.io/apiserver/plugin/pkg/authorizer/webhook") || strings.HasPrefix(p, "k8s.io/client-go/") ||
				strings.HasPrefix(p, "k8s.io/component-base/metrics") {
				t.Errorf("%s imports %s", f, p)
			}
		}
	}
}
