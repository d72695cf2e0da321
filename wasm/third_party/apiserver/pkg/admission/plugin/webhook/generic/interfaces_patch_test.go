package generic

import (
	"testing"

	"k8s.io/apiserver/internal/patchcheck"
)

// TestPatchIsOnlyTheDeclaredEdits: of the webhook plugin's generic package
// the modules need only VersionedAttributeAccessor, which the policy
// dispatchers take (PATCHES.md, "webhook/generic").
func TestPatchIsOnlyTheDeclaredEdits(t *testing.T) {
	patchcheck.Check(t, "../../../../..", patchcheck.Patch{
		File:          "pkg/admission/plugin/webhook/generic/interfaces.go",
		RemoveDecls:   []string{"Source", "WebhookInvocation", "Dispatcher"},
		RemoveImports: []string{"context", "k8s.io/apiserver/pkg/admission/plugin/webhook"},
	})
}
