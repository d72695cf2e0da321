package celwasm

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"sync/atomic"

	"github.com/celwasm/celwasm/wire"
)

// Program is a compiled expression. It is safe for concurrent use; Close it
// when done (a finalizer frees it otherwise).
type Program struct {
	rt         *Runtime
	id         uint64
	compileReq []byte
	closed     atomic.Bool

	// Expression is the CEL source: as given to Compile, or what a filter
	// or when list became.
	Expression string
	// OutputType is the checked output type as a CEL type name ("bool",
	// "list(string)"); "dyn" when type checking is off.
	OutputType string
	// CostEstimate is nil when type checking is off.
	CostEstimate *CostEstimate

	reads    json.RawMessage
	readTree map[string]any
}

// Reads is what the program can read of its variables, as the module
// reported it from the checked AST (docs/abi.md, compile "reads"): a JSON
// object of variable name → true (all of it) or an object of the member
// names it reads, each true or such an object; a variable it never reads
// is absent. Nil when type checking is off, and for filters and when lists.
// Eval sends only this part of a map[string]any activation.
func (p *Program) Reads() json.RawMessage { return p.reads }

// project is the part of act the program can read: the variables it reads
// and, of map[string]any values along each read path, only the members it
// names; other values stay whole. The module converts members lazily, so
// the value, error and cost are the same as over the whole of act.
func project(act map[string]any, reads map[string]any) map[string]any {
	out := make(map[string]any, len(reads))
	for k, r := range reads {
		v, ok := act[k]
		if !ok {
			continue
		}
		if sub, isObj := r.(map[string]any); isObj {
			// A nil map marshals as null: it stays as it is.
			if m, isMap := v.(map[string]any); isMap && m != nil {
				v = project(m, sub)
			}
		}
		out[k] = v
	}
	return out
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

// evalConfig is what EvalOptions set; appendRequestHead applies them.
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
// timestamp, and so on. Of a map[string]any (and the map[string]any
// values inside it), only what the program reads (Reads) is marshalled
// and sent; the value, error and cost are the same.
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
		if m, ok := a.(map[string]any); ok && p.readTree != nil {
			activation = project(m, p.readTree)
		}
		b, err := json.Marshal(activation)
		if err != nil {
			return nil, &Error{Code: CodeInvalidArgument, Message: "activation: " + err.Error(), Err: err}
		}
		raw = b
	}
	return p.eval(ctx, "activation", raw, opts)
}

// EvalEvent evaluates a trigger filter (or any program over ce and data)
// against one CloudEvent: a structured-mode JSON event, or a binary-mode
// envelope {"headers": {...}, "body": "..."} (docs/abi.md).
func (p *Program) EvalEvent(ctx context.Context, event []byte, opts ...EvalOption) (*Result, error) {
	return p.eval(ctx, "cloudEvent", event, opts)
}

func (p *Program) eval(ctx context.Context, member string, raw []byte, opts []EvalOption) (*Result, error) {
	if member == "activation" {
		return p.evalActivation(ctx, raw, opts)
	}
	var resp []byte
	err := p.run(ctx, func(in *instance, handle uint32) error {
		req := appendRequestHead(in.scratch[:0], handle, opts)
		req = append(req, `,"`...)
		req = append(req, member...)
		req = append(req, `":`...)
		req = append(req, raw...)
		req = append(req, '}')
		if cap(req) <= 1<<20 {
			in.scratch = req
		}
		var err error
		resp, err = p.rt.call(ctx, in, ExportEval, req)
		return err
	})
	if err != nil {
		return nil, err
	}
	return evalResult(ctx, resp)
}

// evalResult parses an eval response; a cancellation that ctx caused
// becomes ctx's error.
func evalResult(ctx context.Context, resp []byte) (*Result, error) {
	res, err := parseEvalResponse(resp)
	if e, ok := err.(*Error); ok && e.Code == CodeCanceled && ctx.Err() != nil {
		ce := ctxError(ctx).(*Error)
		ce.Cost = e.Cost
		return nil, ce
	}
	return res, err
}

// Packed results of celwasm_eval_activation (docs/abi.md): the high 32
// bits zero, bits 30–31 the bool, bits 0–29 the cost.
const (
	scalarFalse    = 1
	scalarTrue     = 2
	scalarCostMask = 1<<30 - 1
)

