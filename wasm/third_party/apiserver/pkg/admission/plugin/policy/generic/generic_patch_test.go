package generic

import (
	"testing"

	"k8s.io/apiserver/internal/patchcheck"
)

// TestPatchIsOnlyTheDeclaredEdits checks policy_source.go and
// policy_dispatcher.go against upstream's (PATCHES.md, "policy/generic"):
// the API-server-backed policy source goes, PolicyHook stays with two field
// types narrowed, and CollectParams loses only its direct-API fallback, which
// needs a dynamic client no module can have.
func TestPatchIsOnlyTheDeclaredEdits(t *testing.T) {
	const dir = "pkg/admission/plugin/policy/generic/"
	patchcheck.Check(t, "../../../../..", patchcheck.Patch{
		File: dir + "policy_source.go",
		RemoveDecls: []string{"policyRefreshIntervalDefault", "policyRefreshInterval", "policyRefreshIntervalLock",
			"policySource", "paramInfo", "compiledPolicyEntry", "NewPolicySource", "SetPolicyRefreshIntervalForTests"},
		RemoveImports: []string{"context", "errors", "fmt", "sync", "sync/atomic", "time",
			"k8s.io/api/core/v1", "k8s.io/apimachinery/pkg/api/errors", "k8s.io/apimachinery/pkg/labels",
			"k8s.io/apimachinery/pkg/runtime/schema", "k8s.io/apimachinery/pkg/types",
			"k8s.io/apimachinery/pkg/util/runtime", "k8s.io/apimachinery/pkg/util/wait",
			"k8s.io/apiserver/pkg/admission/plugin/policy/internal/generic",
			"k8s.io/client-go/dynamic", "k8s.io/client-go/dynamic/dynamicinformer",
			"k8s.io/client-go/informers", "k8s.io/client-go/tools/cache", "k8s.io/klog/v2"},
		Replace: [][2]string{
			{"ParamInformer informers.GenericInformer", "ParamInformer genericInformer"},
			{"DynamicClient dynamic.Interface", "DynamicClient dynamicInterface"},
		},
	})
	patchcheck.Check(t, "../../../../..", patchcheck.Patch{
		File:        dir + "policy_dispatcher.go",
		RemoveDecls: []string{"getParamDirectly", "convertParamToInformerRepresentation"},
		RemoveImports: []string{"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured",
			"k8s.io/client-go/dynamic", "k8s.io/client-go/informers", "k8s.io/client-go/kubernetes/scheme"},
		Replace: [][2]string{
			{"paramInformer informers.GenericInformer,", "paramInformer genericInformer,"},
			{"dynamicClient dynamic.Interface,", "dynamicClient dynamicInterface,"},
			{`		// If cache returns NotFound and we have a client, try direct API call as fallback.
		// This handles the race condition where resources (ConfigMap, Policy, Binding, and Param)
		// are created in quick succession. The informer cache may have completed its initial
		// sync (checked by WaitForCacheSync above), but newly created params might not have
		// propagated to the cache yet. The direct API call ensures we get the correct answer
		// without timing-dependent retry logic.
		if apierrors.IsNotFound(err) && dynamicClient != nil && restMapper != nil && paramKind != nil {
			param, err = getParamDirectly(dynamicClient, restMapper, paramKind, paramRef, namespace, paramScope)
		}
`, ""},
		},
	})
}
