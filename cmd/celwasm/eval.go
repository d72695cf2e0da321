package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	celwasm "github.com/celwasm/celwasm/host"
	"k8s.io/apimachinery/pkg/util/yaml"
	sigsyaml "sigs.k8s.io/yaml"
)

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
		docs, err = readDocuments(r)
		if err != nil {
			fmt.Fprintf(stderr, "error: invalid input %s: %v\n", *input, err)
			return exitError
		}
	}
	if *at != "" {
		for i, d := range docs {
			sub, err := selectPath(d, *at)
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
			var top map[string]json.RawMessage
			if err := json.Unmarshal(d, &top); err != nil {
				fmt.Fprintln(stderr, "error: --activation needs each document to be a JSON/YAML object")
				return exitError
			}
			for k := range top {
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
			s, err := celwasm.FormatText(res.JSON)
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

// readDocuments reads JSON or (multi-document) YAML and returns each
// document as JSON. Empty YAML documents are skipped.
func readDocuments(r io.Reader) ([][]byte, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) > 0 && (trimmed[0] == '{' || trimmed[0] == '[') && json.Valid(trimmed) {
		return [][]byte{trimmed}, nil
	}
	var docs [][]byte
	rd := yaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(data)))
	for {
		doc, err := rd.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		if len(bytes.TrimSpace(stripComments(doc))) == 0 {
			continue
		}
		j, err := sigsyaml.YAMLToJSON(doc)
		if err != nil {
			return nil, err
		}
		if string(j) == "null" {
			continue
		}
		docs = append(docs, j)
	}
	return docs, nil
}

func stripComments(doc []byte) []byte {
	var out []string
	for _, line := range strings.Split(string(doc), "\n") {
		t := strings.TrimSpace(line)
		if t == "---" || strings.HasPrefix(t, "#") {
			continue
		}
		out = append(out, line)
	}
	return []byte(strings.Join(out, "\n"))
}

// selectPath returns the JSON value at a dotted field path of a document.
func selectPath(doc []byte, path string) ([]byte, error) {
	var cur any
	if err := json.Unmarshal(doc, &cur); err != nil {
		return nil, err
	}
	for _, field := range strings.Split(path, ".") {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("%q: not an object", field)
		}
		if cur, ok = m[field]; !ok {
			return nil, fmt.Errorf("no field %q", field)
		}
	}
	return json.Marshal(cur)
}
