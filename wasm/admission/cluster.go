package admission

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	kjson "sigs.k8s.io/json"

	"github.com/celwasm/celwasm/wire"
)

// cluster is what the request's documents put in the cluster: policies,
// bindings, namespaces, the kinds CRDs serve, RBAC objects, and every
// object (each one can be a param).
type cluster struct {
	vaps        []*admissionregistrationv1.ValidatingAdmissionPolicy // by name, the dispatch order
	vapsInOrder []*admissionregistrationv1.ValidatingAdmissionPolicy // as the documents give them
	vapBindings []*admissionregistrationv1.ValidatingAdmissionPolicyBinding
	maps        []*admissionregistrationv1.MutatingAdmissionPolicy
	mapBindings []*admissionregistrationv1.MutatingAdmissionPolicyBinding
	namespaces  map[string]*corev1.Namespace
	resources   *resourceMap
	schemas     map[schema.GroupVersionKind]json.RawMessage // CRDs' openAPIV3Schema per version
	defaulter   *crdDefaulter
	rbac        rbacObjects
	objects     []*unstructured.Unstructured
}

type rbacObjects struct {
	roles               []*rbacv1.Role
	clusterRoles        []*rbacv1.ClusterRole
	roleBindings        []*rbacv1.RoleBinding
	clusterRoleBindings []*rbacv1.ClusterRoleBinding
}

// crdNames is the part of a CustomResourceDefinition that admission reads:
// the kind it serves and where.
type crdNames struct {
	Spec struct {
		Group string `json:"group"`
		Names struct {
			Kind   string `json:"kind"`
			Plural string `json:"plural"`
		} `json:"names"`
		Scope    string `json:"scope"`
		Versions []struct {
			Name   string `json:"name"`
			Schema *struct {
				OpenAPIV3Schema json.RawMessage `json:"openAPIV3Schema"`
			} `json:"schema"`
		} `json:"versions"`
	} `json:"spec"`
}

const admissionregistration = "admissionregistration.k8s.io/v1"

func docErr(i int, format string, args ...any) *wire.Error {
	return &wire.Error{Code: wire.CodeInvalidObject, Message: fmt.Sprintf("documents[%d]: ", i) + fmt.Sprintf(format, args...)}
}

// decodeInto decodes an object strictly (unknown or duplicate fields are
// errors, as kube-apiserver's field validation "Strict" reports them).
func decodeInto(doc []byte, v any) error {
	strictErrs, err := kjson.UnmarshalStrict(doc, v)
	if err != nil {
		return err
	}
	if len(strictErrs) > 0 {
		return strictErrs[0]
	}
	return nil
}

