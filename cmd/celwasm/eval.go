package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"

	celwasm "github.com/celwasm/celwasm/host"
	cliinput "github.com/celwasm/celwasm/wasm/input"
	"github.com/celwasm/celwasm/wasm/input/celtext"
)

// readDocuments reads a file's JSON or YAML documents (wasm/input, which the
// module's celwasm_input export shares with the other CLIs).
func readDocuments(r io.Reader) ([][]byte, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	return cliinput.Documents(data)
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
		if err == nil {
			docs, err = cliinput.Documents(data)
		}
		if err != nil {
			fmt.Fprintf(stderr, "error: invalid input %s: %v\n", *input, err)
			return exitError
		}
	}
	if *at != "" {
		for i, d := range docs {
			sub, err := cliinput.Select(d, *at)
			if err != nil {
				fmt.Fprintf(stderr, "error: --at %s: document %d: %v\n", *at, i+1, err)
				return exitError
			}
			docs[i] = sub
		}
	}
	// Undeclared input variables are declared dyn.
	if *asActivation {
		for _, d := range docs {
			keys, err := cliinput.Keys(d)
			if err != nil {
				fmt.Fprintln(stderr, "error: --activation needs each document to be a JSON/YAML object")
				return exitError
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

	rt, err := newRuntime(ctx, ef.engine)
	if err != nil {
		return report(stderr, err)
	}
	defer release(ctx, rt)
	prg, err := rt.NewEnv(opts...).Compile(ctx, ef.expr)
	if err != nil {
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
