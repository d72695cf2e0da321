// Package abi implements the module's JSON request/response protocol over
// the engine (docs/abi.md): compile, eval, free and version, with program
// handles and an environment cache. The WebAssembly module (wasm/module)
// exports it; native code (tests, benchmarks, the conformance reference) calls
// it directly, so both produce the same bytes.
//
// A Handler is not safe for concurrent use: a WebAssembly instance is single
// threaded, and hosts run one call per instance at a time.
package abi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"runtime/debug"
	"strconv"
	"strings"

	"github.com/celwasm/celwasm/wasm/engine"
	"github.com/tidwall/gjson"
)

// Version is the ABI version reported by the version export; it changes
// when a request or response shape changes incompatibly.
const Version = 1

// maxEnvs bounds the environment cache (each environment holds its own
// declarations on top of the shared base environment).
const maxEnvs = 64

// Handler holds the programs and environments of one module instance.
type Handler struct {
	programs map[uint32]*engine.Program
	next     uint32
	envs     map[string]*engine.Env
	envOrder []string
	out      []byte
}

// NewHandler returns an empty handler.
func NewHandler() *Handler {
	return &Handler{programs: map[uint32]*engine.Program{}, envs: map[string]*engine.Env{}, next: 1}
}

// CompileRequest is the compile export's request.
type CompileRequest struct {
	Expression *string        `json:"expression"`
	Env        engine.EnvSpec `json:"env"`
}

// CompileResponse is the compile export's successful response.
type CompileResponse struct {
	Program      uint32               `json:"program"`
	OutputType   string               `json:"outputType"`
	CostEstimate *engine.CostEstimate `json:"costEstimate,omitempty"`
}

type errorResponse struct {
	Error *engine.Error `json:"error"`
}

// Compile handles a compile request and returns the response JSON. The
// returned slice is valid until the next call on this handler.
func (h *Handler) Compile(req []byte) (resp []byte) {
	defer h.recover(&resp)
	var r CompileRequest
	if err := decodeStrict(req, &r); err != nil {
		return h.fail(&engine.Error{Code: engine.CodeBadRequest, Message: "compile request: " + err.Error()})
	}
	if r.Expression == nil {
		return h.fail(&engine.Error{Code: engine.CodeBadRequest, Message: "compile request: missing \"expression\""})
	}
	env, err := h.env(r.Env)
	if err != nil {
		return h.fail(err)
	}
	prg, err := env.Compile(*r.Expression)
	if err != nil {
		return h.fail(err)
	}
	id := h.next
	h.next++
	if h.next == 0 {
		h.next = 1
	}
	h.programs[id] = prg
	return h.ok(CompileResponse{Program: id, OutputType: prg.OutputType, CostEstimate: prg.CostEstimate})
}

