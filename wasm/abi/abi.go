// Package abi is the module's JSON request/response protocol (docs/abi.md):
// it decodes requests, calls the engine and the libraries on top of it, and
// encodes responses (compile, eval, eval_batch, validate, cost, free,
// version), with program handles and an environment cache. The request
// forms other than a CEL expression are one table (dialects.go). The
// WebAssembly module (wasm/module) exports it; native code (tests,
// benchmarks, the conformance reference) calls it directly, so both produce
// the same bytes.
//
// A Handler is not safe for concurrent use: a WebAssembly instance is single
// threaded, and hosts run one call per instance at a time.
package abi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"runtime/debug"
	"sort"
	"strconv"
	"strings"
	"unsafe"

	"github.com/celwasm/celwasm/wire"

	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/tidwall/gjson"

	"github.com/celwasm/celwasm/wasm/codec"
	"github.com/celwasm/celwasm/wasm/engine"
	"github.com/celwasm/celwasm/wasm/events"
)

// Version is the ABI version reported by the version export; it changes
// when a request or response shape changes incompatibly.
const Version = 1

// maxEnvs bounds the environment cache (each environment holds its own
// declarations on top of the shared base environment).
const maxEnvs = 64

// Handler holds the programs and environments of one module instance.
type Handler struct {
	programs map[uint32]*program
	next     uint32
	envs     map[string]*engine.Env
	envOrder []string
	out      []byte
	// act is reused by every evaluation over a plain JSON activation (one
	// call at a time), so that a call allocates no activation.
	act codec.Activation
	// event is the same for evaluations over a CloudEvent.
	event events.Scratch
	// members lists the top-level members of the last activation or event
	// checked, for building its activation without reading it again.
	members codec.Members
	// last is the program lookup found last (nil: none), kept beside the
	// map: a host evaluates one program over and over.
	last       *program
	lastHandle uint32
}

// NewHandler returns an empty handler.
func NewHandler() *Handler {
	return &Handler{programs: map[uint32]*program{}, envs: map[string]*engine.Env{}, next: 1}
}

// program is a compiled program and the dialect it was compiled from (nil:
// a CEL expression).
type program struct {
	*engine.Program
	dialect *dialect
	// reads: what a CloudEvent activation binds for it (events.Reads).
	reads events.Reads
}

type errorResponse struct {
	Error *wire.Error `json:"error"`
}

// Compile handles a compile request and returns the response JSON. The
// returned slice is valid until the next call on this handler.
func (h *Handler) Compile(req []byte) (resp []byte) {
	defer h.recover(&resp)
	var r wire.CompileRequest
	if err := decodeStrict(req, &r); err != nil {
		return h.fail(&wire.Error{Code: wire.CodeBadRequest, Message: "compile request: " + err.Error()})
	}
	var d *dialect
	given := 0
	if r.Expression != nil {
		given++
	}
	for _, x := range dialects {
		if x.given(&r) {
			d = x
			given++
		}
	}
	if given != 1 {
		return h.fail(&wire.Error{Code: wire.CodeBadRequest, Message: "compile request: want exactly one of " + members()})
	}
	expr, spec := "", r.Env
	if d == nil {
		expr = *r.Expression
	} else {
		var err error
		if expr, err = d.toCEL(&r); err != nil {
			return h.fail(err)
		}
		spec = withVariables(spec, d.variables)
	}
	env, err := h.env(spec)
	if err != nil {
		return h.fail(err)
	}
	prg, err := env.Compile(expr)
	if err != nil {
		if e, ok := err.(*wire.Error); ok && d != nil {
			e.Message = "the CEL expression " + strconv.Quote(expr) + " does not compile:\n" + e.Message
		}
		return h.fail(err)
	}
	id := h.next
	h.next++
	if h.next == 0 {
		h.next = 1
	}
	if id == h.lastHandle {
		h.last = nil
	}
	h.programs[id] = &program{Program: prg, dialect: d, reads: events.ReadsOf(prg)}
	cr := wire.CompileResponse{Program: id, OutputType: prg.OutputType, CostEstimate: prg.CostEstimate}
	if d != nil {
		cr.Expression = expr
	}
	if r.Reads && d == nil {
		// The module builds a dialect's activation itself (events, Tekton's
		// substitutions) from what the host sends, so only an expression's
		// reads say what its activation must hold.
		if reads := prg.Reads(); reads != nil {
			m := make(map[string]any, len(reads))
			for name, rd := range reads {
				m[name] = rd.Value()
			}
			cr.Reads, _ = marshal(m)
		}
	}
	return h.ok(cr)
}

