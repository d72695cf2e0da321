package main

import (
	"bufio"
	"bytes"
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
)

// batchSize and batchBytes bound one module call of `celwasm filter`.
const (
	batchSize  = 1000
	batchBytes = 4 << 20
)

func cmdFilter(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("celwasm filter", flag.ContinueOnError)
	fs.SetOutput(stderr)
	filterFile := fs.String("filter", "", "trigger filter `FILE` (YAML or JSON; one filter per document): attributes, exact, prefix, suffix, all, any, not, cesql, expression or sourceAndType — or a Trigger")
	input := fs.String("i", "", "CloudEvents `FILE` (NDJSON, a JSON array or one JSON event; - for stdin); structured mode, binary-mode envelopes {\"headers\":{...},\"body\":...}, or batched-mode envelopes (content-type application/cloudevents-batch+json: each event of the body's array)")
	explain := fs.Bool("explain", false, "print the CEL each filter became (cesql[\"…\"] holds a CESQL expression as written)")
	failOpen := fs.Bool("fail-open", false, "deliver events whose evaluation fails (default: fail closed)")
	costLimit := fs.Uint64("cost-limit", celwasm.DefaultCostLimit, "per-event cost limit in cost units")
	engine := fs.String("engine", defaultEngine, engineUsage)
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	if *filterFile == "" || fs.NArg() > 0 {
		fmt.Fprintln(stderr, "celwasm filter: --filter FILE is required")
		return exitUsage
	}
	if !checkEngine(stderr, "filter", *engine) {
		return exitUsage
	}
	filters, err := readDocuments(*filterFile)
	if err != nil {
		fmt.Fprintln(stderr, "celwasm filter:", err)
		return exitUsage
	}
	if len(filters) == 0 {
		fmt.Fprintf(stderr, "celwasm filter: %s holds no filter\n", *filterFile)
		return exitUsage
	}
	rt, err := newRuntime(ctx, *engine, stderr)
	if err != nil {
		return report(stderr, err)
	}
	defer release(ctx, rt)
	var prgs []*celwasm.Program
	for i, doc := range filters {
		prg, err := rt.NewEnv().CompileFilter(ctx, doc)
		if err != nil {
			if len(filters) > 1 {
				fmt.Fprintf(stderr, "filter %d: ", i+1)
			}
			return report(stderr, err)
		}
		defer prg.Close()
		prgs = append(prgs, prg)
		if *explain {
			w := stderr
			if *input == "" {
				w = stdout
			}
			if len(filters) > 1 {
				fmt.Fprintf(w, "filter %d: ", i+1)
			}
			fmt.Fprintln(w, prg.Expression)
		}
	}
	if *input == "" {
		if !*explain {
			fmt.Fprintln(stderr, "celwasm filter: -i FILE is required (or --explain alone)")
			return exitUsage
		}
		return exitOK
	}
	var r io.Reader = stdin
	if *input != "-" {
		f, err := os.Open(*input)
		if err != nil {
			fmt.Fprintln(stderr, "celwasm filter:", err)
			return exitUsage
		}
		defer f.Close()
		r = f
	}
	data, err := io.ReadAll(r)
	var events [][]byte
	if err == nil {
		events, err = cliinput.Events(data)
	}
	if err == nil {
		events, err = expandBatches(events)
	}
	if err != nil {
		fmt.Fprintf(stderr, "celwasm filter: reading events from %s: %v\n", inputName(*input), err)
		return exitUsage
	}

	matched := make([]int, len(prgs))
	errCount := make([]int, len(prgs))
	delivered := 0
	out := bufio.NewWriter(stdout)
	defer out.Flush()
	shown := 0
	for start := 0; start < len(events); {
		end, size := start, 0
		for end < len(events) && end-start < batchSize && (size == 0 || size+len(events[end]) <= batchBytes) {
			size += len(events[end])
			end++
		}
		batch := events[start:end]
		deliver := make([]bool, len(batch))
		for fi, prg := range prgs {
			results, err := prg.EvalBatch(ctx, batch, celwasm.CloudEvents, celwasm.CostLimit(*costLimit))
			if err != nil {
				return report(stderr, err)
			}
			for i, res := range results {
				switch {
				case res.Err != nil:
					errCount[fi]++
					if shown < 10 {
						fmt.Fprintf(stderr, "event %d: %s: %s\n", start+i+1, res.Err.Code, res.Err.Message)
						shown++
					}
					if *failOpen {
						deliver[i] = true
					}
				case string(res.JSON) == "true":
					matched[fi]++
					deliver[i] = true
				case string(res.JSON) != "false":
					errCount[fi]++
					if shown < 10 {
						fmt.Fprintf(stderr, "event %d: filter result is %s, not a bool\n", start+i+1, res.JSON)
						shown++
					}
					if *failOpen {
						deliver[i] = true
					}
				}
			}
		}
		for i, ok := range deliver {
			if ok {
				out.Write(batch[i])
				out.WriteByte('\n')
				delivered++
			}
		}
		start = end
	}
	mode := "fail closed"
	if *failOpen {
		mode = "fail open"
	}
	for fi := range prgs {
		prefix := ""
		if len(prgs) > 1 {
			prefix = fmt.Sprintf("filter %d: ", fi+1)
		}
		fmt.Fprintf(stderr, "%smatched %d of %d events, %d evaluation errors (%s)\n", prefix, matched[fi], len(events), errCount[fi], mode)
	}
	if len(prgs) > 1 {
		fmt.Fprintf(stderr, "delivered %d of %d events\n", delivered, len(events))
	}
	return exitOK
}

