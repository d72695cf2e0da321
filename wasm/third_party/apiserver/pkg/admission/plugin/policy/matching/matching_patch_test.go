package matching

import (
	"testing"

	"k8s.io/apiserver/internal/patchcheck"
)

// TestPatchIsOnlyTheDeclaredEdits: NewMatcher's client is the namespace
// matcher's NamespaceClient instead of the clientset (PATCHES.md,
// "predicates/namespace and policy/matching").
func TestPatchIsOnlyTheDeclaredEdits(t *testing.T) {
	patchcheck.Check(t, "../../../../..", patchcheck.Patch{
		File:          "pkg/admission/plugin/policy/matching/matching.go",
		RemoveImports: []string{"k8s.io/client-go/kubernetes"},
		Replace:       [][2]string{{"client kubernetes.Interface,", "client namespace.NamespaceClient,"}},
	})
}
