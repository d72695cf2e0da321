package environment

import (
	"testing"

	"k8s.io/apiserver/pkg/util/compatibility"
	basecompatibility "k8s.io/component-base/compatibility"
)

// TestDefaultCompatibilityVersionPatchMatchesRegistry compares the patched
// DefaultCompatibilityVersion with upstream's computation through the
// component globals registry (the unpatched util/compatibility package).
func TestDefaultCompatibilityVersionPatchMatchesRegistry(t *testing.T) {
	effective := compatibility.DefaultComponentGlobalsRegistry.EffectiveVersionFor(basecompatibility.DefaultKubeComponent)
	if effective == nil {
		effective = compatibility.DefaultBuildEffectiveVersion()
	}
	want := effective.MinCompatibilityVersion()
	got := DefaultCompatibilityVersion()
	if !got.EqualTo(want) || got.String() != want.String() {
		t.Fatalf("DefaultCompatibilityVersion() = %s, upstream %s", got, want)
	}
	if got.Major() != 1 || got.Minor() < 30 {
		t.Fatalf("DefaultCompatibilityVersion() = %s: not a Kubernetes 1.x version", got)
	}
	t.Logf("DefaultCompatibilityVersion() = %s", got)
}
