package filter

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/celwasm/celwasm/wire"

	"github.com/google/cel-go/cel"
	celast "github.com/google/cel-go/common/ast"
	"github.com/google/cel-go/common/types"

	"github.com/celwasm/celwasm/wasm/engine"
	"github.com/celwasm/celwasm/wasm/proxywasm/abi"
)

// Filter is a configured plugin: its rules compiled once, evaluated per
// request. A Filter is single threaded, like the proxy-wasm instance that
// holds it.
type Filter struct {
	Config *Config
	env    *engine.Env
	rules  []compiledRule
	act    *activation
	limit  uint64
	// LastPhase is the last phase with rules (request_headers when there
	// are none): the defaults decide there. HasPhase tells which phases
	// have rules.
	LastPhase Phase
	HasPhase  [numPhases]bool
	// Log receives the filter's log lines (evaluation errors at warn).
	Log func(level abi.LogLevel, msg string)
	// Count, when set, receives each per-rule event: rule is an index into
	// Config.Rules.
	Count func(rule int, c Counter)
}

// Counter is a per-rule event, counted in the proxy's metrics as
// <statPrefix>.rule.<rule name>.<Counter name> (docs/proxy-wasm.md).
type Counter int

const (
	// CounterMatched: the rule's expression was true (so the rule decided).
	CounterMatched Counter = iota
	// CounterAllowed, CounterDenied: requests the rule decided, by
	// matching or through onError allow / deny when it failed.
	CounterAllowed
	CounterDenied
	// CounterEvalErrors: evaluations that failed (any error, the cost
	// limit included).
	CounterEvalErrors
	// CounterCostLimit: evaluations stopped by the cost limit.
	CounterCostLimit
	NumCounters
)

// CounterNames are the counters' metric name suffixes.
var CounterNames = [NumCounters]string{"matched", "allowed", "denied", "evaluation_errors", "cost_limit_exceeded"}

type compiledRule struct {
	Rule
	phase Phase
	prg   *engine.Program
}

// Decision is what the filter decided for one request.
type Decision struct {
	Allow  bool
	Status int    // deny only
	Body   string // deny only
	// Rule is the rule that decided; "" when the defaults or an evaluation
	// error decided.
	Rule string
	// Details is the response code details of a deny (Envoy records them
	// in its access log).
	Details string
	// Err is the evaluation error that decided (onError), with ErrRule the
	// rule that failed.
	Err     error
	ErrRule string
}

// Response code details of local responses.
const (
	DetailsRule    = "celwasm_denied_by_rule"
	DetailsDefault = "celwasm_denied_by_default"
	DetailsError   = "celwasm_evaluation_error"
	// DetailsBodyTooLarge: the request body exceeded requestBody.maxBytes.
	DetailsBodyTooLarge = "celwasm_request_body_too_large"
)

// New parses the plugin configuration and compiles every rule. The error
// names the rule and carries the engine's message (with cel-go's caret
// for compile errors).
func New(config []byte) (*Filter, error) {
	c, err := ParseConfig(config)
	if err != nil {
		return nil, err
	}
	spec := wire.EnvSpec{
		Base:                 c.Env.Base,
		CompatibilityVersion: c.Env.CompatibilityVersion,
		Extensions:           c.Env.Extensions,
	}
	for _, v := range vocabulary {
		spec.Variables = append(spec.Variables, wire.VariableDecl{Name: v.name, Type: "map(string, dyn)"})
	}
	env, err := engine.NewEnv(spec)
	if err != nil {
		return nil, fmt.Errorf("env: %v", err)
	}
	f := &Filter{Config: c, env: env, limit: c.CostLimit, act: newActivation(env.CEL().CELTypeAdapter())}
	if f.limit == 0 {
		f.limit = engine.DefaultCostLimit
	}
	for _, r := range c.Rules {
		prg, err := env.Compile(r.Expression)
		if err != nil {
			return nil, fmt.Errorf("rule %q: %v", r.Name, err)
		}
		if prg.OutputType != "bool" && prg.OutputType != "dyn" {
			return nil, fmt.Errorf("rule %q: the expression's type is %s; a rule must be a bool expression", r.Name, prg.OutputType)
		}
		if err := checkAttributes(prg.AST); err != nil {
			return nil, fmt.Errorf("rule %q: %v", r.Name, err)
		}
		ph, _ := parsePhase(r.Phase)
		if need, what := neededPhase(prg.AST); need > ph {
			return nil, fmt.Errorf("rule %q: %s exists from phase %s on; the rule's phase is %s", r.Name, what, need, ph)
		}
		f.rules = append(f.rules, compiledRule{Rule: r, phase: ph, prg: prg})
		f.HasPhase[ph] = true
		f.LastPhase = max(f.LastPhase, ph)
	}
	return f, nil
}

