package envoy_test

import (
	"strings"
	"testing"
	"time"
)

const metricsPolicy = `{"statPrefix":"celwasm_metrics","costLimit":100,
  "onError":{"action":"deny","status":503,"body":"policy error\n"},
  "rules":[
    {"name":"open","expression":"request.url_path == '/open'","action":"allow"},
    {"name":"closed","expression":"request.url_path == '/closed'","action":"deny"},
    {"name":"needs-header","expression":"request.url_path == '/err' && request.headers['x-missing'] == 'y'","action":"allow"},
    {"name":"costly","expression":"request.url_path.startsWith('/cost') && request.path.split('/').all(a, request.path.split('/').all(b, a + b != 'zz'))","action":"allow"}
  ]}`

// TestEnvoyMetrics reads the filter's counters from Envoy's /stats: the
// filter defines them with proxy_define_metric, Envoy shows them under
// "wasmcustom.", summed over the worker VMs.
func TestEnvoyMetrics(t *testing.T) {
	proxy := shared.URL("metrics")
	for _, c := range []struct {
		path   string
		status int
	}{
		{"/open", 200}, {"/open", 200}, {"/closed", 403}, {"/err", 503},
		{"/cost/a/b/c/d/e/f/g/h/i/j/k/l/m/n/o/p", 503}, {"/other", 200},
	} {
		if r := do(t, "GET", proxy+c.path, nil, ""); r.status != c.status {
			t.Fatalf("GET %s: %d %q, want %d", c.path, r.status, r.body, c.status)
		}
	}
	want := map[string]uint64{
		"requests": 6, "allowed": 3, "denied": 3,
		"rule.open.matched": 2, "rule.open.allowed": 2, "rule.open.denied": 0,
		"rule.open.evaluation_errors": 0, "rule.open.cost_limit_exceeded": 0,
		"rule.closed.matched": 1, "rule.closed.allowed": 0, "rule.closed.denied": 1,
		"rule.needs-header.matched": 0, "rule.needs-header.denied": 1,
		"rule.needs-header.evaluation_errors": 1, "rule.needs-header.cost_limit_exceeded": 0,
		"rule.costly.matched": 0, "rule.costly.denied": 1,
		"rule.costly.evaluation_errors": 1, "rule.costly.cost_limit_exceeded": 1,
	}
	const prefix = "wasmcustom.celwasm_metrics."
	// Envoy flushes worker-thread counters to /stats periodically.
	var got map[string]uint64
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		var err error
		got, err = shared.Stats(prefix)
		if err != nil {
			t.Fatal(err)
		}
		if got[prefix+"requests"] == want["requests"] || time.Now().After(deadline) {
			break
		}
	}
	for name, n := range want {
		v, ok := got[prefix+name]
		if !ok {
			t.Errorf("%s%s is not in /stats", prefix, name)
		} else if v != n {
			t.Errorf("%s%s = %d, want %d", prefix, name, v, n)
		}
	}
	if len(got) != 3+4*5 {
		var names []string
		for k := range got {
			names = append(names, k)
		}
		t.Errorf("%d counters under %s, want 23: %s", len(got), prefix, strings.Join(names, ", "))
	}
}

// TestEnvoyLogLevel: the filter logs through proxy_log, so Envoy's wasm
// logger level (--component-log-level wasm:…, or the admin /logging)
// decides which of its lines appear.
func TestEnvoyLogLevel(t *testing.T) {
	line := `rule "needs-x-required": eval_error: no such key: x-required (onError: allow)`
	count := func() int { return len(shared.LogLines("warning", line)) }
	if err := shared.AdminPost("/logging?wasm=error"); err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond) // earlier tests' lines reach the file
	before := count()
	do(t, "GET", shared.URL("error-open")+"/quiet", nil, "")
	time.Sleep(300 * time.Millisecond) // > the 50 ms log flush interval
	if n := count(); n != before {
		t.Errorf("a warning was logged with wasm at error level")
	}
	if err := shared.AdminPost("/logging?wasm=debug"); err != nil {
		t.Fatal(err)
	}
	do(t, "GET", shared.URL("error-open")+"/loud", nil, "")
	for deadline := time.Now().Add(5 * time.Second); count() != before+1 && time.Now().Before(deadline); {
		time.Sleep(50 * time.Millisecond)
	}
	if count() != before+1 {
		t.Errorf("no warning with wasm at debug level (%d lines before, %d after)", before, count())
	}
}
