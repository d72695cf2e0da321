package celwasm

import (
	"bytes"
	"context"
	"encoding/json"
	"strconv"
	"sync/atomic"
)

// Program is a compiled expression. It is safe for concurrent use; Close it
// when done (a finalizer frees it otherwise).
type Program struct {
	rt         *Runtime
	id         uint64
	compileReq []byte
	closed     atomic.Bool

	// Expression is the source text.
	Expression string
	// OutputType is the checked output type as a CEL type name ("bool",
	// "list(string)"); "dyn" when type checking is off.
	OutputType string
	// CostEstimate is nil when type checking is off.
	CostEstimate *CostEstimate
}

// Result is an evaluation result.
type Result struct {
	// JSON is the value in celwasm's canonical typed JSON
	// (docs/value-encoding.md): identical values give identical bytes on
	// every host.
	JSON []byte
	// Cost is the actual cost of the evaluation, in cost units.
	Cost uint64
}

// Value decodes JSON into Go values (see Decode).
func (r *Result) Value() (any, error) { return Decode(r.JSON) }

type evalConfig struct {
	costLimit uint64
}

// EvalOption configures one evaluation.
type EvalOption func(*evalConfig)

// CostLimit sets the per-call cost limit in cost units (default 1,000,000,
// kube-apiserver's PerCallLimit). An evaluation that passes it stops with
// code "cost_limit_exceeded".
func CostLimit(units uint64) EvalOption { return func(c *evalConfig) { c.costLimit = units } }

// Eval evaluates the program. The activation maps variable names to values:
// either raw JSON ([]byte or json.RawMessage holding a JSON object, passed
// through untouched) or any Go value that encoding/json marshals to an
// object (map[string]any, a struct). Declared types decide conversions
// (docs/value-encoding.md): a string declared timestamp becomes a
// timestamp, and so on.
//
// Errors are *Error: "eval_error", "cost_limit_exceeded" (with Cost),
// "invalid_activation", "canceled"/"deadline_exceeded" when ctx ends during
// the evaluation, "trap" when the instance failed (it is replaced).
func (p *Program) Eval(ctx context.Context, activation any, opts ...EvalOption) (*Result, error) {
	var raw []byte
	switch a := activation.(type) {
	case nil:
		raw = []byte("{}")
	case []byte:
		raw = a
	case json.RawMessage:
		raw = a
	default:
		b, err := json.Marshal(a)
		if err != nil {
			return nil, &Error{Code: CodeInvalidArgument, Message: "activation: " + err.Error(), Err: err}
		}
		raw = b
	}
	cfg := evalConfig{}
	for _, o := range opts {
		o(&cfg)
	}
	if p.closed.Load() {
		return nil, &Error{Code: CodeClosed, Message: "program is closed"}
	}
	r := p.rt
	in, err := r.acquire(ctx)
	if err != nil {
		return nil, err
	}
	defer r.put(in)
	h, err := p.handleIn(ctx, in)
	if err != nil {
		return nil, err
	}
	req := append(in.scratch[:0], `{"program":`...)
	req = strconv.AppendUint(req, uint64(h), 10)
	if cfg.costLimit > 0 {
		req = append(req, `,"costLimit":`...)
		req = strconv.AppendUint(req, cfg.costLimit, 10)
	}
	req = append(req, `,"activation":`...)
	req = append(req, raw...)
	req = append(req, '}')
	if cap(req) <= 1<<20 {
		in.scratch = req
	}
	resp, err := r.call(ctx, in, ExportEval, req)
	if err != nil {
		return nil, err
	}
	res, err := parseEvalResponse(resp)
	if e, ok := err.(*Error); ok && e.Code == CodeCanceled && ctx.Err() != nil {
		ce := ctxError(ctx).(*Error)
		ce.Cost = e.Cost
		return nil, ce
	}
	return res, err
}

var (
	valuePrefix = []byte(`{"value":`)
	costField   = []byte(`,"cost":`)
)

func parseEvalResponse(resp []byte) (*Result, error) {
	if bytes.HasPrefix(resp, valuePrefix) && bytes.HasSuffix(resp, []byte("}")) {
		// The cost is the last field; the value is canonical JSON before it.
		if i := bytes.LastIndex(resp, costField); i > 0 {
			cost, err := strconv.ParseUint(string(resp[i+len(costField):len(resp)-1]), 10, 64)
			if err == nil {
				return &Result{JSON: resp[len(valuePrefix):i], Cost: cost}, nil
			}
		}
	}
	if err := decodeError(resp); err != nil {
		return nil, err
	}
	return nil, &Error{Code: CodeInternal, Message: "malformed eval response: " + string(resp)}
}

// handleIn returns the program's handle in this instance, compiling it
// there first if needed.
func (p *Program) handleIn(ctx context.Context, in *instance) (uint32, error) {
	if h, ok := in.handles[p.id]; ok {
		return h, nil
	}
	resp, err := p.rt.call(ctx, in, ExportCompile, p.compileReq)
	if err != nil {
		return 0, err
	}
	if err := decodeError(resp); err != nil {
		return 0, err
	}
	var cr compileResponse
	if err := json.Unmarshal(resp, &cr); err != nil {
		return 0, &Error{Code: CodeInternal, Message: "compile response: " + err.Error()}
	}
	in.handles[p.id] = cr.Program
	return cr.Program, nil
}

// Close frees the program in every instance. Evaluations after Close fail
// with code "closed".
func (p *Program) Close() {
	if p.closed.Swap(true) {
		return
	}
	p.rt.freeProgram(p.id)
}
