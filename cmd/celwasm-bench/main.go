// Command celwasm-bench measures celwasm side by side in one process and
// writes the results as build/bench/go.json (internal/benchdoc's
// format; celwasm-benchdoc renders docs/benchmarks.md from it):
//
//	make bench-go   (go run ./cmd/celwasm-bench -stages build/stagebench.wasm ...)
//
// Each case runs end to end, JSON in → JSON out, on five paths:
//
//   - upstream: native cel-go as a Go program without celwasm runs it,
//     upstream v0.29.2 with k8s.io/apiserver v0.37.2's environment, the
//     activation decoded with encoding/json and the result marshalled with
//     encoding/json (cmd/celwasm-bench/upstream, run as a child process with
//     -upstream); the issues' targets are ratios to it;
//   - fork: the same program built on the patched cel-go fork this
//     repository builds with (-fork), also a child process;
//   - native: the fork's path in this process;
//   - engine: celwasm's engine natively (lazy gjson activation, canonical
//     encoder), i.e. the module's code without WebAssembly;
//   - wazero and wasmtime: the module through the Go host.
package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/andybalholm/brotli"
	"github.com/google/cel-go/cel"
	sigsyaml "sigs.k8s.io/yaml"

	celwasm "github.com/celwasm/celwasm/host"
	"github.com/celwasm/celwasm/host/module"
	"github.com/celwasm/celwasm/host/wasmtime"
	"github.com/celwasm/celwasm/internal/benchdoc"
	"github.com/celwasm/celwasm/wasm/abi"
	"github.com/celwasm/celwasm/wasm/engine"
	_ "github.com/celwasm/celwasm/wasm/events/knative" // every filter dialect, as celwasm-full
	"github.com/celwasm/celwasm/wire"
)

type benchCase struct {
	name, expr string
	variable   string
	activation []byte // JSON object: {variable: document}
}

// trueCase is `true` over an empty activation: the fixed cost of a call.
var trueCase = benchCase{name: "true", expr: "true", variable: "self", activation: []byte(`{}`)}

func loadCases() ([]benchCase, error) {
	event, err := os.ReadFile("conformance/testdata/cloudevents/github-pull-request.json")
	if err != nil {
		return nil, err
	}
	webapp, err := os.ReadFile("conformance/testdata/k8s/webapp.yaml")
	if err != nil {
		return nil, err
	}
	webappJSON, err := sigsyaml.YAMLToJSON(webapp)
	if err != nil {
		return nil, err
	}
	var cr struct {
		Spec json.RawMessage `json:"spec"`
	}
	if err := json.Unmarshal(webappJSON, &cr); err != nil {
		return nil, err
	}
	compact := func(name string, doc []byte) []byte {
		var b bytes.Buffer
		json.Compact(&b, doc)
		return []byte(`{"` + name + `":` + b.String() + `}`)
	}
	return []benchCase{
		{"(a) CloudEvent filter", `ce.type == "com.github.pull.create" && ce.source.startsWith("https://github.com")`, "ce", compact("ce", event)},
		{"(b) replicas in range", `self.minReplicas <= self.replicas && self.replicas <= self.maxReplicas`, "self", compact("self", []byte(`{"minReplicas":1,"replicas":3,"maxReplicas":5}`))},
		{"(c) 100 items match a regex", `self.items.all(i, i.name.matches('^[a-z]+$'))`, "self", compact("self", cr.Spec)},
		{"(d) quantity compare", `quantity(self.mem).isLessThan(quantity('1Gi'))`, "self", compact("self", []byte(`{"mem":"768Mi"}`))},
	}, nil
}

// path evaluates one case end to end and returns the result JSON.
type path struct {
	name string
	eval func(act []byte) ([]byte, error)
}

func nativePath(c benchCase) (path, error) {
	env, err := engine.NewEnv(wire.EnvSpec{Variables: []wire.VariableDecl{{Name: c.variable, Type: "dyn"}}})
	if err != nil {
		return path{}, err
	}
	p, err := env.Compile(c.expr)
	if err != nil {
		return path{}, err
	}
	prg, err := env.CEL().Program(p.AST, cel.CostLimit(engine.DefaultCostLimit))
	if err != nil {
		return path{}, err
	}
	return path{"native cel-go", func(act []byte) ([]byte, error) {
		var vars map[string]any
		if err := json.Unmarshal(act, &vars); err != nil {
			return nil, err
		}
		out, _, err := prg.Eval(vars)
		if err != nil {
			return nil, err
		}
		return json.Marshal(out.Value())
	}}, nil
}

// The engine path's bool results, shared so that the path's allocations
// are the handler's alone.
var trueJSON, falseJSON = []byte("true"), []byte("false")

func enginePath(c benchCase) (path, error) {
	h := abi.NewHandler()
	req, _ := json.Marshal(map[string]any{"expression": c.expr, "env": map[string]any{"variables": []any{map[string]string{"name": c.variable, "type": "dyn"}}}})
	resp := h.Compile(req)
	if !bytes.HasPrefix(resp, []byte(`{"program":1`)) {
		return path{}, fmt.Errorf("compile: %s", resp)
	}
	// As the hosts call it: celwasm_eval_activation's handler, a bool
	// result packed.
	return path{"celwasm engine (native)", func(act []byte) ([]byte, error) {
		packed, out := h.EvalActivation(1, 0, act)
		switch packed &^ abi.ScalarCostMask {
		case abi.ScalarTrue:
			return trueJSON, nil
		case abi.ScalarFalse:
			return falseJSON, nil
		}
		return out, nil
	}}, nil
}