// Summary describes the configured filter for the log.
func (f *Filter) Summary() string {
	env := f.env.Spec.Base
	if f.env.Spec.CompatibilityVersion != "" {
		env += " " + f.env.Spec.CompatibilityVersion
	}
	return fmt.Sprintf("%d rules compiled (%s environment), no match: %s, evaluation error: %s, cost limit %d",
		len(f.rules), env, f.Config.Defaults.Action, f.Config.OnError.Action, f.limit)
}

// checkAttributes rejects selections of attributes the filter does not
// provide (request.pth), which would otherwise fail every request at
// evaluation.
func checkAttributes(ast *cel.Ast) error {
	if !ast.IsChecked() {
		return nil
	}
	native := ast.NativeRep()
	refs := native.ReferenceMap()
	var bad []string
	check := func(operand celast.Expr, field string) {
		if operand.Kind() != celast.IdentKind {
			return
		}
		name := operand.AsIdent()
		if ref, ok := refs[operand.ID()]; !ok || ref.Name != name {
			return
		}
		_, v := lookupVariable(name)
		if v == nil {
			return
		}
		if _, ok := v.index[field]; !ok {
			bad = append(bad, name+"."+field)
		}
	}
	celast.PreOrderVisit(native.Expr(), celast.NewExprVisitor(func(e celast.Expr) {
		switch e.Kind() {
		case celast.SelectKind:
			s := e.AsSelect()
			check(s.Operand(), s.FieldName())
		case celast.CallKind:
			c := e.AsCall()
			switch c.FunctionName() {
			case "_[_]", "_[?_]", "_?._":
				args := c.Args()
				if len(args) == 2 && args[1].Kind() == celast.LiteralKind {
					if s, ok := args[1].AsLiteral().(types.String); ok {
						check(args[0], string(s))
					}
				}
			}
		}
	}))
	if len(bad) == 0 {
		return nil
	}
	sort.Strings(bad)
	var known []string
	for _, b := range bad {
		_, v := lookupVariable(strings.SplitN(b, ".", 2)[0])
		var names []string
		for _, a := range v.attrs {
			names = append(names, a.name)
		}
		known = append(known, fmt.Sprintf("%s has %s", v.name, strings.Join(names, ", ")))
	}
	return fmt.Errorf("unknown attribute %s (%s)", strings.Join(bad, ", "), strings.Join(dedupe(known), "; "))
}

func dedupe(s []string) []string {
	out := s[:0]
	for i, x := range s {
		if i == 0 || x != s[i-1] {
			out = append(out, x)
		}
	}
	return out
}

// neededPhase returns the earliest phase in which every attribute the
// checked AST reads exists, and the attribute that needs it.
func neededPhase(ast *cel.Ast) (Phase, string) {
	if !ast.IsChecked() {
		return PhaseRequestHeaders, ""
	}
	native := ast.NativeRep()
	refs := native.ReferenceMap()
	need, what := PhaseRequestHeaders, ""
	celast.PreOrderVisit(native.Expr(), celast.NewExprVisitor(func(e celast.Expr) {
		switch e.Kind() {
		case celast.IdentKind:
			if ref, ok := refs[e.ID()]; ok && ref.Name == "response" && e.AsIdent() == "response" {
				need, what = PhaseResponseHeaders, "response"
			}
		case celast.SelectKind:
			s := e.AsSelect()
			op := s.Operand()
			if s.FieldName() == "body" && op.Kind() == celast.IdentKind && op.AsIdent() == "request" && need < PhaseRequestBody {
				if ref, ok := refs[op.ID()]; ok && ref.Name == "request" {
					need, what = PhaseRequestBody, "request.body"
				}
			}
		case celast.CallKind:
			c := e.AsCall()
			switch c.FunctionName() {
			case "_[_]", "_[?_]", "_?._":
				args := c.Args()
				if len(args) == 2 && args[1].Kind() == celast.LiteralKind && args[0].Kind() == celast.IdentKind &&
					args[0].AsIdent() == "request" && need < PhaseRequestBody {
					if s, ok := args[1].AsLiteral().(types.String); ok && s == "body" {
						need, what = PhaseRequestBody, "request.body"
					}
				}
			}
		}
	}))
	return need, what
}

