package celwasm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/celwasm/celwasm/wire"
)

// Error codes of CRD validation (from the module).
const (
	// CodeInvalidCRD: the CRD is not an apiextensions.k8s.io/v1
	// CustomResourceDefinition, has no such version, is not structural, or
	// kube-apiserver would reject it (then errors.As gives *CRDFieldErrors).
	CodeInvalidCRD = wire.CodeInvalidCRD
	// CodeInvalidObject: an object is not a JSON object, lacks apiVersion or
	// kind, is not of the CRD's group and kind, names a version that is not
	// served, or has metadata that cannot be decoded.
	CodeInvalidObject = wire.CodeInvalidObject
)

// CRD is a CustomResourceDefinition to validate custom resources against,
// offline, as kube-apiserver does: the structural schema (pruning,
// defaulting, OpenAPI validation) and every x-kubernetes-validations rule at
// every schema node, with transition rules, messageExpression, reason,
// fieldPath, ratcheting and cost limits. The module caches the compiled CRD
// by the sha256 of its JSON, so validating many objects compiles it once per
// instance. A CRD is safe for concurrent use.
type CRD struct {
	rt  *Runtime
	doc json.RawMessage
}

// NewCRD wraps a CustomResourceDefinition given as JSON (apiVersion
// apiextensions.k8s.io/v1; convert YAML first, e.g. with sigs.k8s.io/yaml).
// Nothing is checked until the first call.
func (r *Runtime) NewCRD(crd []byte) *CRD {
	return &CRD{rt: r, doc: append(json.RawMessage(nil), crd...)}
}

// CRDObject is one request: a create (Object) or an update (Object replacing
// OldObject, the stored object), both JSON.
type CRDObject struct {
	Object    json.RawMessage `json:"object"`
	OldObject json.RawMessage `json:"oldObject,omitempty"`
}

// The CRD results are the module's wire shapes (package wire, docs/abi.md).
type (
	// CRDInfo identifies the CRD in results.
	CRDInfo = wire.CRDInfo
	// FieldError is one field error as kube-apiserver reports it (a Status
	// cause); String is the line kubectl prints.
	FieldError = wire.FieldError
	// RuleRef names the x-kubernetes-validations rule behind a FieldError.
	RuleRef = wire.RuleRef
	// SchemaCost is the cost accounting of one schema (shared by Versions).
	SchemaCost = wire.SchemaCost
	// RuleCost is one rule's (or messageExpression's) estimated cost.
	RuleCost = wire.RuleCost
	// CostExplanation says where a rule's estimated cost comes from and
	// which bounds would bring it under the limit.
	CostExplanation = wire.CostExplanation
	// BoundNode is a schema node whose size matters for a cost.
	BoundNode = wire.BoundNode
	// UnknownSize is a value of unbounded estimated size.
	UnknownSize = wire.UnknownSize
	// CallCost is one call or macro of a rule.
	CallCost = wire.CallCost
	// BoundFix is a bound to add (or lower) on one schema node.
	BoundFix = wire.BoundFix
)

// ObjectResult is what kube-apiserver would answer to one create or update
// (wire.ObjectResult: kind, name, operation, Valid, the Status reason, code,
// message and field errors, warnings, the rules' actual cost against the
// per-object budget), or Err when the object never reached validation (code
// "invalid_object"; the other fields are then empty).
type ObjectResult struct {
	Err *Error `json:"error,omitempty"`
	wire.ObjectResult
}

// CRDValidation is the outcome of Validate: one result per object.
type CRDValidation struct {
	CRD     CRDInfo
	Results []ObjectResult
}

// CRDFieldErrors are the field errors of a CRD kube-apiserver would reject
// (the cause of an *Error with code "invalid_crd").
type CRDFieldErrors struct {
	Errors []FieldError
}

func (e *CRDFieldErrors) Error() string {
	var lines []string
	for _, fe := range e.Errors {
		lines = append(lines, fe.String())
	}
	return strings.Join(lines, "; ")
}

// ValidateOption configures Validate.
type ValidateOption func(*validateConfig)

type validateConfig struct{ version string }

// Version validates against the named version instead of each object's
// apiVersion: objects of another version are converted as kube-apiserver
// converts without a conversion webhook (the apiVersion changes); a CRD with
// a conversion webhook cannot convert offline (invalid_object).
func Version(name string) ValidateOption { return func(c *validateConfig) { c.version = name } }

