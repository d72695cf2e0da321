package abi

// The CRD exports: celwasm_validate (objects and updates against a
// CustomResourceDefinition, as kube-apiserver validates them) and celwasm_cost
// (the CRD's x-kubernetes-validations cost estimates with explanations).
// Shapes: docs/abi.md, "validate" and "cost".

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/celwasm/celwasm/wasm/engine"
)

// ValidateRequest is the validate export's request.
type ValidateRequest struct {
	// CRD is an apiextensions.k8s.io/v1 CustomResourceDefinition (JSON).
	CRD json.RawMessage `json:"crd"`
	// Version is the version to validate against; default: each object's
	// apiVersion.
	Version string `json:"version"`
	// Objects are creates ({"object"}) and updates ({"object","oldObject"}).
	Objects []ValidateItem `json:"objects"`
}

// ValidateItem is one object, with the stored object it replaces for an update.
type ValidateItem struct {
	Object    json.RawMessage `json:"object"`
	OldObject json.RawMessage `json:"oldObject"`
}

// CRDInfo identifies the CRD in responses.
type CRDInfo struct {
	Name       string   `json:"name"`
	Group      string   `json:"group"`
	Kind       string   `json:"kind"`
	Namespaced bool     `json:"namespaced"`
	Versions   []string `json:"versions"`
	// DefaultVersion is the storage version (or the only served one).
	DefaultVersion string `json:"defaultVersion"`
	// SHA256 is the hex sha256 of the "crd" member's bytes, the module's
	// cache key.
	SHA256 string `json:"sha256"`
	// Warnings are unknown or duplicate fields in the CRD.
	Warnings []string `json:"warnings,omitempty"`
}

// ValidateResponse is the validate export's successful response.
type ValidateResponse struct {
	CRD CRDInfo `json:"crd"`
	// Results has one entry per object, in order: an engine.ObjectResult or
	// {"error": {...}} (invalid_object).
	Results []json.RawMessage `json:"results"`
}

// CostRequest is the cost export's request.
type CostRequest struct {
	CRD json.RawMessage `json:"crd"`
	// Version limits the report to the schema of one version; default all.
	Version string `json:"version"`
}

// CostResponse is the cost export's successful response.
type CostResponse struct {
	CRD CRDInfo `json:"crd"`
	// Valid: kube-apiserver would accept the CRD's schemas and rules.
	Valid bool `json:"valid"`
	// Message and Errors: kube-apiserver's Status message and field errors
	// for the CRD (compile errors, cost limits, structural schema).
	Message string              `json:"message,omitempty"`
	Errors  []engine.FieldError `json:"errors,omitempty"`
	// Schemas: the cost accounting per distinct schema.
	Schemas []*engine.SchemaCost `json:"schemas"`
}

// crdError is an error response for a CRD kube-apiserver would reject:
// the engine error plus the CRD's field errors.
type crdError struct {
	Error struct {
		Code        string              `json:"code"`
		Message     string              `json:"message"`
		FieldErrors []engine.FieldError `json:"fieldErrors,omitempty"`
	} `json:"error"`
}

func (h *Handler) loadCRD(raw json.RawMessage, what string) (*engine.CRD, error) {
	if len(bytes.TrimSpace(raw)) == 0 || bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		return nil, &engine.Error{Code: engine.CodeBadRequest, Message: what + ": missing \"crd\""}
	}
	return engine.LoadCRD(raw)
}

func crdInfo(c *engine.CRD) CRDInfo {
	return CRDInfo{Name: c.Name(), Group: c.Group(), Kind: c.Kind(), Namespaced: c.Namespaced(), Versions: c.Versions(),
		DefaultVersion: c.DefaultVersion(), SHA256: c.SHA256, Warnings: c.Warnings}
}

// Validate handles a validate request. A CRD that kube-apiserver would
// reject is an invalid_crd error whose fieldErrors list its problems.
func (h *Handler) Validate(req []byte) (resp []byte) {
	defer h.recover(&resp)
	var r ValidateRequest
	if err := decodeStrict(req, &r); err != nil {
		return h.fail(&engine.Error{Code: engine.CodeBadRequest, Message: "validate request: " + err.Error()})
	}
	c, err := h.loadCRD(r.CRD, "validate request")
	if err != nil {
		return h.fail(err)
	}
	if chk := c.Check(); len(chk.Errors) > 0 {
		var e crdError
		e.Error.Code, e.Error.Message, e.Error.FieldErrors = engine.CodeInvalidCRD, chk.Message, chk.Errors
		b, _ := marshal(e)
		h.out = append(h.out[:0], b...)
		return h.out
	}
	if r.Version != "" {
		if _, err := c.Version(r.Version); err != nil {
			return h.fail(err)
		}
	}
	out := ValidateResponse{CRD: crdInfo(c), Results: make([]json.RawMessage, 0, len(r.Objects))}
	for i, item := range r.Objects {
		if len(item.Object) == 0 {
			return h.fail(&engine.Error{Code: engine.CodeBadRequest, Message: fmt.Sprintf("validate request: objects[%d]: missing \"object\"", i)})
		}
		var old []byte
		if len(item.OldObject) > 0 && !bytes.Equal(bytes.TrimSpace(item.OldObject), []byte("null")) {
			old = item.OldObject
		}
		res, err := c.Validate(r.Version, item.Object, old)
		if engine.Interrupted() {
			// The validator reports an interrupted rule as a field error
			// and goes on; the request as a whole was canceled.
			return h.fail(&engine.Error{Code: engine.CodeCanceled, Message: "validation interrupted by the host"})
		}
		var b []byte
		if err != nil {
			e, ok := err.(*engine.Error)
			if !ok || e.Code == engine.CodeInvalidCRD {
				return h.fail(err)
			}
			b, _ = marshal(errorResponse{Error: e})
		} else if b, err = marshal(res); err != nil {
			return h.fail(&engine.Error{Code: engine.CodeInternal, Message: err.Error()})
		}
		out.Results = append(out.Results, b)
	}
	return h.ok(out)
}

// Cost handles a cost request: the CRD's errors (as kube-apiserver reports
// them when the CRD is created) and every rule's cost estimate with its
// explanation. A CRD with errors is still a successful response (valid:
// false); only input that is not a usable CRD is an error.
func (h *Handler) Cost(req []byte) (resp []byte) {
	defer h.recover(&resp)
	var r CostRequest
	if err := decodeStrict(req, &r); err != nil {
		return h.fail(&engine.Error{Code: engine.CodeBadRequest, Message: "cost request: " + err.Error()})
	}
	c, err := h.loadCRD(r.CRD, "cost request")
	if err != nil {
		return h.fail(err)
	}
	if r.Version != "" {
		found := false
		for _, v := range c.Versions() {
			found = found || v == r.Version
		}
		if !found {
			_, err := c.Version(r.Version)
			return h.fail(err)
		}
	}
	chk := c.CostReport()
	out := CostResponse{CRD: crdInfo(c), Valid: len(chk.Errors) == 0, Message: chk.Message, Errors: chk.Errors, Schemas: []*engine.SchemaCost{}}
	for _, sc := range chk.Schemas {
		if r.Version == "" || contains(sc.Versions, r.Version) {
			out.Schemas = append(out.Schemas, sc)
		}
	}
	return h.ok(out)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
