package cache

import (
	"testing"

	"k8s.io/client-go/internal/patchcheck"
)

// TestPatchIsOnlyTheDeclaredEdits: listwatch.go without the ListWatch
// constructors that take a REST client (PATCHES.md, "tools/cache").
func TestPatchIsOnlyTheDeclaredEdits(t *testing.T) {
	patchcheck.Check(t, "../..", patchcheck.Patch{
		File:          "tools/cache/listwatch.go",
		RemoveDecls:   []string{"Getter", "NewListWatchFromClient", "NewFilteredListWatchFromClient"},
		RemoveImports: []string{"k8s.io/apimachinery/pkg/fields", "k8s.io/client-go/rest"},
	})
}