func loadCluster(docs []json.RawMessage) (*cluster, error) {
	c := &cluster{namespaces: map[string]*corev1.Namespace{}, resources: newResourceMap(), schemas: map[schema.GroupVersionKind]json.RawMessage{},
		defaulter: &crdDefaulter{schemas: map[schema.GroupVersionKind]*structuralschema.Structural{}}}
	type document struct {
		index int
		doc   []byte
	}
	var expanded []document
	for i, doc := range docs {
		u, err := decodeObject(doc)
		if err != nil {
			return nil, docErr(i, "%v", err)
		}
		if u.GetKind() != "List" || u.GetAPIVersion() != "v1" {
			expanded = append(expanded, document{i, doc})
			continue
		}
		// kubectl apply -f takes kind: List as its items.
		l, err := u.ToList()
		if err != nil {
			return nil, docErr(i, "%v", err)
		}
		for _, item := range l.Items {
			b, err := item.MarshalJSON()
			if err != nil {
				return nil, docErr(i, "%v", err)
			}
			expanded = append(expanded, document{i, b})
		}
	}
	for _, d := range expanded {
		i, doc := d.index, d.doc
		u, err := decodeObject(doc)
		if err != nil {
			return nil, docErr(i, "%v", err)
		}
		c.objects = append(c.objects, u)
		gvk := u.GroupVersionKind()
		var target any
		switch {
		case u.GetAPIVersion() == admissionregistration && gvk.Kind == "ValidatingAdmissionPolicy":
			p := &admissionregistrationv1.ValidatingAdmissionPolicy{}
			c.vaps, target = append(c.vaps, p), p
		case u.GetAPIVersion() == admissionregistration && gvk.Kind == "ValidatingAdmissionPolicyBinding":
			b := &admissionregistrationv1.ValidatingAdmissionPolicyBinding{}
			c.vapBindings, target = append(c.vapBindings, b), b
		case u.GetAPIVersion() == admissionregistration && gvk.Kind == "MutatingAdmissionPolicy":
			p := &admissionregistrationv1.MutatingAdmissionPolicy{}
			c.maps, target = append(c.maps, p), p
		case u.GetAPIVersion() == admissionregistration && gvk.Kind == "MutatingAdmissionPolicyBinding":
			b := &admissionregistrationv1.MutatingAdmissionPolicyBinding{}
			c.mapBindings, target = append(c.mapBindings, b), b
		case u.GetAPIVersion() == "v1" && gvk.Kind == "Namespace":
			ns := &corev1.Namespace{}
			if err := decodeInto(doc, ns); err != nil {
				return nil, docErr(i, "Namespace: %v", err)
			}
			c.namespaces[ns.Name] = ns
		case u.GetAPIVersion() == "rbac.authorization.k8s.io/v1":
			switch gvk.Kind {
			case "Role":
				r := &rbacv1.Role{}
				c.rbac.roles, target = append(c.rbac.roles, r), r
			case "ClusterRole":
				r := &rbacv1.ClusterRole{}
				c.rbac.clusterRoles, target = append(c.rbac.clusterRoles, r), r
			case "RoleBinding":
				r := &rbacv1.RoleBinding{}
				c.rbac.roleBindings, target = append(c.rbac.roleBindings, r), r
			case "ClusterRoleBinding":
				r := &rbacv1.ClusterRoleBinding{}
				c.rbac.clusterRoleBindings, target = append(c.rbac.clusterRoleBindings, r), r
			}
		case gvk.Group == "apiextensions.k8s.io" && gvk.Kind == "CustomResourceDefinition":
			var crd crdNames
			if err := json.Unmarshal(doc, &crd); err != nil {
				return nil, docErr(i, "CustomResourceDefinition: %v", err)
			}
			if err := c.defaulter.add(doc); err != nil {
				return nil, docErr(i, "CustomResourceDefinition %q: %v", u.GetName(), err)
			}
			s := crd.Spec
			for _, v := range s.Versions {
				gvk := schema.GroupVersionKind{Group: s.Group, Version: v.Name, Kind: s.Names.Kind}
				c.resources.add(gvk, s.Names.Plural, s.Scope == "Namespaced")
				if v.Schema != nil && len(v.Schema.OpenAPIV3Schema) > 0 {
					c.schemas[gvk] = v.Schema.OpenAPIV3Schema
				}
			}
		}
		if target != nil {
			if err := decodeInto(doc, target); err != nil {
				return nil, docErr(i, "%s %q: %v", gvk.Kind, u.GetName(), err)
			}
		}
	}
	// kube-apiserver lists policies from its informers' caches; the
	// dispatch order does not depend on the order of -f files. Type
	// checking reports in document order.
	c.vapsInOrder = append([]*admissionregistrationv1.ValidatingAdmissionPolicy(nil), c.vaps...)
	sort.SliceStable(c.vaps, func(i, j int) bool { return c.vaps[i].Name < c.vaps[j].Name })
	sort.SliceStable(c.maps, func(i, j int) bool { return c.maps[i].Name < c.maps[j].Name })
	return c, nil
}

// decodeObject reads one Kubernetes object: a JSON object with apiVersion
// and kind.
func decodeObject(doc []byte) (*unstructured.Unstructured, error) {
	doc = bytes.TrimSpace(doc)
	if len(doc) == 0 || doc[0] != '{' {
		return nil, fmt.Errorf("not a Kubernetes object: want a JSON object with apiVersion and kind")
	}
	var m map[string]any
	if err := kjson.UnmarshalCaseSensitivePreserveInts(doc, &m); err != nil {
		return nil, fmt.Errorf("not a Kubernetes object: %v", err)
	}
	u := &unstructured.Unstructured{Object: m}
	if u.GetAPIVersion() == "" || u.GetKind() == "" {
		return nil, fmt.Errorf("not a Kubernetes object: apiVersion and kind are required")
	}
	if _, err := schema.ParseGroupVersion(u.GetAPIVersion()); err != nil {
		return nil, fmt.Errorf("not a Kubernetes object: %v", err)
	}
	if md, ok := m["metadata"]; ok {
		mm, ok := md.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("metadata: want a JSON object")
		}
		// kube-apiserver decodes every object's metadata as ObjectMeta.
		var om metav1.ObjectMeta
		if err := runtime.DefaultUnstructuredConverter.FromUnstructured(mm, &om); err != nil {
			return nil, fmt.Errorf("metadata: %v", err)
		}
	}
	return u, nil
}
