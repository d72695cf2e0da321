package namespace

import (
	"testing"

	"k8s.io/apiserver/internal/patchcheck"
)

// TestPatchIsOnlyTheDeclaredEdits: Matcher.Client's type is NamespaceClient
// (client_patch.go) instead of the clientset; no statement changes
// (PATCHES.md, "predicates/namespace and policy/matching").
func TestPatchIsOnlyTheDeclaredEdits(t *testing.T) {
	patchcheck.Check(t, "../../../../../..", patchcheck.Patch{
		File:          "pkg/admission/plugin/webhook/predicates/namespace/matcher.go",
		RemoveImports: []string{"k8s.io/client-go/kubernetes"},
		Replace:       [][2]string{{"Client          clientset.Interface", "Client          NamespaceClient"}},
	})
}
