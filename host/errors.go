package celwasm

import (
	"fmt"

	"github.com/celwasm/celwasm/wire"
)

// Error codes. The first group comes from the module (docs/abi.md), the
// second from the host.
const (
	CodeBadRequest        = wire.CodeBadRequest        // the request JSON is malformed
	CodeInvalidEnv        = wire.CodeInvalidEnv        // the environment cannot be built
	CodeCompile           = wire.CodeCompile           // the expression does not parse or check
	CodeUnknownProgram    = wire.CodeUnknownProgram    // the program handle is unknown
	CodeInvalidActivation = wire.CodeInvalidActivation // the activation is not a valid JSON object
	CodeEval              = wire.CodeEval              // evaluation produced a CEL error
	CodeCostLimit         = wire.CodeCostLimit         // evaluation passed its cost limit
	CodeInternal          = wire.CodeInternal          // a bug in the module (recovered)
	CodeNeedsModule       = wire.CodeNeedsModule       // the module does not serve the request (Error.Module does)

	CodeTrap             = "trap"              // the instance trapped or exited; it was replaced
	CodeCanceled         = wire.CodeCanceled   // the context was canceled; the instance was replaced
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
	// Module names the module that serves the request (code needs_module;
	// a Runtime routes such requests itself, so callers see it only from a
	// module given with WithFullModule that lacks what the request needs).
	Module string `json:"module,omitempty"`
	// Err is the underlying cause for host-side errors (context, trap).
	Err error `json:"-"`
}

// Issue is one compile problem: 1-based line and column, cel-go's message,
// and cel-go's display form with the source line and a caret.
type Issue = wire.Issue

func (e *Error) Error() string {
	if e.Code == CodeCompile && len(e.Issues) > 0 {
		return e.Message
	}
	return fmt.Sprintf("celwasm: %s: %s", e.Code, e.Message)
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }
