package admissionref

import (
	"encoding/json"
	"fmt"

	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/admission"
	"k8s.io/kubernetes/pkg/api/legacyscheme"

	// Every built-in group into legacyscheme, as kube-apiserver installs them.
	_ "k8s.io/kubernetes/pkg/apis/admissionregistration/install"
	_ "k8s.io/kubernetes/pkg/apis/apiserverinternal/install"
	_ "k8s.io/kubernetes/pkg/apis/apps/install"
	_ "k8s.io/kubernetes/pkg/apis/authentication/install"
	_ "k8s.io/kubernetes/pkg/apis/authorization/install"
	_ "k8s.io/kubernetes/pkg/apis/autoscaling/install"
	_ "k8s.io/kubernetes/pkg/apis/batch/install"
	_ "k8s.io/kubernetes/pkg/apis/certificates/install"
	_ "k8s.io/kubernetes/pkg/apis/coordination/install"
	_ "k8s.io/kubernetes/pkg/apis/core/install"
	_ "k8s.io/kubernetes/pkg/apis/discovery/install"
	_ "k8s.io/kubernetes/pkg/apis/events/install"
	_ "k8s.io/kubernetes/pkg/apis/flowcontrol/install"
	_ "k8s.io/kubernetes/pkg/apis/networking/install"
	_ "k8s.io/kubernetes/pkg/apis/node/install"
	_ "k8s.io/kubernetes/pkg/apis/policy/install"
	_ "k8s.io/kubernetes/pkg/apis/rbac/install"
	_ "k8s.io/kubernetes/pkg/apis/resource/install"
	_ "k8s.io/kubernetes/pkg/apis/scheduling/install"
	_ "k8s.io/kubernetes/pkg/apis/storage/install"
)

// Options change how the reference runs.
type Options struct {
	// TypedBuiltins hands the plugins built-in objects as kube-apiserver
	// holds them: decoded into their typed version (still without decoding
	// defaults), converted to the internal version, with kube's scheme as
	// the object interfaces (so a mutated object is defaulted by the
	// scheme). The admit contract takes objects as given, unstructured;
	// this mode measures what that changes (TestTypedBuiltins).
	TypedBuiltins bool
}

// typedObjects are the attributes' objects in typed mode.
type typedObjects struct {
	object, oldObject runtime.Object // internal version
	before            runtime.Object // object, a copy before the chain
	interfaces        admission.ObjectInterfaces
}

var legacyInterfaces = admission.NewObjectInterfacesFromScheme(legacyscheme.Scheme)

// typed converts an item's objects to the internal version, or returns nil
// for kinds kube's scheme does not have (custom resources).
func typed(it *item) (*typedObjects, error) {
	if !legacyscheme.Scheme.Recognizes(it.gvk) {
		return nil, nil
	}
	internalGV := schema.GroupVersion{Group: it.gvk.Group, Version: runtime.APIVersionInternal}
	conv := func(u *unstructured.Unstructured) (runtime.Object, error) {
		if u == nil {
			return nil, nil
		}
		v, err := legacyscheme.Scheme.New(it.gvk)
		if err != nil {
			return nil, err
		}
		if err := runtime.DefaultUnstructuredConverter.FromUnstructured(u.Object, v); err != nil {
			return nil, invalidObject("requests[%d]: %v", it.index, err)
		}
		return legacyscheme.Scheme.ConvertToVersion(v, internalGV)
	}
	t := &typedObjects{interfaces: legacyInterfaces}
	var err error
	if t.object, err = conv(it.object); err != nil {
		return nil, err
	}
	if t.oldObject, err = conv(it.oldObject); err != nil {
		return nil, err
	}
	if t.object != nil {
		t.before = t.object.DeepCopyObject()
	}
	return t, nil
}

// patched is the typed object after the chain in its version, as JSON, or
// nil when the chain did not change it.
func (t *typedObjects) patched(it *item, after runtime.Object) (json.RawMessage, error) {
	if equality.Semantic.DeepEqual(after, t.before) {
		return nil, nil
	}
	v, err := legacyscheme.Scheme.ConvertToVersion(after, it.gvk.GroupVersion())
	if err != nil {
		return nil, fmt.Errorf("admissionref: %w", err)
	}
	m, err := runtime.DefaultUnstructuredConverter.ToUnstructured(v)
	if err != nil {
		return nil, err
	}
	u := &unstructured.Unstructured{Object: m}
	u.SetGroupVersionKind(it.gvk)
	return json.Marshal(u.Object)
}