func hostPath(ctx context.Context, rt *celwasm.Runtime, c benchCase) (path, error) {
	prg, err := rt.NewEnv(celwasm.Variable(c.variable, "dyn")).Compile(ctx, c.expr)
	if err != nil {
		return path{}, err
	}
	return path{"celwasm " + rt.Engine(), func(act []byte) ([]byte, error) {
		res, err := prg.Eval(ctx, act)
		if err != nil {
			return nil, err
		}
		return res.JSON, nil
	}}, nil
}

// measure returns the mean time and the heap allocations (of this Go
// process) per call over one testing.Benchmark loop.
func measure(p path, act []byte) (time.Duration, int64, error) {
	if _, err := p.eval(act); err != nil {
		return 0, 0, err
	}
	var runErr error
	r := testing.Benchmark(func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if _, err := p.eval(act); err != nil {
				runErr = err
				b.FailNow()
			}
		}
	})
	if runErr != nil {
		return 0, 0, runErr
	}
	return time.Duration(r.NsPerOp()), r.AllocsPerOp(), nil
}

// caseID is the short id of a reference case: "(a) CloudEvent filter" → "a".
func caseID(name string) string { return strings.Trim(strings.Fields(name)[0], "()") }

func main() {
	testing.Init()
	out := flag.String("o", "build/bench", "write the results as go.json into this directory")
	rounds := flag.Int("rounds", 3, "rounds over all paths (the median is reported)")
	short := flag.Bool("short", false, "quick run: 200 ms per timed loop instead of 1 s, one cold start instead of three")
	stages := flag.String("stages", "", "wasm/stagebench built as a WASI command: time a batch item stage by stage, natively and in both runtimes")
	var sizes stringList
	flag.Var(&sizes, "size", "another module file whose raw, gzip and brotli sizes to report (repeatable)")
	sizeCache := flag.String("size-cache", "build/bench-cache", "directory caching compressed sizes by module sha256 (\"\": none)")
	nativeOnly := flag.Bool("native-only", false, "time only native cel-go on the reference cases, upstream and the fork in child processes (-upstream, -fork), and print {\"upstream\": {\"a\": µs, ...}, \"fork\": {...}} on stdout (for another host's benchmark to compare with in the same run)")
	upstream := flag.String("upstream", "", "cmd/celwasm-bench/upstream built (make: build/bin/celgo-upstream): native cel-go as a program without celwasm runs it, the targets' baseline; required except with -native-only, -compare, -loop and -envelopes-only")
	fork := flag.String("fork", "", "cmd/celwasm-bench/upstream built on the patched fork (make: build/bin/celgo-fork); required with -upstream")
	envelopesOnly := flag.Bool("envelopes-only", false, "time only the call envelopes side by side (stderr; no JSON written)")
	compare := flag.String("compare", "", "A.wasm,B.wasm: time the reference cases and the batch filter on two builds of the expression module side by side, in alternating rounds, and print B/A (stdout; no JSON written)")
	compareAll := flag.Bool("compare-all", false, "with -compare, also case (c)")
	loop := flag.String("loop", "", "true, a, b, c or d: evaluate that reference case through the Go host for -loop-for on the module -loop-module, for a profiler outside the process (stderr: time per call; no JSON written)")
	loopModule := flag.String("loop-module", "build/celwasm.wasm", "with -loop, the expression module to run")
	loopRuntime := flag.String("loop-runtime", "wasmtime", "with -loop, wasmtime or wazero")
	loopFor := flag.Duration("loop-for", 10*time.Second, "with -loop, how long")
	flag.Parse()
	coldRuns := 3
	if *short {
		check(flag.Set("test.benchtime", "200ms"))
		coldRuns = 1
	}
	if *nativeOnly {
		printNative(*rounds, *upstream, *fork)
		return
	}
	if *loop != "" {
		check(loopCase(context.Background(), os.Stderr, *loopModule, *loopRuntime, *loop, *loopFor))
		return
	}
	if *compare != "" {
		check(compareModules(context.Background(), os.Stdout, *compare, *rounds, *compareAll))
		return
	}
	if *envelopesOnly {
		cases, err := loadCases()
		check(err)
		envelopeSection(context.Background(), benchdoc.New("go", "", ""), cases, *rounds)
		return
	}
	if *upstream == "" || *fork == "" {
		check(fmt.Errorf("-upstream, -fork: the native cel-go baselines (make bench-go builds build/bin/celgo-upstream and build/bin/celgo-fork)"))
	}
	ctx := context.Background()
	began := time.Now()
	phase := func(name string) {
		fmt.Fprintf(os.Stderr, "celwasm-bench: %s (%.0f s in)\n", name, time.Since(began).Seconds())
	}
	s := benchdoc.New("go", "Go host (wazero, wasmtime-go) against native cel-go", "make bench-go")
	s.Contextf("%s; celwasm module sha256 %s (%d bytes); celwasm-full sha256 %s (%d bytes), loaded only by the cold-start rows that name it.", runtime.Version(), module.SHA256(), len(module.Bytes()), module.Full.SHA256(), len(module.Full.Bytes()))
	s.Contextf("Paths, each end to end (JSON in → JSON out): *upstream cel-go* is native cel-go as a Go program without celwasm runs it: github.com/google/cel-go v0.29.2 and k8s.io/apiserver v0.37.2, the versions kube-apiserver 1.37 pins, in the Kubernetes base environment, the activation decoded with encoding/json and the result marshalled with encoding/json (cmd/celwasm-bench/upstream, a module of its own, run as a child process; it must give the same results); the issues' targets are ratios to it. *fork* is the same program built on the patched cel-go fork the modules build with, whose patches also speed up native code, also a child process; *native cel-go (fork, this process)* is the fork's path in this process, whose live heap (both runtimes and their compiled modules) makes the collector run far less often than in a program of its own; *engine* is celwasm's engine natively (lazy activation, canonical encoder), the module's code without WebAssembly; *wazero* and *wasmtime-go* are the module through the Go host.")
	s.Contextf("Per-call times: the median of %d rounds, each round the mean of a %s timed loop (testing.Benchmark). Allocations per call: heap allocations of this Go process (testing.Benchmark's count) on the native paths; the engine's are those of the code the module runs, which the WebAssembly paths cannot count from the host.", *rounds, flag.Lookup("test.benchtime").Value)
	if *short {
		s.Contextf("Quick run (-short).")
	}

	cases, err := loadCases()
	check(err)
	// Native cel-go in child processes, upstream and the fork, by case id:
	// timed in each round beside the paths of this process.
	up, fk := map[string]childTiming{}, map[string]childTiming{}
	wz, err := celwasm.New(ctx, celwasm.WithInstances(1))
	check(err)
	wt, err := celwasm.New(ctx, celwasm.WithInstances(1), wasmtime.Option())
	check(err)

	// timePaths measures a case on the four paths of this process and on
	// the two child processes (up and fk): medians of rounds, and the
	// allocations per call of the native paths (for the engine, the same Go
	// code the module runs).
	timePaths := func(c benchCase) ([4]time.Duration, [2]int64) {
		np, err := nativePath(c)
		check(err)
		ep, err := enginePath(c)
		check(err)
		zp, err := hostPath(ctx, wz, c)
		check(err)
		tp, err := hostPath(ctx, wt, c)
		check(err)
		want, err := np.eval(c.activation)
		check(err)
		paths := []path{np, ep, zp, tp}
		results := make([][]time.Duration, len(paths))
		var allocs [2]int64
		var children [2][]childTiming
		for r := 0; r < *rounds; r++ {
			for i, p := range paths {
				d, a, err := measure(p, c.activation)
				check(err)
				results[i] = append(results[i], d)
				if i < 2 {
					allocs[i] = a
				}
			}
			for i, bin := range []string{*upstream, *fork} {
				t, err := childTime(bin, c, want)
				check(err)
				children[i] = append(children[i], t)
			}
		}
		var med [4]time.Duration
		for i := range results {
			med[i] = median(results[i])
		}
		id := caseID(c.name)
		up[id], fk[id] = medianTiming(children[0]), medianTiming(children[1])
		fmt.Fprintf(os.Stderr, "%s: upstream %.3fµs fork %.3fµs native %v engine %v wazero %v wasmtime %v\n", c.name, up[id].US, fk[id].US, med[0], med[1], med[2], med[3])
		return med, allocs
	}
	names := [4]string{"native", "engine", "wazero", "wasmtime"}

	// Steady-state latency, end to end.
	steady := s.AddTable("Steady-state evaluation, JSON in → JSON out, per call",
		"case", "activation bytes", "upstream cel-go µs", "fork µs", "native cel-go (fork, this process) µs", "engine µs", "wazero µs", "wasmtime-go µs",
		"wazero / upstream", "wasmtime-go / upstream", "wazero / fork", "wasmtime-go / fork", "wasmtime-go / native (fork, this process)", "wazero / engine", "wasmtime-go / engine",
		"upstream allocs per call", "fork allocs per call", "engine allocs per call")
	for _, c := range cases {
		med, allocs := timePaths(c)
		id := caseID(c.name)
		for i, n := range names {
			s.Metrics["go."+id+"."+n+"_us"] = usf(med[i])
		}
		s.Metrics["go."+id+".wazero_per_native"] = ratio(med[2], med[0])
		s.Metrics["go."+id+".wasmtime_per_native"] = ratio(med[3], med[0])
		u, f := up[id], fk[id]
		s.Metrics["go."+id+".upstream_us"] = u.US
		s.Metrics["go."+id+".upstream_allocs"] = float64(u.Allocs)
		s.Metrics["go."+id+".fork_us"] = f.US
		s.Metrics["go."+id+".wazero_per_upstream"] = usf(med[2]) / u.US
		s.Metrics["go."+id+".wasmtime_per_upstream"] = usf(med[3]) / u.US
		s.Metrics["go."+id+".wazero_per_fork"] = usf(med[2]) / f.US
		s.Metrics["go."+id+".wasmtime_per_fork"] = usf(med[3]) / f.US
		steady.Row(c.name, len(c.activation), u.US, f.US, usf(med[0]), usf(med[1]), usf(med[2]), usf(med[3]),
			usf(med[2])/u.US, usf(med[3])/u.US, usf(med[2])/f.US, usf(med[3])/f.US, ratio(med[3], med[0]), ratio(med[2], med[1]), ratio(med[3], med[1]), u.Allocs, f.Allocs, allocs[1])
		s.Metrics["go."+id+".native_allocs"] = float64(allocs[0])
		s.Metrics["go."+id+".engine_allocs"] = float64(allocs[1])
	}

	// The fixed cost of a call: `true` over an empty activation, and an
	// export that does nothing.
	med, allocs := timePaths(trueCase)
	s.Metrics["go.true.native_allocs"] = float64(allocs[0])
	s.Metrics["go.true.engine_allocs"] = float64(allocs[1])
	emptyWz, emptyWt := emptyCall(ctx, nil, *rounds), emptyCall(ctx, []celwasm.Option{wasmtime.Option()}, *rounds)
	fixed := s.AddTable("Fixed cost of a call", "call", "upstream cel-go µs", "fork µs", "native cel-go (fork, this process) µs", "engine µs", "wazero µs", "wasmtime-go µs", "fork allocs per call", "engine allocs per call")
	fixed.Row("empty export call (`celwasm_free` of no handle)", nil, nil, nil, nil, usf(emptyWz), usf(emptyWt), nil, nil)
	fixed.Row("`true`, activation `{}`, JSON in and out", up["true"].US, fk["true"].US, usf(med[0]), usf(med[1]), usf(med[2]), usf(med[3]), fk["true"].Allocs, allocs[1])
	fixed.Row("`true` above the empty export call", nil, nil, nil, nil, usf(med[2]-emptyWz), usf(med[3]-emptyWt), nil, nil)
	s.Metrics["go.true.upstream_us"] = up["true"].US
	s.Metrics["go.true.fork_us"] = fk["true"].US
	for i, n := range names {
		s.Metrics["go.true."+n+"_us"] = usf(med[i])
	}
	s.Metrics["go.empty_call.wazero_us"] = usf(emptyWz)
	s.Metrics["go.empty_call.wasmtime_us"] = usf(emptyWt)
	s.Metrics["go.true.wazero_above_empty_call_us"] = usf(med[2] - emptyWz)
	s.Metrics["go.true.wasmtime_above_empty_call_us"] = usf(med[3] - emptyWt)

	phase("envelopes")
	envelopeSection(ctx, s, cases, *rounds)

	phase("batch")
	batchSection(ctx, s, wz, wt, *rounds)
	if *stages != "" {
		phase("stages")
		stagesSection(ctx, s, *stages, cases, up, fk)
	}
	phase("cold start")

	// Cold start: medians of fresh runtimes in this process.
	// The expression module (what a Runtime loads) side by side with
	// celwasm-full, which is the one module of before the split.
	var wzCold, wtCold, wzFull, wtFull [][5]time.Duration
	for i := 0; i < coldRuns; i++ {
		wzCold = append(wzCold, coldStart(ctx, nil, module.Expr))
		wtCold = append(wtCold, coldStart(ctx, []celwasm.Option{wasmtime.Option()}, module.Expr))
		wzFull = append(wzFull, coldStart(ctx, nil, module.Full))
		wtFull = append(wtFull, coldStart(ctx, []celwasm.Option{wasmtime.Option()}, module.Full))
	}
	cold := s.AddTable(fmt.Sprintf("Cold start in a running process, compile cache warm (median of %d): the expression module, and celwasm-full (the one module before the split)", coldRuns),
		"step", "wazero ms", "wasmtime-go ms", "wazero, celwasm-full ms", "wasmtime-go, celwasm-full ms")
	for i, step := range []struct{ name, metric string }{
		{"load module (compile cache warm)", "load"}, {"first instance (instantiate + _initialize)", "instance"},
		{"first compile (environment construction)", "compile"}, {"first eval", "eval"}, {"total to first result", "first_result"}} {
		z, t, fz, ft := medianAt(wzCold, i), medianAt(wtCold, i), medianAt(wzFull, i), medianAt(wtFull, i)
		cold.Row(step.name, msf(z), msf(t), msf(fz), msf(ft))
		s.Metrics["go.cold.wazero."+step.metric+"_ms"] = msf(z)
		s.Metrics["go.cold.wasmtime."+step.metric+"_ms"] = msf(t)
		s.Metrics["go.cold.full.wazero."+step.metric+"_ms"] = msf(fz)
		s.Metrics["go.cold.full.wasmtime."+step.metric+"_ms"] = msf(ft)
	}
	if cli := os.Getenv("CELWASM_CLI"); cli != "" {
		phase("CLI")
		// Cache warm: compile first (a run that finds no compiled code
		// would answer on the interpreter while compiling in the background).
		for _, engine := range []string{"wazero", "wasmtime"} {
			if out, err := exec.Command(cli, "warm", "--module", "celwasm", "--engine", engine).CombinedOutput(); err != nil {
				check(fmt.Errorf("%s warm --module celwasm --engine %s: %v: %s", cli, engine, err, out))
			}
		}
		z, t := execTime(cli, "wazero", "", coldRuns+2), execTime(cli, "wasmtime", "", coldRuns+2)
		cold.Row("CLI process `celwasm eval -e 'true'`, exec → exit", msf(z), msf(t), nil, nil)
		s.Metrics["go.cli.wazero_ms"] = msf(z)
		s.Metrics["go.cli.wasmtime_ms"] = msf(t)
		// Nothing cached: an empty cache directory, the CLI's default
		// runtime (wasmtime-go). The command answers on wazero's
		// interpreter while a detached `celwasm warm --background`
		// compiles; each run waits for that before the next.
		var exits, cached, next []time.Duration
		for i := 0; i < coldRuns; i++ {
			tmp, err := os.MkdirTemp("", "celwasm-bench-cache-")
			check(err)
			t0 := time.Now()
			exits = append(exits, execTime(cli, "", tmp, 1))
			cached = append(cached, waitCached(tmp, t0))
			next = append(next, execTime(cli, "", tmp, 1))
			check(os.RemoveAll(tmp))
		}
		u := median(exits)
		un := s.AddTable(fmt.Sprintf("CLI, nothing cached (empty cache directory, default runtime wasmtime-go, median of %d)", coldRuns), "step", "ms")
		un.Row("`celwasm eval -e 'true'`, exec → exit (wazero's interpreter; compiling in the background)", msf(u))
		un.Row("exec → compiled code cached by the background `celwasm warm`", msf(median(cached)))
		un.Row("the next `celwasm eval -e 'true'`, exec → exit (cached code)", msf(median(next)))
		s.Metrics["go.cli.uncached_ms"] = msf(u)
		s.Metrics["go.cli.uncached_background_cached_ms"] = msf(median(cached))
		s.Metrics["go.cli.uncached_next_ms"] = msf(median(next))
	}

	// Module sizes (the embedded module, plus -size files) and memory.
	type mod struct {
		name string
		raw  []byte
	}
	mods := []mod{{"celwasm", module.Bytes()}, {"celwasm-full", module.Full.Bytes()}, {"celwasm-admission", module.Admission.Bytes()}}
	for _, f := range sizes {
		b, err := os.ReadFile(f)
		check(err)
		mods = append(mods, mod{strings.TrimSuffix(filepath.Base(f), ".wasm"), b})
	}
	// Compressing is slow (brotli -11: minutes per module on a busy
	// machine) and timing is over: one goroutine per module, and the sizes
	// cached by the module's sha256.
	phase("module sizes")
	compressed := make([][2]int, len(mods))
	var wg sync.WaitGroup
	for i, m := range mods {
		wg.Add(1)
		go func() {
			defer wg.Done()
			compressed[i] = compressedSizes(*sizeCache, m.raw)
		}()
	}
	wg.Wait()
	sizeTable := s.AddTable("Module size", "module", "sha256", "raw MB", "gzip -9 MB", "brotli -11 MB")
	for i, m := range mods {
		sum := sha256.Sum256(m.raw)
		raw, gz, br := float64(len(m.raw))/1e6, float64(compressed[i][0])/1e6, float64(compressed[i][1])/1e6
		sizeTable.Row(m.name, hex.EncodeToString(sum[:8]), raw, gz, br)
		s.Metrics["module."+m.name+".raw_mb"] = raw
		s.Metrics["module."+m.name+".gzip_mb"] = gz
		s.Metrics["module."+m.name+".brotli_mb"] = br
	}
	phase("memory")
	memTable := s.AddTable("Memory", "what", "MB")
	initMem, usedMem := guestMemory(ctx, false), guestMemory(ctx, true)
	memTable.Row("guest linear memory after init (wazero)", float64(initMem)/1e6)
	memTable.Row("guest linear memory after 2,000 evaluations of each case (wazero)", float64(usedMem)/1e6)
	s.Metrics["go.guest_memory.init_mb"] = float64(initMem) / 1e6
	s.Metrics["go.guest_memory.used_mb"] = float64(usedMem) / 1e6
	if rss, ok := readRSS(); ok {
		memTable.Row("this process's RSS at the end (both runtimes loaded)", float64(rss)/1e6)
		s.Metrics["go.rss_mb"] = float64(rss) / 1e6
	}
	wz.Close(ctx)
	wt.Close(ctx)

	s.Contextf("Run time of this benchmark: %.0f s.", time.Since(began).Seconds())
	f, err := s.Write(*out)
	check(err)
	fmt.Fprintln(os.Stderr, "celwasm-bench: wrote", f)
}

