package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	celwasm "github.com/celwasm/celwasm/host"
	"github.com/celwasm/celwasm/host/wasmtime"
)

// compareModules times the reference cases end to end (JSON in → JSON out,
// through the Go host) on two builds of the expression module, A and B, in
// both runtimes. Rounds alternate A and B, each starting with the other
// than the last, so that a change of load on a shared machine affects both
// alike; the medians and B/A are printed to w. This is how an engine or
// cel-go change is measured before it is committed (RATIONALE.md, "Per-call
// cost"): build the module before and after (make build/celwasm.wasm, or
// the go build line of the Makefile without wasm-opt for a quick pair) and
// run
//
//	go run ./cmd/celwasm-bench -compare before.wasm,after.wasm -rounds 9
//
// Case (c) is left out unless -compare-all: at ~1 ms per call it needs
// longer rounds to say anything. Running A against itself shows the noise.
func compareModules(ctx context.Context, w io.Writer, files string, rounds int, all bool) error {
	paths := strings.Split(files, ",")
	if len(paths) != 2 {
		return fmt.Errorf("-compare wants two module files, A.wasm,B.wasm")
	}
	cases, err := loadCases()
	if err != nil {
		return err
	}
	cases = append([]benchCase{trueCase}, cases...)
	var wasm [2][]byte
	for i, p := range paths {
		if wasm[i], err = os.ReadFile(p); err != nil {
			return err
		}
	}
	fmt.Fprintf(w, "A %s\nB %s\n%d rounds, alternating; medians of testing.Benchmark's time per call\n", paths[0], paths[1], rounds)
	for _, rc := range []struct {
		name string
		opts []celwasm.Option
	}{{"wasmtime-go", []celwasm.Option{wasmtime.Option()}}, {"wazero", nil}} {
		var rts [2]*celwasm.Runtime
		for i := range rts {
			opts := append([]celwasm.Option{celwasm.WithModule(wasm[i]), celwasm.WithInstances(1)}, rc.opts...)
			if rts[i], err = celwasm.New(ctx, opts...); err != nil {
				return fmt.Errorf("%s: %w", paths[i], err)
			}
			defer rts[i].Close(ctx)
		}
		for _, c := range cases {
			if strings.HasPrefix(c.name, "(c)") && !all {
				continue
			}
			var ps [2]path
			for i, rt := range rts {
				if ps[i], err = hostPath(ctx, rt, c); err != nil {
					return err
				}
			}
			var ds [2][]time.Duration
			for r := range rounds {
				for j := range 2 {
					i := (j + r) % 2
					d, _, err := measure(ps[i], c.activation)
					if err != nil {
						return fmt.Errorf("%s %s: %w", paths[i], c.name, err)
					}
					ds[i] = append(ds[i], d)
				}
			}
			a, b := median(ds[0]), median(ds[1])
			fmt.Fprintf(w, "%-12s %-28s A %9.2f µs  B %9.2f µs  B/A %.3f\n", rc.name, c.name, usf(a), usf(b), ratio(b, a))
		}
		if err := compareBatch(ctx, w, rc.name, rts, rounds); err != nil {
			return err
		}
	}
	return nil
}

// compareBatch times the batch section's filter over its 1,000 events
// (EvalBatch, ten calls per round) on both runtimes, alternating, per event.
func compareBatch(ctx context.Context, w io.Writer, runtime string, rts [2]*celwasm.Runtime, rounds int) error {
	const n = 1000
	events := batchEvents(n)
	var prgs [2]*celwasm.Program
	for i, rt := range rts {
		var err error
		if prgs[i], err = rt.NewEnv().CompileFilter(ctx, []byte(batchFilter)); err != nil {
			return err
		}
	}
	var ds [2][]time.Duration
	for r := range rounds + 1 { // round 0 warms up
		for j := range 2 {
			i := (j + r) % 2
			// Several calls per round: a round of one call measured
			// whether the guest's GC ran in it more than the build.
			const calls = 10
			start := time.Now()
			for range calls {
				res, err := prgs[i].EvalBatch(ctx, events, celwasm.CloudEvents)
				if err != nil || len(res) != n {
					return fmt.Errorf("batch: %d results, %v", len(res), err)
				}
			}
			d := time.Since(start) / (calls * n)
			if r > 0 {
				ds[i] = append(ds[i], d)
			}
		}
	}
	a, b := median(ds[0]), median(ds[1])
	fmt.Fprintf(w, "%-12s %-28s A %9.2f µs  B %9.2f µs  B/A %.3f\n", runtime, "batch filter, per event", usf(a), usf(b), ratio(b, a))
	return nil
}
