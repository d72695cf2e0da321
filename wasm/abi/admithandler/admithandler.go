// Package admithandler serves the admit export: admission requests against
// ValidatingAdmissionPolicies and MutatingAdmissionPolicies (package
// wasm/admission). Shapes: docs/abi.md, "admit". It is a package of its own
// so that only the admission module links k8s.io/apiserver's admission
// plugins (RATIONALE.md, "Two modules").
package admithandler

import (
	"context"
	"fmt"

	"github.com/celwasm/celwasm/wire"

	"github.com/celwasm/celwasm/wasm/abi"
	"github.com/celwasm/celwasm/wasm/admission"
	"github.com/celwasm/celwasm/wasm/engine"
)

// Handler serves admit with the responses of an abi.Handler.
type Handler struct{ h *abi.Handler }

// New returns the admit handler answering through h.
func New(h *abi.Handler) Handler { return Handler{h} }

// Admit handles an admit request: a wire.AdmitResponse, or an error
// (bad_request, invalid_policy, invalid_env for a compatibility version,
// canceled when the host interrupted it).
func (x Handler) Admit(req []byte) (resp []byte) {
	h := x.h
	defer func() {
		if r := recover(); r != nil {
			resp = h.Panicked(r)
		}
	}()
	var r wire.AdmitRequest
	if err := abi.DecodeStrict(req, &r); err != nil {
		return h.Fail(&wire.Error{Code: wire.CodeBadRequest, Message: "admit request: " + err.Error()})
	}
	out, err := admission.Admit(context.Background(), &r)
	if engine.Interrupted() {
		return h.Fail(&wire.Error{Code: wire.CodeCanceled, Message: "admission interrupted by the host"})
	}
	if err != nil {
		return h.Fail(err)
	}
	if len(out.Results) != len(r.Requests) {
		return h.Fail(&wire.Error{Code: wire.CodeInternal, Message: fmt.Sprintf("admit: %d results for %d requests", len(out.Results), len(r.Requests))})
	}
	return h.Reply(out)
}
