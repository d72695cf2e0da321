package crd

// crStrategy is kube-apiserver's custom resource strategy and validator
// (k8s.io/apiextensions-apiserver/pkg/registry/customresource, strategy.go and
// validator.go, v0.37.2, Apache-2.0), ported because that package pulls in the
// generic registry, etcd and gRPC (34 MB more in the module). The methods keep
// upstream's order of checks; the differences are marked "celwasm:". Everything
// they call (schema validation, list types, embedded object meta, the CEL
// validator, object meta validation) is kube-apiserver's own code. The
// differential test (conformance/crd) runs the upstream strategy natively on
// the same inputs and compares the errors and costs.

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strings"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel/model"
	structurallisttype "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/listtype"
	schemaobjectmeta "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/objectmeta"
	apiextensionsvalidation "k8s.io/apiextensions-apiserver/pkg/apiserver/validation"
	apiextensionsfeatures "k8s.io/apiextensions-apiserver/pkg/features"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/api/operation"
	"k8s.io/apimachinery/pkg/api/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/apiserver/pkg/cel/common"
	"k8s.io/apiserver/pkg/features"
	"k8s.io/apiserver/pkg/storage/names"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
)

type crStrategy struct {
	namespaceScoped  bool
	kind             schema.GroupVersionKind
	schemaValidator  apiextensionsvalidation.SchemaValidator
	structuralSchema *structuralschema.Structural
	celValidator     *cel.Validator
	status           *apiextensions.CustomResourceSubresourceStatus
	scale            *apiextensions.CustomResourceSubresourceScale
}

// crRun records what one validation did: the CEL validator's errors (to
// attribute them to rules) and its cost. A run is per request, carried in the
// context, so that one strategy serves concurrent requests.
type crRun struct {
	celErrs    map[*field.Error]bool
	celRan     bool
	remaining  int64
	errs       field.ErrorList // what Validate/ValidateUpdate returned
	celSkipped bool            // blocking OpenAPI errors kept the rules from running
}

type crRunKey struct{}

func runFrom(ctx context.Context) *crRun {
	r, _ := ctx.Value(crRunKey{}).(*crRun)
	if r == nil {
		r = &crRun{}
	}
	return r
}

// runtime.ObjectTyper: the handler's unstructured typer reports the object's
// own apiVersion and kind.
func (a *crStrategy) ObjectKinds(obj runtime.Object) ([]schema.GroupVersionKind, bool, error) {
	gvk := obj.GetObjectKind().GroupVersionKind()
	if gvk.Kind == "" {
		return nil, false, fmt.Errorf("object has no kind")
	}
	return []schema.GroupVersionKind{gvk}, false, nil
}

func (a *crStrategy) Recognizes(gvk schema.GroupVersionKind) bool { return gvk == a.kind }

// GenerateName is names.SimpleNameGenerator with a fixed suffix.
// celwasm: upstream appends 5 random characters; a fixed "xxxxx" keeps the
// output identical on every run and host.
func (a *crStrategy) GenerateName(base string) string {
	const maxNameLength, randomLength = 63, 5
	if len(base) > maxNameLength-randomLength {
		base = base[:maxNameLength-randomLength]
	}
	return base + "xxxxx"
}

var _ names.NameGenerator = (*crStrategy)(nil)

func (a *crStrategy) NamespaceScoped() bool { return a.namespaceScoped }

// PrepareForCreate clears the status of a CustomResource before creation.
func (a *crStrategy) PrepareForCreate(ctx context.Context, obj runtime.Object) {
	if a.status != nil {
		customResource := obj.(*unstructured.Unstructured).UnstructuredContent()
		// create cannot set status
		delete(customResource, "status")
	}
	accessor, _ := meta.Accessor(obj)
	accessor.SetGeneration(1)
}

