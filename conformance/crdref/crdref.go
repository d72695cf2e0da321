// Package crdref is the native reference for celwasm's CRD validation:
// kube-apiserver's own code (k8s.io/apiextensions-apiserver v0.37.2) run
// natively. It is used by the differential test (conformance/crd), the
// benchmark (cmd/celwasm-crd-bench) and the SDKs' test driver
// (conformance/cmd/gohost, for the corpus); it is never part of the module.
//
// What it uses upstream as is: the CRD decoding and defaulting of the
// apiextensions scheme, validation.ValidateCustomResourceDefinition (the CRD's
// own errors, compile errors and cost limits), CELSchemaContext and
// schema/cel.Compile (per-rule cost estimates), the custom resource strategy
// of pkg/registry/customresource with rest.BeforeCreate/BeforeUpdate
// (objects), schema/cel.Validator (the actual cost). The only glue
// re-implemented here is the CR handler's decoding (unstructuredSchemaCoercer
// is unexported): object meta coercion, pruning, defaulting.
package crdref

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"sync"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/install"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	crdvalidation "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/validation"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel/model"
	structuraldefaulting "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting"
	schemaobjectmeta "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/objectmeta"
	structuralpruning "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/pruning"
	apiservervalidation "k8s.io/apiextensions-apiserver/pkg/apiserver/validation"
	"k8s.io/apiextensions-apiserver/pkg/crdserverscheme"
	"k8s.io/apiextensions-apiserver/pkg/registry/customresource"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"k8s.io/apimachinery/pkg/util/validation/field"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
	"k8s.io/apiserver/pkg/cel/common"
	"k8s.io/apiserver/pkg/cel/environment"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/apiserver/pkg/registry/rest"
	"k8s.io/apiserver/pkg/warning"
)

var (
	scheme = runtime.NewScheme()
	codecs = serializer.NewCodecFactory(scheme)
)

func init() { install.Install(scheme) }

// CRD is a decoded CRD with its versions ready to validate objects.
type CRD struct {
	V1       *apiextensionsv1.CustomResourceDefinition
	Internal *apiextensions.CustomResourceDefinition

	mu       sync.Mutex
	versions map[string]*version
}

// Load decodes a CRD (JSON) as kube-apiserver's apiextensions scheme does.
func Load(doc []byte) (*CRD, error) {
	obj, _, err := codecs.UniversalDeserializer().Decode(doc, nil, nil)
	if err != nil {
		return nil, err
	}
	v1, ok := obj.(*apiextensionsv1.CustomResourceDefinition)
	if !ok {
		return nil, fmt.Errorf("not an apiextensions.k8s.io/v1 CustomResourceDefinition: %T", obj)
	}
	scheme.Default(v1)
	internal := &apiextensions.CustomResourceDefinition{}
	if err := scheme.Convert(v1, internal, nil); err != nil {
		return nil, err
	}
	return &CRD{V1: v1, Internal: internal, versions: map[string]*version{}}, nil
}

// selfType matches the self type names kube-apiserver generates (they
// contain the clock's nanoseconds).
var selfType = regexp.MustCompile(`selfType[0-9]+`)

// Normalize replaces generated self type names, as celwasm does.
func Normalize(s string) string { return selfType.ReplaceAllString(s, "selfType") }

// Cause is a field error in Status cause form.
type Cause struct {
	Field   string
	Type    string
	Message string
}

func (c Cause) String() string { return c.Field + " " + c.Type + " " + c.Message }

// SortCauses orders causes by field, type and message (kube-apiserver's
// order of CEL errors depends on map iteration).
func SortCauses(cs []Cause) {
	sort.SliceStable(cs, func(i, j int) bool { return cs[i].String() < cs[j].String() })
}

