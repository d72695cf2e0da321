package wire

import "encoding/json"

// CodeInvalidPolicy: an admission policy or binding that kube-apiserver
// would refuse when it is created (a compile error, a missing field, a bad
// value); FieldErrors lists the problems as kube-apiserver's validation
// names them.
const CodeInvalidPolicy = "invalid_policy"

// AdmitRequest is the admit export's request: admission policies with what
// they read, and the objects to admit, as kube-apiserver's admission chain
// (MutatingAdmissionPolicy, then ValidatingAdmissionPolicy) would see them
// (docs/abi.md, "admit").
type AdmitRequest struct {
	// Documents are the cluster's objects (JSON): ValidatingAdmissionPolicy,
	// ValidatingAdmissionPolicyBinding, MutatingAdmissionPolicy,
	// MutatingAdmissionPolicyBinding (admissionregistration.k8s.io/v1),
	// Namespace, CustomResourceDefinition, Role, ClusterRole, RoleBinding,
	// ClusterRoleBinding. Every object, these included, can be a param.
	Documents []json.RawMessage `json:"documents"`
	// Requests are the objects under admission, one admission request each.
	Requests []AdmitItem `json:"requests"`
	// User is the requesting user; default "kubernetes-admin" in the
	// groups system:masters and system:authenticated.
	User string `json:"user,omitempty"`
	// Groups are the user's groups, all of them (kube-apiserver's
	// authenticator adds system:authenticated; give it too).
	Groups []string `json:"groups,omitempty"`
	// CompatibilityVersion is the Kubernetes minor version ("1.36") whose
	// CEL environment compiles the policies; default the newest.
	CompatibilityVersion string `json:"compatibilityVersion,omitempty"`
}

// AdmitItem is one admission request.
type AdmitItem struct {
	// Operation is CREATE, UPDATE, DELETE or CONNECT; default CREATE, or
	// UPDATE when OldObject is given.
	Operation string `json:"operation,omitempty"`
	// Object is the object as admission receives it (no defaults applied);
	// null for DELETE.
	Object json.RawMessage `json:"object,omitempty"`
	// OldObject is the stored object for UPDATE and DELETE.
	OldObject json.RawMessage `json:"oldObject,omitempty"`
	// Namespace is the request's namespace for a namespaced object without
	// metadata.namespace; default "default" (kubectl's).
	Namespace string `json:"namespace,omitempty"`
}

// AdmitResponse is the admit export's successful response.
type AdmitResponse struct {
	// Results has one entry per request, in order.
	Results []AdmitResult `json:"results"`
	// Warnings are the policies' type-checking warnings (kube-apiserver
	// writes them to the policy's status.typeChecking).
	Warnings []string `json:"warnings,omitempty"`
}

// AdmitResult is kube-apiserver's decision on one request.
type AdmitResult struct {
	// Allowed is false when a policy denied the request.
	Allowed bool `json:"allowed"`
	// Message is the Status message of the denial, what kubectl prints
	// after "Error from server (...)"; empty when allowed.
	Message string `json:"message"`
	// Reason is the Status reason (Forbidden, Invalid, ...); empty when allowed.
	Reason string `json:"reason,omitempty"`
	// Code is the HTTP status code of the denial; 0 when allowed.
	Code int32 `json:"code,omitempty"`
	// Warnings are the Warning headers' texts, in order.
	Warnings []string `json:"warnings"`
	// AuditAnnotations are the annotations admission adds to the audit event.
	AuditAnnotations map[string]string `json:"auditAnnotations"`
	// PatchedObject is the object after mutation, or null when no
	// MutatingAdmissionPolicy changed it.
	PatchedObject json.RawMessage `json:"patchedObject"`
}
