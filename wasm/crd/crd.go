// Package crd validates custom resources offline as kube-apiserver does: a
// CustomResourceDefinition (apiextensions.k8s.io/v1) is decoded, defaulted
// and converted as kube-apiserver does, each served version gets
// kube-apiserver's structural schema, OpenAPI schema validator and CEL
// validator (k8s.io/apiextensions-apiserver), and objects go through the same
// decode → prune → default → BeforeCreate/BeforeUpdate → strategy validation
// path as a request to the API server (validate.go, strategy.go). The CRD's
// own x-kubernetes-validations checks (compile errors, cost estimates against
// the cost limits) are in check.go, the cost explanations in cost.go.
//
// In rules, self is the value at the rule's schema node and oldSelf the
// stored value on update (transition rules), e.g.
//
//	self.minReplicas <= self.replicas            (at spec)
//	self == oldSelf                              (immutable field)
//	!has(oldSelf.x) || self.x >= oldSelf.x       (optionalOldSelf)
//
// Load(crd) → CRD; CRD.Validate(version, object, oldObject) →
// *wire.ObjectResult; CRD.CostReport() → per-rule cost estimates with
// explanations (wire.SchemaCost).
package crd

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/celwasm/celwasm/wasm/codec"
	"github.com/celwasm/celwasm/wire"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel"
	structuraldefaulting "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting"
	apiservervalidation "k8s.io/apiextensions-apiserver/pkg/apiserver/validation"
	"k8s.io/apimachinery/pkg/runtime/schema"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
	sigsjson "sigs.k8s.io/json"
)

// Error codes of the CRD exports.

// CRD limits (k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/validation,
// k8s.io/apiserver/pkg/apis/cel), in cost units.
const (
	// StaticEstimatedCostLimit bounds the estimated cost of one rule (or
	// messageExpression) times the number of times it can run.
	StaticEstimatedCostLimit = 10_000_000
	// StaticEstimatedCRDCostLimit bounds the sum of those estimates over a
	// version's schema.
	StaticEstimatedCRDCostLimit = 100_000_000
	// RuntimeCELCostBudget bounds the actual cost of all rules evaluated for
	// one object.
	RuntimeCELCostBudget = celconfig.RuntimeCELCostBudget
	// PerCallLimit bounds the actual cost of one rule evaluation.
	PerCallLimit = celconfig.PerCallLimit
)

// CRD is a decoded CustomResourceDefinition with its per-version validators,
// built on first use. A CRD is safe for concurrent use.
type CRD struct {
	// SHA256 is the hex sha256 of the JSON the CRD was loaded from.
	SHA256 string
	// Warnings are strict-decoding problems kube-apiserver would warn about
	// (unknown or duplicate fields in the CRD).
	Warnings []string

	v1       *apiextensionsv1.CustomResourceDefinition
	internal *apiextensions.CustomResourceDefinition

	mu        sync.Mutex
	versions  map[string]*CRDVersion
	check     *CRDCheck
	explained bool
}

// crdCache holds recently loaded CRDs by the sha256 of their JSON, so that
// validating many objects against one CRD decodes and compiles it once.
var crdCache = struct {
	sync.Mutex
	m     map[string]*CRD
	order []string
}{m: map[string]*CRD{}}

// maxCachedCRDs bounds crdCache (a compiled CRD holds every rule's program).
const maxCachedCRDs = 16

// Load decodes a CustomResourceDefinition from JSON, or returns the cached
// one for the same bytes.
func Load(doc []byte) (*CRD, error) {
	sum := sha256.Sum256(doc)
	key := hex.EncodeToString(sum[:])
	crdCache.Lock()
	if c, ok := crdCache.m[key]; ok {
		crdCache.Unlock()
		return c, nil
	}
	crdCache.Unlock()
	c, err := decodeCRD(doc)
	if err != nil {
		return nil, err
	}
	c.SHA256 = key
	crdCache.Lock()
	defer crdCache.Unlock()
	if prev, ok := crdCache.m[key]; ok {
		return prev, nil
	}
	if len(crdCache.order) >= maxCachedCRDs {
		delete(crdCache.m, crdCache.order[0])
		crdCache.order = crdCache.order[1:]
	}
	crdCache.m[key] = c
	crdCache.order = append(crdCache.order, key)
	return c, nil
}

