package admissionref

import (
	"fmt"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	apiextensionsscheme "k8s.io/apiextensions-apiserver/pkg/client/clientset/clientset/scheme"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apiserver/pkg/admission/plugin/policy/validating"
	"k8s.io/apiserver/pkg/cel/openapi/resolver"
	fakediscovery "k8s.io/client-go/discovery/fake"
	k8sscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/openapi"
	kubeopenapi "k8s.io/kubernetes/pkg/generated/openapi"
)

// typeCheck is what kube-controller-manager's ValidatingAdmissionPolicy
// status controller writes to status.typeChecking.expressionWarnings: its
// TypeChecker with the same schema resolver (kube's generated OpenAPI
// definitions, then discovery's /openapi/v3 for custom resources). Each
// warning is "<policy name>: <fieldRef>: <warning>", policies in document
// order. MutatingAdmissionPolicies have no type checking in kube v1.37.
func typeCheck(policies []*admissionregistrationv1.ValidatingAdmissionPolicy, mapper meta.RESTMapper, openapiClient openapi.Client) []string {
	if len(policies) == 0 {
		return nil
	}
	schemaResolver := resolver.NewDefinitionsSchemaResolver(kubeopenapi.GetOpenAPIDefinitions, k8sscheme.Scheme, apiextensionsscheme.Scheme).
		Combine(&resolver.ClientDiscoveryResolver{Discovery: &fakeDiscovery{FakeDiscovery: &fakediscovery.FakeDiscovery{}, openapi: openapiClient}})
	checker := &validating.TypeChecker{SchemaResolver: schemaResolver, RestMapper: mapper}
	var out []string
	for _, p := range policies {
		for _, w := range checker.Check(p) {
			out = append(out, fmt.Sprintf("%s: %s: %s", p.Name, w.FieldRef, w.Warning))
		}
	}
	return out
}
