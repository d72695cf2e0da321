package celwasm

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"strconv"
	"unicode/utf8"

	"github.com/celwasm/celwasm/wire"
)

// The environment's wire shapes (package wire, docs/abi.md).
type (
	// EnvSpec is the "env" object of the compile request: base,
	// compatibility version, environment type, extensions, declarations.
	EnvSpec = wire.EnvSpec
	// ExtensionRef names a cel-go extension and its version ("" = latest).
	ExtensionRef = wire.ExtensionRef
	// VariableDecl declares a variable with a CEL type name such as "int",
	// "list(string)", "map(string, dyn)" or "google.protobuf.Timestamp".
	VariableDecl = wire.VariableDecl
	// CostEstimate is the static cost estimate of a checked expression, in
	// cost units (cel-go's estimator with kube-apiserver's library costs).
	// Without size information on declarations, Max may be as large as
	// 2^64-1.
	CostEstimate = wire.CostEstimate
)

// EnvOption configures an Env.
type EnvOption func(*EnvSpec)

// Variable declares a variable. The declared type also decides how plain
// JSON in activations converts (docs/value-encoding.md).
func Variable(name, typeName string) EnvOption {
	return func(s *EnvSpec) { s.Variables = append(s.Variables, VariableDecl{Name: name, Type: typeName}) }
}

// Container sets the namespace in which identifiers resolve.
func Container(name string) EnvOption { return func(s *EnvSpec) { s.Container = name } }

// CompatibilityVersion selects the Kubernetes compatibility version of the
// base environment ("1.30" ... "1.37"; default: the newest), as
// kube-apiserver's --emulated-version/compatibility version would.
func CompatibilityVersion(v string) EnvOption { return func(s *EnvSpec) { s.CompatibilityVersion = v } }

// StoredExpressions selects kube-apiserver's StoredExpressions environment
// (every library, whatever the compatibility version), used for expressions
// already persisted; the default is NewExpressions.
func StoredExpressions() EnvOption { return func(s *EnvSpec) { s.EnvType = "StoredExpressions" } }

// BaseCEL uses cel-go's standard environment (with optional types) instead
// of the Kubernetes base environment.
func BaseCEL() EnvOption { return func(s *EnvSpec) { s.Base = "cel" } }

// Extension adds a cel-go extension (bindings, encoders, lists, math,
// protos, sets, strings, two-var-comprehensions) at its latest version, or
// at the given version.
func Extension(name string, version ...uint32) EnvOption {
	return func(s *EnvSpec) {
		ref := ExtensionRef{Name: name}
		if len(version) > 0 {
			ref.Version = strconv.FormatUint(uint64(version[0]), 10)
		}
		s.Extensions = append(s.Extensions, ref)
	}
}

// DisableTypeCheck compiles without the type checker (parse only).
func DisableTypeCheck() EnvOption { return func(s *EnvSpec) { s.DisableTypeCheck = true } }

// DisableMacros turns off the macros (has, all, exists, exists_one, map, filter).
func DisableMacros() EnvOption { return func(s *EnvSpec) { s.DisableMacros = true } }

// WithSpec replaces the whole specification.
func WithSpec(spec EnvSpec) EnvOption { return func(s *EnvSpec) { *s = spec } }

// Env is a CEL environment description. It is built inside the module when
// a program is first compiled with it, and cached there.
type Env struct {
	rt   *Runtime
	Spec EnvSpec
}

// NewEnv returns an environment; errors in it (an unknown extension, a bad
// type name) are reported by Compile with code "invalid_env".
func (r *Runtime) NewEnv(opts ...EnvOption) *Env {
	e := &Env{rt: r}
	for _, o := range opts {
		o(&e.Spec)
	}
	return e
}

// Compile parses and type-checks expr. A failure is an *Error: code
// "compile_error" with Issues (line, column, caret snippet), or
// "invalid_env".
func (e *Env) Compile(ctx context.Context, expr string) (*Program, error) {
	if !utf8.ValidString(expr) {
		// encoding/json would silently replace the bad bytes.
		return nil, &Error{Code: CodeCompile, Message: "expression is not valid UTF-8"}
	}
	return e.compile(ctx, struct {
		Expression string  `json:"expression"`
		Env        EnvSpec `json:"env"`
		Reads      bool    `json:"reads"`
	}{expr, e.Spec, true}, expr)
}

