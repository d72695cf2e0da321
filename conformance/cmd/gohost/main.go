// Command gohost runs test cases through the Go host (github.com/celwasm/celwasm/host:
// CompileFilter, CompileWhen, Compile, Eval, EvalEvent, EvalBatch) and prints what it
// returns, so that the JS and Python SDK tests compare their results with the Go host's
// byte for byte instead of with expectations typed by hand.
//
//	go run ./conformance/cmd/gohost -module build/celwasm.wasm < cases.jsonl
//
// Each input line is one case:
//
//	{"filter": F} | {"when": ["expr", ...]} | {"expression": "...", "env": {...}}
//	 + "events": ["<event JSON>", ...]          each through EvalEvent
//	 + "activations": ["<activation JSON>", ...] each through Eval
//	 + "batch": {"kind": "activations"|"cloudEvents", "items": ["<item>", ...]}  one EvalBatch
//	 + "costLimit": N
//
// Each output line: {"compile": C, "events": [R...], "activations": [R...], "batch": [R...] | E}
// where C is {"expression","outputType","costEstimate":{"min":"N","max":"N"}} or {"error": E}, R is
// {"json": "<canonical JSON>", "cost": N} or {"error": E}, and E is the host's *Error
// ({"code","message","issues"?,"cost"?}).
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"strconv"

	celwasm "github.com/celwasm/celwasm/host"
)

type testCase struct {
	Filter      json.RawMessage `json:"filter"`
	When        []string        `json:"when"`
	Expression  *string         `json:"expression"`
	Env         celwasm.EnvSpec `json:"env"`
	Events      []string        `json:"events"`
	Activations []string        `json:"activations"`
	Batch       *batch          `json:"batch"`
	CostLimit   uint64          `json:"costLimit"`
}

type batch struct {
	Kind  celwasm.BatchItems `json:"kind"`
	Items []string           `json:"items"`
}

type result struct {
	JSON  *string        `json:"json,omitempty"`
	Cost  *uint64        `json:"cost,omitempty"`
	Error *celwasm.Error `json:"error,omitempty"`
}

type compiled struct {
	Expression   string         `json:"expression,omitempty"`
	OutputType   string         `json:"outputType,omitempty"`
	CostEstimate *costEstimate  `json:"costEstimate,omitempty"`
	Error        *celwasm.Error `json:"error,omitempty"`
}

// costEstimate carries the numbers as decimal strings: max may be 2^64-1,
// which JavaScript's JSON.parse would round.
type costEstimate struct {
	Min string `json:"min"`
	Max string `json:"max"`
}

type output struct {
	Compile     compiled `json:"compile"`
	Events      []result `json:"events,omitempty"`
	Activations []result `json:"activations,omitempty"`
	Batch       any      `json:"batch,omitempty"`
}

func asError(err error) *celwasm.Error {
	var ce *celwasm.Error
	if errors.As(err, &ce) {
		return ce
	}
	return &celwasm.Error{Code: "host", Message: err.Error()}
}

func toResult(res *celwasm.Result, err error) result {
	if err != nil {
		return result{Error: asError(err)}
	}
	s, c := string(res.JSON), res.Cost
	return result{JSON: &s, Cost: &c}
}

func main() {
	modulePath := flag.String("module", "", "module file (default: the one embedded in the Go host)")
	flag.Parse()
	ctx := context.Background()
	opts := []celwasm.Option{celwasm.WithInstances(1)}
	if *modulePath != "" {
		wasm, err := os.ReadFile(*modulePath)
		if err != nil {
			fmt.Fprintln(os.Stderr, "gohost:", err)
			os.Exit(2)
		}
		opts = append(opts, celwasm.WithModule(wasm))
	}
	rt, err := celwasm.New(ctx, opts...)
	if err != nil {
		fmt.Fprintln(os.Stderr, "gohost:", err)
		os.Exit(2)
	}
	defer rt.Close(ctx)
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(make([]byte, 1<<20), 256<<20)
	for sc.Scan() {
		var c testCase
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			fmt.Fprintln(os.Stderr, "gohost: case:", err)
			os.Exit(2)
		}
		env := rt.NewEnv(celwasm.WithSpec(c.Env))
		var prg *celwasm.Program
		switch {
		case c.Filter != nil:
			prg, err = env.CompileFilter(ctx, c.Filter)
		case c.When != nil:
			prg, err = env.CompileWhen(ctx, c.When...)
		case c.Expression != nil:
			prg, err = env.Compile(ctx, *c.Expression)
		default:
			err = errors.New("case has no filter, when or expression")
		}
		var o output
		if err != nil {
			o.Compile.Error = asError(err)
		} else {
			o.Compile = compiled{Expression: prg.Expression, OutputType: prg.OutputType}
			if ce := prg.CostEstimate; ce != nil {
				o.Compile.CostEstimate = &costEstimate{strconv.FormatUint(ce.Min, 10), strconv.FormatUint(ce.Max, 10)}
			}
			var eo []celwasm.EvalOption
			if c.CostLimit > 0 {
				eo = append(eo, celwasm.CostLimit(c.CostLimit))
			}
			for _, ev := range c.Events {
				o.Events = append(o.Events, toResult(prg.EvalEvent(ctx, []byte(ev), eo...)))
			}
			for _, act := range c.Activations {
				o.Activations = append(o.Activations, toResult(prg.Eval(ctx, []byte(act), eo...)))
			}
			if c.Batch != nil {
				items := make([][]byte, len(c.Batch.Items))
				for i, it := range c.Batch.Items {
					items[i] = []byte(it)
				}
				results, err := prg.EvalBatch(ctx, items, c.Batch.Kind, eo...)
				if err != nil {
					o.Batch = map[string]any{"error": asError(err)}
				} else {
					rs := make([]result, len(results))
					for i := range results {
						if results[i].Err != nil {
							rs[i] = result{Error: results[i].Err}
						} else {
							rs[i] = toResult(&results[i].Result, nil)
						}
					}
					o.Batch = rs
				}
			}
			prg.Close()
		}
		b, err := json.Marshal(o)
		if err != nil {
			fmt.Fprintln(os.Stderr, "gohost: output:", err)
			os.Exit(2)
		}
		out.Write(b)
		out.WriteByte('\n')
	}
	if err := sc.Err(); err != nil {
		fmt.Fprintln(os.Stderr, "gohost:", err)
		os.Exit(2)
	}
}