// CheckErrors are the errors ValidateCustomResourceDefinition reports for
// the CRD, normalized, sorted.
func (c *CRD) CheckErrors() []Cause {
	errs := crdvalidation.ValidateCustomResourceDefinition(context.Background(), c.Internal)
	var out []Cause
	for _, e := range errs {
		out = append(out, Cause{Field: e.Field, Type: string(e.Type), Message: Normalize(e.ErrorBody())})
	}
	SortCauses(out)
	return out
}

// IsCELCause reports whether a CRD error concerns x-kubernetes-validations
// (what celwasm reproduces; it does not validate names, versions,
// conversion ...).
func IsCELCause(c Cause) bool {
	return strings.Contains(c.Field, "x-kubernetes-validations") || strings.Contains(c.Message, "estimated rule cost total")
}

// RuleCost is a rule's estimated cost as the CRD validation computes it.
type RuleCost struct {
	Path        string
	Cost        uint64
	PerCall     uint64
	Cardinality uint64
}

// SchemaCosts holds one schema's rule costs and total.
type SchemaCosts struct {
	Path  string
	Total uint64
	Rules map[string]RuleCost
}

// Costs computes every rule's estimated cost with kube-apiserver's
// CELSchemaContext and schema/cel.Compile, walking the schema as
// ValidateCustomResourceDefinitionOpenAPISchema does.
func (c *CRD) Costs() []SchemaCosts {
	var out []SchemaCosts
	spec := &c.Internal.Spec
	if spec.Validation != nil && spec.Validation.OpenAPIV3Schema != nil {
		out = append(out, schemaCosts(spec.Validation.OpenAPIV3Schema, field.NewPath("spec", "validation", "openAPIV3Schema")))
	} else {
		for i, v := range spec.Versions {
			if v.Schema != nil && v.Schema.OpenAPIV3Schema != nil {
				out = append(out, schemaCosts(v.Schema.OpenAPIV3Schema, field.NewPath("spec", "versions").Index(i).Child("schema", "openAPIV3Schema")))
			}
		}
	}
	return out
}

func schemaCosts(s *apiextensions.JSONSchemaProps, path *field.Path) SchemaCosts {
	sc := SchemaCosts{Path: path.String(), Rules: map[string]RuleCost{}}
	root := crdvalidation.RootCELContext(s)
	envSet := environment.MustBaseEnvSet(environment.DefaultCompatibilityVersion())
	var walk func(s *apiextensions.JSONSchemaProps, p *field.Path, ctx *crdvalidation.CELSchemaContext)
	walk = func(s *apiextensions.JSONSchemaProps, p *field.Path, ctx *crdvalidation.CELSchemaContext) {
		if s == nil {
			return
		}
		if s.AdditionalProperties != nil {
			walk(s.AdditionalProperties.Schema, p.Child("additionalProperties"), ctx.ChildAdditionalPropertiesContext(s.AdditionalProperties.Schema))
		}
		for name, prop := range s.Properties {
			prop := prop
			walk(&prop, p.Child("properties").Key(name), ctx.ChildPropertyContext(&prop, name))
		}
		if s.Items != nil {
			walk(s.Items.Schema, p.Child("items"), ctx.ChildItemsContext(s.Items.Schema))
		}
		if len(s.XValidations) == 0 {
			return
		}
		ti, err := ctx.TypeInfo()
		if err != nil || ti == nil {
			return
		}
		results, err := cel.Compile(ti.Schema, ti.DeclType, celconfig.PerCallLimit, envSet, cel.NewExpressionsEnvLoader())
		if err != nil {
			return
		}
		for i, cr := range results {
			card := cr.MaxCardinality
			if ctx.MaxCardinality != nil {
				card = *ctx.MaxCardinality
			}
			rp := p.Child("x-kubernetes-validations").Index(i)
			if cr.Error == nil {
				cost := mul(cr.MaxCost, card)
				sc.Rules[rp.Child("rule").String()] = RuleCost{Path: rp.Child("rule").String(), Cost: cost, PerCall: cr.MaxCost, Cardinality: card}
				ctx.TotalCost.ObserveExpressionCost(rp.Child("rule"), cost)
			} else {
				ctx.TotalCost.ObserveExpressionCost(rp.Child("rule"), 0)
			}
			if cr.MessageExpression != nil && cr.MessageExpressionError == nil {
				mp := rp.Child("messageExpression").String()
				sc.Rules[mp] = RuleCost{Path: mp, Cost: cr.MessageExpressionMaxCost, PerCall: cr.MessageExpressionMaxCost, Cardinality: 1}
				ctx.TotalCost.ObserveExpressionCost(rp.Child("messageExpression"), cr.MessageExpressionMaxCost)
			}
		}
	}
	walk(s, path, root)
	sc.Total = root.TotalCost.Total
	return sc
}

func mul(a, b uint64) uint64 {
	if a == 0 {
		return 0
	}
	if ^uint64(0)/a < b {
		return ^uint64(0)
	}
	return a * b
}

// version is a served version with kube-apiserver's custom resource strategy.
type version struct {
	name       string
	gvk        schema.GroupVersionKind
	structural *structuralschema.Structural
	strategy   rest.RESTCreateUpdateStrategy
	cel        *cel.Validator
	namespaced bool
}

type fixedNames struct{}

// GenerateName appends the fixed suffix celwasm uses (upstream: 5 random characters).
func (fixedNames) GenerateName(base string) string {
	if len(base) > 58 {
		base = base[:58]
	}
	return base + "xxxxx"
}

func (c *CRD) version(name string) (*version, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if v, ok := c.versions[name]; ok {
		return v, nil
	}
	var ver *apiextensionsv1.CustomResourceDefinitionVersion
	for i := range c.V1.Spec.Versions {
		if c.V1.Spec.Versions[i].Name == name {
			ver = &c.V1.Spec.Versions[i]
		}
	}
	if ver == nil || ver.Schema == nil {
		return nil, fmt.Errorf("no version %q with a schema", name)
	}
	// as crdHandler.getOrCreateServingInfoFor
	internalValidation := &apiextensions.CustomResourceValidation{}
	if err := apiextensionsv1.Convert_v1_CustomResourceValidation_To_apiextensions_CustomResourceValidation(ver.Schema, internalValidation, nil); err != nil {
		return nil, err
	}
	s, err := structuralschema.NewStructural(internalValidation.OpenAPIV3Schema)
	if err != nil {
		return nil, err
	}
	s = s.DeepCopy()
	if err := structuraldefaulting.PruneDefaults(s); err != nil {
		return nil, err
	}
	validator, _, err := apiservervalidation.NewSchemaValidator(internalValidation.OpenAPIV3Schema)
	if err != nil {
		return nil, err
	}
	var statusSpec *apiextensions.CustomResourceSubresourceStatus
	var statusValidator apiservervalidation.SchemaValidator
	var scaleSpec *apiextensions.CustomResourceSubresourceScale
	if sub := ver.Subresources; sub != nil {
		if sub.Status != nil {
			statusSpec = &apiextensions.CustomResourceSubresourceStatus{}
			if st, ok := internalValidation.OpenAPIV3Schema.Properties["status"]; ok {
				statusValidator, _, err = apiservervalidation.NewSchemaValidator(&st)
				if err != nil {
					return nil, err
				}
			}
		}
		if sub.Scale != nil {
			scaleSpec = &apiextensions.CustomResourceSubresourceScale{}
			if err := apiextensionsv1.Convert_v1_CustomResourceSubresourceScale_To_apiextensions_CustomResourceSubresourceScale(sub.Scale, scaleSpec, nil); err != nil {
				return nil, err
			}
		}
	}
	gvk := schema.GroupVersionKind{Group: c.V1.Spec.Group, Version: name, Kind: c.V1.Spec.Names.Kind}
	namespaced := c.V1.Spec.Scope == apiextensionsv1.NamespaceScoped
	st := customresource.NewStrategy(crdserverscheme.NewUnstructuredObjectTyper(), namespaced, gvk, validator, statusValidator, s, statusSpec, scaleSpec, ver.SelectableFields)
	st.NameGenerator = fixedNames{}
	v := &version{name: name, gvk: gvk, structural: s, strategy: st, cel: cel.NewValidator(s, true, celconfig.PerCallLimit), namespaced: namespaced}
	c.versions[name] = v
	return v, nil
}