// printNative prints native cel-go's per-call time in child processes
// (childTime) of each reference case and of `true` over an empty activation,
// in µs, the median of rounds: {"upstream": {"a": µs, ...}, "fork": {...}}.
func printNative(rounds int, upstreamBin, forkBin string) {
	if upstreamBin == "" || forkBin == "" {
		check(fmt.Errorf("-native-only needs -upstream and -fork (make builds build/bin/celgo-upstream and build/bin/celgo-fork)"))
	}
	cases, err := loadCases()
	check(err)
	out := map[string]map[string]float64{"upstream": {}, "fork": {}}
	for _, c := range append(cases, trueCase) {
		np, err := nativePath(c)
		check(err)
		want, err := np.eval(c.activation)
		check(err)
		for name, bin := range map[string]string{"upstream": upstreamBin, "fork": forkBin} {
			var ts []childTiming
			for range rounds {
				t, err := childTime(bin, c, want)
				check(err)
				ts = append(ts, t)
			}
			out[name][caseID(c.name)] = medianTiming(ts).US
		}
	}
	b, err := json.Marshal(out)
	check(err)
	fmt.Println(string(b))
}

// medianTiming is the median time of rounds, with the last one's
// allocations (a count that does not vary between rounds).
func medianTiming(ts []childTiming) childTiming {
	ds := make([]time.Duration, len(ts))
	for i, t := range ts {
		ds[i] = time.Duration(t.US * 1e3)
	}
	return childTiming{US: usf(median(ds)), Allocs: ts[len(ts)-1].Allocs}
}