// CompileFilter compiles a CloudEvents trigger filter (JSON): one of
// expression, attributes, sourceAndType, exact, prefix, suffix, all, any,
// not — or a Trigger or {"filter": ...} holding one. The module transforms
// it into one CEL expression over ce and data (Program.Expression) and
// compiles that; without an explicit base the environment is cel-go's with
// the strings extension, as Knative evaluates filters. Evaluate it with
// EvalEvent or EvalBatch(..., CloudEvents).
func (e *Env) CompileFilter(ctx context.Context, filter []byte) (*Program, error) {
	return e.compile(ctx, struct {
		Filter json.RawMessage `json:"cloudEventFilter"`
		Env    EnvSpec         `json:"env"`
	}{filter, e.Spec}, "")
}

// CompileWhen compiles Tekton when expressions (TEP-0145), AND-ed. $(params.x),
// $(tasks.t.results.r), $(tasks.t.status), $(tasks.status) and $(context.…)
// references become accesses of the variables params, tasks and context
// (never text substitution); Program.Expression shows the CEL. Evaluate with
// an activation {"params": …, "tasks": …, "context": …}.
func (e *Env) CompileWhen(ctx context.Context, exprs ...string) (*Program, error) {
	if exprs == nil {
		exprs = []string{}
	}
	return e.compile(ctx, struct {
		When []string `json:"when"`
		Env  EnvSpec  `json:"env"`
	}{exprs, e.Spec}, "")
}

func (e *Env) compile(ctx context.Context, request any, expr string) (*Program, error) {
	req, err := json.Marshal(request)
	if err != nil {
		return nil, &Error{Code: CodeInvalidArgument, Message: err.Error()}
	}
	p, err := compileIn(ctx, e.rt, req, expr)
	if ce, ok := err.(*Error); ok && ce.Code == CodeNeedsModule && !e.rt.opts.full {
		// A filter reading Knative's attrs or cesql: compiled, and then
		// evaluated, in celwasm-full.
		full, ferr := e.rt.fullRuntime(ctx)
		if ferr != nil {
			return nil, ferr
		}
		return compileIn(ctx, full, req, expr)
	}
	return p, err
}

// compileIn compiles a compile request in r's module.
func compileIn(ctx context.Context, r *Runtime, req []byte, expr string) (*Program, error) {
	in, err := r.acquire(ctx)
	if err != nil {
		return nil, err
	}
	defer r.put(in)
	resp, err := r.call(ctx, in, ExportCompile, req)
	if err != nil {
		return nil, err
	}
	if err := decodeError(resp); err != nil {
		return nil, err
	}
	var cr wire.CompileResponse
	if err := json.Unmarshal(resp, &cr); err != nil {
		return nil, &Error{Code: CodeInternal, Message: fmt.Sprintf("compile response: %v", err)}
	}
	if cr.Expression != "" {
		expr = cr.Expression
	}
	p := &Program{
		rt:           r,
		id:           r.nextProgram.Add(1),
		compileReq:   req,
		Expression:   expr,
		OutputType:   cr.OutputType,
		CostEstimate: cr.CostEstimate,
		reads:        cr.Reads,
	}
	if len(cr.Reads) > 0 {
		if err := json.Unmarshal(cr.Reads, &p.readTree); err != nil {
			return nil, &Error{Code: CodeInternal, Message: fmt.Sprintf("compile response: reads: %v", err)}
		}
	}
	in.handles[p.id] = cr.Program
	runtime.AddCleanup(p, func(id uint64) { r.freeProgram(id) }, p.id)
	return p, nil
}

// freeProgram queues the program's handles for release in every instance.
func (r *Runtime) freeProgram(id uint64) {
	r.mu.Lock()
	for in := range r.live {
		in.pending = append(in.pending, id)
		in.hasPending.Store(true)
	}
	r.mu.Unlock()
}