// Result is what the reference decides for one object.
type Result struct {
	Valid        bool
	Reason       string
	Code         int32
	Message      string
	Name         string
	Namespace    string
	Causes       []Cause
	Warnings     []string
	Cost         uint64
	CostExceeded bool
	CELSkipped   bool
}

type recorder struct {
	mu   sync.Mutex
	list []string
}

func (r *recorder) AddWarning(agent, text string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, w := range r.list {
		if w == text {
			return
		}
	}
	r.list = append(r.list, text)
}

func decode(doc []byte) (*unstructured.Unstructured, error) {
	obj, err := runtime.Decode(unstructured.UnstructuredJSONScheme, doc)
	if err != nil {
		return nil, err
	}
	u, ok := obj.(*unstructured.Unstructured)
	if !ok {
		return nil, fmt.Errorf("not an object: %T", obj)
	}
	return u, nil
}

// coerce is the CR handler's decoding (unstructuredSchemaCoercer.apply, then
// the defaulter): request objects with returnUnknownFieldPaths, stored ones
// with dropInvalidMetadata and repairGeneration.
func (v *version) coerce(u *unstructured.Unstructured, stored bool) ([]string, error) {
	kind, foundKind, _ := unstructured.NestedString(u.Object, "kind")
	apiVersion, foundAPIVersion, _ := unstructured.NestedString(u.Object, "apiVersion")
	objectMeta, foundObjectMeta, unknown, err := schemaobjectmeta.GetObjectMetaWithOptions(u.Object, schemaobjectmeta.ObjectMetaOptions{DropMalformedFields: stored, ReturnUnknownFieldPaths: !stored})
	if err != nil {
		return nil, err
	}
	gv, err := schema.ParseGroupVersion(apiVersion)
	if err != nil {
		return nil, err
	}
	if gv.Group == v.gvk.Group && kind == v.gvk.Kind {
		unknown = append(unknown, structuralpruning.PruneWithOptions(u.Object, v.structural, true, structuralschema.UnknownFieldPathOptions{TrackUnknownFieldPaths: !stored})...)
		structuraldefaulting.PruneNonNullableNullsWithoutDefaults(u.Object, v.structural)
		err, paths := schemaobjectmeta.CoerceWithOptions(nil, u.Object, v.structural, false, schemaobjectmeta.CoerceOptions{DropInvalidFields: stored, ReturnUnknownFieldPaths: !stored})
		if err != nil {
			return nil, err
		}
		unknown = append(unknown, paths...)
		if stored && objectMeta.Generation == 0 {
			objectMeta.Generation = 1
		}
	}
	if foundKind {
		u.SetKind(kind)
	}
	if foundAPIVersion {
		u.SetAPIVersion(apiVersion)
	}
	if foundObjectMeta {
		if err := schemaobjectmeta.SetObjectMeta(u.Object, objectMeta); err != nil {
			return nil, err
		}
	}
	structuraldefaulting.Default(u.Object, v.structural)
	return unknown, nil
}

// Validate validates a create (old nil) or an update, as celwasm defines
// the offline request (namespace "default" when none; a stored object gets
// system fields and resourceVersion "1"; the new object keeps the stored
// resourceVersion).
func (c *CRD) Validate(obj, old []byte) (*Result, error) {
	return c.validate(obj, old, true)
}

// Admit is Validate without measuring the actual cost: only what
// kube-apiserver does for the request (for benchmarks).
func (c *CRD) Admit(obj, old []byte) (*Result, error) {
	return c.validate(obj, old, false)
}