func (h *Handler) env(spec engine.EnvSpec) (*engine.Env, error) {
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

// Eval handles an eval request: {"program":N,"activation":{...},"costLimit":N}.
// The request is read without decoding the activation (see
// engine.JSONActivation). The returned slice is valid until the next call.
func (h *Handler) Eval(req []byte) (resp []byte) {
	defer h.recover(&resp)
	// One copy, so that strings read from the activation stay valid after
	// the caller reuses its buffer.
	s := string(req)
	if err := engine.CheckJSON(s); err != nil {
		return h.fail(requestError(s, err))
	}
	root := gjson.Parse(s)
	if !root.IsObject() {
		return h.fail(&engine.Error{Code: engine.CodeBadRequest, Message: "eval request: want a JSON object"})
	}
	var (
		handle     uint64
		haveHandle bool
		activation gjson.Result
		typed      gjson.Result
		costLimit  uint64
		bad        *engine.Error
	)
	root.ForEach(func(k, v gjson.Result) bool {
		switch k.Str {
		case "program":
			n, err := strconv.ParseUint(v.Raw, 10, 32)
			if v.Type != gjson.Number || err != nil {
				bad = &engine.Error{Code: engine.CodeBadRequest, Message: "eval request: \"program\" must be a program handle (a positive integer)"}
				return false
			}
			handle, haveHandle = n, true
		case "activation":
			activation = v
		case "typedActivation":
			typed = v
		case "costLimit":
			n, err := strconv.ParseUint(v.Raw, 10, 64)
			if v.Type != gjson.Number || err != nil {
				bad = &engine.Error{Code: engine.CodeBadRequest, Message: "eval request: \"costLimit\" must be a non-negative integer (cost units)"}
				return false
			}
			costLimit = n
		default:
			bad = &engine.Error{Code: engine.CodeBadRequest, Message: fmt.Sprintf("eval request: unknown field %q", k.Str)}
			return false
		}
		return true
	})
	if bad != nil {
		return h.fail(bad)
	}
	if !haveHandle {
		return h.fail(&engine.Error{Code: engine.CodeBadRequest, Message: "eval request: missing \"program\""})
	}
	prg, ok := h.programs[uint32(handle)]
	if !ok {
		return h.fail(&engine.Error{Code: engine.CodeUnknownProgram, Message: fmt.Sprintf("no program with handle %d", handle)})
	}
	if !activation.Exists() {
		activation = gjson.Parse("{}")
	}
	act, err := prg.Env.ActivationOver(activation)
	if err != nil {
		return h.fail(err)
	}
	if typed.Exists() {
		if err := act.SetTyped(typed); err != nil {
			return h.fail(err)
		}
	}
	val, cost, err := prg.Eval(act, costLimit)
	if err != nil {
		return h.fail(err)
	}
	out := append(h.out[:0], `{"value":`...)
	out, err = engine.AppendValue(out, val)
	if err != nil {
		return h.fail(&engine.Error{Code: engine.CodeEval, Message: "result: " + err.Error(), Cost: &cost})
	}
	out = append(out, `,"cost":`...)
	out = strconv.AppendUint(out, cost, 10)
	out = append(out, '}')
	h.out = out
	return out
}

// requestError names the activation as the culprit when the request is
// well formed up to its "activation" member (hosts put it last).
func requestError(s string, err error) *engine.Error {
	if i := strings.Index(s, `"activation":`); i > 0 && engine.CheckJSON(s[:i]+`"activation":null}`) == nil {
		return &engine.Error{Code: engine.CodeInvalidActivation, Message: "activation: " + err.Error()}
	}
	return &engine.Error{Code: engine.CodeBadRequest, Message: "eval request: " + err.Error()}
}

// Free releases a program handle; it reports whether the handle was known.
func (h *Handler) Free(handle uint32) bool {
	_, ok := h.programs[handle]
	delete(h.programs, handle)
	return ok
}

// Programs returns how many programs are live.
func (h *Handler) Programs() int { return len(h.programs) }

// VersionInfo is the version export's response.
type VersionInfo struct {
	ABI                         int      `json:"abi"`
	Module                      string   `json:"module"`
	CELGo                       string   `json:"celGo"`
	Kubernetes                  string   `json:"kubernetes"`
	GoVersion                   string   `json:"go"`
	CompatibilityVersions       []string `json:"compatibilityVersions"`
	DefaultCompatibilityVersion string   `json:"defaultCompatibilityVersion"`
	Extensions                  []string `json:"extensions"`
	DefaultCostLimit            uint64   `json:"defaultCostLimit"`
}

// ModuleVersion is celwasm's release version.
const ModuleVersion = "0.1.0"

// Info returns the version information.
func Info() VersionInfo {
	v := VersionInfo{
		ABI:                         Version,
		Module:                      ModuleVersion,
		CompatibilityVersions:       engine.CompatibilityVersions(),
		DefaultCompatibilityVersion: engine.CompatibilityVersions()[len(engine.CompatibilityVersions())-1],
		Extensions:                  engine.Extensions,
		DefaultCostLimit:            engine.DefaultCostLimit,
	}
	if bi, ok := debug.ReadBuildInfo(); ok {
		v.GoVersion = bi.GoVersion
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
		return h.fail(&engine.Error{Code: engine.CodeInternal, Message: err.Error()})
	}
	h.out = append(h.out[:0], b...)
	return h.out
}

func (h *Handler) fail(err error) []byte {
	e, ok := err.(*engine.Error)
	if !ok {
		e = &engine.Error{Code: engine.CodeInternal, Message: err.Error()}
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
		*resp = h.fail(&engine.Error{Code: engine.CodeInternal, Message: fmt.Sprintf("panic: %v", r)})
	}
}

func decodeStrict(b []byte, v any) error {
	if err := engine.CheckJSON(string(b)); err != nil {
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