// PrepareForUpdate clears fields that are not allowed to be set by end users on update.
func (a *crStrategy) PrepareForUpdate(ctx context.Context, obj, old runtime.Object) {
	newCustomResourceObject := obj.(*unstructured.Unstructured)
	oldCustomResourceObject := old.(*unstructured.Unstructured)
	newCustomResource := newCustomResourceObject.UnstructuredContent()
	oldCustomResource := oldCustomResourceObject.UnstructuredContent()
	// If the /status subresource endpoint is installed, update is not allowed to set status.
	if a.status != nil {
		_, ok1 := newCustomResource["status"]
		_, ok2 := oldCustomResource["status"]
		switch {
		case ok2:
			newCustomResource["status"] = oldCustomResource["status"]
		case ok1:
			delete(newCustomResource, "status")
		}
	}
	// except for the changes to `metadata`, any other changes
	// cause the generation to increment.
	if !apiequality.Semantic.DeepEqual(copyNonMetadata(newCustomResource), copyNonMetadata(oldCustomResource)) {
		oldAccessor, _ := meta.Accessor(oldCustomResourceObject)
		newAccessor, _ := meta.Accessor(newCustomResourceObject)
		newAccessor.SetGeneration(oldAccessor.GetGeneration() + 1)
	}
}

func copyNonMetadata(original map[string]interface{}) map[string]interface{} {
	ret := make(map[string]interface{})
	for key, val := range original {
		if key == "metadata" {
			continue
		}
		ret[key] = val
	}
	return ret
}

// Validate validates a new CustomResource.
func (a *crStrategy) Validate(ctx context.Context, obj runtime.Object) field.ErrorList {
	u, ok := obj.(*unstructured.Unstructured)
	if !ok {
		return field.ErrorList{field.Invalid(field.NewPath(""), u, fmt.Sprintf("has type %T. Must be a pointer to an Unstructured type", obj))}
	}
	run := runFrom(ctx)
	var errs field.ErrorList
	errs = append(errs, a.validateObject(ctx, u)...)
	// validate embedded resources
	errs = append(errs, schemaobjectmeta.Validate(ctx, nil, u.Object, a.structuralSchema, false)...)
	// validate x-kubernetes-list-type "map" and "set" invariant
	errs = append(errs, structurallisttype.ValidateListSetsAndMaps(nil, a.structuralSchema, u.Object)...)
	// validate x-kubernetes-validations rules
	if a.celValidator != nil {
		if has, err := hasBlockingErr(errs); has {
			errs = append(errs, err)
			run.celSkipped = true
		} else {
			celErrs, remaining := a.celValidator.Validate(ctx, nil, a.structuralSchema, u.Object, nil, RuntimeCELCostBudget)
			errs = append(errs, run.noteCEL(celErrs, remaining)...)
		}
	}
	run.errs = errs
	return errs
}

func (a *crStrategy) WarningsOnCreate(ctx context.Context, obj runtime.Object) []string {
	return nil // celwasm: finalizer name warnings are not reproduced
}

func (a *crStrategy) Canonicalize(obj runtime.Object) {}

func (a *crStrategy) AllowCreateOnUpdate(ctx context.Context) bool { return false }

func (a *crStrategy) AllowUnconditionalUpdate(ctx context.Context) bool { return false }