// evalActivation evaluates over a JSON activation object through
// celwasm_eval_activation: no request object around it, the cost limit as
// arguments, and a bool result read from the return value.
func (p *Program) evalActivation(ctx context.Context, raw []byte, opts []EvalOption) (*Result, error) {
	cfg := evalConfig{}
	for _, o := range opts {
		o(&cfg)
	}
	var res *Result
	var resp []byte
	err := p.run(ctx, func(in *instance, handle uint32) error {
		packed, err := p.rt.callPacked(ctx, in, ExportEvalActivation, raw, handle, uint32(cfg.costLimit), uint32(cfg.costLimit>>32))
		if err != nil {
			return err
		}
		if packed>>32 == 0 && packed != 0 {
			res = &Result{Cost: packed & scalarCostMask}
			switch packed >> 30 {
			case scalarFalse:
				res.JSON = []byte("false")
			case scalarTrue:
				res.JSON = []byte("true")
			default:
				return &Error{Code: CodeInternal, Message: fmt.Sprintf("malformed eval_activation result %#x", packed)}
			}
			return nil
		}
		resp, err = p.rt.response(ctx, in, packed)
		return err
	})
	if err != nil {
		return nil, err
	}
	if res != nil {
		return res, nil
	}
	return evalResult(ctx, resp)
}

// run calls f with an instance from the pool and the program's handle in
// it (compiling the program there first if needed).
func (p *Program) run(ctx context.Context, f func(in *instance, handle uint32) error) error {
	if p.closed.Load() {
		return &Error{Code: CodeClosed, Message: "program is closed"}
	}
	in, err := p.rt.acquire(ctx)
	if err != nil {
		return err
	}
	defer p.rt.put(in)
	h, err := p.handleIn(ctx, in)
	if err != nil {
		return err
	}
	return f(in, h)
}

// appendRequestHead appends `{"program":H` and the options' members.
func appendRequestHead(req []byte, handle uint32, opts []EvalOption) []byte {
	cfg := evalConfig{}
	for _, o := range opts {
		o(&cfg)
	}
	req = append(req, `{"program":`...)
	req = strconv.AppendUint(req, uint64(handle), 10)
	if cfg.costLimit > 0 {
		req = append(req, `,"costLimit":`...)
		req = strconv.AppendUint(req, cfg.costLimit, 10)
	}
	return req
}

// BatchItems says what EvalBatch's items are.
type BatchItems string

const (
	// Activations: each item is an activation (a JSON object of variables).
	Activations BatchItems = "activations"
	// CloudEvents: each item is a CloudEvent, as for EvalEvent.
	CloudEvents BatchItems = "cloudEvents"
)

// BatchResult is one item's outcome: a Result, or an *Error (eval_error,
// cost_limit_exceeded, invalid_activation, ...). Err is not a Go error of
// the call: the batch as a whole succeeded.
type BatchResult struct {
	Result
	Err *Error
}

// EvalBatch evaluates the program over many items in one module call, so
// the cost of crossing into the module is paid once per batch. Items are
// JSON (a pretty-printed item is compacted). The call fails as a whole
// only when the module fails (trap, context) or the batch is malformed.
func (p *Program) EvalBatch(ctx context.Context, items [][]byte, kind BatchItems, opts ...EvalOption) ([]BatchResult, error) {
	size := 64
	for _, it := range items {
		size += len(it) + 1
	}
	var resp []byte
	err := p.run(ctx, func(in *instance, handle uint32) error {
		req := appendRequestHead(make([]byte, 0, size), handle, opts)
		req = append(req, `,"items":"`...)
		req = append(req, kind...)
		req = append(req, `"}`...)
		for _, it := range items {
			req = append(req, '\n')
			if bytes.ContainsAny(it, "\r\n") {
				var c bytes.Buffer
				if err := json.Compact(&c, it); err == nil {
					it = c.Bytes()
				} else {
					it = []byte(`"<invalid JSON item>"`)
				}
			}
			if len(bytes.TrimSpace(it)) == 0 {
				it = []byte(`null`)
			}
			req = append(req, it...)
		}
		var err error
		resp, err = p.rt.call(ctx, in, ExportEvalBatch, req)
		return err
	})
	if err != nil {
		return nil, err
	}
	// A malformed header or an unknown program fails the whole batch (items
	// never fail with these codes).
	if err := decodeError(resp); err != nil && !bytes.Contains(resp, []byte("\n")) {
		if e := err.(*Error); e.Code == CodeBadRequest || e.Code == CodeUnknownProgram || len(items) == 0 {
			return nil, err
		}
	}
	out := make([]BatchResult, 0, len(items))
	for len(resp) > 0 {
		line := resp
		if i := bytes.IndexByte(resp, '\n'); i >= 0 {
			line, resp = resp[:i], resp[i+1:]
		} else {
			resp = nil
		}
		res, err := parseEvalResponse(line)
		if err != nil {
			e, ok := err.(*Error)
			if !ok {
				e = &Error{Code: CodeInternal, Message: err.Error()}
			}
			out = append(out, BatchResult{Err: e})
			continue
		}
		out = append(out, BatchResult{Result: *res})
	}
	if len(out) != len(items) {
		return nil, &Error{Code: CodeInternal, Message: fmt.Sprintf("batch: %d results for %d items", len(out), len(items))}
	}
	return out, nil
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
	var cr wire.CompileResponse
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
