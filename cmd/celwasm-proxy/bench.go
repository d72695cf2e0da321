package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/celwasm/celwasm/cmd/internal/benchdoc"
	"github.com/celwasm/celwasm/host/proxywasm"
)

// benchPolicy is the policy the benchmark runs: four rules, the first
// match decides, as an access policy at a gateway would read.
const benchPolicy = `{
  "rules": [
    {"name": "health", "expression": "request.url_path == '/healthz'", "action": "allow"},
    {"name": "admin-closed", "expression": "request.path.startsWith('/admin')", "action": "deny", "status": 403, "body": "admin is closed\n"},
    {"name": "writes-need-token", "expression": "request.method in ['POST', 'PUT', 'DELETE'] && !('authorization' in request.headers)", "action": "deny", "status": 401},
    {"name": "core-team", "expression": "cidr('127.0.0.0/8').containsIP(source.ip) && request.headers[?'x-team'].orValue('') == 'core'", "action": "allow"}
  ],
  "defaults": {"action": "deny"},
  "ruleHeader": "x-celwasm-rule"
}`

const trivialPolicy = `{"rules": [{"name": "all", "expression": "true", "action": "allow"}]}`

// bench measures the filter's per-request overhead: the same backend and
// client, through the reverse proxy with and without the filter, in one
// run, interleaved; and the filter alone, in process.
func bench(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("celwasm-proxy bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	n := fs.Int("n", 4000, "sequential requests per HTTP path (5x that for the in-process filter, 2.5x for throughput)")
	out := fs.String("o", "build/bench", "write the results as proxywasm.json into this directory")
	modulePath := fs.String("module", "", "proxy-wasm module (as for the proxy)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *n < 100 {
		*n = 100
	}
	wasm, path, err := readModule(*modulePath)
	if err != nil {
		fmt.Fprintln(stderr, "celwasm-proxy bench:", err)
		return 1
	}
	began := time.Now()
	if wd, err := os.Getwd(); err == nil {
		if rel, err := filepath.Rel(wd, path); err == nil && !strings.HasPrefix(rel, "..") {
			path = rel
		}
	}
	r := &benchResult{modulePath: path, moduleSize: len(wasm), n: *n}
	sum := sha256.Sum256(wasm)
	r.moduleSHA = hex.EncodeToString(sum[:])
	if err := r.run(ctx, wasm, stderr); err != nil {
		fmt.Fprintln(stderr, "celwasm-proxy bench:", err)
		return 1
	}
	r.total = time.Since(began)
	f, err := r.section().Write(*out)
	if err != nil {
		fmt.Fprintln(stderr, "celwasm-proxy bench:", err)
		return 1
	}
	fmt.Fprintf(stdout, "wrote %s\n", f)
	return 0
}

type latency struct {
	name string
	ds   []time.Duration
}

func (l *latency) q(p float64) time.Duration {
	s := append([]time.Duration(nil), l.ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[int(p*float64(len(s)-1))]
}

type rate struct {
	name string
	rps  float64
}

type benchResult struct {
	modulePath       string
	moduleSize       int
	moduleSHA        string
	n                int
	cacheWarm        bool
	compile, vmStart time.Duration
	http             []*latency
	inProcess        []*latency
	throughput       []rate
	memory           []proxywasm.VMStats
	breakdown        [3]*latency // filter callbacks, forwarding, close
	total            time.Duration
}

func (r *benchResult) run(ctx context.Context, wasm []byte, stderr io.Writer) error {
	r.cacheWarm = cacheWarm(r.moduleSHA)
	start := time.Now()
	mod, err := proxywasm.Compile(ctx, wasm)
	if err != nil {
		return err
	}
	defer mod.Close(context.Background())
	r.compile = time.Since(start)

	quiet := func(proxywasm.LogEntry) {}
	start = time.Now()
	plugin, err := mod.NewPlugin(ctx, proxywasm.PluginConfig{Configuration: []byte(benchPolicy), Workers: 1, Log: quiet, LogLevel: proxywasm.LevelWarn})
	if err != nil {
		return err
	}
	r.vmStart = time.Since(start)
	defer plugin.Close(context.Background())
	trivial, err := mod.NewPlugin(ctx, proxywasm.PluginConfig{Configuration: []byte(trivialPolicy), Workers: 1, Log: quiet, LogLevel: proxywasm.LevelWarn})
	if err != nil {
		return err
	}
	defer trivial.Close(context.Background())
	fmt.Fprintf(stderr, "compiled the module in %v, started a VM in %v\n", r.compile.Round(time.Millisecond), r.vmStart.Round(time.Millisecond))

	// The filter alone, in process: FilterRequest + Close on a request
	// that never touches the network.
	fmt.Fprintln(stderr, "in-process filter ...")
	inproc := []struct {
		name   string
		p      *proxywasm.Plugin
		method string
		target string
		header map[string]string
	}{
		{"1 rule (`true`): the ABI round trip", trivial, "GET", "/api/items?page=3", nil},
		{"4 rules, allowed by rule 4 (reads 5 attributes)", plugin, "GET", "/api/items?page=3", map[string]string{"X-Team": "core"}},
		{"4 rules, denied by rule 2 (local response)", plugin, "GET", "/admin/users", nil},
	}
	for _, c := range inproc {
		tmpl := httptest.NewRequest(c.method, "http://127.0.0.1:8080"+c.target, nil)
		tmpl.RemoteAddr = "127.0.0.1:40000"
		for k, v := range c.header {
			tmpl.Header.Set(k, v)
		}
		l := &latency{name: c.name}
		for i := 0; i < 5*r.n; i++ {
			req := tmpl.Clone(ctx)
			t0 := time.Now()
			s, err := c.p.FilterRequest(req)
			if err != nil {
				return err
			}
			s.Close()
			l.ds = append(l.ds, time.Since(t0))
		}
		r.inProcess = append(r.inProcess, l)
	}

	// HTTP over 127.0.0.1: one backend, a proxy without and one with the
	// filter, one keep-alive client per path, interleaved in rounds.
	backendL, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	backend := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "text/plain")
		w.Write([]byte("ok\n"))
	})}
	go backend.Serve(backendL)
	defer backend.Close()
	backendURL, _ := url.Parse("http://" + backendL.Addr().String())
	serve := func(h http.Handler) (string, func(), error) {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return "", nil, err
		}
		srv := proxywasm.NewServer(h)
		go srv.Serve(l)
		return "http://" + l.Addr().String(), func() { srv.Close() }, nil
	}
	plain, closePlain, err := serve(proxywasm.NewReverseProxy(nil, backendURL))
	if err != nil {
		return err
	}
	defer closePlain()
	filtered, closeFiltered, err := serve(proxywasm.NewReverseProxy(plugin, backendURL))
	if err != nil {
		return err
	}
	defer closeFiltered()

	paths := []struct {
		name, base, target, team string
		status                   int
	}{
		{"backend directly", backendURL.String(), "/api/items?page=3", "core", 200},
		{"proxy, no filter", plain, "/api/items?page=3", "core", 200},
		{"proxy + filter, allowed by rule 4", filtered, "/api/items?page=3", "core", 200},
		{"proxy + filter, denied by rule 2 (local response)", filtered, "/admin/users", "", 403},
	}
	clients := make([]*http.Client, len(paths))
	for i := range paths {
		clients[i] = &http.Client{Transport: &http.Transport{Proxy: nil, MaxIdleConnsPerHost: 16}, Timeout: 10 * time.Second}
		r.http = append(r.http, &latency{name: paths[i].name})
	}
	get := func(c *http.Client, u, team string) (int, error) {
		req, _ := http.NewRequest("GET", u, nil)
		if team != "" {
			req.Header.Set("X-Team", team)
		}
		res, err := c.Do(req)
		if err != nil {
			return 0, err
		}
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
		return res.StatusCode, nil
	}
	fmt.Fprintln(stderr, "sequential HTTP ...")
	const round = 250
	for done := 0; done < r.n; done += round {
		for i, p := range paths {
			for k := 0; k < round; k++ {
				t0 := time.Now()
				st, err := get(clients[i], p.base+p.target, p.team)
				d := time.Since(t0)
				if err != nil {
					return fmt.Errorf("%s: %v", p.name, err)
				}
				if st != p.status {
					return fmt.Errorf("%s: status %d, want %d", p.name, st, p.status)
				}
				r.http[i].ds = append(r.http[i].ds, d)
			}
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
	}

	// Where the time goes inside the proxy with the filter: the same
	// steps as Plugin.Wrap, timed.
	fmt.Fprintln(stderr, "breakdown ...")
	var filterT, forwardT, closeT latency
	forward := proxywasm.NewReverseProxy(nil, backendURL)
	timed, closeTimed, err := serve(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		t0 := time.Now()
		s, err := plugin.FilterRequest(req)
		t1 := time.Now()
		if err != nil {
			http.Error(w, err.Error(), 503)
			return
		}
		filterT.ds = append(filterT.ds, t1.Sub(t0))
		forward.ServeHTTP(w, req)
		t2 := time.Now()
		forwardT.ds = append(forwardT.ds, t2.Sub(t1))
		s.Close()
		closeT.ds = append(closeT.ds, time.Since(t2))
	}))
	if err != nil {
		return err
	}
	defer closeTimed()
	bc := &http.Client{Transport: &http.Transport{Proxy: nil}, Timeout: 10 * time.Second}
	for i := 0; i < r.n/2; i++ {
		if st, err := get(bc, timed+"/api/items?page=3", "core"); err != nil || st != 200 {
			return fmt.Errorf("breakdown: %d %v", st, err)
		}
	}
	r.breakdown = [3]*latency{&filterT, &forwardT, &closeT}

	// Throughput with 8 concurrent clients.
	fmt.Fprintln(stderr, "throughput ...")
	const concurrency = 8
	total := r.n * 5 / 2
	for _, p := range []struct{ name, base string }{{"proxy, no filter", plain}, {"proxy + filter (allowed by rule 4)", filtered}} {
		c := &http.Client{Transport: &http.Transport{Proxy: nil, MaxIdleConnsPerHost: concurrency}, Timeout: 10 * time.Second}
		var next atomic.Int64
		var failed atomic.Int64
		var wg sync.WaitGroup
		t0 := time.Now()
		for w := 0; w < concurrency; w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for next.Add(1) <= int64(total) {
					if st, err := get(c, p.base+"/api/items?page=3", "core"); err != nil || st != 200 {
						failed.Add(1)
					}
				}
			}()
		}
		wg.Wait()
		if failed.Load() > 0 {
			return fmt.Errorf("%s: %d failed requests", p.name, failed.Load())
		}
		r.throughput = append(r.throughput, rate{p.name, float64(total) / time.Since(t0).Seconds()})
	}
	st, err := plugin.Stats(true)
	if err != nil {
		return err
	}
	r.memory = st.VMs
	return nil
}

