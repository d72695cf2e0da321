package admissionref

import (
	"fmt"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	apiextensionsinternal "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	structuraldefaulting "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/apiserver/pkg/features"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	"k8s.io/kubernetes/pkg/apis/admissionregistration"
	admissionregistrationv1defaults "k8s.io/kubernetes/pkg/apis/admissionregistration/v1"
	"k8s.io/kubernetes/pkg/apis/admissionregistration/validation"

	"github.com/celwasm/celwasm/wire"
)

// checkPolicy decodes an admission policy or binding, defaults it and
// validates it as kube-apiserver does when it is created (the registry
// strategies' Validate: pkg/apis/admissionregistration/validation on the
// internal type). It returns nil, nil for the group's other kinds.
func checkPolicy(u *unstructured.Unstructured) (runtime.Object, error) {
	var (
		versioned runtime.Object
		validate  func() field.ErrorList
	)
	switch u.GetKind() {
	case "ValidatingAdmissionPolicy":
		v, in := &admissionregistrationv1.ValidatingAdmissionPolicy{}, &admissionregistration.ValidatingAdmissionPolicy{}
		versioned = v
		validate = func() field.ErrorList {
			admissionregistrationv1defaults.SetObjectDefaults_ValidatingAdmissionPolicy(v)
			if err := legacyscheme.Scheme.Convert(v, in, nil); err != nil {
				return field.ErrorList{field.InternalError(nil, err)}
			}
			return validation.ValidateValidatingAdmissionPolicy(in)
		}
	case "ValidatingAdmissionPolicyBinding":
		v, in := &admissionregistrationv1.ValidatingAdmissionPolicyBinding{}, &admissionregistration.ValidatingAdmissionPolicyBinding{}
		versioned = v
		validate = func() field.ErrorList {
			admissionregistrationv1defaults.SetObjectDefaults_ValidatingAdmissionPolicyBinding(v)
			if err := legacyscheme.Scheme.Convert(v, in, nil); err != nil {
				return field.ErrorList{field.InternalError(nil, err)}
			}
			return validation.ValidateValidatingAdmissionPolicyBinding(in)
		}
	case "MutatingAdmissionPolicy":
		v, in := &admissionregistrationv1.MutatingAdmissionPolicy{}, &admissionregistration.MutatingAdmissionPolicy{}
		versioned = v
		validate = func() field.ErrorList {
			admissionregistrationv1defaults.SetObjectDefaults_MutatingAdmissionPolicy(v)
			if err := legacyscheme.Scheme.Convert(v, in, nil); err != nil {
				return field.ErrorList{field.InternalError(nil, err)}
			}
			return validation.ValidateMutatingAdmissionPolicy(in)
		}
	case "MutatingAdmissionPolicyBinding":
		v, in := &admissionregistrationv1.MutatingAdmissionPolicyBinding{}, &admissionregistration.MutatingAdmissionPolicyBinding{}
		versioned = v
		validate = func() field.ErrorList {
			admissionregistrationv1defaults.SetObjectDefaults_MutatingAdmissionPolicyBinding(v)
			if err := legacyscheme.Scheme.Convert(v, in, nil); err != nil {
				return field.ErrorList{field.InternalError(nil, err)}
			}
			return validation.ValidateMutatingAdmissionPolicyBinding(in)
		}
	default:
		return nil, nil
	}
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(u.Object, versioned); err != nil {
		return nil, invalidObject("%s %q: %v", u.GetKind(), u.GetName(), err)
	}
	errs := validate()
	if utilfeature.DefaultFeatureGate.Enabled(features.ManifestBasedAdmissionControlConfig) {
		errs = append(errs, validation.ValidateStaticSuffix(u.GetName(), field.NewPath("metadata", "name"))...)
	}
	if len(errs) > 0 {
		return nil, invalidPolicy(u.GetKind(), u.GetName(), errs)
	}
	return versioned, nil
}

// invalidPolicy is kube-apiserver's Invalid status for the object, as an
// *InvalidPolicyError.
func invalidPolicy(kind, name string, errs field.ErrorList) error {
	st := apierrors.NewInvalid(schema.GroupKind{Group: admissionregistrationv1.GroupName, Kind: kind}, name, errs).ErrStatus
	e := &InvalidPolicyError{Err: &wire.Error{Code: wire.CodeInvalidPolicy, Message: st.Message}}
	if st.Details != nil {
		for _, c := range st.Details.Causes {
			e.FieldErrors = append(e.FieldErrors, wire.FieldError{Field: c.Field, Type: string(c.Type), Message: c.Message})
		}
	}
	return e
}

// crdDefaulter is the apiextensions-apiserver's defaulting of custom
// resources (the CRD handler's unstructuredDefaulter): the structural
// schema's defaults, applied after a mutating admission plugin changed the
// object. Other objects are left alone: the reference takes built-in objects
// as unstructured, as given, with no scheme defaulting (README.md).
type crdDefaulter struct {
	schemas map[schema.GroupVersionKind]*structuralschema.Structural
}

func newCRDDefaulter(crds []*apiextensionsv1.CustomResourceDefinition) (*crdDefaulter, error) {
	d := &crdDefaulter{schemas: map[schema.GroupVersionKind]*structuralschema.Structural{}}
	for _, crd := range crds {
		for _, v := range crd.Spec.Versions {
			validationSchema := v.Schema
			if validationSchema == nil || validationSchema.OpenAPIV3Schema == nil {
				continue
			}
			internal := &apiextensionsinternal.CustomResourceValidation{}
			if err := apiextensionsv1.Convert_v1_CustomResourceValidation_To_apiextensions_CustomResourceValidation(validationSchema, internal, nil); err != nil {
				return nil, fmt.Errorf("CustomResourceDefinition %q version %q: %w", crd.Name, v.Name, err)
			}
			s, err := structuralschema.NewStructural(internal.OpenAPIV3Schema)
			if err != nil {
				return nil, fmt.Errorf("CustomResourceDefinition %q version %q: schema: %w", crd.Name, v.Name, err)
			}
			if err := structuraldefaulting.PruneDefaults(s); err != nil {
				return nil, fmt.Errorf("CustomResourceDefinition %q version %q: defaults: %w", crd.Name, v.Name, err)
			}
			d.schemas[schema.GroupVersionKind{Group: crd.Spec.Group, Version: v.Name, Kind: crd.Spec.Names.Kind}] = s
		}
	}
	return d, nil
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
