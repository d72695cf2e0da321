// Package wire holds the shapes that cross the module boundary: the request
// and response JSON of docs/abi.md (environment spec, compile results, error
// codes, CRD validation results, cost explanations, version info). It is
// dependency-free (standard library only) so that the module and every Go
// host import the same declarations while hosts link neither cel-go nor
// Kubernetes. The TypeScript and Python SDKs declare the same shapes; a test
// checks their field names against these.
package wire

import (
	"encoding/json"
	"fmt"
	"strconv"
)

// Error codes. Every failure of the engine and of the module's exports
// carries one of these; hosts map them to typed errors (docs/abi.md).
const (
	// CodeBadRequest: the request is not valid JSON or does not have the
	// documented shape.
	CodeBadRequest = "bad_request"
	// CodeInvalidEnv: the environment cannot be built (unknown extension,
	// unsupported compatibility version, bad type name, ...).
	CodeInvalidEnv = "invalid_env"
	// CodeCompile: the expression does not parse or type-check; Issues
	// lists every problem.
	CodeCompile = "compile_error"
	// CodeUnknownProgram: the program handle is not (or no longer) known.
	CodeUnknownProgram = "unknown_program"
	// CodeInvalidActivation: the activation is not a JSON object, is not
	// valid JSON or UTF-8, or nests deeper than MaxDepth.
	CodeInvalidActivation = "invalid_activation"
	// CodeEval: the evaluation produced a CEL error (no such key, division
	// by zero, overflow, a value that does not convert to its declared type, ...).
	CodeEval = "eval_error"
	// CodeCostLimit: the evaluation exceeded its cost limit and was stopped.
	CodeCostLimit = "cost_limit_exceeded"
	// CodeCanceled: the host interrupted the evaluation (its context ended).
	CodeCanceled = "canceled"
	// CodeInternal: a bug; the engine recovered from a panic.
	CodeInternal = "internal"
)

const (
	// CodeInvalidCRD: the CRD cannot be used: not a JSON object, not an
	// apiextensions.k8s.io/v1 CustomResourceDefinition, no such version,
	// a schema that is not structural, or x-kubernetes-validations that
	// kube-apiserver would reject (FieldErrors lists them).
	CodeInvalidCRD = "invalid_crd"
	// CodeInvalidObject: an object is not a JSON object, its metadata cannot
	// be decoded, or its apiVersion/kind name no served version of the CRD.
	CodeInvalidObject = "invalid_object"
	// CodeNeedsModule: this module does not link what the request needs;
	// Error.Module names the module that serves it (hosts load that module
	// and send the request there).
	CodeNeedsModule = "needs_module"
)

// The modules (RATIONALE.md, "Two modules"): ModuleExpr evaluates
// expressions (compile, eval, eval_batch, the filter and when dialects but
// CESQL); ModuleFull serves every request but admit, including CRD validate
// and cost and cesql filters, which need dependencies other than CEL;
// ModuleAdmission serves admit (admission policies, k8s.io/apiserver's
// admission plugins) only.
const (
	ModuleExpr      = "celwasm"
	ModuleFull      = "celwasm-full"
	ModuleAdmission = "celwasm-admission"
)

// Error is the error object of every failed call: {"error": {...}}.
type Error struct {
	Code    string  `json:"code"`
	Message string  `json:"message"`
	Issues  []Issue `json:"issues,omitempty"`
	// Cost is the actual cost spent before an evaluation failed, in cost units.
	Cost *uint64 `json:"cost,omitempty"`
	// Module names the module that serves the request (code needs_module).
	Module string `json:"module,omitempty"`
	// FieldErrors are the field errors of an invalid_policy error, as
	// kube-apiserver's validation names them.
	FieldErrors []FieldError `json:"fieldErrors,omitempty"`
}

// Issue is one compile problem. Line and Column are 1-based (Column counts
// code points, as cel-go's display does); Snippet is cel-go's display form:
// "ERROR: <input>:L:C: message" followed by the source line and a caret.
type Issue struct {
	Line    int    `json:"line"`
	Column  int    `json:"column"`
	Message string `json:"message"`
	Snippet string `json:"snippet"`
}

func (e *Error) Error() string { return e.Code + ": " + e.Message }