// ValidateUpdate is the default update validation for an end user updating status.
func (a *crStrategy) ValidateUpdate(ctx context.Context, obj, old runtime.Object) field.ErrorList {
	uNew, ok := obj.(*unstructured.Unstructured)
	if !ok {
		return field.ErrorList{field.Invalid(field.NewPath(""), obj, fmt.Sprintf("has type %T. Must be a pointer to an Unstructured type", obj))}
	}
	uOld, ok := old.(*unstructured.Unstructured)
	if !ok {
		return field.ErrorList{field.Invalid(field.NewPath(""), old, fmt.Sprintf("has type %T. Must be a pointer to an Unstructured type", old))}
	}
	run := runFrom(ctx)
	var options []apiextensionsvalidation.ValidationOption
	var celOptions []cel.Option
	if utilfeature.DefaultFeatureGate.Enabled(apiextensionsfeatures.CRDValidationRatcheting) {
		correlatedObject := common.NewCorrelatedObject(uNew.Object, uOld.Object, &model.Structural{Structural: a.structuralSchema})
		options = append(options, apiextensionsvalidation.WithRatcheting(correlatedObject))
		celOptions = append(celOptions, cel.WithRatcheting(correlatedObject))
	}
	var errs field.ErrorList
	errs = append(errs, a.validateObjectUpdate(ctx, uNew, uOld, options...)...)
	// Checks the embedded objects. We don't make a difference between update and create for those.
	errs = append(errs, schemaobjectmeta.Validate(ctx, nil, uNew.Object, a.structuralSchema, false)...)
	// ratcheting validation of x-kubernetes-list-type value map and set
	if oldErrs := structurallisttype.ValidateListSetsAndMaps(nil, a.structuralSchema, uOld.Object); len(oldErrs) == 0 {
		errs = append(errs, structurallisttype.ValidateListSetsAndMaps(nil, a.structuralSchema, uNew.Object)...)
	}
	// validate x-kubernetes-validations rules
	if a.celValidator != nil {
		if has, err := hasBlockingErr(errs); has {
			errs = append(errs, err)
			run.celSkipped = true
		} else {
			celErrs, remaining := a.celValidator.Validate(ctx, nil, a.structuralSchema, uNew.Object, uOld.Object, RuntimeCELCostBudget, celOptions...)
			errs = append(errs, run.noteCEL(celErrs, remaining)...)
		}
	}
	run.errs = errs
	return errs
}

func (a *crStrategy) WarningsOnUpdate(ctx context.Context, obj, old runtime.Object) []string {
	return nil
}

// noteCEL records the CEL validator's errors and remaining budget, and
// returns the errors in a stable order. celwasm: the validator walks maps in
// Go's random order, so upstream's order varies from request to request;
// sorting by field path (stable, so the rules of one node keep their order)
// makes every host print the same.
func (r *crRun) noteCEL(errs field.ErrorList, remaining int64) field.ErrorList {
	r.celRan = true
	r.remaining = remaining
	sort.SliceStable(errs, func(i, j int) bool { return fieldPathLess(errs[i].Field, errs[j].Field) })
	r.celErrs = map[*field.Error]bool{}
	for _, e := range errs {
		r.celErrs[e] = true
	}
	return errs
}

// fieldPathLess orders field paths element by element, list indices
// numerically ("a[2]" before "a[10]").
func fieldPathLess(a, b string) bool {
	for a != "" && b != "" {
		ta, ra := nextPathToken(a)
		tb, rb := nextPathToken(b)
		if ta != tb {
			na, oka := indexToken(ta)
			nb, okb := indexToken(tb)
			if oka && okb {
				return na < nb
			}
			return ta < tb
		}
		a, b = ra, rb
	}
	return len(a) < len(b)
}

func nextPathToken(s string) (tok, rest string) {
	if strings.HasPrefix(s, "[") {
		if i := strings.IndexByte(s, ']'); i > 0 {
			return s[:i+1], strings.TrimPrefix(s[i+1:], ".")
		}
		return s, ""
	}
	i := strings.IndexAny(s, ".[")
	if i < 0 {
		return s, ""
	}
	if s[i] == '.' {
		return s[:i], s[i+1:]
	}
	return s[:i], s[i:]
}