type stringList []string

func (l *stringList) String() string     { return strings.Join(*l, ",") }
func (l *stringList) Set(v string) error { *l = append(*l, v); return nil }

// compressedSizes returns the gzip -9 and brotli -11 sizes of a module,
// from dir/size-<sha256>.json when an earlier run wrote it.
func compressedSizes(dir string, raw []byte) [2]int {
	sum := sha256.Sum256(raw)
	f := filepath.Join(dir, "size-"+hex.EncodeToString(sum[:])+".json")
	var sizes [2]int
	if dir != "" {
		if b, err := os.ReadFile(f); err == nil && json.Unmarshal(b, &sizes) == nil && sizes[0] > 0 && sizes[1] > 0 {
			return sizes
		}
	}
	sizes = [2]int{gzipSize(raw), brotliSize(raw)}
	if dir != "" {
		b, _ := json.Marshal(sizes)
		if err := os.MkdirAll(dir, 0o755); err == nil {
			os.WriteFile(f, b, 0o644)
		}
	}
	return sizes
}

func gzipSize(b []byte) int {
	var buf bytes.Buffer
	w, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	w.Write(b)
	w.Close()
	return buf.Len()
}

func brotliSize(b []byte) int {
	var buf bytes.Buffer
	w := brotli.NewWriterLevel(&buf, brotli.BestCompression)
	w.Write(b)
	w.Close()
	return buf.Len()
}