// CostEstimate is cel-go's static cost estimate of a checked expression, in
// cost units, computed with the environment's estimator (kube-apiserver's
// library cost estimator for the kubernetes base). Without size hints on the
// declarations, sizes are unbounded and Max can be as large as 2^64-1.
type CostEstimate struct {
	Min uint64 `json:"min"`
	Max uint64 `json:"max"`
}

// EnvSpec describes a CEL environment: the base, the Kubernetes compatibility
// version, extensions, declarations and parser/checker options. Its JSON form
// is the "env" object of the compile request (docs/abi.md).
type EnvSpec struct {
	// Base is "kubernetes" (default) or "cel".
	Base string `json:"base,omitempty"`
	// CompatibilityVersion is a Kubernetes minor version such as "1.34";
	// default: the newest known. Only for the kubernetes base.
	CompatibilityVersion string `json:"compatibilityVersion,omitempty"`
	// EnvType is "NewExpressions" (default) or "StoredExpressions".
	EnvType string `json:"envType,omitempty"`
	// Extensions are cel-go extensions added on top of the base.
	Extensions []ExtensionRef `json:"extensions,omitempty"`
	// Variables are the variable declarations.
	Variables []VariableDecl `json:"variables,omitempty"`
	// Container is the namespace used to resolve identifiers.
	Container string `json:"container,omitempty"`
	// DisableTypeCheck compiles without the checker (parse only).
	DisableTypeCheck bool `json:"disableTypeCheck,omitempty"`
	// DisableMacros turns off all macros (has, all, exists, map, ...).
	DisableMacros bool `json:"disableMacros,omitempty"`
	// DescriptorSet is a base64 google.protobuf.FileDescriptorSet whose
	// messages become types of the environment.
	DescriptorSet string `json:"descriptorSet,omitempty"`
	// Functions are function declarations without implementations: the
	// checker knows them; calling one at evaluation is an error.
	Functions []FunctionDecl `json:"functions,omitempty"`
	// ErrorOnBadPresenceTest makes has() and optional field selection on a
	// value that has no fields (an int, a string) an error rather than false
	// (cel.EnableErrorOnBadPresenceTest), as the CEL specification says.
	ErrorOnBadPresenceTest bool `json:"errorOnBadPresenceTest,omitempty"`
}

// ExtensionRef names a cel-go extension and its version ("latest" when empty).
// Its JSON form is either the name alone ("math") or {"name":"strings","version":3}.
type ExtensionRef struct {
	Name    string `json:"name"`
	Version string `json:"version,omitempty"`
}

// UnmarshalJSON accepts "name" or {"name":..., "version": N|"N"|"latest"}.
func (e *ExtensionRef) UnmarshalJSON(b []byte) error {
	var name string
	if err := json.Unmarshal(b, &name); err == nil {
		*e = ExtensionRef{Name: name}
		return nil
	}
	var obj struct {
		Name    string          `json:"name"`
		Version json.RawMessage `json:"version"`
	}
	if err := json.Unmarshal(b, &obj); err != nil {
		return fmt.Errorf("extension: want a name or {\"name\",\"version\"}: %w", err)
	}
	e.Name = obj.Name
	e.Version = ""
	if len(obj.Version) > 0 && string(obj.Version) != "null" {
		var s string
		if err := json.Unmarshal(obj.Version, &s); err == nil {
			e.Version = s
		} else {
			var n uint32
			if err := json.Unmarshal(obj.Version, &n); err != nil {
				return fmt.Errorf("extension %q: version must be a non-negative integer or \"latest\"", obj.Name)
			}
			e.Version = strconv.FormatUint(uint64(n), 10)
		}
	}
	return nil
}

// VariableDecl declares a variable by name and CEL type name.
type VariableDecl struct {
	Name string `json:"name"`
	Type string `json:"type"`
}

// FunctionDecl declares a function by name and overloads. The declaration
// has no implementation: expressions calling it type-check, and evaluating
// such a call is an error ("no such overload").
type FunctionDecl struct {
	Name      string         `json:"name"`
	Overloads []OverloadDecl `json:"overloads"`
}

// OverloadDecl is one overload: its id, whether it is a member (receiver)
// overload, whose first argument is the receiver, its type parameters, and
// its argument and result types as CEL type names. Inside an overload, the
// names listed in TypeParams are type parameters, and an unknown type name
// with parameters ("tuple(T, U)") is an abstract type.
type OverloadDecl struct {
	ID         string   `json:"id"`
	Member     bool     `json:"member,omitempty"`
	TypeParams []string `json:"typeParams,omitempty"`
	Args       []string `json:"args"`
	Result     string   `json:"result"`
}

