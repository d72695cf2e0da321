package engine

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/celwasm/celwasm/wire"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/interpreter"
)

// Program is a compiled expression: the checked (or parsed) AST and the
// cel-go programs planned from it, one per cost limit in use. A Program is
// not safe for concurrent use: it plans programs for new cost limits lazily,
// like the single-threaded WebAssembly instance that holds it.
type Program struct {
	Env          *Env
	Expression   string
	AST          *cel.Ast
	OutputType   string
	CostEstimate *wire.CostEstimate
	progs        map[uint64]evaluator
	// dflt is progs[DefaultCostLimit], the one nearly every call uses,
	// without a map lookup; it is never evicted.
	dflt evaluator
}

// evaluator is a cel.Program with the fork's EvalCost
// (wasm/third_party/cel-go/PATCHES.md): Eval that returns the actual cost
// instead of allocating EvalDetails for it.
type evaluator interface {
	cel.Program
	EvalCost(act interpreter.Activation) (out ref.Val, cost uint64, tracked bool, err error)
}

// maxPlannedLimits bounds how many distinct cost limits a program keeps a
// planned cel.Program for.
const maxPlannedLimits = 8

// Compile parses and (unless the environment disables it) type-checks expr.
// A failure is a *wire.Error with code compile_error and every issue.
func (e *Env) Compile(expr string) (*Program, error) {
	if !utf8.ValidString(expr) {
		return nil, Errorf(wire.CodeCompile, "expression is not valid UTF-8")
	}
	var ast *cel.Ast
	var iss *cel.Issues
	if e.Spec.DisableTypeCheck {
		ast, iss = e.cel.Parse(expr)
	} else {
		ast, iss = e.cel.Compile(expr)
	}
	if iss != nil && iss.Err() != nil {
		return nil, compileError(expr, iss)
	}
	p := &Program{Env: e, Expression: expr, AST: ast, progs: map[uint64]evaluator{}}
	if ast.IsChecked() {
		p.OutputType = cel.FormatCELType(ast.OutputType())
		est, err := e.cel.EstimateCost(ast, e.estim)
		if err == nil {
			p.CostEstimate = &wire.CostEstimate{Min: est.Min, Max: est.Max}
		}
	} else {
		p.OutputType = "dyn"
	}
	if _, err := p.program(DefaultCostLimit); err != nil {
		return nil, &wire.Error{Code: wire.CodeCompile, Message: err.Error()}
	}
	return p, nil
}

func compileError(expr string, iss *cel.Issues) *wire.Error {
	src := common.NewTextSource(expr)
	out := &wire.Error{Code: wire.CodeCompile, Message: iss.String()}
	for _, e := range iss.Errors() {
		out.Issues = append(out.Issues, wire.Issue{
			Line:    e.Location.Line(),
			Column:  e.Location.Column() + 1,
			Message: e.Message,
			Snippet: e.ToDisplayString(src),
		})
	}
	return out
}

func (p *Program) program(limit uint64) (evaluator, error) {
	if limit == DefaultCostLimit && p.dflt != nil {
		return p.dflt, nil
	}
	if prg, ok := p.progs[limit]; ok {
		return prg, nil
	}
	planned, err := p.Env.cel.Program(p.AST, p.Env.programOptions(limit)...)
	if err != nil {
		return nil, err
	}
	prg, ok := planned.(evaluator)
	if !ok {
		return nil, fmt.Errorf("cel-go's program %T has no EvalCost: the build does not use the fork", planned)
	}
	if len(p.progs) >= maxPlannedLimits {
		for k := range p.progs {
			if k != DefaultCostLimit {
				delete(p.progs, k)
				break
			}
		}
	}
	p.progs[limit] = prg
	if limit == DefaultCostLimit {
		p.dflt = prg
	}
	return prg, nil
}

// References reports whether the program may read one of the named
// variables, from the checked AST's reference map; a program that was not
// type-checked resolves names only as it evaluates, so it reports true.
func (p *Program) References(names ...string) bool {
	if !p.AST.IsChecked() {
		return true
	}
	for _, r := range p.AST.NativeRep().ReferenceMap() {
		if slices.Contains(names, r.Name) {
			return true
		}
	}
	return false
}

// Eval evaluates the program against an activation with a per-call cost
// limit in cost units (0 means DefaultCostLimit). It returns the value and
// the actual cost; a failure is a *wire.Error with code eval_error or
// cost_limit_exceeded whose Cost holds the cost spent.
func (p *Program) Eval(act interpreter.Activation, costLimit uint64) (val ref.Val, cost uint64, err error) {
	if costLimit == 0 {
		costLimit = DefaultCostLimit
	}
	prg, err := p.program(costLimit)
	if err != nil {
		return nil, 0, &wire.Error{Code: wire.CodeInternal, Message: err.Error()}
	}
	out, cost, _, err := prg.EvalCost(act)
	if err != nil {
		var cancelled interpreter.EvalCancelledError
		if errors.As(err, &cancelled) {
			if cancelled.Cause == interpreter.CostLimitExceeded {
				return nil, cost, evalError(wire.CodeCostLimit, err.Error(), cost)
			}
			return nil, cost, evalError(wire.CodeCanceled, err.Error(), cost)
		}
		code := wire.CodeEval
		if strings.HasPrefix(err.Error(), "internal error:") {
			code = wire.CodeInternal
		}
		return nil, cost, evalError(code, err.Error(), cost)
	}
	if types.IsUnknown(out) {
		return nil, cost, evalError(wire.CodeEval, "result is unknown", cost)
	}
	return out, cost, nil
}

// evalError is a failed evaluation's error with the cost it spent. The cost
// is its own variable: taking the address of Eval's result would move that
// to the heap on every call, successful ones too.
func evalError(code, message string, cost uint64) *wire.Error {
	return &wire.Error{Code: code, Message: message, Cost: &cost}
}
