package patch

import (
	"testing"

	"k8s.io/apiserver/internal/patchcheck"
)

// TestPatchIsOnlyTheDeclaredEdits: client-go's openapi.Client and
// openapi.GroupVersion become local interfaces with the same methods
// (openapi_patch.go); no statement changes (PATCHES.md, "mutating/patch").
func TestPatchIsOnlyTheDeclaredEdits(t *testing.T) {
	patchcheck.Check(t, "../../../../../..", patchcheck.Patch{
		File:          "pkg/admission/plugin/policy/mutating/patch/typeconverter.go",
		RemoveImports: []string{"k8s.io/client-go/openapi"},
		Replace: [][2]string{
			{"openapi.Client", "openapiClient"},
			{"openapi.GroupVersion", "openapiGroupVersion"},
		},
	})
}