// CompileRequest is the compile export's request: exactly one of
// Expression, CloudEventFilter and When.
type CompileRequest struct {
	Expression       *string         `json:"expression"`
	CloudEventFilter json.RawMessage `json:"cloudEventFilter"`
	When             []string        `json:"when"`
	Env              EnvSpec         `json:"env"`
	// Reads asks for the response's Reads (expressions only).
	Reads bool `json:"reads,omitempty"`
}

// CompileResponse is the compile export's successful response.
type CompileResponse struct {
	Program      uint32        `json:"program"`
	OutputType   string        `json:"outputType"`
	CostEstimate *CostEstimate `json:"costEstimate,omitempty"`
	// Expression is the CEL a filter or when list became.
	Expression string `json:"expression,omitempty"`
	// Reads, when the request asked for it and the expression was
	// type-checked: for each variable the program can read, true (it may
	// read all of it) or an object of the members it reads, each true or
	// such an object (docs/abi.md, compile). A variable it never reads is
	// absent; a program that reads none has {}.
	Reads json.RawMessage `json:"reads,omitempty"`
}

// VersionInfo is the version export's response.
type VersionInfo struct {
	ABI                         int      `json:"abi"`
	Module                      string   `json:"module"`
	CELGo                       string   `json:"celGo"`
	Kubernetes                  string   `json:"kubernetes"`
	Go                          string   `json:"go"`
	CompatibilityVersions       []string `json:"compatibilityVersions"`
	DefaultCompatibilityVersion string   `json:"defaultCompatibilityVersion"`
	Extensions                  []string `json:"extensions"`
	DefaultCostLimit            uint64   `json:"defaultCostLimit"`
}

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
	// Results has one entry per object, in order: an ObjectResult or
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
	Message string       `json:"message,omitempty"`
	Errors  []FieldError `json:"errors,omitempty"`
	// Schemas: the cost accounting per distinct schema.
	Schemas []*SchemaCost `json:"schemas"`
}

// ObjectResult is the outcome of validating one object (a create) or one
// update (object and old object) against a CRD version, as kube-apiserver
// would decide it.
type ObjectResult struct {
	// Kind and Name identify the object as kube-apiserver's error does
	// (Kind is "WebApp", Group "example.com"; Name after generateName).
	Kind      string `json:"kind"`
	Group     string `json:"group"`
	Version   string `json:"version"`
	Name      string `json:"name"`
	Namespace string `json:"namespace,omitempty"`
	// Operation is "create" or "update".
	Operation string `json:"operation"`
	// Valid: kube-apiserver would accept the object.
	Valid bool `json:"valid"`
	// Reason and Code are the Status kube-apiserver would return when the
	// object is rejected: "Invalid" (422) with Errors, "BadRequest" (400),
	// "InternalError" (500).
	Reason string `json:"reason,omitempty"`
	Code   int32  `json:"code,omitempty"`
	// Message is the Status message, e.g. `WebApp.example.com "x" is
	// invalid: [spec.replicas: Invalid value: ...]`.
	Message string `json:"message,omitempty"`
	// Errors are the field errors (the Status' causes), in kube-apiserver's
	// order except that CEL errors are sorted by field path.
	Errors []FieldError `json:"errors,omitempty"`
	// Warnings are what kube-apiserver returns as warnings: unknown fields
	// (pruned), errors of unchanged fields ratcheted away on update.
	Warnings []string `json:"warnings,omitempty"`
	// Cost is the actual cost of the x-kubernetes-validations rules (and
	// messageExpressions) evaluated for the object, in cost units, against
	// CostBudget (kube-apiserver's RuntimeCELCostBudget). CostExceeded is
	// true when the budget ran out or one evaluation passed the per-call
	// limit, so that the remaining rules did not run (Cost is then the
	// budget). Cost is 0 when no rule ran (CELSkipped: blocking OpenAPI
	// errors).
	Cost         uint64 `json:"cost"`
	CostBudget   uint64 `json:"costBudget"`
	CostExceeded bool   `json:"costExceeded,omitempty"`
	CELSkipped   bool   `json:"celSkipped,omitempty"`
}