func crdErr(format string, args ...any) *wire.Error {
	return &wire.Error{Code: wire.CodeInvalidCRD, Message: fmt.Sprintf(format, args...)}
}

func decodeCRD(doc []byte) (*CRD, error) {
	if err := codec.CheckJSON(string(doc)); err != nil {
		return nil, crdErr("CRD: %v", err)
	}
	var head struct {
		APIVersion string `json:"apiVersion"`
		Kind       string `json:"kind"`
	}
	if err := sigsjson.UnmarshalCaseSensitivePreserveInts(doc, &head); err != nil {
		return nil, crdErr("CRD: want a JSON object: %v", err)
	}
	if head.APIVersion != "apiextensions.k8s.io/v1" || head.Kind != "CustomResourceDefinition" {
		return nil, crdErr("want an apiextensions.k8s.io/v1 CustomResourceDefinition, got apiVersion %q kind %q", head.APIVersion, head.Kind)
	}
	v1 := &apiextensionsv1.CustomResourceDefinition{}
	strict, err := sigsjson.UnmarshalStrict(doc, v1, sigsjson.DisallowDuplicateFields, sigsjson.DisallowUnknownFields)
	if err != nil {
		return nil, crdErr("CRD %s: %v", head.Kind, err)
	}
	c := &CRD{v1: v1, versions: map[string]*CRDVersion{}}
	for _, e := range strict {
		c.Warnings = append(c.Warnings, e.Error())
	}
	apiextensionsv1.SetObjectDefaults_CustomResourceDefinition(v1)
	spec := &v1.Spec
	switch {
	case v1.Name == "":
		return nil, crdErr("CRD: metadata.name is required")
	case spec.Group == "":
		return nil, crdErr("CRD %s: spec.group is required", v1.Name)
	case spec.Names.Kind == "":
		return nil, crdErr("CRD %s: spec.names.kind is required", v1.Name)
	case len(spec.Versions) == 0:
		return nil, crdErr("CRD %s: spec.versions must have at least one version", v1.Name)
	case spec.Scope != apiextensionsv1.NamespaceScoped && spec.Scope != apiextensionsv1.ClusterScoped:
		return nil, crdErr("CRD %s: spec.scope must be Namespaced or Cluster, not %q", v1.Name, spec.Scope)
	}
	internal := &apiextensions.CustomResourceDefinition{}
	if err := apiextensionsv1.Convert_v1_CustomResourceDefinition_To_apiextensions_CustomResourceDefinition(v1, internal, nil); err != nil {
		return nil, crdErr("CRD %s: %v", v1.Name, err)
	}
	c.internal = internal
	return c, nil
}

// Name is the CRD's metadata.name.
func (c *CRD) Name() string { return c.v1.Name }

// Group is spec.group.
func (c *CRD) Group() string { return c.v1.Spec.Group }

// Kind is spec.names.kind.
func (c *CRD) Kind() string { return c.v1.Spec.Names.Kind }

// Namespaced reports whether the custom resources are namespaced.
func (c *CRD) Namespaced() bool { return c.v1.Spec.Scope == apiextensionsv1.NamespaceScoped }

// Versions lists spec.versions' names in order.
func (c *CRD) Versions() []string {
	var out []string
	for _, v := range c.v1.Spec.Versions {
		out = append(out, v.Name)
	}
	return out
}

// DefaultVersion is the storage version, or else the only served version,
// or else the first.
func (c *CRD) DefaultVersion() string {
	served := []string{}
	for _, v := range c.v1.Spec.Versions {
		if v.Storage {
			return v.Name
		}
		if v.Served {
			served = append(served, v.Name)
		}
	}
	if len(served) == 1 {
		return served[0]
	}
	return c.v1.Spec.Versions[0].Name
}

func (c *CRD) v1Version(name string) (int, *apiextensionsv1.CustomResourceDefinitionVersion) {
	for i := range c.v1.Spec.Versions {
		if c.v1.Spec.Versions[i].Name == name {
			return i, &c.v1.Spec.Versions[i]
		}
	}
	return -1, nil
}

// CRDVersion is one version of a CRD, ready to validate objects the way
// kube-apiserver's custom resource handler does.
type CRDVersion struct {
	Name string
	crd  *CRD
	gvk  schema.GroupVersionKind
	// structural is the version's structural schema with defaults pruned,
	// what the handler gives the strategy.
	structural *structuralschema.Structural
	// schema is the internal OpenAPI schema (for the cost walk).
	schema    *apiextensions.JSONSchemaProps
	strategy  *crStrategy
	hasStatus bool
}