// Decide evaluates the rules of every phase for one request, as if all
// its attributes were there at once (the phases' order and the defaults
// apply as in Evaluate).
func (f *Filter) Decide(h Host) Decision {
	for p := PhaseRequestHeaders; p <= f.LastPhase; p++ {
		if d, ok := f.Evaluate(h, p); ok {
			return d
		}
	}
	panic("filter: no decision at the last phase")
}

// Evaluate evaluates the rules of one phase for a request. decided is
// false when no rule of the phase matched and a later phase has rules;
// at LastPhase the defaults decide.
func (f *Filter) Evaluate(h Host, phase Phase) (d Decision, decided bool) {
	f.act.reset(h)
	defer f.act.reset(nil) // drop the request's values
	if d, ok := f.evaluate(phase); ok {
		return d, true
	}
	if phase < f.LastPhase {
		return Decision{}, false
	}
	if f.Config.Defaults.Action == ActionAllow {
		return Decision{Allow: true}, true
	}
	return Decision{Status: f.Config.Defaults.Status, Body: *f.Config.Defaults.Body, Details: DetailsDefault}, true
}

func (f *Filter) evaluate(phase Phase) (d Decision, decided bool) {
	for i, r := range f.rules {
		if r.phase != phase {
			continue
		}
		matched, err := f.eval(r)
		if err != nil {
			f.count(i, CounterEvalErrors)
			if ErrorCode(err) == wire.CodeCostLimit {
				f.count(i, CounterCostLimit)
			}
			f.log(abi.LogWarn, fmt.Sprintf("celwasm: rule %q: %v (onError: %s)", r.Name, err, f.Config.OnError.Action))
			switch f.Config.OnError.Action {
			case ActionSkip:
				continue
			case ActionAllow:
				f.count(i, CounterAllowed)
				return Decision{Allow: true, Err: err, ErrRule: r.Name}, true
			default:
				f.count(i, CounterDenied)
				return Decision{Status: f.Config.OnError.Status, Body: *f.Config.OnError.Body,
					Details: DetailsError, Err: err, ErrRule: r.Name}, true
			}
		}
		if !matched {
			continue
		}
		f.count(i, CounterMatched)
		if r.Action == ActionAllow {
			f.count(i, CounterAllowed)
			return Decision{Allow: true, Rule: r.Name}, true
		}
		f.count(i, CounterDenied)
		return Decision{Status: r.Status, Body: *r.Body, Rule: r.Name, Details: DetailsRule}, true
	}
	return Decision{}, false
}

func (f *Filter) eval(r compiledRule) (matched bool, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = &wire.Error{Code: wire.CodeInternal, Message: fmt.Sprint("panic: ", p)}
		}
	}()
	val, _, err := r.prg.Eval(f.act, f.limit)
	if err != nil {
		return false, err
	}
	b, ok := val.(types.Bool)
	if !ok {
		return false, &wire.Error{Code: wire.CodeEval, Message: fmt.Sprintf("the rule evaluated to %s, not a bool", val.Type().TypeName())}
	}
	return bool(b), nil
}

func (f *Filter) count(rule int, c Counter) {
	if f.Count != nil {
		f.Count(rule, c)
	}
}

func (f *Filter) log(level abi.LogLevel, msg string) {
	if f.Log != nil {
		f.Log(level, msg)
	}
}

// ErrorCode returns the engine's error code of an evaluation error
// ("eval_error", "cost_limit_exceeded", ...), or "".
func ErrorCode(err error) string {
	var e *wire.Error
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}