// FieldError is one cause of an Invalid status (metav1.StatusCause: reason,
// message, field) with the validation rule that produced it, when it came
// from x-kubernetes-validations.
type FieldError struct {
	// Field is the field path, e.g. "spec.replicas" or "spec.ports[0]".
	Field string `json:"field"`
	// Type is the cause type, e.g. "FieldValueInvalid", "FieldValueRequired",
	// "FieldValueForbidden", "FieldValueDuplicate", "FieldValueNotSupported".
	Type string `json:"type"`
	// Message is the cause message (field.Error.ErrorBody), e.g.
	// `Invalid value: 5: must be at most 3`.
	Message string `json:"message"`
	// Rule is set for errors of x-kubernetes-validations rules.
	Rule *RuleRef `json:"rule,omitempty"`
}

// String is the line kubectl prints for the error.
func (e FieldError) String() string { return e.Field + ": " + e.Message }

// RuleRef names an x-kubernetes-validations rule.
type RuleRef struct {
	// SchemaPath is the rule's place in the version's schema, e.g.
	// "openAPIV3Schema.properties[spec].x-kubernetes-validations[0]".
	SchemaPath        string `json:"schemaPath"`
	Rule              string `json:"rule"`
	Message           string `json:"message,omitempty"`
	MessageExpression string `json:"messageExpression,omitempty"`
	Reason            string `json:"reason,omitempty"`
	FieldPath         string `json:"fieldPath,omitempty"`
}

// CostExplanation says where a rule's estimated cost comes from.
type CostExplanation struct {
	// Summary is one line for people, e.g. "estimated cost 3,145,726 = 3 per
	// run × 1,048,575 runs (spec.items has no maxItems)".
	Summary string `json:"summary"`
	// Runs explains the cardinality: the lists and maps above the rule's
	// node that multiply how often it runs.
	Runs []BoundNode `json:"runs,omitempty"`
	// RunsFromRequestSize: one of Runs has no bound, so the cardinality is
	// the most copies of the node that fit in a 3 MiB request.
	RunsFromRequestSize bool `json:"runsFromRequestSize,omitempty"`
	// Sizes are the schema nodes whose size the estimate depends on.
	Sizes []BoundNode `json:"sizes,omitempty"`
	// UnknownSizes are values whose size the estimator cannot bound, passed
	// to a function whose cost grows with it: an element of a list computed
	// by filter or map (it has lost its schema), or the result of string(),
	// +, ... No schema bound fixes these; the expression has to change.
	UnknownSizes []UnknownSize `json:"unknownSizes,omitempty"`
	// Calls are the rule's function calls and macros by their share of the
	// per-run estimate, largest first (those under 1% are left out).
	Calls []CallCost `json:"calls,omitempty"`
	// Target is the cost the fixes aim for: the limit, or for a rule that
	// pushes its schema over the total limit, the rule's cost less the
	// excess.
	Target uint64 `json:"target,omitempty"`
	// Fixes are single bounds that each bring the cost to Target or below.
	Fixes []BoundFix `json:"fixes,omitempty"`
	// CombinedFix is one value for the bounds of several nodes at once: of
	// every candidate when no single bound suffices, else of the nodes that
	// have no bound yet (when there are two or more).
	CombinedFix []BoundFix `json:"combinedFix,omitempty"`
	// NoFix says why no bound helps (the expression is too costly even with
	// every size bound at 0), when that is so.
	NoFix string `json:"noFix,omitempty"`
}

// BoundNode is a schema node whose size matters for a cost.
type BoundNode struct {
	// Path is the node in the custom resource ("spec.items", "spec.items[*].name",
	// "spec.labels" with ".@keys" for a map's keys).
	Path string `json:"path"`
	// Kind is "list", "map", "string", "bytes", "map keys", "duration",
	// "timestamp" or "object".
	Kind string `json:"kind"`
	// Bound is the schema's bound: maxItems, maxProperties, maxLength (nil
	// when unset) ...
	Bound *int64 `json:"bound,omitempty"`
	// BoundName is which: "maxItems", "maxProperties", "maxLength", "enum".
	BoundName string `json:"boundName,omitempty"`
	// MaxSize is the size the estimator used: list items, map entries,
	// string bytes (kube-apiserver assumes 4 bytes per maxLength character);
	// for Runs, the factor the node multiplies by.
	MaxSize uint64 `json:"maxSize"`
	// FromRequestSize: no bound, MaxSize is what fits in a 3 MiB request.
	FromRequestSize bool `json:"fromRequestSize,omitempty"`
}