func cmdWhen(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("celwasm when", flag.ContinueOnError)
	fs.SetOutput(stderr)
	contextFile := fs.String("context", "", "pipeline context `FILE` (JSON or YAML): {\"params\": {...}, \"tasks\": {\"TASK\": {\"results\": {...}, \"status\": ...}, \"status\": ...}, \"context\": {...}}")
	var exprs multiFlag
	fs.Var(&exprs, "e", "a when `expression`: cel text, or a WhenExpression as JSON ({\"input\":…,\"operator\":\"in\"|\"notin\",\"values\":[…]}); repeatable, AND-ed")
	explain := fs.Bool("explain", false, "print the CEL the when list became")
	engine := fs.String("engine", defaultEngine, engineUsage)
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	if len(exprs) == 0 || fs.NArg() > 0 {
		fmt.Fprintln(stderr, "celwasm when: at least one -e EXPR is required")
		return exitUsage
	}
	if !checkEngine(stderr, "when", *engine) {
		return exitUsage
	}
	activation := []byte("{}")
	if *contextFile != "" {
		docs, err := readDocuments(*contextFile)
		if err != nil {
			fmt.Fprintln(stderr, "celwasm when:", err)
			return exitUsage
		}
		if len(docs) != 1 {
			fmt.Fprintf(stderr, "celwasm when: %s must hold one JSON or YAML document, not %d\n", *contextFile, len(docs))
			return exitUsage
		}
		activation = docs[0]
	}
	rt, err := newRuntime(ctx, *engine, stderr)
	if err != nil {
		report(stderr, err)
		return exitUsage
	}
	defer release(ctx, rt)
	prg, err := rt.NewEnv().CompileWhen(ctx, exprs...)
	if err != nil {
		report(stderr, err)
		return exitUsage
	}
	defer prg.Close()
	if *explain {
		fmt.Fprintln(stderr, prg.Expression)
	}
	res, err := prg.Eval(ctx, activation)
	if err != nil {
		report(stderr, err)
		return exitUsage
	}
	switch string(res.JSON) {
	case "true":
		fmt.Fprintln(stdout, "true")
		return exitOK
	case "false":
		fmt.Fprintln(stdout, "false")
		return exitError
	}
	report(stderr, errors.New("when expressions must evaluate to a bool, got "+string(res.JSON)))
	return exitUsage
}

// expandBatches replaces each batched-mode envelope (an HTTP request whose
// content type is application/cloudevents-batch+json) by the structured
// events of its body, as the CloudEvents HTTP binding defines batches.
func expandBatches(events [][]byte) ([][]byte, error) {
	var out [][]byte
	for i, ev := range events {
		var env struct {
			Headers map[string]json.RawMessage `json:"headers"`
			Body    *string                    `json:"body"`
		}
		if !bytes.Contains(ev, []byte("cloudevents-batch")) || json.Unmarshal(ev, &env) != nil || env.Body == nil {
			out = append(out, ev)
			continue
		}
		batch := false
		for k, v := range env.Headers {
			var ct string
			if strings.EqualFold(k, "content-type") && json.Unmarshal(v, &ct) == nil {
				mt, _, _ := strings.Cut(ct, ";")
				batch = strings.EqualFold(strings.TrimSpace(mt), "application/cloudevents-batch+json")
			}
		}
		if !batch {
			out = append(out, ev)
			continue
		}
		var items []json.RawMessage
		if err := json.Unmarshal([]byte(*env.Body), &items); err != nil {
			return nil, fmt.Errorf("event %d: a batch body must be a JSON array of events: %v", i+1, err)
		}
		for _, it := range items {
			var b bytes.Buffer
			if err := json.Compact(&b, it); err != nil {
				return nil, err
			}
			out = append(out, b.Bytes())
		}
	}
	return out, nil
}