func (c *CRD) validate(obj, old []byte, measureCost bool) (*Result, error) {
	u, err := decode(obj)
	if err != nil {
		return nil, err
	}
	gv, err := schema.ParseGroupVersion(u.GetAPIVersion())
	if err != nil {
		return nil, err
	}
	v, err := c.version(gv.Version)
	if err != nil {
		return nil, err
	}
	res := &Result{}
	unknown, err := v.coerce(u, false)
	if err != nil {
		return nil, err
	}
	for _, f := range unknown {
		res.Warnings = append(res.Warnings, fmt.Sprintf("unknown field %q", f))
	}
	rec := &recorder{}
	ns := ""
	if v.namespaced {
		if ns = u.GetNamespace(); ns == "" {
			ns = metav1.NamespaceDefault
		}
	}
	ctx := warning.WithWarningRecorder(genericapirequest.WithNamespace(context.Background(), ns), rec)
	var ou *unstructured.Unstructured
	if old == nil {
		om, _ := meta.Accessor(u)
		rest.FillObjectMetaSystemFields(om)
		if om.GetGenerateName() != "" && om.GetName() == "" {
			om.SetName(fixedNames{}.GenerateName(om.GetGenerateName()))
		}
		err = rest.BeforeCreate(v.strategy, ctx, u)
	} else {
		if ou, err = decode(old); err != nil {
			return nil, err
		}
		if _, err := v.coerce(ou, true); err != nil {
			return nil, err
		}
		om, _ := meta.Accessor(ou)
		nm, _ := meta.Accessor(u)
		if om.GetUID() == "" {
			rest.FillObjectMetaSystemFields(om)
		}
		if om.GetResourceVersion() == "" {
			om.SetResourceVersion("1")
		}
		if om.GetGeneration() == 0 {
			om.SetGeneration(1)
		}
		if v.namespaced && om.GetNamespace() == "" {
			om.SetNamespace(metav1.NamespaceDefault)
		}
		if !v.namespaced {
			om.SetNamespace("")
		}
		if nm.GetResourceVersion() == "" {
			nm.SetResourceVersion(om.GetResourceVersion())
		}
		err = rest.BeforeUpdate(v.strategy, ctx, u, ou)
	}
	res.Name, res.Namespace = u.GetName(), u.GetNamespace()
	res.Warnings = append(res.Warnings, rec.list...)
	if err == nil {
		res.Valid = true
	} else {
		var status apierrors.APIStatus
		if !errors.As(err, &status) {
			return nil, err
		}
		st := status.Status()
		res.Reason, res.Code, res.Message = string(st.Reason), st.Code, Normalize(st.Message)
		if st.Details != nil {
			for _, cs := range st.Details.Causes {
				if strings.Contains(cs.Message, "some validation rules were not checked") {
					res.CELSkipped = true
				}
				res.Causes = append(res.Causes, Cause{Field: cs.Field, Type: string(cs.Type), Message: Normalize(cs.Message)})
			}
		}
		SortCauses(res.Causes)
	}
	// The actual cost: the strategy discards the CEL validator's remaining
	// budget, so run the validator again on the object as it validated it.
	if measureCost && !res.CELSkipped && v.cel != nil && (res.Valid || res.Reason == string(metav1.StatusReasonInvalid)) {
		var remaining int64
		if ou == nil {
			_, remaining = v.cel.Validate(context.Background(), nil, v.structural, u.Object, nil, celconfig.RuntimeCELCostBudget)
		} else {
			corr := common.NewCorrelatedObject(u.Object, ou.Object, &model.Structural{Structural: v.structural})
			_, remaining = v.cel.Validate(context.Background(), nil, v.structural, u.Object, ou.Object, celconfig.RuntimeCELCostBudget, cel.WithRatcheting(corr))
		}
		if remaining < 0 {
			res.Cost, res.CostExceeded = uint64(celconfig.RuntimeCELCostBudget), true
		} else {
			res.Cost = uint64(celconfig.RuntimeCELCostBudget - remaining)
		}
	}
	return res, nil
}