// CallCost is one call or macro of a rule.
type CallCost struct {
	// Function is the function or macro name ("matches", "all", "_==_").
	Function string `json:"function"`
	// Expression is the call's source text; Line and Column (1-based) where
	// it starts.
	Expression string `json:"expression"`
	Line       int    `json:"line"`
	Column     int    `json:"column"`
	// Cost is the part of the per-run estimate this call (with its
	// arguments) accounts for; Percent its share, to 0.1.
	Cost    uint64  `json:"cost"`
	Percent float64 `json:"percent"`
}

// UnknownSize is a value of unbounded estimated size.
type UnknownSize struct {
	// Expression is its source; Function the function it is passed to.
	Expression string `json:"expression"`
	Function   string `json:"function"`
	Line       int    `json:"line,omitempty"`
	Column     int    `json:"column,omitempty"`
}

// BoundFix is a bound to add (or lower) on one schema node.
type BoundFix struct {
	Path string `json:"path"`
	// Set is "maxItems", "maxProperties" or "maxLength"; Value the largest
	// value that works; Current the bound there now (nil: none).
	Set     string `json:"set"`
	Value   int64  `json:"value"`
	Current *int64 `json:"current,omitempty"`
	// Cost is the rule's estimated cost with this bound.
	Cost uint64 `json:"cost"`
}

// SchemaCost is the cost accounting of one version's schema.
type SchemaCost struct {
	// Versions are the versions that use this schema.
	Versions []string `json:"versions"`
	// Path is the schema's field path in the CRD as kube-apiserver reports
	// it: "spec.validation.openAPIV3Schema" (shared) or
	// "spec.versions[1].schema.openAPIV3Schema".
	Path string `json:"path"`
	// TotalCost is the sum of the rules' (and messageExpressions')
	// estimated costs, against TotalLimit (StaticEstimatedCRDCostLimit).
	TotalCost  uint64 `json:"totalCost"`
	TotalLimit uint64 `json:"totalLimit"`
	// Rules lists every x-kubernetes-validations rule and messageExpression
	// in schema order.
	Rules []RuleCost `json:"rules"`
}

// RuleCost is one rule's (or messageExpression's) estimated cost.
type RuleCost struct {
	// Path is the CRD field path of the expression, ending in ".rule" or
	// ".messageExpression".
	Path string `json:"path"`
	// Node is where the rule applies in the custom resource, e.g.
	// "spec.routes[*].matches[*]" ("" for the root, "[*]" for every list
	// item or map value, "[*]" after a map for its values).
	Node string `json:"node"`
	// Expression is the rule or messageExpression.
	Expression string `json:"expression"`
	// Kind is "rule" or "messageExpression".
	Kind string `json:"kind"`
	// Cost is the estimated cost kube-apiserver compares with Limit:
	// PerCall × Cardinality (saturating at 2^64−1).
	Cost  uint64 `json:"cost"`
	Limit uint64 `json:"limit"`
	// Exceeds: Cost > Limit; kube-apiserver rejects the CRD.
	Exceeds bool `json:"exceeds,omitempty"`
	// PerCall is cel-go's worst-case estimate of one evaluation.
	PerCall uint64 `json:"perCall"`
	// Cardinality is how many times the rule can run for one object: the
	// product of the maxItems/maxProperties of the lists and maps above
	// Node, or, when one of them has none, the most copies of Node that fit
	// in a 3 MiB request.
	Cardinality uint64 `json:"cardinality"`
	// Error is set when the expression does not compile (no cost then).
	Error string `json:"error,omitempty"`
	// Explanation says where the cost comes from and which bounds would
	// bring it under the limit (cost export only).
	Explanation *CostExplanation `json:"explanation,omitempty"`
}

// CRDError is the error response for a CRD kube-apiserver would reject: the
// error code invalid_crd, kube-apiserver's Status message and the CRD's
// field errors.
type CRDError struct {
	Error struct {
		Code        string       `json:"code"`
		Message     string       `json:"message"`
		FieldErrors []FieldError `json:"fieldErrors,omitempty"`
	} `json:"error"`
}