func medianAt(runs [][5]time.Duration, i int) time.Duration {
	var ds []time.Duration
	for _, r := range runs {
		ds = append(ds, r[i])
	}
	return median(ds)
}

// batchEvents makes n structured CloudEvents of about 1 KB, a fifth of
// them matching the filter.
func batchEvents(n int) [][]byte {
	tmpl, err := os.ReadFile("conformance/testdata/cloudevents/github-pull-request.json")
	check(err)
	var ev map[string]any
	check(json.Unmarshal(tmpl, &ev))
	types := []string{"com.github.pull.create", "com.github.issue.create", "com.github.push", "dev.knative.sources.ping", "com.github.pull.closed"}
	out := make([][]byte, n)
	for i := range out {
		ev["id"] = fmt.Sprintf("event-%06d", i)
		ev["type"] = types[i%len(types)]
		b, _ := json.Marshal(ev)
		out[i] = b
	}
	return out
}

// batchFilter: CEL over ce (the fixture's nested extension makes the event
// one Knative refuses, so an attributes filter would only measure errors).
const batchFilter = `{"expression":"has(ce.type) && ce.type == 'com.github.pull.create' && has(ce.source) && ce.source == 'https://github.com/knative/eventing/pulls/123'"}`

func batchSection(ctx context.Context, s *benchdoc.Section, wz, wt *celwasm.Runtime, rounds int) {
	const n = 1000
	events := batchEvents(n)
	size := 0
	for _, e := range events {
		size += len(e)
	}
	type runner struct {
		name string
		run  func() int // returns matches
	}
	var runners []runner
	for _, rt := range []*celwasm.Runtime{wz, wt} {
		prg, err := rt.NewEnv().CompileFilter(ctx, []byte(batchFilter))
		check(err)
		rt := rt
		runners = append(runners, runner{rt.Engine(), func() int {
			res, err := prg.EvalBatch(ctx, events, celwasm.CloudEvents)
			check(err)
			m := 0
			for _, r := range res {
				if r.Err == nil && string(r.JSON) == "true" {
					m++
				}
			}
			return m
		}})
	}
	// The engine natively, through the same batch handler.
	h := abi.NewHandler()
	resp := h.Compile([]byte(`{"cloudEventFilter":` + batchFilter + `}`))
	var cr struct {
		Program    int    `json:"program"`
		Expression string `json:"expression"`
	}
	check(json.Unmarshal(resp, &cr))
	var req bytes.Buffer
	fmt.Fprintf(&req, `{"program":%d,"items":"cloudEvents"}`, cr.Program)
	for _, e := range events {
		req.WriteByte('\n')
		req.Write(e)
	}
	batchReq := req.Bytes()
	runners = append(runners, runner{"engine", func() int {
		return bytes.Count(h.EvalBatch(batchReq), []byte(`{"value":true`))
	}})
	// Native cel-go: decode each event with encoding/json, build ce and data.
	env, err := engine.NewEnv(wire.EnvSpec{Base: engine.BaseCEL, Extensions: []wire.ExtensionRef{{Name: "strings"}},
		Variables: []wire.VariableDecl{{Name: "ce", Type: "map(string, dyn)"}, {Name: "data", Type: "dyn"}}})
	check(err)
	p, err := env.Compile(cr.Expression)
	check(err)
	nprg, err := env.CEL().Program(p.AST, cel.CostLimit(engine.DefaultCostLimit))
	check(err)
	runners = append(runners, runner{"native", func() int {
		m := 0
		for _, e := range events {
			var ev map[string]any
			check(json.Unmarshal(e, &ev))
			data := ev["data"]
			delete(ev, "data")
			if t, ok := ev["time"].(string); ok {
				if ts, err := time.Parse(time.RFC3339Nano, t); err == nil {
					ev["time"] = ts
				}
			}
			out, _, err := nprg.Eval(map[string]any{"ce": ev, "data": data})
			check(err)
			if out.Value() == true {
				m++
			}
		}
		return m
	}})
	s.Contextf("Batch filtering: the trigger filter `%s`, which becomes `%s`; %d structured CloudEvents of %d bytes on average, one goroutine (one core). Hosts call EvalBatch with all %d events; the engine runs the same batch handler natively; native cel-go decodes each event with encoding/json.",
		batchFilter, cr.Expression, n, size/n, n)
	label := map[string]string{"wazero": "celwasm wazero (EvalBatch)", "wasmtime": "celwasm wasmtime-go (EvalBatch)", "engine": "celwasm engine, native", "native": "native cel-go + encoding/json"}
	durations := make([]time.Duration, len(runners))
	matches := make([]int, len(runners))
	for i, r := range runners {
		var ds []time.Duration
		for k := 0; k < rounds; k++ {
			res := testing.Benchmark(func(b *testing.B) {
				for j := 0; j < b.N; j++ {
					matches[i] = r.run()
				}
			})
			ds = append(ds, time.Duration(res.NsPerOp()))
		}
		durations[i] = median(ds)
		fmt.Fprintf(os.Stderr, "batch %s: %.0f events/s\n", r.name, float64(n)/durations[i].Seconds())
	}
	native := durations[len(runners)-1]
	t := s.AddTable("Batch filtering: one trigger filter over 1,000 CloudEvents", "path", "events/s", "µs per event", "matches", "time per event / native cel-go")
	for i, r := range runners {
		rate := float64(n) / durations[i].Seconds()
		t.Row(label[r.name], rate, durations[i].Seconds()*1e6/float64(n), matches[i], ratio(durations[i], native))
		s.Metrics["go.batch."+r.name+"_events_per_s"] = rate
	}
}

