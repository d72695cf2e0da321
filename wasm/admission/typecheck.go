package admission

import (
	"encoding/json"
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/admission/plugin/policy/validating"
	"k8s.io/apiserver/pkg/cel/openapi/resolver"
	"k8s.io/kube-openapi/pkg/validation/spec"
)

// typeCheck runs kube-apiserver's type checker for ValidatingAdmissionPolicies
// (validating.TypeChecker, what kube-controller-manager's policy status
// controller writes to status.typeChecking) and returns its warnings as
// "NAME: FIELD: WARNING" (as the reference conformance/admissionref prints
// them), policies in the order the engine keeps them. Schemas are those
// kube-apiserver resolves: kube's generated OpenAPI definitions for built-in
// kinds (builtinSchemas), then the CRDs given for custom resources. A CRD
// schema's metadata is ObjectMeta in kube-apiserver's OpenAPI; here it is an
// object of any fields.
func (c *cluster) typeCheck() []string {
	if len(c.vaps) == 0 {
		return nil
	}
	tc := &validating.TypeChecker{SchemaResolver: builtinSchemas{next: crdSchemas(c.schemas)}, RestMapper: c.resources.restMapper()}
	var out []string
	for _, p := range c.vapsInOrder {
		for _, w := range tc.Check(p) {
			out = append(out, fmt.Sprintf("%s: %s: %s", p.Name, w.FieldRef, w.Warning))
		}
	}
	return out
}

type crdSchemas map[schema.GroupVersionKind]json.RawMessage

func (s crdSchemas) ResolveSchema(gvk schema.GroupVersionKind) (*spec.Schema, error) {
	raw, ok := s[gvk]
	if !ok {
		return nil, fmt.Errorf("%w: %v", resolver.ErrSchemaNotFound, gvk)
	}
	var sch spec.Schema
	if err := json.Unmarshal(raw, &sch); err != nil {
		return nil, err
	}
	if sch.Properties == nil {
		sch.Properties = map[string]spec.Schema{}
	}
	for _, k := range []string{"apiVersion", "kind"} {
		if _, ok := sch.Properties[k]; !ok {
			sch.Properties[k] = *spec.StringProperty()
		}
	}
	if _, ok := sch.Properties["metadata"]; !ok {
		md := spec.Schema{SchemaProps: spec.SchemaProps{Type: []string{"object"}}}
		md.AddExtension("x-kubernetes-preserve-unknown-fields", true)
		sch.Properties["metadata"] = md
	}
	return &sch, nil
}

// restMapper maps the kinds the cluster serves, for the type checker.
func (m *resourceMap) restMapper() meta.RESTMapper {
	rm := meta.NewDefaultRESTMapper(nil)
	for gvk, info := range m.byKind {
		scope := meta.RESTScopeRoot
		if info.namespaced {
			scope = meta.RESTScopeNamespace
		}
		rm.AddSpecific(gvk, info.resource, gvk.GroupVersion().WithResource(strings.ToLower(gvk.Kind)), scope)
	}
	return rm
}