// Version returns the named version (empty: DefaultVersion), built on
// first use. A version without a schema, or whose schema is not structural,
// is an invalid_crd error.
func (c *CRD) Version(name string) (*CRDVersion, error) {
	if name == "" {
		name = c.DefaultVersion()
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if v, ok := c.versions[name]; ok {
		return v, nil
	}
	v, err := c.buildVersion(name)
	if err != nil {
		return nil, err
	}
	c.versions[name] = v
	return v, nil
}

// buildVersion follows crdHandler.getOrCreateServingInfoFor
// (k8s.io/apiextensions-apiserver/pkg/apiserver/customresource_handler.go).
func (c *CRD) buildVersion(name string) (*CRDVersion, error) {
	_, ver := c.v1Version(name)
	if ver == nil {
		return nil, crdErr("CRD %s has no version %q (versions: %s)", c.Name(), name, strings.Join(c.Versions(), ", "))
	}
	if ver.Schema == nil || ver.Schema.OpenAPIV3Schema == nil {
		return nil, crdErr("CRD %s version %s has no schema.openAPIV3Schema", c.Name(), name)
	}
	internalValidation := &apiextensions.CustomResourceValidation{}
	if err := apiextensionsv1.Convert_v1_CustomResourceValidation_To_apiextensions_CustomResourceValidation(ver.Schema, internalValidation, nil); err != nil {
		return nil, crdErr("CRD %s version %s: converting the schema: %v", c.Name(), name, err)
	}
	s, err := structuralschema.NewStructural(internalValidation.OpenAPIV3Schema)
	if err != nil {
		return nil, crdErr("CRD %s version %s: the schema is not structural: %v", c.Name(), name, err)
	}
	if errs := structuralschema.ValidateStructural(nil, s); len(errs) > 0 {
		return nil, crdErr("CRD %s version %s: the schema is not structural: %v", c.Name(), name, errs.ToAggregate())
	}
	if c.v1.Spec.PreserveUnknownFields {
		return nil, crdErr("CRD %s: spec.preserveUnknownFields: true is not allowed in apiextensions.k8s.io/v1", c.Name())
	}
	s = s.DeepCopy()
	if err := structuraldefaulting.PruneDefaults(s); err != nil {
		return nil, crdErr("CRD %s version %s: pruning defaults: %v", c.Name(), name, err)
	}
	validator, _, err := apiservervalidation.NewSchemaValidator(internalValidation.OpenAPIV3Schema)
	if err != nil {
		return nil, crdErr("CRD %s version %s: building the schema validator: %v", c.Name(), name, err)
	}
	var status *apiextensions.CustomResourceSubresourceStatus
	var scale *apiextensions.CustomResourceSubresourceScale
	if sub := ver.Subresources; sub != nil {
		if sub.Status != nil {
			status = &apiextensions.CustomResourceSubresourceStatus{}
		}
		if sub.Scale != nil {
			scale = &apiextensions.CustomResourceSubresourceScale{}
			if err := apiextensionsv1.Convert_v1_CustomResourceSubresourceScale_To_apiextensions_CustomResourceSubresourceScale(sub.Scale, scale, nil); err != nil {
				return nil, crdErr("CRD %s version %s: converting the scale subresource: %v", c.Name(), name, err)
			}
		}
	}
	v := &CRDVersion{
		Name:       name,
		crd:        c,
		gvk:        schema.GroupVersionKind{Group: c.Group(), Version: name, Kind: c.Kind()},
		structural: s,
		schema:     internalValidation.OpenAPIV3Schema,
		hasStatus:  status != nil,
	}
	v.strategy = &crStrategy{
		namespaceScoped:  c.Namespaced(),
		kind:             v.gvk,
		schemaValidator:  validator,
		structuralSchema: s,
		celValidator:     cel.NewValidator(s, true, celconfig.PerCallLimit),
		status:           status,
		scale:            scale,
	}
	return v, nil
}

// Served reports whether the version is served.
func (v *CRDVersion) Served() bool {
	_, ver := v.crd.v1Version(v.Name)
	return ver != nil && ver.Served
}

// sortedKeys returns a map's keys in order.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