func cacheWarm(sha string) bool {
	d, err := os.UserCacheDir()
	if err != nil {
		return false
	}
	entries, err := os.ReadDir(filepath.Join(d, "celwasm", "wazero-proxywasm", sha[:16]))
	return err == nil && len(entries) > 0
}

func usf(d time.Duration) float64 { return float64(d) / float64(time.Microsecond) }

// section is the results in cmd/internal/benchdoc's format.
func (r *benchResult) section() *benchdoc.Section {
	s := benchdoc.New("proxywasm", "proxy-wasm filter: the Go host on wazero, loopback HTTP", "make -C wasm/proxywasm bench")
	var policy bytes.Buffer
	json.Compact(&policy, []byte(benchPolicy))
	s.Contextf("%s; wazero (optimizing compiler); module `%s`, %d bytes, sha256 %s.", runtime.Version(), filepath.ToSlash(r.modulePath), r.moduleSize, r.moduleSHA)
	s.Contextf("Client, reverse proxy (`net/http/httputil`) and backend share the machine and talk HTTP/1.1 with keep-alive over 127.0.0.1. Envoy is not run here.")
	s.Contextf("The policy: 4 rules, the first match decides; the allowed request evaluates all four and reads `request.url_path`, `request.path`, `request.method`, `request.headers`, `source.ip`: `%s`.", policy.String())
	s.Contextf("Sequential requests: %d per path, one keep-alive client per path, interleaved in rounds of 250. Added latency: a percentile with the filter minus the same percentile without it (same proxy, backend and client).", r.n)
	t := s.AddTable("Sequential requests, one keep-alive client", "path", "p50 µs", "p90 µs", "p99 µs")
	for _, l := range r.http {
		t.Row(l.name, usf(l.q(0.5)), usf(l.q(0.9)), usf(l.q(0.99)))
	}
	added := func(p float64) float64 { return usf(r.http[2].q(p) - r.http[1].q(p)) }
	t.Row("added by the filter (allowed by rule 4)", added(0.5), added(0.9), added(0.99))
	s.Metrics["proxywasm.added_latency_p50_us"] = added(0.5)
	s.Metrics["proxywasm.added_latency_p90_us"] = added(0.9)
	s.Metrics["proxywasm.added_latency_p99_us"] = added(0.99)

	b := s.AddTable(fmt.Sprintf("Inside the filtering proxy: %d more allowed requests, timed around the same steps as `Plugin.Wrap`", len(r.breakdown[0].ds)), "step", "p50 µs", "p90 µs")
	for i, name := range []string{"the filter's request callbacks", "forwarding to the backend", "closing the stream (done, log, delete)"} {
		b.Row(name, usf(r.breakdown[i].q(0.5)), usf(r.breakdown[i].q(0.9)))
	}

	in := s.AddTable(fmt.Sprintf("The filter alone, in process: `Plugin.FilterRequest` + `Stream.Close` (context create, request headers, done/log/delete), %d calls each", 5*r.n), "case", "p50 µs", "p90 µs", "p99 µs")
	for i, l := range r.inProcess {
		in.Row(l.name, usf(l.q(0.5)), usf(l.q(0.9)), usf(l.q(0.99)))
		s.Metrics[fmt.Sprintf("proxywasm.inprocess.%d_p50_us", i+1)] = usf(l.q(0.5))
	}

	th := s.AddTable(fmt.Sprintf("Throughput, 8 concurrent keep-alive clients, %d requests", r.n*5/2), "path", "requests/s", "/ without the filter")
	for _, x := range r.throughput {
		th.Row(x.name, x.rps, x.rps/r.throughput[0].rps)
	}
	s.Metrics["proxywasm.throughput_no_filter_rps"] = r.throughput[0].rps
	s.Metrics["proxywasm.throughput_filter_rps"] = r.throughput[1].rps
	s.Metrics["proxywasm.throughput_ratio"] = r.throughput[1].rps / r.throughput[0].rps

	cache := "compile module, cache cold"
	if r.cacheWarm {
		cache = "compile module, cache warm"
	}
	st := s.AddTable("Start-up and memory", "what", "value", "unit")
	st.Row(cache, float64(r.compile)/1e6, "ms")
	st.Row("VM start (instantiate, `_initialize`, root context, `proxy_on_configure` with the 4 rules)", float64(r.vmStart)/1e6, "ms")
	s.Metrics["proxywasm.compile_ms"] = float64(r.compile) / 1e6
	s.Metrics["proxywasm.vm_start_ms"] = float64(r.vmStart) / 1e6
	for _, m := range r.memory {
		st.Row(fmt.Sprintf("VM %d linear memory after the run", m.Worker), float64(m.MemoryBytes)/(1<<20), "MiB")
		st.Row(fmt.Sprintf("VM %d live Go heap after the run", m.Worker), float64(m.Guest["heapAlloc"])/(1<<20), "MiB")
		s.Metrics[fmt.Sprintf("proxywasm.vm%d.memory_mib", m.Worker)] = float64(m.MemoryBytes) / (1 << 20)
	}
	s.Contextf("Run time of this benchmark: %.0f s.", r.total.Seconds())
	return s
}
