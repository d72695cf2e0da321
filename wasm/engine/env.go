// Package engine is celwasm's CEL core: environments (cel-go configured as
// kube-apiserver configures it, by Kubernetes compatibility version, or
// plain cel-go), declarations (variables, functions), compilation to a
// checked AST with its cost estimate, programs, and evaluation with a cost
// limit and host interrupts. It is host-agnostic: package abi puts it behind
// the module's JSON ABI, package codec turns JSON into activations and
// values into canonical JSON, and the libraries on top (events, tekton, crd,
// authz) compose it. The same code runs natively in tests and benchmarks.
package engine

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/celwasm/celwasm/wire"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/checker"
	"github.com/google/cel-go/common/env"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/ext"
	"google.golang.org/protobuf/reflect/protoregistry"
	"k8s.io/apimachinery/pkg/util/version"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
	"k8s.io/apiserver/pkg/cel/environment"
	"k8s.io/apiserver/pkg/cel/library"
)

// Base environment names.
const (
	// BaseKubernetes is kube-apiserver's versioned base environment
	// (k8s.io/apiserver/pkg/cel/environment).
	BaseKubernetes = "kubernetes"
	// BaseCEL is cel-go's standard environment with optional types, the
	// environment of the cel-spec conformance tests.
	BaseCEL = "cel"
)

// Environment types, as kube-apiserver names them.
const (
	NewExpressions    = string(environment.NewExpressions)
	StoredExpressions = string(environment.StoredExpressions)
)

// DefaultCostLimit is kube-apiserver's PerCallLimit, in cost units.
const DefaultCostLimit = uint64(celconfig.PerCallLimit)

// MinCompatibilityVersion and MaxCompatibilityVersion bound the Kubernetes
// compatibility versions ("1.30" ... "1.37") a request may name.
var (
	MinCompatibilityVersion = version.MajorMinor(1, 30)
	MaxCompatibilityVersion = version.MajorMinor(1, 37)
)

// CompatibilityVersions lists the accepted compatibility versions, oldest first.
func CompatibilityVersions() []string {
	var out []string
	for m := MinCompatibilityVersion.Minor(); m <= MaxCompatibilityVersion.Minor(); m++ {
		out = append(out, "1."+strconv.Itoa(int(m)))
	}
	return out
}

// Extensions lists the extension names an EnvSpec may request: cel-go's
// extensions, plus "block" (the cel.block syntax of the cel-spec tests, see
// decls.go), "jsonpatch" (kube-apiserver's jsonpatch library, which only
// mutating admission policies have) and "network" (cel-go's ip/cidr library,
// for the cel base; the kubernetes base has its own).
var Extensions = []string{"bindings", "block", "encoders", "jsonpatch", "lists", "math", "network", "protos", "sets", "strings", "two-var-comprehensions"}

// Env is a constructed CEL environment with its declarations resolved.
type Env struct {
	Spec  wire.EnvSpec
	cel   *cel.Env
	k8s   bool
	estim checker.CostEstimator
	// varTypes maps declared variable names to their CEL types; they
	// drive activation conversions (docs/value-encoding.md).
	varTypes map[string]*cel.Type
	// files holds the descriptor set's messages, for decoding typed values.
	files *protoregistry.Files
	// ctors are the programs that build library objects (quantity(s), ...).
	ctors map[string]cel.Program
}

// CEL returns the underlying cel-go environment.
func (e *Env) CEL() *cel.Env { return e.cel }