func indexToken(t string) (int, bool) {
	if len(t) < 3 || t[0] != '[' || t[len(t)-1] != ']' {
		return 0, false
	}
	n := 0
	for _, c := range t[1 : len(t)-1] {
		if c < '0' || c > '9' || n > math.MaxInt32 {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

// OpenAPIv3 type/maxLength/maxItems/MaxProperties/required/enum violation/wrong type field validation failures are viewed as blocking err for CEL validation
func hasBlockingErr(errs field.ErrorList) (bool, *field.Error) {
	for _, err := range errs {
		if err.Type == field.ErrorTypeNotSupported || err.Type == field.ErrorTypeRequired || err.Type == field.ErrorTypeTooLong || err.Type == field.ErrorTypeTooMany || err.Type == field.ErrorTypeTypeInvalid {
			return true, field.Invalid(nil, nil, "some validation rules were not checked because the object was invalid; correct the existing errors to complete validation")
		}
	}
	return false, nil
}

// validateObject is customResourceValidator.Validate.
func (a *crStrategy) validateObject(ctx context.Context, obj *unstructured.Unstructured) field.ErrorList {
	if errs := a.validateTypeMeta(obj); len(errs) > 0 {
		return errs
	}
	var allErrs field.ErrorList
	allErrs = append(allErrs, a.validateObjectMetaDeclaratively(ctx, obj)...)
	allErrs = append(allErrs, apiextensionsvalidation.ValidateCustomResource(nil, obj.UnstructuredContent(), a.schemaValidator)...)
	allErrs = append(allErrs, a.validateScaleSpec(obj)...)
	allErrs = append(allErrs, a.validateScaleStatus(obj)...)
	return allErrs
}

// validateObjectUpdate is customResourceValidator.ValidateUpdate.
func (a *crStrategy) validateObjectUpdate(ctx context.Context, obj, old *unstructured.Unstructured, options ...apiextensionsvalidation.ValidationOption) field.ErrorList {
	if errs := a.validateTypeMeta(obj); len(errs) > 0 {
		return errs
	}
	var allErrs field.ErrorList
	allErrs = append(allErrs, a.validateObjectMetaUpdateDeclaratively(ctx, obj, old)...)
	allErrs = append(allErrs, apiextensionsvalidation.ValidateCustomResourceUpdate(nil, obj.UnstructuredContent(), old.UnstructuredContent(), a.schemaValidator, options...)...)
	allErrs = append(allErrs, a.validateScaleSpec(obj)...)
	allErrs = append(allErrs, a.validateScaleStatus(obj)...)
	return allErrs
}

func (a *crStrategy) validateTypeMeta(obj *unstructured.Unstructured) field.ErrorList {
	typeAccessor, err := meta.TypeAccessor(obj)
	if err != nil {
		return field.ErrorList{field.Invalid(field.NewPath("kind"), nil, err.Error())}
	}
	var allErrs field.ErrorList
	if typeAccessor.GetKind() != a.kind.Kind {
		allErrs = append(allErrs, field.Invalid(field.NewPath("kind"), typeAccessor.GetKind(), fmt.Sprintf("must be %v", a.kind.Kind)))
	}
	if typeAccessor.GetAPIVersion() != a.kind.Group+"/"+a.kind.Version {
		allErrs = append(allErrs, field.Invalid(field.NewPath("apiVersion"), typeAccessor.GetAPIVersion(), fmt.Sprintf("must be %v", a.kind.Group+"/"+a.kind.Version)))
	}
	return allErrs
}

func (a *crStrategy) validateScaleSpec(obj *unstructured.Unstructured) field.ErrorList {
	if a.scale == nil {
		return nil
	}
	var allErrs field.ErrorList
	// validate specReplicas
	specReplicasPath := strings.TrimPrefix(a.scale.SpecReplicasPath, ".") // ignore leading period
	specReplicas, _, err := unstructured.NestedInt64(obj.UnstructuredContent(), strings.Split(specReplicasPath, ".")...)
	if err != nil {
		allErrs = append(allErrs, field.Invalid(field.NewPath(a.scale.SpecReplicasPath), specReplicas, err.Error()))
	} else if specReplicas < 0 {
		allErrs = append(allErrs, field.Invalid(field.NewPath(a.scale.SpecReplicasPath), specReplicas, "should be a non-negative integer"))
	} else if specReplicas > math.MaxInt32 {
		allErrs = append(allErrs, field.Invalid(field.NewPath(a.scale.SpecReplicasPath), specReplicas, fmt.Sprintf("should be less than or equal to %v", math.MaxInt32)))
	}
	return allErrs
}

func (a *crStrategy) validateScaleStatus(obj *unstructured.Unstructured) field.ErrorList {
	if a.scale == nil {
		return nil
	}
	var allErrs field.ErrorList
	// validate statusReplicas
	statusReplicasPath := strings.TrimPrefix(a.scale.StatusReplicasPath, ".") // ignore leading period
	statusReplicas, _, err := unstructured.NestedInt64(obj.UnstructuredContent(), strings.Split(statusReplicasPath, ".")...)
	if err != nil {
		allErrs = append(allErrs, field.Invalid(field.NewPath(a.scale.StatusReplicasPath), statusReplicas, err.Error()))
	} else if statusReplicas < 0 {
		allErrs = append(allErrs, field.Invalid(field.NewPath(a.scale.StatusReplicasPath), statusReplicas, "should be a non-negative integer"))
	} else if statusReplicas > math.MaxInt32 {
		allErrs = append(allErrs, field.Invalid(field.NewPath(a.scale.StatusReplicasPath), statusReplicas, fmt.Sprintf("should be less than or equal to %v", math.MaxInt32)))
	}
	// validate labelSelector
	if a.scale.LabelSelectorPath != nil {
		labelSelectorPath := strings.TrimPrefix(*a.scale.LabelSelectorPath, ".") // ignore leading period
		labelSelector, _, err := unstructured.NestedString(obj.UnstructuredContent(), strings.Split(labelSelectorPath, ".")...)
		if err != nil {
			allErrs = append(allErrs, field.Invalid(field.NewPath(*a.scale.LabelSelectorPath), labelSelector, err.Error()))
		}
	}
	return allErrs
}

func (a *crStrategy) validateObjectMetaDeclaratively(ctx context.Context, obj *unstructured.Unstructured) field.ErrorList {
	metadata, errs := getObjectMeta(obj)
	if len(errs) > 0 {
		return errs
	}
	return validation.ValidateObjectMetaDeclaratively(ctx, operation.Create, metadata, nil, a.namespaceScoped, validation.NameIsDNSSubdomain, field.NewPath("metadata"), utilfeature.DefaultFeatureGate.Enabled(features.DeclarativeValidationBeta))
}

func (a *crStrategy) validateObjectMetaUpdateDeclaratively(ctx context.Context, obj, old *unstructured.Unstructured) field.ErrorList {
	metadata, errs := getObjectMeta(obj)
	if len(errs) > 0 {
		return errs
	}
	oldMetadata, errs := getObjectMeta(old)
	if len(errs) > 0 {
		return errs
	}
	return validation.ValidateObjectMetaDeclaratively(ctx, operation.Update, metadata, oldMetadata, a.namespaceScoped, nil, field.NewPath("metadata"), utilfeature.DefaultFeatureGate.Enabled(features.DeclarativeValidationBeta))
}

func getObjectMeta(obj *unstructured.Unstructured) (*metav1.ObjectMeta, field.ErrorList) {
	if obj == nil || obj.UnstructuredContent() == nil {
		return &metav1.ObjectMeta{}, nil
	}
	raw := obj.UnstructuredContent()["metadata"]
	if raw == nil {
		return &metav1.ObjectMeta{}, nil
	}
	metadataMap, ok := raw.(map[string]interface{})
	if !ok {
		return nil, field.ErrorList{field.Invalid(field.NewPath("metadata"), raw, fmt.Sprintf("expected map[string]interface{}, got %T", raw))}
	}
	meta := &metav1.ObjectMeta{}
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(metadataMap, meta); err != nil {
		return nil, field.ErrorList{field.Invalid(field.NewPath("metadata"), raw, err.Error())}
	}
	return meta, nil
}
