// Package crdhandler serves the CRD exports: celwasm_validate (objects and
// updates against a CustomResourceDefinition, as kube-apiserver validates
// them) and celwasm_cost (the CRD's x-kubernetes-validations cost estimates
// with explanations). Shapes: docs/abi.md, "validate" and "cost". It is a
// package of its own, apart from abi, so that only the module that imports
// it (celwasm-full) links k8s.io/apiextensions-apiserver (RATIONALE.md, "Two
// modules").
package crdhandler

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/celwasm/celwasm/wire"

	"github.com/celwasm/celwasm/wasm/abi"
	"github.com/celwasm/celwasm/wasm/crd"
	"github.com/celwasm/celwasm/wasm/engine"
)

// Handler serves the CRD exports with the responses of an abi.Handler.
type Handler struct{ h *abi.Handler }

// New returns the CRD handlers answering through h.
func New(h *abi.Handler) Handler { return Handler{h} }

func loadCRD(raw json.RawMessage, what string) (*crd.CRD, error) {
	if len(bytes.TrimSpace(raw)) == 0 || bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		return nil, &wire.Error{Code: wire.CodeBadRequest, Message: what + ": missing \"crd\""}
	}
	return crd.Load(raw)
}

func crdInfo(c *crd.CRD) wire.CRDInfo {
	return wire.CRDInfo{Name: c.Name(), Group: c.Group(), Kind: c.Kind(), Namespaced: c.Namespaced(), Versions: c.Versions(),
		DefaultVersion: c.DefaultVersion(), SHA256: c.SHA256, Warnings: c.Warnings}
}

// Validate handles a validate request. A CRD that kube-apiserver would
// reject is an invalid_crd error whose fieldErrors list its problems.
func (x Handler) Validate(req []byte) (resp []byte) {
	h := x.h
	defer func() {
		if r := recover(); r != nil {
			resp = h.Panicked(r)
		}
	}()
	var r wire.ValidateRequest
	if err := abi.DecodeStrict(req, &r); err != nil {
		return h.Fail(&wire.Error{Code: wire.CodeBadRequest, Message: "validate request: " + err.Error()})
	}
	c, err := loadCRD(r.CRD, "validate request")
	if err != nil {
		return h.Fail(err)
	}
	if chk := c.Check(); len(chk.Errors) > 0 {
		var e wire.CRDError
		e.Error.Code, e.Error.Message, e.Error.FieldErrors = wire.CodeInvalidCRD, chk.Message, chk.Errors
		return h.Reply(e)
	}
	if r.Version != "" {
		if _, err := c.Version(r.Version); err != nil {
			return h.Fail(err)
		}
	}
	out := wire.ValidateResponse{CRD: crdInfo(c), Results: make([]json.RawMessage, 0, len(r.Objects))}
	for i, item := range r.Objects {
		if len(item.Object) == 0 {
			return h.Fail(&wire.Error{Code: wire.CodeBadRequest, Message: fmt.Sprintf("validate request: objects[%d]: missing \"object\"", i)})
		}
		var old []byte
		if len(item.OldObject) > 0 && !bytes.Equal(bytes.TrimSpace(item.OldObject), []byte("null")) {
			old = item.OldObject
		}
		res, err := c.Validate(r.Version, item.Object, old)
		if engine.Interrupted() {
			// The validator reports an interrupted rule as a field error
			// and goes on; the request as a whole was canceled.
			return h.Fail(&wire.Error{Code: wire.CodeCanceled, Message: "validation interrupted by the host"})
		}
		var b []byte
		if err != nil {
			e, ok := err.(*wire.Error)
			if !ok || e.Code == wire.CodeInvalidCRD {
				return h.Fail(err)
			}
			b, _ = abi.Marshal(abi.ErrorResponse{Error: e})
		} else if b, err = abi.Marshal(res); err != nil {
			return h.Fail(&wire.Error{Code: wire.CodeInternal, Message: err.Error()})
		}
		out.Results = append(out.Results, b)
	}
	return h.Reply(out)
}

// Cost handles a cost request: the CRD's errors (as kube-apiserver reports
// them when the CRD is created) and every rule's cost estimate with its
// explanation. A CRD with errors is still a successful response (valid:
// false); only input that is not a usable CRD is an error.
func (x Handler) Cost(req []byte) (resp []byte) {
	h := x.h
	defer func() {
		if r := recover(); r != nil {
			resp = h.Panicked(r)
		}
	}()
	var r wire.CostRequest
	if err := abi.DecodeStrict(req, &r); err != nil {
		return h.Fail(&wire.Error{Code: wire.CodeBadRequest, Message: "cost request: " + err.Error()})
	}
	c, err := loadCRD(r.CRD, "cost request")
	if err != nil {
		return h.Fail(err)
	}
	if r.Version != "" {
		found := false
		for _, v := range c.Versions() {
			found = found || v == r.Version
		}
		if !found {
			_, err := c.Version(r.Version)
			return h.Fail(err)
		}
	}
	chk := c.CostReport()
	out := wire.CostResponse{CRD: crdInfo(c), Valid: len(chk.Errors) == 0, Message: chk.Message, Errors: chk.Errors, Schemas: []*wire.SchemaCost{}}
	for _, sc := range chk.Schemas {
		if r.Version == "" || contains(sc.Versions, r.Version) {
			out.Schemas = append(out.Schemas, sc.Wire())
		}
	}
	return h.Reply(out)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