// NewEnv builds the environment a spec describes. Errors are *wire.Error with
// code "invalid_env".
func NewEnv(spec wire.EnvSpec) (*Env, error) {
	if spec.Base == "" {
		spec.Base = BaseKubernetes
	}
	if spec.EnvType == "" {
		spec.EnvType = NewExpressions
	}
	if spec.EnvType != NewExpressions && spec.EnvType != StoredExpressions {
		return nil, envErr("envType must be %q or %q, got %q", NewExpressions, StoredExpressions, spec.EnvType)
	}
	var opts []cel.EnvOption
	if spec.Container != "" {
		opts = append(opts, cel.Container(spec.Container))
	}
	if spec.DisableMacros {
		opts = append(opts, cel.ClearMacros())
	}
	if spec.ErrorOnBadPresenceTest {
		opts = append(opts, cel.EnableErrorOnBadPresenceTest(true))
	}
	extOpts, err := extensionOptions(spec.Extensions)
	if err != nil {
		return nil, err
	}

	e := &Env{varTypes: map[string]*cel.Type{}}
	if spec.DescriptorSet != "" {
		files, err := loadDescriptorSet(spec.DescriptorSet)
		if err != nil {
			return nil, envErr("%v", err)
		}
		e.files = files
		opts = append([]cel.EnvOption{cel.TypeDescs(files)}, opts...)
	}
	var base *cel.Env
	switch spec.Base {
	case BaseKubernetes:
		ver, err := ParseCompatibilityVersion(spec.CompatibilityVersion)
		if err != nil {
			return nil, err
		}
		spec.CompatibilityVersion = fmt.Sprintf("%d.%d", ver.Major(), ver.Minor())
		set := environment.MustBaseEnvSet(ver)
		baseEnv, _ := set.Env(environment.Type(spec.EnvType))
		for _, x := range spec.Extensions {
			if x.Name == "network" {
				return nil, envErr("extension \"network\" is for the cel base; the Kubernetes base environment has its own ip and cidr libraries")
			}
			if lib := extensionLibraryName(x.Name); baseEnv.HasLibrary(lib) {
				return nil, envErr("extension %q is already part of the Kubernetes base environment (%s, %s); it cannot be added again", x.Name, spec.CompatibilityVersion, spec.EnvType)
			}
		}
		// Only the env type asked for is extended: EnvSet.Extend would build
		// both (the same options, as no version or feature gate limits them).
		base, err = baseEnv.Extend(append(extOpts, opts...)...)
		if err != nil {
			return nil, envErr("%v", err)
		}
		e.k8s = true
		e.estim = &library.CostEstimator{}
	case BaseCEL:
		if spec.CompatibilityVersion != "" {
			return nil, envErr("compatibilityVersion applies to the kubernetes base only")
		}
		all := append([]cel.EnvOption{
			cel.OptionalTypes(),
			cel.EagerlyValidateDeclarations(true),
			cel.DefaultUTCTimeZone(true),
		}, extOpts...)
		all = append(all, opts...)
		base, err = cel.NewEnv(all...)
		if err != nil {
			return nil, envErr("%v", err)
		}
		e.estim = nilEstimator{}
	default:
		return nil, envErr("base must be %q or %q, got %q", BaseKubernetes, BaseCEL, spec.Base)
	}

	var vars []cel.EnvOption
	seen := map[string]bool{}
	for _, v := range spec.Variables {
		if v.Name == "" {
			return nil, envErr("variable declaration without a name")
		}
		if seen[v.Name] {
			return nil, envErr("variable %q declared twice", v.Name)
		}
		seen[v.Name] = true
		t, err := ResolveType(v.Type, e.typeProvider(base))
		if err != nil {
			return nil, envErr("variable %q: %v", v.Name, err)
		}
		e.varTypes[v.Name] = t
		vars = append(vars, cel.Variable(v.Name, t))
	}
	fns, err := functionDecls(spec.Functions, e.typeProvider(base))
	if err != nil {
		return nil, err
	}
	vars = append(vars, fns...)
	if len(vars) > 0 {
		base, err = base.Extend(vars...)
		if err != nil {
			return nil, envErr("%v", err)
		}
	}
	e.cel = base
	e.Spec = spec
	return e, nil
}

// typeProvider resolves declared type names: the environment's types, and
// for the kubernetes base also the library types that have no constructor
// (kubernetes.authorization.Authorizer, ...), which kube-apiserver declares
// variables of directly.
func (e *Env) typeProvider(env *cel.Env) types.Provider {
	if !e.k8s {
		return env.CELTypeProvider()
	}
	return libraryTypes{env.CELTypeProvider()}
}

type libraryTypes struct{ types.Provider }

func (p libraryTypes) FindIdent(name string) (ref.Val, bool) {
	if v, ok := p.Provider.FindIdent(name); ok {
		return v, ok
	}
	for _, lib := range library.KnownLibraries() {
		for _, t := range lib.Types() {
			if t.TypeName() == name {
				return t, true
			}
		}
	}
	return nil, false
}

// ParseCompatibilityVersion parses "1.N" (empty: the newest known) and checks
// it against the supported range.
func ParseCompatibilityVersion(s string) (*version.Version, error) {
	if s == "" {
		return MaxCompatibilityVersion, nil
	}
	v, err := version.ParseMajorMinor(strings.TrimPrefix(s, "v"))
	if err != nil || len(v.Components()) != 2 {
		return nil, envErr("compatibilityVersion %q: want MAJOR.MINOR such as %q", s, "1.34")
	}
	if v.LessThan(MinCompatibilityVersion) || v.GreaterThan(MaxCompatibilityVersion) {
		return nil, envErr("compatibilityVersion %q is not supported; supported: %s", s, strings.Join(CompatibilityVersions(), ", "))
	}
	return v, nil
}

