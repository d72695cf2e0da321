package resolver

import (
	"testing"

	"k8s.io/apiserver/internal/patchcheck"
)

// TestPatchIsOnlyTheDeclaredEdits: discovery.go without
// ClientDiscoveryResolver, the resolver that asks an API server through
// client-go's discovery client; the helpers definitions.go shares stay
// (PATCHES.md, "cel/openapi/resolver").
func TestPatchIsOnlyTheDeclaredEdits(t *testing.T) {
	patchcheck.Check(t, "../../../..", patchcheck.Patch{
		File:          "pkg/cel/openapi/resolver/discovery.go",
		RemoveDecls:   []string{"ClientDiscoveryResolver"},
		RemoveImports: []string{"encoding/json", "strings", "k8s.io/apimachinery/pkg/runtime", "k8s.io/client-go/discovery"},
	})
}
