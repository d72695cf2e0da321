package celwasm

import "fmt"

// Error codes. The first group comes from the module (docs/abi.md), the
// second from the host.
const (
	CodeBadRequest        = "bad_request"         // the request JSON is malformed
	CodeInvalidEnv        = "invalid_env"         // the environment cannot be built
	CodeCompile           = "compile_error"       // the expression does not parse or check
	CodeUnknownProgram    = "unknown_program"     // the program handle is unknown
	CodeInvalidActivation = "invalid_activation"  // the activation is not a valid JSON object
	CodeEval              = "eval_error"          // evaluation produced a CEL error
	CodeCostLimit         = "cost_limit_exceeded" // evaluation passed its cost limit
	CodeInternal          = "internal"            // a bug in the module (recovered)

	CodeTrap             = "trap"              // the instance trapped or exited; it was replaced
	CodeCanceled         = "canceled"          // the context was canceled; the instance was replaced
	CodeDeadlineExceeded = "deadline_exceeded" // the context deadline passed; the instance was replaced
	CodeClosed           = "closed"            // the runtime or program was closed
	CodeInvalidArgument  = "invalid_argument"  // a Go argument could not be encoded as JSON
)

// Error is celwasm's typed error. Use errors.As to read the code; for
// canceled or timed-out calls, errors.Is(err, context.Canceled) and
// errors.Is(err, context.DeadlineExceeded) also hold.
type Error struct {
	Code    string  `json:"code"`
	Message string  `json:"message"`
	Issues  []Issue `json:"issues,omitempty"`
	// Cost is the actual cost spent before an evaluation failed, in cost units.
	Cost *uint64 `json:"cost,omitempty"`
	// Err is the underlying cause for host-side errors (context, trap).
	Err error `json:"-"`
}

// Issue is one compile problem: 1-based line and column, cel-go's message,
// and cel-go's display form with the source line and a caret.
type Issue struct {
	Line    int    `json:"line"`
	Column  int    `json:"column"`
	Message string `json:"message"`
	Snippet string `json:"snippet"`
}

func (e *Error) Error() string {
	if e.Code == CodeCompile && len(e.Issues) > 0 {
		return e.Message
	}
	return fmt.Sprintf("celwasm: %s: %s", e.Code, e.Message)
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }
