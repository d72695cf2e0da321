// Command celwasm evaluates CEL expressions through the celwasm WebAssembly
// module: the same engine, and the same bytes, as every celwasm host.
//
//	celwasm eval -e EXPR [--var NAME=TYPE]... [--k8s-version 1.34] [-i FILE|-]
//	celwasm check -e EXPR [--var NAME=TYPE]...
//	celwasm filter --filter filter.yaml [-i events.ndjson|-] [--explain]
//	celwasm when --context ctx.json -e EXPR [-e EXPR]...
//	celwasm validate --crd crd.yaml [--old old.yaml] object.yaml...
//	celwasm cost --crd crd.yaml
//	celwasm version
//	celwasm warm [--module celwasm|celwasm-full|celwasm-admission]
//
// Exit status, the same for every command (and for python -m celwasm):
//
//	0  a result: the value, the type, a valid object, rules within the limits
//	1  a failure of what was asked: compile or evaluation error, an invalid
//	   object, a CRD that would be rejected, a rule over a cost limit
//	2  the command did not run: bad usage (unknown flag, bad flag value,
//	   --engine other than wasmtime or wazero), or unreadable input (a file
//	   that cannot be read, is neither JSON nor YAML, nests deeper than 1000,
//	   or is not what the flag needs; eval with no input for an expression
//	   that reads it)
//
// when is the one exception: it exits 1 for false, so its errors exit 2.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	celwasm "github.com/celwasm/celwasm/host"
	"github.com/celwasm/celwasm/wire"
)

const usage = `celwasm: CEL (cel-go + the Kubernetes CEL libraries) through WebAssembly

Usage:
  celwasm eval -e EXPR [flags] [-i FILE|-]   evaluate; prints the result as canonical JSON
  celwasm check -e EXPR [flags]              type-check; prints the output type and cost estimate
  celwasm filter --filter F.yaml -i EVENTS   CloudEvents trigger filter: matching events to stdout
  celwasm when --context CTX -e EXPR...      Tekton when expressions: prints true/false, exit 0/1
  celwasm validate --crd CRD.yaml OBJ.yaml   custom resources against a CRD, as kube-apiserver (--old for updates)
  celwasm cost --crd CRD.yaml                a CRD's rule cost estimates against the limits, explained
  celwasm admit -f POLICIES.yaml OBJ.yaml    admission policies (VAP, MAP) on objects, as kube-apiserver
  celwasm version                            module, cel-go and Kubernetes versions
  celwasm warm [--module M]                  compile the modules for this machine into the cache, ahead of a first run

Run 'celwasm COMMAND -h' for a command's flags.

Exit status: 0 a result (valid, within the limits); 1 a compile, evaluation or
validation failure (when: false); 2 bad usage or unreadable input (when: any error).
`

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// exit codes
const (
	exitOK    = 0
	exitError = 1
	exitUsage = 2
)

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return exitUsage
	}
	ctx := context.Background()
	switch args[0] {
	case "eval":
		return cmdEval(ctx, args[1:], stdin, stdout, stderr)
	case "check":
		return cmdCheck(ctx, args[1:], stdout, stderr)
	case "version":
		return cmdVersion(ctx, args[1:], stdout, stderr)
	case "filter":
		return cmdFilter(ctx, args[1:], stdin, stdout, stderr)
	case "when":
		return cmdWhen(ctx, args[1:], stdout, stderr)
	case "validate":
		return cmdValidate(ctx, args[1:], stdin, stdout, stderr)
	case "cost":
		return cmdCost(ctx, args[1:], stdin, stdout, stderr)
	case "admit":
		return cmdAdmit(ctx, args[1:], stdin, stdout, stderr)
	case "warm":
		return cmdWarm(ctx, args[1:], stdout, stderr)
	case "-h", "--help", "help":
		fmt.Fprint(stdout, usage)
		return exitOK
	}
	fmt.Fprintf(stderr, "celwasm: unknown command %q\n\n%s", args[0], usage)
	return exitUsage
}

// envFlags are the flags that describe the environment.
type envFlags struct {
	expr      string
	vars      multiFlag
	exts      multiFlag
	k8s       string
	stored    bool
	base      string
	container string
	noCheck   bool
	noMacros  bool
	engine    string
}

