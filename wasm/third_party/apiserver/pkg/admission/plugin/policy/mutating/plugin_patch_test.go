package mutating

import (
	"testing"

	"k8s.io/apiserver/internal/patchcheck"
)

// TestPatchIsOnlyTheDeclaredEdits: plugin.go without the admission plugin
// that kube-apiserver registers (informers, clientset, discovery's OpenAPI,
// static manifests, feature gates); the types the dispatcher and the policy
// evaluator use stay as they are (PATCHES.md, "validating and mutating: no
// Plugin").
func TestPatchIsOnlyTheDeclaredEdits(t *testing.T) {
	patchcheck.Check(t, "../../../../..", patchcheck.Patch{
		File:        "pkg/admission/plugin/policy/mutating/plugin.go",
		RemoveDecls: []string{"Register", "Plugin", "NewPlugin"},
		RemoveImports: []string{"io", "k8s.io/apimachinery/pkg/api/meta",
			"k8s.io/apiserver/pkg/admission/initializer", "k8s.io/apiserver/pkg/admission/plugin/manifest/metrics",
			"k8s.io/apiserver/pkg/admission/plugin/policy/config", "k8s.io/apiserver/pkg/admission/plugin/policy/manifest/source",
			"k8s.io/apiserver/pkg/admission/plugin/policy/matching", "k8s.io/apiserver/pkg/features",
			"k8s.io/client-go/dynamic", "k8s.io/client-go/informers", "k8s.io/client-go/kubernetes",
			"k8s.io/component-base/featuregate"},
	})
}