func extensionLibraryName(name string) string {
	switch name {
	case "bindings":
		return "cel.lib.ext.cel.bindings"
	case "block":
		return blockLibraryName
	case "jsonpatch":
		return "kubernetes.jsonpatch"
	case "two-var-comprehensions":
		return "cel.lib.ext.comprev2"
	}
	return "cel.lib.ext." + name
}

func extensionOptions(exts []wire.ExtensionRef) ([]cel.EnvOption, error) {
	var opts []cel.EnvOption
	seen := map[string]bool{}
	for _, x := range exts {
		known := false
		for _, n := range Extensions {
			known = known || n == x.Name
		}
		if !known {
			return nil, envErr("unknown extension %q; known: %s", x.Name, strings.Join(Extensions, ", "))
		}
		if seen[x.Name] {
			return nil, envErr("extension %q requested twice", x.Name)
		}
		seen[x.Name] = true
		ver := x.Version
		if ver == "" {
			ver = "latest"
		}
		cfg := env.NewExtension(x.Name, 0)
		cfg.Version = ver
		num, err := cfg.VersionNumber()
		if err != nil {
			return nil, envErr("%v", err)
		}
		switch x.Name {
		case "block":
			if num != 0 && num != math.MaxUint32 {
				return nil, envErr("extension %q has only version 0", x.Name)
			}
			if !hasBindingsV1(exts) {
				return nil, envErr("extension \"block\" needs the \"bindings\" extension, version 1 or later, which plans cel.@block")
			}
			opts = append(opts, cel.Lib(blockLib{}))
			continue
		case "jsonpatch":
			if num != 0 && num != math.MaxUint32 {
				return nil, envErr("extension %q has only version 0", x.Name)
			}
			opts = append(opts, library.JSONPatch())
			continue
		case "network":
			if num == math.MaxUint32 {
				num = ext.Version1
			}
			if num != ext.Version1 {
				return nil, envErr("extension %q has only version 1", x.Name)
			}
			opts = append(opts, ext.Network(ext.NetworkVersion(num)))
			continue
		}
		opt, ok := ext.ExtensionOptionFactory(cfg)
		if !ok {
			return nil, envErr("unknown extension %q", x.Name)
		}
		opts = append(opts, opt)
	}
	return opts, nil
}

// nilEstimator gives cel-go's default estimates (no size hints, no custom
// function costs); used for the plain cel base.
type nilEstimator struct{}

func (nilEstimator) EstimateSize(checker.AstNode) *checker.SizeEstimate { return nil }
func (nilEstimator) EstimateCallCost(string, string, *checker.AstNode, []checker.AstNode) *checker.CallEstimate {
	return nil
}

// programOptions are the options every program of this environment gets on
// top of those the base environment carries.
func (e *Env) programOptions(costLimit uint64) []cel.ProgramOption {
	if e.k8s {
		// The base env already has OptOptimize, OptTrackCost and the
		// library cost tracker; the per-call limit and the constant
		// constructors (constctor.go) are ours.
		return []cel.ProgramOption{cel.CostLimit(costLimit), cel.CustomDecoratorV2(decorateConstCtors)}
	}
	// No OptOptimize for the cel base: constant folding at planning turns
	// errors of constant subexpressions (int(1e100), timestamp overflow)
	// into compile errors, where the CEL specification has evaluation
	// errors. kube-apiserver folds, so the kubernetes base does.
	return []cel.ProgramOption{
		cel.EvalOptions(cel.OptTrackCost),
		cel.CostLimit(costLimit),
	}
}

// Construct builds a library object by calling its CEL constructor, so the
// library's own parsing and validation apply.
func (e *Env) Construct(fn, arg string) (ref.Val, error) {
	if e.ctors == nil {
		e.ctors = map[string]cel.Program{}
	}
	prg, ok := e.ctors[fn]
	if !ok {
		env, err := e.cel.Extend(cel.Variable("__arg", types.StringType))
		if err != nil {
			return nil, err
		}
		ast, iss := env.Compile(fn + "(__arg)")
		if iss.Err() != nil {
			return nil, fmt.Errorf("%s() is not available in this environment", fn)
		}
		if prg, err = env.Program(ast); err != nil {
			return nil, err
		}
		e.ctors[fn] = prg
	}
	v, _, err := prg.Eval(map[string]any{"__arg": arg})
	if err != nil {
		return nil, fmt.Errorf("%s(%q): %v", fn, arg, err)
	}
	return v, nil
}

// VariableType returns the declared type of a variable (nil: undeclared).
func (e *Env) VariableType(name string) *cel.Type { return e.varTypes[name] }