// Validate validates objects as kube-apiserver validates creates and updates
// of custom resources of this CRD: decoding (unknown fields pruned, as
// warnings), defaulting, object metadata, the OpenAPI schema, list types,
// and the x-kubernetes-validations rules with their cost budget. Each object
// is validated against the version its apiVersion names.
//
// Errors are *Error: "invalid_crd" for a CRD that cannot be used or that
// kube-apiserver would reject (errors.As gives *CRDFieldErrors with its
// field errors), "bad_request", "trap", "canceled"/"deadline_exceeded".
// An object that cannot be validated gets ObjectResult.Err instead.
func (c *CRD) Validate(ctx context.Context, objects []CRDObject, opts ...ValidateOption) (*CRDValidation, error) {
	var cfg validateConfig
	for _, o := range opts {
		o(&cfg)
	}
	req, err := json.Marshal(struct {
		CRD     json.RawMessage `json:"crd"`
		Version string          `json:"version,omitempty"`
		Objects []CRDObject     `json:"objects"`
	}{c.doc, cfg.version, nonNil(objects)})
	if err != nil {
		return nil, &Error{Code: CodeInvalidArgument, Message: "validate: " + err.Error(), Err: err}
	}
	resp, err := c.rt.callOnce(ctx, ExportValidate, req)
	if err != nil {
		return nil, err
	}
	if err := decodeCRDError(resp); err != nil {
		if e, ok := err.(*Error); ok && e.Code == CodeCanceled && ctx.Err() != nil {
			return nil, ctxError(ctx)
		}
		return nil, err
	}
	var out struct {
		CRD     CRDInfo        `json:"crd"`
		Results []ObjectResult `json:"results"`
	}
	if err := json.Unmarshal(resp, &out); err != nil {
		return nil, &Error{Code: CodeInternal, Message: "validate response: " + err.Error()}
	}
	return &CRDValidation{CRD: out.CRD, Results: out.Results}, nil
}

func nonNil(objects []CRDObject) []CRDObject {
	if objects == nil {
		return []CRDObject{}
	}
	return objects
}

// CRDCostReport is the cost export's answer: what kube-apiserver reports
// when the CRD is created, and every rule's estimated cost with where it
// comes from.
type CRDCostReport struct {
	CRD CRDInfo `json:"crd"`
	// Valid: kube-apiserver would accept the CRD's schemas and rules;
	// otherwise Message and Errors say why.
	Valid   bool         `json:"valid"`
	Message string       `json:"message,omitempty"`
	Errors  []FieldError `json:"errors,omitempty"`
	Schemas []SchemaCost `json:"schemas"`
}

// Cost reports the CRD's x-kubernetes-validations cost estimates against
// kube-apiserver's limits (StaticEstimatedCostLimit per rule,
// StaticEstimatedCRDCostLimit per schema), with explanations and fixes.
// version limits the report to that version's schema ("" for all). A CRD
// with errors is still reported (Valid false); Cost fails only when the
// input is not a usable CRD ("invalid_crd", "bad_request").
func (c *CRD) Cost(ctx context.Context, version string) (*CRDCostReport, error) {
	req, err := json.Marshal(struct {
		CRD     json.RawMessage `json:"crd"`
		Version string          `json:"version,omitempty"`
	}{c.doc, version})
	if err != nil {
		return nil, &Error{Code: CodeInvalidArgument, Message: "cost: " + err.Error(), Err: err}
	}
	resp, err := c.rt.callOnce(ctx, ExportCost, req)
	if err != nil {
		return nil, err
	}
	if err := decodeCRDError(resp); err != nil {
		return nil, err
	}
	var out CRDCostReport
	if err := json.Unmarshal(resp, &out); err != nil {
		return nil, &Error{Code: CodeInternal, Message: "cost response: " + err.Error()}
	}
	return &out, nil
}

// callOnce sends one request to an export on an instance from the pool of
// celwasm-full (the CRD exports need it; it is loaded on first use).
func (r *Runtime) callOnce(ctx context.Context, fn Export, req []byte) ([]byte, error) {
	r, err := r.fullRuntime(ctx)
	if err != nil {
		return nil, err
	}
	in, err := r.acquire(ctx)
	if err != nil {
		return nil, err
	}
	defer r.put(in)
	return r.call(ctx, in, fn, req)
}

// decodeCRDError is decodeError with the field errors of an invalid_crd or
// invalid_policy error as its cause.
func decodeCRDError(resp []byte) error {
	err := decodeError(resp)
	var e *Error
	if err == nil || !errors.As(err, &e) || (e.Code != CodeInvalidCRD && e.Code != CodeInvalidPolicy) {
		return err
	}
	var withFields struct {
		Error struct {
			FieldErrors []FieldError `json:"fieldErrors"`
		} `json:"error"`
	}
	if json.Unmarshal(resp, &withFields) == nil && len(withFields.Error.FieldErrors) > 0 {
		e.Err = &CRDFieldErrors{Errors: withFields.Error.FieldErrors}
	}
	return e
}

// Invalid reports whether kube-apiserver would reject the object: the
// result is not valid or the object could not be validated.
func (o *ObjectResult) Invalid() bool { return o.Err != nil || !o.Valid }

// Describe formats the result as kubectl reports an invalid object: `The
// WebApp "x" is invalid: spec.replicas: Invalid value: ...` (one cause) or
// with one "* cause" line per error; "" when the object is valid.
func (o *ObjectResult) Describe() string {
	switch {
	case o.Err != nil:
		return "error: " + o.Err.Message
	case o.Valid:
		return ""
	case o.Reason != "Invalid" || len(o.Errors) == 0:
		return fmt.Sprintf("Error from server (%s): %s", o.Reason, o.Message)
	}
	head := fmt.Sprintf("The %s %q is invalid: ", o.Kind, o.Name)
	if len(o.Errors) == 1 {
		return head + o.Errors[0].String()
	}
	var b strings.Builder
	b.WriteString(head)
	for _, e := range o.Errors {
		b.WriteString("\n* ")
		b.WriteString(e.String())
	}
	return b.String()
}