func (f *envFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.expr, "e", "", "the CEL `expression` (required)")
	fs.Var(&f.vars, "var", "declare a variable `NAME=TYPE` (CEL type name, e.g. self=map(string, dyn)); repeatable")
	fs.Var(&f.exts, "ext", "add a cel-go extension `NAME[:VERSION]` (math, encoders, bindings, protos, strings, lists, sets, two-var-comprehensions); repeatable")
	fs.StringVar(&f.k8s, "k8s-version", "", "Kubernetes compatibility `version` of the base environment (1.30 ... 1.37; default: newest)")
	fs.BoolVar(&f.stored, "stored", false, "use kube-apiserver's StoredExpressions environment instead of NewExpressions")
	fs.StringVar(&f.base, "base", "kubernetes", "base environment: kubernetes or cel")
	fs.StringVar(&f.container, "container", "", "container (namespace) for identifier resolution")
	fs.BoolVar(&f.noCheck, "disable-check", false, "parse only, no type check")
	fs.BoolVar(&f.noMacros, "disable-macros", false, "turn off macros")
	fs.StringVar(&f.engine, "engine", defaultEngine, engineUsage)
}

func (f *envFlags) options() ([]celwasm.EnvOption, error) {
	var opts []celwasm.EnvOption
	for _, v := range f.vars {
		name, typ, ok := strings.Cut(v, "=")
		if !ok || name == "" || typ == "" {
			return nil, fmt.Errorf("--var %q: want NAME=TYPE", v)
		}
		opts = append(opts, celwasm.Variable(strings.TrimSpace(name), strings.TrimSpace(typ)))
	}
	for _, x := range f.exts {
		name, ver, hasVer := strings.Cut(x, ":")
		if hasVer {
			var n uint32
			if _, err := fmt.Sscanf(ver, "%d", &n); err != nil {
				return nil, fmt.Errorf("--ext %q: version must be a number", x)
			}
			opts = append(opts, celwasm.Extension(name, n))
		} else {
			opts = append(opts, celwasm.Extension(name))
		}
	}
	switch f.base {
	case "kubernetes":
	case "cel":
		opts = append(opts, celwasm.BaseCEL())
	default:
		return nil, fmt.Errorf("--base must be kubernetes or cel")
	}
	if f.k8s != "" {
		opts = append(opts, celwasm.CompatibilityVersion(f.k8s))
	}
	if f.stored {
		opts = append(opts, celwasm.StoredExpressions())
	}
	if f.container != "" {
		opts = append(opts, celwasm.Container(f.container))
	}
	if f.noCheck {
		opts = append(opts, celwasm.DisableTypeCheck())
	}
	if f.noMacros {
		opts = append(opts, celwasm.DisableMacros())
	}
	return opts, nil
}

func (f *envFlags) declared(name string) bool {
	for _, v := range f.vars {
		if n, _, _ := strings.Cut(v, "="); strings.TrimSpace(n) == name {
			return true
		}
	}
	return false
}

// defaultEngine is wasmtime-go: a CLI process pays the module load on every
// run, and with the compile cache warm that is about 40 ms for wasmtime
// (its serialized code is mapped as is) against about 550 ms for wazero
// (which revalidates every function of the module on each load; see
// RATIONALE.md). Results are the same bytes on both.
const (
	defaultEngine = "wasmtime"
	engineUsage   = "WebAssembly runtime: wasmtime (default; faster start and evaluation) or wazero (pure Go)"
)

// newRuntime opens the Runtime a command uses and release closes it; tests
// replace both to share one Runtime per engine across many commands.
var (
	newRuntime = openRuntime
	release    = func(ctx context.Context, rt *celwasm.Runtime) { rt.Close(ctx) }
)

// checkEngine reports an --engine value other than wazero or wasmtime (exit 2).
func checkEngine(stderr io.Writer, cmd, engine string) bool {
	if engine == "wazero" || engine == "wasmtime" {
		return true
	}
	fmt.Fprintf(stderr, "celwasm %s: --engine must be wazero or wasmtime\n", cmd)
	return false
}

func openRuntime(ctx context.Context, engine string, stderr io.Writer) (*celwasm.Runtime, error) {
	if engine != "wazero" && engine != "wasmtime" {
		return nil, fmt.Errorf("--engine must be wazero or wasmtime")
	}
	return celwasm.New(ctx, celwasm.WithInstances(1), celwasm.WithBeforeCompile(func(module, cacheDir string) {
		fmt.Fprintln(stderr, compileLine(module, cacheDir))
	}), celwasm.WithEngine(engine, firstRunEngine(engine, stderr)))
}

