// Command celwasm-bench measures celwasm side by side in one process and
// writes the Go section of docs/benchmarks.md:
//
//	go run ./cmd/celwasm-bench -o docs/benchmarks.md   (make bench)
//
// Each case runs end to end, JSON in → JSON out, on four paths:
//
//   - native: cel-go with the same Kubernetes environment, the activation
//     decoded with encoding/json and the result marshalled with encoding/json
//     (what a Go program without celwasm would do);
//   - engine: celwasm's engine natively (lazy gjson activation, canonical
//     encoder), i.e. the module's code without WebAssembly;
//   - wazero and wasmtime: the module through the Go host.
package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/celwasm/celwasm/cmd/internal/benchdoc"
	"github.com/celwasm/celwasm/wire"

	"github.com/andybalholm/brotli"
	"github.com/google/cel-go/cel"
	sigsyaml "sigs.k8s.io/yaml"

	celwasm "github.com/celwasm/celwasm/host"
	"github.com/celwasm/celwasm/host/module"
	"github.com/celwasm/celwasm/host/wasmtime"
	"github.com/celwasm/celwasm/wasm/abi"
	"github.com/celwasm/celwasm/wasm/engine"
)

type benchCase struct {
	name, expr string
	variable   string
	activation []byte // JSON object: {variable: document}
}

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