// withVariables returns spec with the variables a filter or when list
// needs, unless declared already. A spec without a base gets the cel base
// with the strings extension, as Knative and Tekton evaluate CEL.
func withVariables(spec wire.EnvSpec, vars map[string]string) wire.EnvSpec {
	if spec.Base == "" && spec.CompatibilityVersion == "" && spec.EnvType == "" && len(spec.Extensions) == 0 {
		spec.Base = engine.BaseCEL
		spec.Extensions = []wire.ExtensionRef{{Name: "strings"}}
	}
	declared := map[string]bool{}
	for _, v := range spec.Variables {
		declared[v.Name] = true
	}
	spec.Variables = append([]wire.VariableDecl(nil), spec.Variables...)
	names := make([]string, 0, len(vars))
	for n := range vars {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if !declared[n] {
			spec.Variables = append(spec.Variables, wire.VariableDecl{Name: n, Type: vars[n]})
		}
	}
	return spec
}

func (h *Handler) env(spec wire.EnvSpec) (*engine.Env, error) {
	keyBytes, _ := json.Marshal(spec)
	key := string(keyBytes)
	if e, ok := h.envs[key]; ok {
		return e, nil
	}
	e, err := engine.NewEnv(spec)
	if err != nil {
		return nil, err
	}
	if len(h.envOrder) >= maxEnvs {
		delete(h.envs, h.envOrder[0])
		h.envOrder = h.envOrder[1:]
	}
	h.envs[key] = e
	h.envOrder = append(h.envOrder, key)
	return e, nil
}

// Eval handles an eval request:
//
//	{"program":N,"costLimit":N,"typedActivation":{...},"activation":{...}}
//	{"program":N,"costLimit":N,"cloudEvent":{...}}
//
// The request is read without decoding the activation (see
// codec.Activation). The returned slice is valid until the next call.
func (h *Handler) Eval(req []byte) (resp []byte) {
	defer h.recover(&resp)
	// One copy, so that strings read from the activation stay valid after
	// the caller reuses its buffer.
	s := string(req)
	if err := codec.CheckRequestJSON(s); err != nil {
		return h.fail(requestError(s, err))
	}
	root := gjson.Parse(s)
	if !root.IsObject() {
		return h.fail(&wire.Error{Code: wire.CodeBadRequest, Message: "eval request: want a JSON object"})
	}
	var r evalRequest
	if err := r.parse(root, true); err != nil {
		return h.fail(err)
	}
	out, err := h.evalOne(h.out[:0], &r)
	if err != nil {
		return h.fail(err)
	}
	h.out = out
	return out
}

type evalRequest struct {
	handle     uint64
	haveHandle bool
	activation gjson.Result
	typed      gjson.Result
	event      gjson.Result
	costLimit  uint64
	events     bool // batch: items are CloudEvents
}

// parse reads an eval request (or, with single=false, a batch header).
func (r *evalRequest) parse(root gjson.Result, single bool) *wire.Error {
	what := "eval request"
	if !single {
		what = "batch header"
	}
	var bad *wire.Error
	root.ForEach(func(k, v gjson.Result) bool {
		switch k.Str {
		case "program":
			n, err := strconv.ParseUint(v.Raw, 10, 32)
			if v.Type != gjson.Number || err != nil {
				bad = &wire.Error{Code: wire.CodeBadRequest, Message: what + ": \"program\" must be a program handle (a positive integer)"}
				return false
			}
			r.handle, r.haveHandle = n, true
			return true
		case "costLimit":
			n, err := strconv.ParseUint(v.Raw, 10, 64)
			if v.Type != gjson.Number || err != nil {
				bad = &wire.Error{Code: wire.CodeBadRequest, Message: what + ": \"costLimit\" must be a non-negative integer (cost units)"}
				return false
			}
			r.costLimit = n
			return true
		case "activation", "typedActivation", "cloudEvent":
			if !single {
				break
			}
			switch k.Str {
			case "activation":
				r.activation = v
			case "typedActivation":
				r.typed = v
			default:
				r.event = v
			}
			return true
		case "items":
			if single {
				break
			}
			switch v.Str {
			case "activations":
			case "cloudEvents":
				r.events = true
			default:
				bad = &wire.Error{Code: wire.CodeBadRequest, Message: "batch header: \"items\" must be \"activations\" or \"cloudEvents\""}
				return false
			}
			return true
		}
		bad = &wire.Error{Code: wire.CodeBadRequest, Message: fmt.Sprintf("%s: unknown field %q", what, k.Str)}
		return false
	})
	if bad != nil {
		return bad
	}
	if !r.haveHandle {
		return &wire.Error{Code: wire.CodeBadRequest, Message: what + ": missing \"program\""}
	}
	if single && r.event.Exists() && (r.activation.Exists() || r.typed.Exists()) {
		return &wire.Error{Code: wire.CodeBadRequest, Message: "eval request: \"cloudEvent\" replaces \"activation\" and \"typedActivation\""}
	}
	return nil
}

