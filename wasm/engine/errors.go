package engine

import "fmt"

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

// Error is the engine's typed error.
type Error struct {
	Code    string  `json:"code"`
	Message string  `json:"message"`
	Issues  []Issue `json:"issues,omitempty"`
	// Cost is the actual cost spent before an evaluation failed, in cost units.
	Cost *uint64 `json:"cost,omitempty"`
}

func (e *Error) Error() string { return e.Code + ": " + e.Message }

// Issue is one compile problem. Line and Column are 1-based (Column counts
// code points, as cel-go's display does); Snippet is cel-go's display form:
// "ERROR: <input>:L:C: message" followed by the source line and a caret.
type Issue struct {
	Line    int    `json:"line"`
	Column  int    `json:"column"`
	Message string `json:"message"`
	Snippet string `json:"snippet"`
}

func envErr(format string, args ...any) *Error {
	return &Error{Code: CodeInvalidEnv, Message: fmt.Sprintf(format, args...)}
}

func newErr(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}