func enginePath(c benchCase) (path, error) {
	h := abi.NewHandler()
	req, _ := json.Marshal(map[string]any{"expression": c.expr, "env": map[string]any{"variables": []any{map[string]string{"name": c.variable, "type": "dyn"}}}})
	resp := h.Compile(req)
	if !bytes.HasPrefix(resp, []byte(`{"program":1`)) {
		return path{}, fmt.Errorf("compile: %s", resp)
	}
	return path{"celwasm engine (native)", func(act []byte) ([]byte, error) {
		out := h.Eval(append(append([]byte(`{"program":1,"activation":`), act...), '}'))
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

func measure(p path, act []byte) (time.Duration, error) {
	if _, err := p.eval(act); err != nil {
		return 0, err
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
		return 0, runErr
	}
	return time.Duration(r.NsPerOp()), nil
}

func main() {
	out := flag.String("o", "", "write the Go section into this markdown file (between <!-- go-bench:start --> and <!-- go-bench:end -->)")
	rounds := flag.Int("rounds", 3, "rounds over all paths (the median is reported)")
	stages := flag.String("stages", "", "wasm/stagebench built as a WASI command: time a batch item stage by stage, natively and in both runtimes")
	flag.Parse()
	ctx := context.Background()
	var md strings.Builder
	fmt.Fprintf(&md, "Measured by `make bench` (`go run ./cmd/celwasm-bench -stages build/stagebench.wasm -o docs/benchmarks.md`, after `make build/stagebench.wasm`) on %s, %s/%s, %d CPUs, %s; module sha256 %s.\n\n",
		time.Now().UTC().Format("2006-01-02"), runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), runtime.Version(), module.SHA256()[:16])

	cases, err := loadCases()
	check(err)
	wz, err := celwasm.New(ctx, celwasm.WithInstances(1))
	check(err)
	wt, err := celwasm.New(ctx, celwasm.WithInstances(1), wasmtime.Option())
	check(err)

	// Steady-state latency, end to end.
	md.WriteString("### Steady-state evaluation, JSON in → JSON out (median of rounds, per call)\n\n")
	md.WriteString("| case | native cel-go + encoding/json | celwasm engine, native | celwasm wazero | celwasm wasmtime-go | wazero / native | wasmtime / native | wazero / engine | wasmtime / engine |\n|---|---|---|---|---|---|---|---|---|\n")
	var sumZE, sumTE float64
	for _, c := range cases {
		np, err := nativePath(c)
		check(err)
		ep, err := enginePath(c)
		check(err)
		zp, err := hostPath(ctx, wz, c)
		check(err)
		tp, err := hostPath(ctx, wt, c)
		check(err)
		paths := []path{np, ep, zp, tp}
		results := make([][]time.Duration, len(paths))
		for r := 0; r < *rounds; r++ {
			for i, p := range paths {
				d, err := measure(p, c.activation)
				check(err)
				results[i] = append(results[i], d)
			}
		}
		med := make([]time.Duration, len(paths))
		for i := range results {
			med[i] = median(results[i])
		}
		fmt.Fprintf(&md, "| %s | %s | %s | %s | %s | %.1f× | %.1f× | %.1f× | %.1f× |\n", c.name, us(med[0]), us(med[1]), us(med[2]), us(med[3]),
			float64(med[2])/float64(med[0]), float64(med[3])/float64(med[0]), float64(med[2])/float64(med[1]), float64(med[3])/float64(med[1]))
		sumZE += float64(med[2]) / float64(med[1])
		sumTE += float64(med[3]) / float64(med[1])
		fmt.Fprintf(os.Stderr, "%s: native %v engine %v wazero %v wasmtime %v\n", c.name, med[0], med[1], med[2], med[3])
	}
	md.WriteString("\nActivation sizes: (a) " + size(cases[0].activation) + ", (b) " + size(cases[1].activation) + ", (c) " + size(cases[2].activation) + ", (d) " + size(cases[3].activation) + ".\n\n")
	fmt.Fprintf(&md, "The engine's own code is as fast as native cel-go fed by encoding/json, or faster where the lazy "+
		"activation skips decoding (a). What separates the module from native is the speed of Go-compiled "+
		"WebAssembly: the same engine code runs on average %.0f× slower under wazero and %.0f× slower under "+
		"wasmtime-go than natively (the last two columns), so the 4× (wazero) and 3× (wasmtime-go) targets "+
		"hold only where native cel-go itself spends most of its time decoding JSON. The call boundary is "+
		"not the cost: an empty export call takes %.2f µs under wazero and %.2f µs under wasmtime-go "+
		"(whose Go binding looks the function type up on every call).\n\n", sumZE/float64(len(cases)), sumTE/float64(len(cases)),
		emptyCall(ctx, nil).Seconds()*1e6, emptyCall(ctx, []celwasm.Option{wasmtime.Option()}).Seconds()*1e6)

	// Batch filtering.
	batchSection(ctx, &md, wz, wt, *rounds)
	if *stages != "" {
		stagesSection(ctx, &md, *stages)
	}

	// Cold start.
	md.WriteString("### Cold start\n\n")
	md.WriteString("| step | wazero | wasmtime-go |\n|---|---|---|\n")
	wzCold := coldStart(ctx, nil)
	wtCold := coldStart(ctx, []celwasm.Option{wasmtime.Option()})
	for i, step := range []string{"load module (compile cache warm)", "first instance (instantiate + _initialize)", "first compile (environment construction)", "first eval", "**total to first result**"} {
		fmt.Fprintf(&md, "| %s | %s | %s |\n", step, ms(wzCold[i]), ms(wtCold[i]))
	}
	if cli := os.Getenv("CELWASM_CLI"); cli != "" {
		fmt.Fprintf(&md, "| CLI process `celwasm eval -e 'true'` (exec → exit) | %s | %s |\n", ms(execTime(cli, "wazero")), ms(execTime(cli, "wasmtime")))
	}
	md.WriteString("\n")

	// Size and memory.
	raw := module.Bytes()
	var gz bytes.Buffer
	gw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	gw.Write(raw)
	gw.Close()
	var br bytes.Buffer
	bw := brotli.NewWriterLevel(&br, brotli.BestCompression)
	bw.Write(raw)
	bw.Close()
	md.WriteString("### Module size and memory\n\n")
	fmt.Fprintf(&md, "| | bytes |\n|---|---|\n| module, raw | %s |\n| gzip -9 | %s |\n| brotli -11 | %s |\n", mb(len(raw)), mb(gz.Len()), mb(br.Len()))
	fmt.Fprintf(&md, "| guest linear memory after init | %s |\n| guest linear memory after the benchmarks | %s |\n", mb(guestMemory(ctx, false)), mb(guestMemory(ctx, true)))
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	if rss, ok := readRSS(); ok {
		fmt.Fprintf(&md, "| host process RSS at the end (both runtimes loaded) | %s |\n", mb(rss))
	}
	md.WriteString("\n")
	wz.Close(ctx)
	wt.Close(ctx)

	fmt.Print(md.String())
	if *out != "" {
		check(benchdoc.Splice(*out, "go-bench", "Go host (wazero, wasmtime-go) vs native cel-go", md.String()))
	}
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

func batchSection(ctx context.Context, md *strings.Builder, wz, wt *celwasm.Runtime, rounds int) {
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
		runners = append(runners, runner{"celwasm " + rt.Engine() + " (EvalBatch, 1000 events per call)", func() int {
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
	runners = append(runners, runner{"celwasm engine, native", func() int {
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
	runners = append(runners, runner{"native cel-go + encoding/json", func() int {
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
	fmt.Fprintf(md, "### Batch filtering: one trigger filter over CloudEvents\n\nFilter `%s`, which becomes `%s`; %d structured events of %d bytes on average, one goroutine (one core), median of %d rounds.\n\n",
		batchFilter, cr.Expression, n, size/n, rounds)
	md.WriteString("| path | events/s | µs per event | matches |\n|---|---|---|---|\n")
	var nativeRate float64
	rates := make([]float64, len(runners))
	for i, r := range runners {
		var ds []time.Duration
		matches := 0
		for k := 0; k < rounds; k++ {
			res := testing.Benchmark(func(b *testing.B) {
				for j := 0; j < b.N; j++ {
					matches = r.run()
				}
			})
			ds = append(ds, time.Duration(res.NsPerOp()))
		}
		d := median(ds)
		rates[i] = float64(n) / d.Seconds()
		if strings.HasPrefix(r.name, "native") {
			nativeRate = rates[i]
		}
		fmt.Fprintf(md, "| %s | %.0f | %.2f | %d |\n", r.name, rates[i], d.Seconds()*1e6/float64(n), matches)
		fmt.Fprintf(os.Stderr, "batch %s: %.0f events/s\n", r.name, rates[i])
	}
	fmt.Fprintf(md, "\nwazero / native cel-go: %.1f× the time per event; wasmtime-go / native: %.1f×.\n\n", nativeRate/rates[0], nativeRate/rates[1])
}

// coldStart measures a fresh Runtime from module load to the first result.
func coldStart(ctx context.Context, opts []celwasm.Option) [5]time.Duration {
	var d [5]time.Duration
	t0 := time.Now()
	rt, err := celwasm.New(ctx, append([]celwasm.Option{celwasm.WithInstances(1)}, opts...)...)
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
	eng, err := engineFactory(opts)(ctx, module.Bytes(), celwasm.EngineConfig{CacheDir: cacheDir(opts), MemoryLimitBytes: celwasm.DefaultMemoryLimit})
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

func cacheDir(opts []celwasm.Option) string {
	if len(opts) > 0 {
		return celwasm.DefaultCacheDir("wasmtime")
	}
	return celwasm.DefaultCacheDir("wazero")
}

func execTime(cli, engine string) time.Duration {
	var ds []time.Duration
	for i := 0; i < 5; i++ {
		t0 := time.Now()
		cmd := exec.Command(cli, "eval", "--engine", engine, "-e", "true")
		check(cmd.Run())
		ds = append(ds, time.Since(t0))
	}
	return median(ds)
}

// guestMemory reports an instance's linear memory size, fresh or after
// evaluating the reference cases many times.
func guestMemory(ctx context.Context, exercised bool) int {
	eng, err := celwasm.NewWazeroEngine(ctx, module.Bytes(), celwasm.EngineConfig{CacheDir: cacheDir(nil)})
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
// of an unknown handle).
func emptyCall(ctx context.Context, opts []celwasm.Option) time.Duration {
	eng, err := engineFactory(opts)(ctx, module.Bytes(), celwasm.EngineConfig{CacheDir: cacheDir(opts)})
	check(err)
	defer eng.Close(ctx)
	in, err := eng.Instantiate(ctx, celwasm.InstanceConfig{Args: []string{"celwasm"}})
	check(err)
	defer in.Close(ctx)
	r := testing.Benchmark(func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if _, err := in.Call(ctx, celwasm.ExportFree, 0); err != nil {
				b.Fatal(err)
			}
		}
	})
	return time.Duration(r.NsPerOp())
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

func us(d time.Duration) string { return fmt.Sprintf("%.2f µs", float64(d)/1e3) }
func ms(d time.Duration) string { return fmt.Sprintf("%.0f ms", float64(d)/1e6) }
func mb(n int) string           { return fmt.Sprintf("%.1f MB", float64(n)/1e6) }
func size(b []byte) string      { return fmt.Sprintf("%d B", len(b)) }

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "celwasm-bench:", err)
		os.Exit(1)
	}
}