// evalOne evaluates one request and appends the success response to out.
func (h *Handler) evalOne(out []byte, r *evalRequest) ([]byte, error) {
	prg, ok := h.lookup(uint32(r.handle))
	if !ok {
		return out, &wire.Error{Code: wire.CodeUnknownProgram, Message: fmt.Sprintf("no program with handle %d", r.handle)}
	}
	var act *codec.Activation
	var err error
	if r.event.Exists() {
		act, err = h.event.Activation(prg.Env, r.event, &h.members, prg.reads)
	} else {
		activation := r.activation
		if !activation.Exists() {
			activation = emptyObject
		}
		act = &h.act
		err = act.Reset(prg.Env, activation.Raw, &h.members)
		if err == nil && r.typed.Exists() {
			err = act.SetTyped(r.typed)
		}
	}
	if err != nil {
		return out, err
	}
	if prg.dialect != nil && prg.dialect.prepare != nil {
		prg.dialect.prepare(act)
	}
	val, cost, err := prg.Eval(act, r.costLimit)
	if err != nil {
		return out, err
	}
	mark := len(out)
	out = append(out, `{"value":`...)
	out, err = codec.AppendValue(out, val)
	if err != nil {
		spent := cost // a copy, so that cost stays off the heap on success
		return out[:mark], &wire.Error{Code: wire.CodeEval, Message: "result: " + err.Error(), Cost: &spent}
	}
	out = append(out, `,"cost":`...)
	out = strconv.AppendUint(out, cost, 10)
	return append(out, '}'), nil
}

var emptyObject = gjson.Parse("{}")

// Results of EvalActivation packed into 32 bits (docs/abi.md,
// "eval_activation"): a bool result and its cost, which a host reads from
// the call's return value without touching linear memory.
const (
	// ScalarFalse and ScalarTrue are the packed value, in bits 30–31.
	ScalarFalse = 1 << 30
	ScalarTrue  = 2 << 30
	// ScalarCostMask selects the cost, bits 0–29; a larger cost gives the
	// JSON response instead.
	ScalarCostMask = 1<<30 - 1
)