// coldStart measures a fresh Runtime of the given module from module load
// to the first result.
func coldStart(ctx context.Context, opts []celwasm.Option, m *module.Module) [5]time.Duration {
	var d [5]time.Duration
	src := celwasm.EmbeddedModule(m)
	runtimeOpts := []celwasm.Option{celwasm.WithInstances(1)}
	if m != module.Expr {
		// No option names another embedded module as the one to run: its
		// bytes are passed and hashed, as the one-module host did.
		runtimeOpts = append(runtimeOpts, celwasm.WithModule(m.Bytes()))
		src = celwasm.ModuleBytes(m.Bytes())
	}
	t0 := time.Now()
	rt, err := celwasm.New(ctx, append(runtimeOpts, opts...)...)
	check(err)
	d[1] = time.Since(t0) // New = load + first instance; split below
	defer rt.Close(ctx)
	t1 := time.Now()
	prg, err := rt.NewEnv(celwasm.Variable("self", "dyn")).Compile(ctx, "self.replicas > 1")
	check(err)
	d[2] = time.Since(t1)
	t2 := time.Now()
	_, err = prg.Eval(ctx, []byte(`{"self":{"replicas":3}}`))
	check(err)
	d[3] = time.Since(t2)
	d[4] = time.Since(t0)
	// Separate module load from instantiation with a second runtime's timings.
	t3 := time.Now()
	eng, err := engineFactory(opts)(ctx, src, celwasm.EngineConfig{CacheDir: cacheDir(opts, m), MemoryLimitBytes: celwasm.DefaultMemoryLimit})
	check(err)
	d[0] = time.Since(t3)
	eng.Close(ctx)
	d[1] -= d[0]
	if d[1] < 0 {
		d[1] = 0
	}
	return d
}

