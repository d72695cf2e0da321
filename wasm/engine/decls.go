package engine

import (
	"fmt"
	"math"
	"strconv"

	"github.com/celwasm/celwasm/wire"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/ast"
	"github.com/google/cel-go/common/env"
	"github.com/google/cel-go/common/types"
)

func functionDecls(fns []wire.FunctionDecl, tp types.Provider) ([]cel.EnvOption, error) {
	var opts []cel.EnvOption
	seen := map[string]bool{}
	for _, f := range fns {
		if f.Name == "" {
			return nil, envErr("function declaration without a name")
		}
		if seen[f.Name] {
			return nil, envErr("function %q declared twice", f.Name)
		}
		seen[f.Name] = true
		if len(f.Overloads) == 0 {
			return nil, envErr("function %q: no overloads", f.Name)
		}
		var ovs []cel.FunctionOpt
		for _, o := range f.Overloads {
			if o.ID == "" {
				return nil, envErr("function %q: overload without an id", f.Name)
			}
			params := map[string]bool{}
			for _, p := range o.TypeParams {
				params[p] = true
			}
			args := make([]*types.Type, len(o.Args))
			for i, a := range o.Args {
				t, err := resolveOverloadType(a, tp, params)
				if err != nil {
					return nil, envErr("function %q overload %q argument %d: %v", f.Name, o.ID, i, err)
				}
				args[i] = t
			}
			res, err := resolveOverloadType(o.Result, tp, params)
			if err != nil {
				return nil, envErr("function %q overload %q result: %v", f.Name, o.ID, err)
			}
			if o.Member {
				if len(args) == 0 {
					return nil, envErr("function %q overload %q: a member overload needs a receiver argument", f.Name, o.ID)
				}
				ovs = append(ovs, cel.MemberOverload(o.ID, args, res))
			} else {
				ovs = append(ovs, cel.Overload(o.ID, args, res))
			}
		}
		opts = append(opts, cel.Function(f.Name, ovs...))
	}
	return opts, nil
}

func resolveOverloadType(name string, tp types.Provider, params map[string]bool) (*types.Type, error) {
	td, err := ParseTypeName(name)
	if err != nil {
		return nil, err
	}
	return overloadType(td, tp, params)
}

func overloadType(td *env.TypeDesc, tp types.Provider, params map[string]bool) (*types.Type, error) {
	if len(td.Params) == 0 {
		if params[td.TypeName] {
			return types.NewTypeParamType(td.TypeName), nil
		}
		return td.AsCELType(tp)
	}
	ps := make([]*types.Type, len(td.Params))
	for i, p := range td.Params {
		t, err := overloadType(p, tp, params)
		if err != nil {
			return nil, err
		}
		ps[i] = t
	}
	switch td.TypeName {
	case "list":
		return types.NewListType(ps[0]), nil
	case "map":
		return types.NewMapType(ps[0], ps[1]), nil
	case "optional_type":
		return types.NewOptionalType(ps[0]), nil
	case "type":
		return types.NewTypeTypeWithParam(ps[0]), nil
	}
	return types.NewOpaqueType(td.TypeName, ps...), nil
}

// blockLibraryName names the block library.
const blockLibraryName = "celwasm.lib.cel.block"

// blockLib is the cel.block syntax of the cel-spec block_ext tests: the
// macros cel.block(list, expr), cel.index(N), cel.iterVar(N, M) and
// cel.accuVar(N, M) rewrite to cel.@block, @indexN, @it:N:M and @ac:N:M,
// which the bindings extension (version 1+) plans. Such expressions are what
// cel-go's common-subexpression optimizer produces.
type blockLib struct{}

// maxBlockIndices is how many @indexN slots are declared, as in cel-go's
// conformance runner.
const maxBlockIndices = 30

func (blockLib) LibraryName() string { return blockLibraryName }

func (blockLib) CompileOptions() []cel.EnvOption {
	opts := []cel.EnvOption{cel.Macros(
		cel.ReceiverMacro("block", 2, blockMacro),
		cel.ReceiverMacro("index", 1, blockIndexMacro),
		cel.ReceiverMacro("iterVar", 2, blockVarMacro("cel.iterVar", "@it")),
		cel.ReceiverMacro("accuVar", 2, blockVarMacro("cel.accuVar", "@ac")),
	)}
	for i := 0; i < maxBlockIndices; i++ {
		opts = append(opts, cel.Variable("@index"+strconv.Itoa(i), cel.DynType))
	}
	return opts
}

func (blockLib) ProgramOptions() []cel.ProgramOption { return nil }

func hasBindingsV1(exts []wire.ExtensionRef) bool {
	for _, x := range exts {
		if x.Name == "bindings" {
			if x.Version == "" || x.Version == "latest" {
				return true
			}
			n, err := strconv.ParseUint(x.Version, 10, 32)
			return err == nil && n >= 1 && n <= math.MaxUint32
		}
	}
	return false
}

func isCELNamespace(target ast.Expr) bool {
	return target.Kind() == ast.IdentKind && target.AsIdent() == "cel"
}

func nonNegativeIntLiteral(e ast.Expr) (int64, bool) {
	if e.Kind() != ast.LiteralKind {
		return 0, false
	}
	i, ok := e.AsLiteral().(types.Int)
	return int64(i), ok && i >= 0
}

func blockMacro(mef cel.MacroExprFactory, target ast.Expr, args []ast.Expr) (ast.Expr, *cel.Error) {
	if !isCELNamespace(target) {
		return nil, nil
	}
	if args[0].Kind() != ast.ListKind {
		return nil, mef.NewError(args[0].ID(), "cel.block requires the first argument to be a list literal")
	}
	return mef.NewCall("cel.@block", args...), nil
}

func blockIndexMacro(mef cel.MacroExprFactory, target ast.Expr, args []ast.Expr) (ast.Expr, *cel.Error) {
	if !isCELNamespace(target) {
		return nil, nil
	}
	i, ok := nonNegativeIntLiteral(args[0])
	if !ok {
		return nil, mef.NewError(args[0].ID(), "cel.index requires a single non-negative int literal")
	}
	return mef.NewIdent(fmt.Sprintf("@index%d", i)), nil
}

func blockVarMacro(fn, prefix string) cel.MacroFactory {
	return func(mef cel.MacroExprFactory, target ast.Expr, args []ast.Expr) (ast.Expr, *cel.Error) {
		if !isCELNamespace(target) {
			return nil, nil
		}
		depth, ok1 := nonNegativeIntLiteral(args[0])
		unique, ok2 := nonNegativeIntLiteral(args[1])
		if !ok1 || !ok2 {
			return nil, mef.NewError(target.ID(), fn+" requires two non-negative int literals")
		}
		return mef.NewIdent(fmt.Sprintf("%s:%d:%d", prefix, depth, unique)), nil
	}
}