// EvalActivation evaluates a program over an activation object given as
// the JSON bytes alone, with the cost limit as an argument (0: the
// default): the eval request without its envelope. A bool result whose
// cost fits 30 bits comes back packed (ScalarFalse or ScalarTrue | cost)
// with resp nil; any other result or error as resp, exactly the bytes Eval
// returns for {"program":handle,"costLimit":costLimit,"activation":...},
// with packed 0. resp is valid until the next call.
func (h *Handler) EvalActivation(handle uint32, costLimit uint64, activation []byte) (packed uint32, resp []byte) {
	defer h.recover(&resp)
	prg, ok := h.lookup(handle)
	if !ok {
		return 0, h.fail(&wire.Error{Code: wire.CodeUnknownProgram, Message: fmt.Sprintf("no program with handle %d", handle)})
	}
	// Read in place, as EvalBatch reads its items: a copy was a tenth of
	// evaluating `true`. The bytes cannot change during the call, and
	// dropActivation drops every reference into them once the evaluation
	// is done (recover after a panic).
	s := unsafe.String(unsafe.SliceData(activation), len(activation))
	if err := codec.CheckJSONMembers(s, &h.members); err != nil {
		// The error as Eval reports it for the request every host sends
		// (offsets count from the request's start).
		req := append([]byte(`{"program":`), strconv.FormatUint(uint64(handle), 10)...)
		if costLimit != 0 {
			req = strconv.AppendUint(append(req, `,"costLimit":`...), costLimit, 10)
		}
		req = append(append(append(req, `,"activation":`...), activation...), '}')
		return 0, h.Eval(req)
	}
	if err := h.act.Reset(prg.Env, s, &h.members); err != nil {
		h.dropActivation()
		return 0, h.fail(err)
	}
	if prg.dialect != nil && prg.dialect.prepare != nil {
		prg.dialect.prepare(&h.act)
	}
	val, cost, err := prg.Eval(&h.act, costLimit)
	// val may be, or hold, values of the activation (its objects are lent
	// by the activation's pool): the drop comes once the response is made.
	packed, resp = h.activationResult(val, cost, err)
	h.dropActivation()
	return packed, resp
}

// activationResult is EvalActivation's response for an evaluation's result.
func (h *Handler) activationResult(val ref.Val, cost uint64, err error) (uint32, []byte) {
	if err != nil {
		return 0, h.fail(err)
	}
	if b, ok := val.(types.Bool); ok && cost <= ScalarCostMask {
		if b {
			return ScalarTrue | uint32(cost), nil
		}
		return ScalarFalse | uint32(cost), nil
	}
	out := append(h.out[:0], `{"value":`...)
	out, err = codec.AppendValue(out, val)
	if err != nil {
		spent := cost
		return 0, h.fail(&wire.Error{Code: wire.CodeEval, Message: "result: " + err.Error(), Cost: &spent})
	}
	out = append(out, `,"cost":`...)
	out = strconv.AppendUint(out, cost, 10)
	h.out = append(out, '}')
	return 0, h.out
}

// EvalBatch evaluates one program over many items: the request is a header
// line, {"program":N,"costLimit":N,"items":"activations"|"cloudEvents"},
// followed by one JSON item per line (NDJSON; blank lines are skipped). The
// response has one line per item, each exactly what Eval would return for
// it, joined by "\n". A malformed header is one error response.
func (h *Handler) EvalBatch(req []byte) (resp []byte) {
	defer h.recover(&resp)
	// The batch is read in place: it is megabytes, and a copy per call
	// made the guest's collector run every few calls. Its bytes cannot
	// change during the call, and release drops every reference into them
	// before it returns, so the host may write its next request there.
	s := unsafe.String(unsafe.SliceData(req), len(req))
	defer h.release()
	headerLine, rest, _ := strings.Cut(s, "\n")
	if err := codec.CheckJSON(headerLine); err != nil {
		return h.fail(&wire.Error{Code: wire.CodeBadRequest, Message: "batch header: " + err.Error()})
	}
	header := gjson.Parse(headerLine)
	if !header.IsObject() {
		return h.fail(&wire.Error{Code: wire.CodeBadRequest, Message: "batch header: want a JSON object"})
	}
	var base evalRequest
	if err := base.parse(header, false); err != nil {
		return h.fail(err)
	}
	if _, ok := h.lookup(uint32(base.handle)); !ok {
		return h.fail(&wire.Error{Code: wire.CodeUnknownProgram, Message: fmt.Sprintf("no program with handle %d", base.handle)})
	}
	out := h.out[:0]
	first := true
	for len(rest) > 0 {
		var line string
		line, rest, _ = strings.Cut(rest, "\n")
		if strings.TrimSpace(line) == "" {
			continue
		}
		if !first {
			out = append(out, '\n')
		}
		first = false
		r := base
		if err := codec.CheckJSONMembers(line, &h.members); err != nil {
			out = appendError(out, &wire.Error{Code: wire.CodeInvalidActivation, Message: "item: " + err.Error()})
			continue
		}
		item := gjson.Parse(line)
		if r.events {
			r.event = item
		} else {
			r.activation = item
		}
		var err error
		out, err = h.evalOne(out, &r)
		if err != nil {
			out = appendError(out, err)
		}
	}
	h.out = out
	return out
}