func engineFactory(opts []celwasm.Option) celwasm.EngineFactory {
	if len(opts) > 0 {
		return wasmtime.NewEngine
	}
	return celwasm.NewWazeroEngine
}

// cacheDir is the Go host's compile cache of a module (default: the
// expression module).
func cacheDir(opts []celwasm.Option, m ...*module.Module) string {
	name := "wazero"
	if len(opts) > 0 {
		name = "wasmtime"
	}
	if len(m) == 0 {
		return celwasm.DefaultCacheDir(name)
	}
	d, err := os.UserCacheDir()
	check(err)
	return celwasm.ModuleCacheDir(filepath.Join(d, "celwasm", name), m[0].SHA256())
}

// waitCached waits (at most five minutes) until the CLI's background compile
// under the cache directory cache has stored the expression module's code
// and released its lock, and returns the time since t0.
func waitCached(cache string, t0 time.Time) time.Duration {
	dir := filepath.Join(cache, "celwasm", "wasmtime", module.Expr.SHA256()[:16])
	code := wasmtime.CachePath(dir, module.Expr.SHA256(), true)
	for time.Since(t0) < 5*time.Minute {
		_, errCode := os.Stat(code)
		_, errLock := os.Stat(dir + ".compiling")
		if errCode == nil && os.IsNotExist(errLock) {
			return time.Since(t0)
		}
		time.Sleep(20 * time.Millisecond)
	}
	check(fmt.Errorf("the CLI's background compile cached nothing in %s within five minutes", dir))
	return 0
}

