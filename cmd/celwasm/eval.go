package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	celwasm "github.com/celwasm/celwasm/host"
	cliinput "github.com/celwasm/celwasm/wasm/input"
	"github.com/celwasm/celwasm/wasm/input/celtext"
)

// readDocuments reads a file's JSON or YAML documents (wasm/input, which the
// module's celwasm_input export shares with the other CLIs). A file that
// cannot be read is an OS error; one that does not parse says so.
func readDocuments(file string) ([][]byte, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	docs, err := cliinput.Documents(data)
	if err != nil {
		return nil, errors.New(notJSONOrYAML(file, err))
	}
	return docs, nil
}

// maxInputDepth is the module's limit on the nesting of arrays and objects
// in an activation (wasm/codec.MaxDepth); the CLI checks input against it
// so that a too deep file is reported as such, by name.
const maxInputDepth = 1000

// nestingDepth is how deep the arrays and objects of a JSON document nest.
func nestingDepth(doc []byte) int {
	depth, deepest, inString := 0, 0, false
	for i := 0; i < len(doc); i++ {
		switch c := doc[i]; {
		case inString && c == '\\':
			i++
		case c == '"':
			inString = !inString
		case inString:
		case c == '[' || c == '{':
			depth++
			deepest = max(deepest, depth)
		case c == ']' || c == '}':
			depth--
		}
	}
	return deepest
}

// inputName names a file in messages; "-" is the standard input.
func inputName(file string) string {
	if file == "-" {
		return "stdin"
	}
	return file
}

// notJSONOrYAML is the message for input that does not parse.
func notJSONOrYAML(file string, err error) string {
	return fmt.Sprintf("%s is neither JSON nor YAML (%v)", inputName(file), err)
}

// readsInput reports whether a compile error is an undeclared reference to
// the input variable (with --activation: to any variable), and its name.
func readsInput(err error, bind string, activation bool) (string, bool) {
	var ce *celwasm.Error
	if !errors.As(err, &ce) || ce.Code != celwasm.CodeCompile {
		return "", false
	}
	const prefix = "undeclared reference to '"
	for _, is := range ce.Issues {
		rest, ok := strings.CutPrefix(is.Message, prefix)
		if !ok {
			continue
		}
		name, _, ok := strings.Cut(rest, "'")
		if ok && (activation || name == bind) {
			return name, true
		}
	}
	return "", false
}

func cmdEval(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("celwasm eval", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var ef envFlags
	ef.register(fs)
	input := fs.String("i", "", "input `FILE` (JSON or YAML; - for stdin); each YAML document is evaluated")
	bind := fs.String("bind", "self", "variable `NAME` the input document is bound to")
	at := fs.String("at", "", "bind the value at this dotted field `PATH` of each document (e.g. spec), as a rule placed at that schema node sees it")
	asActivation := fs.Bool("activation", false, "use the input document's top-level keys as the variables")
	output := fs.String("o", "json", "output: json (canonical typed JSON) or text (CEL literal)")
	costLimit := fs.Uint64("cost-limit", celwasm.DefaultCostLimit, "per-call cost limit in cost units")
	showCost := fs.Bool("cost", false, "print the actual cost of each evaluation to stderr")
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	if ef.expr == "" || fs.NArg() > 0 {
		fmt.Fprintln(stderr, "celwasm eval: -e EXPR is required (and no positional arguments)")
		return exitUsage
	}
	if *output != "json" && *output != "text" {
		fmt.Fprintln(stderr, "celwasm eval: -o must be json or text")
		return exitUsage
	}
	opts, err := ef.options()
	if err != nil {
		fmt.Fprintln(stderr, "celwasm eval:", err)
		return exitUsage
	}

	if !checkEngine(stderr, "eval", ef.engine) {
		return exitUsage
	}

	var docs [][]byte
	if *input != "" {
		var r io.Reader = stdin
		if *input != "-" {
			f, err := os.Open(*input)
			if err != nil {
				fmt.Fprintln(stderr, "celwasm eval:", err)
				return exitUsage
			}
			defer f.Close()
			r = f
		}
		data, err := io.ReadAll(r)
		if err != nil {
			fmt.Fprintln(stderr, "celwasm eval:", err)
			return exitUsage
		}
		if docs, err = cliinput.Documents(data); err != nil {
			fmt.Fprintf(stderr, "celwasm eval: %s\n", notJSONOrYAML(*input, err))
			return exitUsage
		}
		for i, d := range docs {
			if nestingDepth(d) > maxInputDepth {
				fmt.Fprintf(stderr, "celwasm eval: %s: document %d is nested deeper than the limit of %d\n", inputName(*input), i+1, maxInputDepth)
				return exitUsage
			}
		}
	}
	if *at != "" {
		for i, d := range docs {
			sub, err := cliinput.Select(d, *at)
			if err != nil {
				fmt.Fprintf(stderr, "celwasm eval: --at %s: document %d: %v\n", *at, i+1, err)
				return exitUsage
			}
			docs[i] = sub
		}
	}
	// Undeclared input variables are declared dyn.
	if *asActivation {
		for _, d := range docs {
			keys, err := cliinput.Keys(d)
			if err != nil {
				fmt.Fprintln(stderr, "celwasm eval: --activation needs each document to be a JSON/YAML object")
				return exitUsage
			}
			for _, k := range keys {
				if !ef.declared(k) {
					ef.vars = append(ef.vars, k+"=dyn")
					opts = append(opts, celwasm.Variable(k, "dyn"))
				}
			}
		}
	} else if len(docs) > 0 && !ef.declared(*bind) {
		opts = append(opts, celwasm.Variable(*bind, "dyn"))
	}

	rt, err := newRuntime(ctx, ef.engine, stderr)
	if err != nil {
		return report(stderr, err)
	}
	defer release(ctx, rt)
	prg, err := rt.NewEnv(opts...).Compile(ctx, ef.expr)
	if err != nil {
		if *input == "" {
			if name, ok := readsInput(err, *bind, *asActivation); ok {
				fmt.Fprintf(stderr, "celwasm eval: no input given, and the expression reads '%s': give it with -i FILE (JSON or YAML; - for stdin)\n", name)
				return exitUsage
			}
		}
		return report(stderr, err)
	}
	defer prg.Close()

	activations := make([][]byte, 0, len(docs))
	for _, d := range docs {
		if *asActivation {
			activations = append(activations, d)
			continue
		}
		name, _ := json.Marshal(*bind)
		activations = append(activations, []byte(fmt.Sprintf(`{%s:%s}`, name, d)))
	}
	if len(activations) == 0 {
		activations = append(activations, []byte("{}"))
	}
	status := exitOK
	for i, act := range activations {
		res, err := prg.Eval(ctx, act, celwasm.CostLimit(*costLimit))
		if err != nil {
			if len(activations) > 1 {
				fmt.Fprintf(stderr, "document %d: ", i+1)
			}
			status = report(stderr, err)
			continue
		}
		if *output == "text" {
			s, err := celtext.Format(res.JSON)
			if err != nil {
				return report(stderr, err)
			}
			fmt.Fprintln(stdout, s)
		} else {
			stdout.Write(res.JSON)
			fmt.Fprintln(stdout)
		}
		if *showCost {
			fmt.Fprintf(stderr, "cost: %d\n", res.Cost)
		}
	}
	return status
}
