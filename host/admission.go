package celwasm

import (
	"context"
	"encoding/json"

	"github.com/celwasm/celwasm/wire"
)

// CodeInvalidPolicy: an admission policy or binding that kube-apiserver
// would refuse when it is created; the Error's cause is *CRDFieldErrors
// (the field errors, as kube-apiserver's validation names them).
const CodeInvalidPolicy = wire.CodeInvalidPolicy

// Admission policy shapes (docs/abi.md, "admit").
type (
	// AdmitRequest holds the cluster's objects (policies, bindings, params,
	// namespaces, CRDs, RBAC objects; JSON) and the requests to admit.
	AdmitRequest = wire.AdmitRequest
	// AdmitItem is one admission request: operation, object, old object.
	AdmitItem = wire.AdmitItem
	// AdmitResponse has one AdmitResult per request.
	AdmitResponse = wire.AdmitResponse
	// AdmitResult is kube-apiserver's decision on one request: allowed,
	// the Status message, warnings, audit annotations, the patched object.
	AdmitResult = wire.AdmitResult
)

// Admit runs admission requests as kube-apiserver's admission chain would
// (MutatingAdmissionPolicy, then ValidatingAdmissionPolicy, with
// k8s.io/apiserver's admission plugins, in the module celwasm-admission,
// which is loaded on first use). A denial is a result with Allowed false,
// not an error. Errors: *Error with code bad_request (a document or object
// that is not a Kubernetes object, a kind no resource serves),
// invalid_policy (what kube-apiserver would refuse to create), invalid_env
// (an unsupported compatibility version), canceled, or trap.
func (r *Runtime) Admit(ctx context.Context, req *AdmitRequest) (*AdmitResponse, error) {
	body, err := json.Marshal(req)
	if err != nil {
		return nil, &Error{Code: CodeBadRequest, Message: "admit request: " + err.Error(), Err: err}
	}
	adm, err := r.admissionRuntime(ctx)
	if err != nil {
		return nil, err
	}
	in, err := adm.acquire(ctx)
	if err != nil {
		return nil, err
	}
	resp, err := adm.call(ctx, in, ExportAdmit, body)
	adm.put(in)
	if err != nil {
		return nil, err
	}
	if err := decodeCRDError(resp); err != nil {
		return nil, err
	}
	var out AdmitResponse
	if err := json.Unmarshal(resp, &out); err != nil {
		return nil, &Error{Code: CodeInternal, Message: "admit response: " + err.Error()}
	}
	return &out, nil
}
