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

// loopCase evaluates one reference case ("true", "a" … "d") through the Go
// host on one runtime for a while, for a profiler outside the process: the
// profile of the module's code under wasmtime-go that Node's profiles
// cannot give (wasmtime's own libcalls, Cranelift's code). make profile
// runs it under `perf record` with wasmtime's perf map
// (CELWASM_WASMTIME_PROFILER=perfmap) on a build that keeps its name
// section (scripts/profile.sh; RATIONALE.md, "Member values without a
// gjson.Result"). It prints the time per call on w.
func loopCase(ctx context.Context, w io.Writer, modulePath, runtimeName, id string, d time.Duration) error {
	cases, err := loadCases()
	if err != nil {
		return err
	}
	cases = append(cases, trueCase)
	var c *benchCase
	for i := range cases {
		if caseID(cases[i].name) == id {
			c = &cases[i]
		}
	}
	if c == nil {
		return fmt.Errorf("-loop: no reference case %q (true, a, b, c, d)", id)
	}
	wasm, err := os.ReadFile(modulePath)
	if err != nil {
		return err
	}
	opts := []celwasm.Option{celwasm.WithModule(wasm), celwasm.WithInstances(1)}
	switch runtimeName {
	case "wasmtime":
		opts = append(opts, wasmtime.Option())
	case "wazero":
	default:
		return fmt.Errorf("-loop-runtime: %q is neither wasmtime nor wazero", runtimeName)
	}
	rt, err := celwasm.New(ctx, opts...)
	if err != nil {
		return err
	}
	defer rt.Close(ctx)
	p, err := hostPath(ctx, rt, *c)
	if err != nil {
		return err
	}
	n, start := 0, time.Now()
	for time.Since(start) < d {
		for i := 0; i < 100; i++ {
			if _, err := p.eval(c.activation); err != nil {
				return fmt.Errorf("%s: %w", c.name, err)
			}
		}
		n += 100
	}
	fmt.Fprintf(w, "%s on %s: %d calls, %.3f µs per call\n", strings.TrimSpace(c.name), runtimeName, n, float64(time.Since(start).Nanoseconds())/float64(n)/1e3)
	return nil
}