// execTime runs the CLI's `eval -e true` runs times and returns the median
// wall time; engine "" is the CLI's default, cache "" the user cache.
func execTime(cli, engine, cache string, runs int) time.Duration {
	var ds []time.Duration
	for i := 0; i < runs; i++ {
		args := []string{"eval", "-e", "true"}
		if engine != "" {
			args = []string{"eval", "--engine", engine, "-e", "true"}
		}
		cmd := exec.Command(cli, args...)
		if cache != "" {
			cmd.Env = append(os.Environ(), "XDG_CACHE_HOME="+cache)
		}
		t0 := time.Now()
		out, err := cmd.CombinedOutput()
		if err != nil {
			check(fmt.Errorf("%s %v: %v: %s", cli, args, err, out))
		}
		ds = append(ds, time.Since(t0))
	}
	return median(ds)
}

// guestMemory reports an instance's linear memory size, fresh or after
// evaluating the reference cases many times.
func guestMemory(ctx context.Context, exercised bool) int {
	eng, err := celwasm.NewWazeroEngine(ctx, celwasm.EmbeddedModule(module.Expr), celwasm.EngineConfig{CacheDir: cacheDir(nil)})
	check(err)
	defer eng.Close(ctx)
	in, err := eng.Instantiate(ctx, celwasm.InstanceConfig{Args: []string{"celwasm"}})
	check(err)
	defer in.Close(ctx)
	if exercised {
		cases, _ := loadCases()
		h := func(fn celwasm.Export, req []byte) uint64 {
			ptr, err := in.Call(ctx, celwasm.ExportAlloc, uint32(len(req)))
			check(err)
			copy(in.Memory()[ptr:], req)
			r, err := in.Call(ctx, fn, uint32(ptr), uint32(len(req)))
			check(err)
			_, err = in.Call(ctx, celwasm.ExportDealloc, uint32(ptr))
			check(err)
			return r
		}
		for i, c := range cases {
			req, _ := json.Marshal(map[string]any{"expression": c.expr, "env": map[string]any{"variables": []any{map[string]string{"name": c.variable, "type": "dyn"}}}})
			h(celwasm.ExportCompile, req)
			ev := append(append([]byte(fmt.Sprintf(`{"program":%d,"activation":`, i+1)), c.activation...), '}')
			for n := 0; n < 2000; n++ {
				h(celwasm.ExportEval, ev)
			}
		}
	}
	return len(in.Memory())
}

// emptyCall measures one call of an export that does nothing (celwasm_free
// of no handle): the median of rounds, each the mean of a timed loop.
func emptyCall(ctx context.Context, opts []celwasm.Option, rounds int) time.Duration {
	eng, err := engineFactory(opts)(ctx, celwasm.EmbeddedModule(module.Expr), celwasm.EngineConfig{CacheDir: cacheDir(opts)})
	check(err)
	defer eng.Close(ctx)
	in, err := eng.Instantiate(ctx, celwasm.InstanceConfig{Args: []string{"celwasm"}})
	check(err)
	defer in.Close(ctx)
	var ds []time.Duration
	for range rounds {
		r := testing.Benchmark(func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if _, err := in.Call(ctx, celwasm.ExportFree, 0); err != nil {
					b.Fatal(err)
				}
			}
		})
		ds = append(ds, time.Duration(r.NsPerOp()))
	}
	return median(ds)
}

func readRSS() (int, bool) {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0, false
	}
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, "VmRSS:") {
			var kb int
			fmt.Sscanf(strings.TrimSpace(strings.TrimPrefix(line, "VmRSS:")), "%d", &kb)
			return kb * 1024, true
		}
	}
	return 0, false
}

func median(ds []time.Duration) time.Duration {
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[len(s)/2]
}

func usf(d time.Duration) float64 { return float64(d) / 1e3 }
func msf(d time.Duration) float64 { return float64(d) / 1e6 }
func ratio(a, b time.Duration) float64 {
	if b <= 0 {
		return 0
	}
	return float64(a) / float64(b)
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "celwasm-bench:", err)
		os.Exit(1)
	}
}
