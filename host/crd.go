package celwasm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// Error codes of CRD validation (from the module).
const (
	// CodeInvalidCRD: the CRD is not an apiextensions.k8s.io/v1
	// CustomResourceDefinition, has no such version, is not structural, or
	// kube-apiserver would reject it (then errors.As gives *CRDFieldErrors).
	CodeInvalidCRD = "invalid_crd"
	// CodeInvalidObject: an object is not a JSON object, lacks apiVersion or
	// kind, is not of the CRD's group and kind, names a version that is not
	// served, or has metadata that cannot be decoded.
	CodeInvalidObject = "invalid_object"
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

// CRDInfo identifies a CRD.
type CRDInfo struct {
	Name           string   `json:"name"`
	Group          string   `json:"group"`
	Kind           string   `json:"kind"`
	Namespaced     bool     `json:"namespaced"`
	Versions       []string `json:"versions"`
	DefaultVersion string   `json:"defaultVersion"`
	// SHA256 is the hex sha256 of the CRD's JSON (the module's cache key).
	SHA256 string `json:"sha256"`
	// Warnings are unknown or duplicate fields in the CRD.
	Warnings []string `json:"warnings,omitempty"`
}

// CRDValidation is the outcome of Validate: one result per object.
type CRDValidation struct {
	CRD     CRDInfo
	Results []ObjectResult
}

// ObjectResult is what kube-apiserver would answer to one create or update.
type ObjectResult struct {
	// Err is set when the object never reached validation (code
	// "invalid_object"); the other fields are then empty.
	Err *Error `json:"error,omitempty"`

	Kind      string `json:"kind"`
	Group     string `json:"group"`
	Version   string `json:"version"`
	Name      string `json:"name"`
	Namespace string `json:"namespace,omitempty"`
	// Operation is "create" or "update".
	Operation string `json:"operation"`
	Valid     bool   `json:"valid"`
	// Reason, Code and Message are the Status kube-apiserver would return:
	// "Invalid" (422) with Errors as its causes, "BadRequest" (400), ...
	Reason  string       `json:"reason,omitempty"`
	Code    int32        `json:"code,omitempty"`
	Message string       `json:"message,omitempty"`
	Errors  []FieldError `json:"errors,omitempty"`
	// Warnings: unknown fields that were pruned, errors ratcheted on update.
	Warnings []string `json:"warnings,omitempty"`
	// Cost is the actual cost of the rules evaluated for the object, in cost
	// units, against CostBudget (10,000,000 per object); CostExceeded when
	// it ran out or one evaluation passed the per-call limit (1,000,000), so
	// that the remaining rules did not run. CELSkipped: OpenAPI schema errors
	// kept the rules from running, as kube-apiserver does.
	Cost         uint64 `json:"cost"`
	CostBudget   uint64 `json:"costBudget"`
	CostExceeded bool   `json:"costExceeded,omitempty"`
	CELSkipped   bool   `json:"celSkipped,omitempty"`
}

// FieldError is one field error as kube-apiserver reports it (a Status
// cause): the field path, the cause type and the message; Rule is set for
// errors of x-kubernetes-validations rules.
type FieldError struct {
	// Field is e.g. "spec.replicas", "spec.items[0]", "<nil>" for the root.
	Field string `json:"field"`
	// Type is e.g. "FieldValueInvalid", "FieldValueRequired",
	// "FieldValueForbidden", "FieldValueTypeInvalid".
	Type string `json:"type"`
	// Message is e.g. `Invalid value: 5: must be at most 3`.
	Message string   `json:"message"`
	Rule    *RuleRef `json:"rule,omitempty"`
}

// String is the line kubectl prints for the error.
func (e FieldError) String() string { return e.Field + ": " + e.Message }

// RuleRef names an x-kubernetes-validations rule.
type RuleRef struct {
	// SchemaPath is where the rule sits, e.g.
	// "openAPIV3Schema.properties[spec].x-kubernetes-validations[0]".
	SchemaPath        string `json:"schemaPath"`
	Rule              string `json:"rule"`
	Message           string `json:"message,omitempty"`
	MessageExpression string `json:"messageExpression,omitempty"`
	Reason            string `json:"reason,omitempty"`
	FieldPath         string `json:"fieldPath,omitempty"`
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

// SchemaCost is the cost accounting of one schema (shared by Versions).
type SchemaCost struct {
	Versions []string `json:"versions"`
	// Path is the schema in the CRD, e.g. "spec.validation.openAPIV3Schema".
	Path string `json:"path"`
	// TotalCost is the sum of the rules' estimated costs, against
	// TotalLimit (100,000,000).
	TotalCost  uint64     `json:"totalCost"`
	TotalLimit uint64     `json:"totalLimit"`
	Rules      []RuleCost `json:"rules"`
}

// RuleCost is one rule's or messageExpression's estimated cost, in cost
// units. Cost = PerCall × Cardinality (saturating at 2^64−1), against Limit
// (10,000,000).
type RuleCost struct {
	// Path is the expression in the CRD ("...x-kubernetes-validations[0].rule").
	Path string `json:"path"`
	// Node is where the rule applies in the custom resource ("spec.items[*]").
	Node       string `json:"node"`
	Expression string `json:"expression"`
	// Kind is "rule" or "messageExpression".
	Kind        string           `json:"kind"`
	Cost        uint64           `json:"cost"`
	Limit       uint64           `json:"limit"`
	Exceeds     bool             `json:"exceeds,omitempty"`
	PerCall     uint64           `json:"perCall"`
	Cardinality uint64           `json:"cardinality"`
	Error       string           `json:"error,omitempty"`
	Explanation *CostExplanation `json:"explanation,omitempty"`
}

// CostExplanation says where a rule's cost comes from and which bounds would
// bring it under the limit (all computed by re-estimating the rule).
type CostExplanation struct {
	Summary string `json:"summary"`
	// Runs: the lists and maps above the rule's node that multiply how
	// often it runs; RunsFromRequestSize when one has no bound.
	Runs                []BoundNode `json:"runs,omitempty"`
	RunsFromRequestSize bool        `json:"runsFromRequestSize,omitempty"`
	// Sizes: the lists, maps and strings the estimate depends on.
	Sizes []BoundNode `json:"sizes,omitempty"`
	// UnknownSizes: values no schema bound limits (elements of filtered
	// lists, results of string(), ...).
	UnknownSizes []UnknownSize `json:"unknownSizes,omitempty"`
	// Calls: the rule's calls and macros by share of the per-run estimate.
	Calls []CallCost `json:"calls,omitempty"`
	// Target is what Fixes aim for; Fixes are single bounds that reach it,
	// CombinedFix one bound on all candidates when no single one does,
	// NoFix why no bound helps.
	Target      uint64     `json:"target,omitempty"`
	Fixes       []BoundFix `json:"fixes,omitempty"`
	CombinedFix []BoundFix `json:"combinedFix,omitempty"`
	NoFix       string     `json:"noFix,omitempty"`
}

// BoundNode is a schema node whose size matters.
type BoundNode struct {
	Path      string `json:"path"`
	Kind      string `json:"kind"`
	Bound     *int64 `json:"bound,omitempty"`
	BoundName string `json:"boundName,omitempty"`
	// MaxSize is the size the estimator used (items, entries, bytes).
	MaxSize         uint64 `json:"maxSize"`
	FromRequestSize bool   `json:"fromRequestSize,omitempty"`
}

// UnknownSize is a value of unbounded estimated size passed to Function.
type UnknownSize struct {
	Expression string `json:"expression"`
	Function   string `json:"function"`
	Line       int    `json:"line,omitempty"`
	Column     int    `json:"column,omitempty"`
}

// CallCost is a call's or macro's part of the per-run estimate.
type CallCost struct {
	Function   string  `json:"function"`
	Expression string  `json:"expression"`
	Line       int     `json:"line"`
	Column     int     `json:"column"`
	Cost       uint64  `json:"cost"`
	Percent    float64 `json:"percent"`
}

// BoundFix is the largest value of Set (maxItems, maxProperties, maxLength)
// on Path that brings the rule to the target; Cost is the estimate with it.
type BoundFix struct {
	Path    string `json:"path"`
	Set     string `json:"set"`
	Value   int64  `json:"value"`
	Current *int64 `json:"current,omitempty"`
	Cost    uint64 `json:"cost"`
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

// callOnce sends one request to an export on an instance from the pool.
func (r *Runtime) callOnce(ctx context.Context, fn Export, req []byte) ([]byte, error) {
	in, err := r.acquire(ctx)
	if err != nil {
		return nil, err
	}
	defer r.put(in)
	return r.call(ctx, in, fn, req)
}

// decodeCRDError is decodeError with the CRD's field errors of an
// invalid_crd error as its cause.
func decodeCRDError(resp []byte) error {
	err := decodeError(resp)
	var e *Error
	if err == nil || !errors.As(err, &e) || e.Code != CodeInvalidCRD {
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