// compileLine is the progress line printed before a module is compiled (up
// to a minute); python -m celwasm prints the same (with its own cache
// directory). celwasm-full and celwasm-admission are loaded, and announced,
// only when a command needs them.
func compileLine(module, cacheDir string) string {
	what := "the WebAssembly module"
	if module != "celwasm" {
		what += " " + module
	}
	if cacheDir == "" {
		return "celwasm: compiling " + what + " for this machine (up to a minute; no cache directory, so every run compiles)"
	}
	return "celwasm: compiling " + what + " for this machine, once (up to a minute); the compiled code is cached in " + cacheDir
}

type multiFlag []string

func (m *multiFlag) String() string     { return strings.Join(*m, ",") }
func (m *multiFlag) Set(v string) error { *m = append(*m, v); return nil }

// report prints an error and returns the exit code for it.
func report(stderr io.Writer, err error) int {
	var ce *celwasm.Error
	if errors.As(err, &ce) {
		if ce.Code == celwasm.CodeCompile && len(ce.Issues) > 0 {
			for _, is := range ce.Issues {
				fmt.Fprintln(stderr, is.Snippet)
			}
			return exitError
		}
		fmt.Fprintf(stderr, "error: %s: %s\n", ce.Code, ce.Message)
		return exitError
	}
	fmt.Fprintf(stderr, "error: %v\n", err)
	return exitError
}

func cmdVersion(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("celwasm version", flag.ContinueOnError)
	fs.SetOutput(stderr)
	engine := fs.String("engine", defaultEngine, engineUsage)
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	if !checkEngine(stderr, "version", *engine) {
		return exitUsage
	}
	rt, err := newRuntime(ctx, *engine, stderr)
	if err != nil {
		return report(stderr, err)
	}
	defer release(ctx, rt)
	v, err := rt.Version(ctx)
	if err != nil {
		return report(stderr, err)
	}
	fmt.Fprintf(stdout, "celwasm %s (ABI %d)\n", v.Module, v.ABI)
	for _, m := range v.Modules {
		fmt.Fprintf(stdout, "module %s: %d bytes, sha256 %s\n", m.Name, m.Size, m.SHA256)
	}
	fmt.Fprintf(stdout, "cel-go %s, k8s.io/apiserver %s, %s\n", v.CELGo, v.Kubernetes, v.Go)
	fmt.Fprintf(stdout, "compatibility versions %s (default %s)\n", strings.Join(v.CompatibilityVersions, ", "), v.DefaultCompatibilityVersion)
	fmt.Fprintf(stdout, "extensions %s\n", strings.Join(v.Extensions, ", "))
	fmt.Fprintf(stdout, "engine %s\n", v.Engine)
	return exitOK
}

func cmdCheck(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("celwasm check", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var ef envFlags
	ef.register(fs)
	output := fs.String("o", "text", "output: text or json")
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	if ef.expr == "" || fs.NArg() > 0 || (*output != "text" && *output != "json") {
		fmt.Fprintln(stderr, "celwasm check: -e EXPR is required; -o is text or json")
		return exitUsage
	}
	opts, err := ef.options()
	if err != nil {
		fmt.Fprintln(stderr, "celwasm check:", err)
		return exitUsage
	}
	if !checkEngine(stderr, "check", ef.engine) {
		return exitUsage
	}
	rt, err := newRuntime(ctx, ef.engine, stderr)
	if err != nil {
		return report(stderr, err)
	}
	defer release(ctx, rt)
	prg, err := rt.NewEnv(opts...).Compile(ctx, ef.expr)
	if err != nil {
		return report(stderr, err)
	}
	defer prg.Close()
	// JSON keeps numbers (an unbounded estimate is 18446744073709551615);
	// text prints costs as cost does (wire.FormatCost: "unbounded", 1,234).
	if *output == "json" {
		fmt.Fprintf(stdout, `{"outputType":%q`, prg.OutputType)
		if prg.CostEstimate != nil {
			fmt.Fprintf(stdout, `,"costEstimate":{"min":%d,"max":%d}`, prg.CostEstimate.Min, prg.CostEstimate.Max)
		}
		fmt.Fprintln(stdout, "}")
		return exitOK
	}
	fmt.Fprintf(stdout, "type: %s\n", prg.OutputType)
	if prg.CostEstimate != nil {
		fmt.Fprintf(stdout, "cost estimate: %s..%s cost units (per-call limit %s)\n", wire.FormatCost(prg.CostEstimate.Min), wire.FormatCost(prg.CostEstimate.Max), wire.GroupDigits(celwasm.DefaultCostLimit))
	}
	return exitOK
}
