package admission

import (
	"encoding/json"
	"fmt"

	apiextensionsinternal "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	structuraldefaulting "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/admission"
)

// crdDefaulter applies a custom resource's structural defaults after a
// mutating policy changed it, as kube-apiserver's CRD handler does (its
// unstructuredDefaulter, the ObjectDefaulter the mutating dispatcher calls):
// k8s.io/apiextensions-apiserver's structural schema and defaulting. Built-in
// objects are taken as given, unstructured, so nothing defaults them.
type crdDefaulter struct {
	schemas map[schema.GroupVersionKind]*structuralschema.Structural
}

func (d *crdDefaulter) add(doc []byte) error {
	var crd apiextensionsv1.CustomResourceDefinition
	if err := json.Unmarshal(doc, &crd); err != nil {
		return err
	}
	for _, v := range crd.Spec.Versions {
		if v.Schema == nil || v.Schema.OpenAPIV3Schema == nil {
			continue
		}
		internal := &apiextensionsinternal.CustomResourceValidation{}
		if err := apiextensionsv1.Convert_v1_CustomResourceValidation_To_apiextensions_CustomResourceValidation(v.Schema, internal, nil); err != nil {
			return fmt.Errorf("version %q: %w", v.Name, err)
		}
		s, err := structuralschema.NewStructural(internal.OpenAPIV3Schema)
		if err != nil {
			return fmt.Errorf("version %q: schema: %w", v.Name, err)
		}
		if err := structuraldefaulting.PruneDefaults(s); err != nil {
			return fmt.Errorf("version %q: defaults: %w", v.Name, err)
		}
		d.schemas[schema.GroupVersionKind{Group: crd.Spec.Group, Version: v.Name, Kind: crd.Spec.Names.Kind}] = s
	}
	return nil
}

func (d *crdDefaulter) Default(in runtime.Object) {
	u, ok := in.(runtime.Unstructured)
	if !ok {
		return
	}
	if s := d.schemas[u.GetObjectKind().GroupVersionKind()]; s != nil {
		structuraldefaulting.Default(u.UnstructuredContent(), s)
	}
}

// objectInterfaces are the scheme-less object interfaces of unstructured
// objects, with the CRDs' defaulting.
func (d *crdDefaulter) objectInterfaces() admission.ObjectInterfaces {
	s := runtime.NewScheme()
	return &admission.RuntimeObjectInterfaces{ObjectCreater: s, ObjectTyper: s, ObjectDefaulter: d, ObjectConvertor: s, EquivalentResourceMapper: runtime.NewEquivalentResourceRegistry()}
}
