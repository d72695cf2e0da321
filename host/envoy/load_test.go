package envoy_test

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/celwasm/celwasm/host/envoy"
)

// TestEnvoyLoad: 200,000 requests of the access policy, a mix of allowed
// and denied, from 8 concurrent keep-alive clients, through the shared
// Envoy (2 workers, a VM each). Every response must be the policy's
// decision, no VM may fail or be replaced, Envoy's log may show no Wasm
// failure (golang/go#78513: poll_oneoff failed errno=52), and Envoy's RSS
// must stay flat after the warm-up. The loop stops by itself: after the
// count, or at a 6-minute deadline (a failure).
func TestEnvoyLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	const (
		warmup   = 20000
		requests = 200000
		clients  = 8
		// RSS may grow by 24 MiB after the warm-up (allocator and V8
		// settling); leaking 128 bytes per request would exceed it.
		maxRSSGrowth = 24 << 20
		deadline     = 6 * time.Minute
	)
	proxy := shared.URL("policy")
	type shape struct {
		method, path string
		header       map[string][]string
		body         string
		status       int
		wantBody     string
	}
	shapes := []shape{
		{"GET", "/healthz", nil, "", 200, ""},
		{"GET", "/api/items?page=3", map[string][]string{"X-Team": {"core"}}, "", 200, ""},
		{"POST", "/api/items", map[string][]string{"X-Team": {"core"}, "Authorization": {"Bearer x"}}, `{"n":1}`, 200, ""},
		{"GET", "/admin/secrets", nil, "", 403, "admin is closed\n"},
		{"DELETE", "/api/items/1", map[string][]string{"X-Team": {"core"}}, "", 401, "token required\n"},
		{"GET", "/api/items", map[string][]string{"X-Team": {"web"}}, "", 403, "no rule allows this request\n"},
	}
	tr := &http.Transport{Proxy: nil, MaxIdleConnsPerHost: clients, MaxConnsPerHost: clients, DisableCompression: true}
	defer tr.CloseIdleConnections()
	cl := &http.Client{Transport: tr, Timeout: 20 * time.Second}
	stop := time.Now().Add(deadline)
	var failures atomic.Int64
	var firstFailure sync.Once
	load := func(n int) time.Duration {
		start := time.Now()
		var next atomic.Int64
		var wg sync.WaitGroup
		for c := 0; c < clients; c++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for time.Now().Before(stop) {
					i := next.Add(1) - 1
					if i >= int64(n) {
						return
					}
					s := shapes[i%int64(len(shapes))]
					r, err := tryDoClient(cl, s.method, proxy+s.path, s.header, s.body)
					ok := err == nil && r.status == s.status && (s.wantBody == "" || r.body == s.wantBody) &&
						(s.status != 200 || (r.echo != nil && r.echo.URI == s.path))
					if !ok {
						failures.Add(1)
						firstFailure.Do(func() { t.Errorf("request %d %s %s: %+v %v", i, s.method, s.path, r, err) })
					}
				}
			}()
		}
		wg.Wait()
		return time.Since(start)
	}
	vms := func() uint64 {
		st, err := shared.Stats("wasm.envoy.wasm.runtime.v8.")
		if err != nil {
			t.Fatal(err)
		}
		return st["wasm.envoy.wasm.runtime.v8.active"]
	}
	activeBefore := vms()
	logStart := len(shared.Log())

	d := load(warmup)
	rss0, err := shared.RSS()
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("warm-up: %d requests in %v (%.0f/s); Envoy RSS %.1f MiB", warmup, d.Round(time.Millisecond), float64(warmup)/d.Seconds(), mib(rss0))
	d = load(requests)
	rss1, _ := shared.RSS()
	t.Logf("load: %d requests from %d keep-alive clients in %v (%.0f/s); Envoy RSS %.1f MiB (%+.1f MiB)",
		requests, clients, d.Round(time.Millisecond), float64(requests)/d.Seconds(), mib(rss1), mib(rss1-rss0))
	if time.Now().After(stop) {
		t.Fatalf("the load did not finish within %v", deadline)
	}
	if n := failures.Load(); n != 0 {
		t.Errorf("%d of %d requests failed", n, warmup+requests)
	}
	if rss1-rss0 > maxRSSGrowth {
		t.Errorf("Envoy RSS grew by %.1f MiB after the warm-up (bound %.0f MiB)", mib(rss1-rss0), mib(maxRSSGrowth))
	}
	if after := vms(); after != activeBefore {
		t.Errorf("active V8 VMs %d → %d: a VM failed or was replaced", activeBefore, after)
	}
	log := shared.Log()[logStart:]
	for _, bad := range []string{"poll_oneoff failed", "Function: proxy_on_", "wasm trap", "Wasm VM failed", "unreachable"} {
		if strings.Contains(log, bad) {
			t.Errorf("Envoy's log shows %q", bad)
		}
	}
	if shared.Exited() {
		t.Fatalf("Envoy exited")
	}

	// RSS per VM: against the same Envoy configuration without any Wasm
	// filter, started now (it starts in about a second).
	base, err := envoy.Start(context.Background(), envoy.Options{
		Binary: binary, Module: module, Backend: backend.Addr,
		Listeners: []envoy.Listener{{Name: "nofilter"}}, Concurrency: 2, Dir: t.TempDir(),
	})
	if err != nil {
		t.Fatal(err)
	}
	defer base.Stop()
	if r := do(t, "GET", base.URL("nofilter")+"/x", nil, ""); r.status != 200 {
		t.Fatalf("no-filter Envoy: %d", r.status)
	}
	rssBase, _ := base.RSS()
	n := vms()
	line := fmt.Sprintf("Envoy RSS at --concurrency 2: %.1f MiB with the filter (%d V8 VMs), %.1f MiB without: %.1f MiB per VM",
		mib(rss1), n, mib(rssBase), mib(rss1-rssBase)/float64(n))
	t.Log(line)
	if f := os.Getenv("CELWASM_ENVOY_LOAD_REPORT"); f != "" {
		os.WriteFile(f, []byte(line+"\n"), 0o644)
	}
}

func mib(b int64) float64 { return float64(b) / (1 << 20) }