// dropActivation drops the references into an activation EvalActivation
// read in place, keeping the memory the next call reuses.
func (h *Handler) dropActivation() {
	h.act.Drop()
	h.members.Drop()
}

// release drops what the handler keeps between calls that may point into
// a request: the reused activations and the listed members.
func (h *Handler) release() {
	h.act, h.event, h.members = codec.Activation{}, events.Scratch{}, codec.Members{}
}

func appendError(out []byte, err error) []byte {
	e, ok := err.(*wire.Error)
	if !ok {
		e = &wire.Error{Code: wire.CodeInternal, Message: err.Error()}
	}
	b, _ := marshal(errorResponse{Error: e})
	return append(out, b...)
}

// requestError names the activation as the culprit when the request is
// well formed up to its "activation" member (hosts put it last), with what
// is wrong in the activation's own terms (offsets into it, its depth).
func requestError(s string, err error) *wire.Error {
	const member = `"activation":`
	if i := strings.Index(s, member); i > 0 && codec.CheckRequestJSON(s[:i]+member+`null}`) == nil {
		act := strings.TrimRight(s[i+len(member):], " \t\r\n")
		if e := codec.CheckJSON(strings.TrimSuffix(act, "}")); e != nil {
			err = e
		}
		return &wire.Error{Code: wire.CodeInvalidActivation, Message: "activation: " + err.Error()}
	}
	return &wire.Error{Code: wire.CodeBadRequest, Message: "eval request: " + err.Error()}
}

// Free releases a program handle; it reports whether the handle was known.
func (h *Handler) Free(handle uint32) bool {
	_, ok := h.programs[handle]
	delete(h.programs, handle)
	if handle == h.lastHandle {
		h.last = nil
	}
	return ok
}

// lookup returns the live program with the handle.
func (h *Handler) lookup(handle uint32) (*program, bool) {
	if h.last != nil && h.lastHandle == handle {
		return h.last, true
	}
	prg, ok := h.programs[handle]
	if ok {
		h.last, h.lastHandle = prg, handle
	}
	return prg, ok
}

// Programs returns how many programs are live.
func (h *Handler) Programs() int { return len(h.programs) }

// ModuleVersion is celwasm's release version.
const ModuleVersion = "0.1.0"

// Info returns the version information.
func Info() wire.VersionInfo {
	v := wire.VersionInfo{
		ABI:                         Version,
		Module:                      ModuleVersion,
		CompatibilityVersions:       engine.CompatibilityVersions(),
		DefaultCompatibilityVersion: engine.CompatibilityVersions()[len(engine.CompatibilityVersions())-1],
		Extensions:                  engine.Extensions,
		DefaultCostLimit:            engine.DefaultCostLimit,
	}
	if bi, ok := debug.ReadBuildInfo(); ok {
		v.Go = bi.GoVersion
		for _, d := range bi.Deps {
			switch d.Path {
			case "github.com/google/cel-go":
				v.CELGo = d.Version
			case "k8s.io/apiserver":
				v.Kubernetes = d.Version
			}
		}
	}
	return v
}

// Version handles the version export.
func (h *Handler) Version() []byte {
	return h.ok(Info())
}

func (h *Handler) ok(v any) []byte {
	b, err := marshal(v)
	if err != nil {
		return h.fail(&wire.Error{Code: wire.CodeInternal, Message: err.Error()})
	}
	h.out = append(h.out[:0], b...)
	return h.out
}

func (h *Handler) fail(err error) []byte {
	e, ok := err.(*wire.Error)
	if !ok {
		e = &wire.Error{Code: wire.CodeInternal, Message: err.Error()}
	}
	b, _ := marshal(errorResponse{Error: e})
	h.out = append(h.out[:0], b...)
	return h.out
}

// marshal is json.Marshal without HTML escaping ("<input>" stays readable).
func marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

func (h *Handler) recover(resp *[]byte) {
	if r := recover(); r != nil {
		h.dropActivation()
		*resp = h.fail(&wire.Error{Code: wire.CodeInternal, Message: fmt.Sprintf("panic: %v", r)})
	}
}

func decodeStrict(b []byte, v any) error {
	if err := codec.CheckJSON(string(b)); err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return fmt.Errorf("trailing data after the JSON object")
	}
	return nil
}
