package proxywasm_test

// End-to-end tests: the real filter module (build/celwasm-proxywasm.wasm,
// built by `make -C wasm/proxywasm module`), this package's proxy-wasm host
// and reverse proxy, real HTTP over 127.0.0.1 only.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/celwasm/celwasm/host/proxywasm"
)

var module *proxywasm.Module

func TestMain(m *testing.M) {
	path := os.Getenv("CELWASM_PROXYWASM_MODULE")
	if path == "" {
		path = filepath.Join("..", "..", "build", "celwasm-proxywasm.wasm")
	}
	wasm, err := os.ReadFile(path)
	if err != nil {
		if os.Getenv("CELWASM_PROXYWASM_REQUIRE") != "" {
			fmt.Fprintf(os.Stderr, "the filter module is required: %v\n", err)
			os.Exit(1)
		}
		fmt.Fprintf(os.Stderr, "skipping host/proxywasm tests: %v (build it with `make -C wasm/proxywasm module`)\n", err)
		os.Exit(0)
	}
	start := time.Now()
	module, err = proxywasm.Compile(context.Background(), wasm)
	if err != nil {
		fmt.Fprintf(os.Stderr, "compile %s: %v\n", path, err)
		os.Exit(1)
	}
	fmt.Fprintf(os.Stderr, "compiled %s (%d bytes) in %v\n", path, len(wasm), time.Since(start).Round(time.Millisecond))
	code := m.Run()
	module.Close(context.Background())
	os.Exit(code)
}

// logs collects the guest's log lines.
type logs struct {
	mu    sync.Mutex
	lines []proxywasm.LogEntry
}

func (l *logs) add(e proxywasm.LogEntry) {
	l.mu.Lock()
	l.lines = append(l.lines, e)
	l.mu.Unlock()
}

func (l *logs) find(level proxywasm.LogLevel, substr string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, e := range l.lines {
		if e.Level == level && strings.Contains(e.Message, substr) {
			return true
		}
	}
	return false
}

func (l *logs) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var b strings.Builder
	for _, e := range l.lines {
		fmt.Fprintf(&b, "  [%s] %s\n", e.Level, e.Message)
	}
	return b.String()
}

func newPlugin(t testing.TB, config string, workers int) (*proxywasm.Plugin, *logs) {
	t.Helper()
	l := &logs{}
	p, err := module.NewPlugin(context.Background(), proxywasm.PluginConfig{
		Configuration: []byte(config), Name: "celwasm-test", VMID: "test-vm",
		Workers: workers, Log: l.add, LogLevel: proxywasm.LevelDebug,
	})
	if err != nil {
		t.Fatalf("NewPlugin: %v", err)
	}
	t.Cleanup(func() { p.Close(context.Background()) })
	return p, l
}

// listen opens a TCP listener on 127.0.0.1 (never another address).
func listen(t testing.TB) net.Listener {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// backend echoes what it received as JSON and counts requests.
type backend struct {
	URL  *url.URL
	hits atomic.Int64
}

type echo struct {
	Method  string              `json:"method"`
	URI     string              `json:"uri"`
	Host    string              `json:"host"`
	Headers map[string][]string `json:"headers"`
	Body    string              `json:"body"`
}

func startBackend(t testing.TB) *backend {
	t.Helper()
	b := &backend{}
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b.hits.Add(1)
		body, _ := io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(echo{Method: r.Method, URI: r.RequestURI, Host: r.Host, Headers: r.Header, Body: string(body)})
	}))
	srv.Listener.Close()
	srv.Listener = listen(t)
	srv.Start()
	t.Cleanup(srv.Close)
	b.URL, _ = url.Parse(srv.URL)
	return b
}

// startProxy serves the filtering reverse proxy on l.
func startProxy(t testing.TB, l net.Listener, p *proxywasm.Plugin, backend *url.URL) string {
	t.Helper()
	srv := proxywasm.NewServer(proxywasm.NewReverseProxy(p, backend))
	go srv.Serve(l)
	t.Cleanup(func() { srv.Close() })
	return "http://" + l.Addr().String()
}

var client = &http.Client{
	Timeout:   20 * time.Second,
	Transport: &http.Transport{Proxy: nil, MaxIdleConnsPerHost: 64},
}

type response struct {
	status int
	header http.Header
	body   string
	echo   *echo // when the backend answered
}

func do(t testing.TB, method, u string, header map[string][]string, body string) response {
	t.Helper()
	req, err := http.NewRequest(method, u, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if body == "" {
		req.Body = http.NoBody
	}
	for k, vs := range header {
		for _, v := range vs {
			req.Header.Add(k, v)
		}
	}
	res, err := client.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, u, err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	r := response{status: res.StatusCode, header: res.Header, body: string(b)}
	if strings.HasPrefix(res.Header.Get("Content-Type"), "application/json") {
		var e echo
		if json.Unmarshal(b, &e) == nil {
			r.echo = &e
		}
	}
	return r
}

const accessPolicy = `{
  "rules": [
    {"name": "health", "expression": "request.url_path == '/healthz'", "action": "allow"},
    {"name": "admin-closed", "expression": "request.path.startsWith('/admin')", "action": "deny",
     "status": 403, "body": "admin is closed\n"},
    {"name": "writes-need-token", "expression": "request.method in ['POST', 'PUT', 'DELETE'] && !('authorization' in request.headers)",
     "action": "deny", "status": 401, "body": "token required\n"},
    {"name": "core-team", "expression": "cidr('127.0.0.0/8').containsIP(source.ip) && request.headers[?'x-team'].orValue('') == 'core'",
     "action": "allow"}
  ],
  "defaults": {"action": "deny", "status": 403, "body": "no rule allows this request\n"},
  "ruleHeader": "x-celwasm-rule"
}`

func TestLoopbackAllowDenyAndRuleHeader(t *testing.T) {
	be := startBackend(t)
	p, lg := newPlugin(t, accessPolicy, 2)
	proxy := startProxy(t, listen(t), p, be.URL)

	// Allowed by a rule: forwarded, with the rule named upstream, and a
	// client-sent rule header does not survive.
	r := do(t, "GET", proxy+"/healthz", map[string][]string{"X-Celwasm-Rule": {"forged"}}, "")
	if r.status != 200 || r.echo == nil {
		t.Fatalf("GET /healthz: %d %q", r.status, r.body)
	}
	if got := r.echo.Headers["X-Celwasm-Rule"]; len(got) != 1 || got[0] != "health" {
		t.Errorf("backend saw x-celwasm-rule %q, want [health]", got)
	}
	if r.echo.URI != "/healthz" || r.echo.Method != "GET" || !strings.HasPrefix(r.echo.Host, "127.0.0.1:") {
		t.Errorf("backend saw %+v", r.echo)
	}
	if id := r.echo.Headers["X-Request-Id"]; len(id) != 1 || len(id[0]) != 36 {
		t.Errorf("x-request-id upstream = %q, want a generated UUID", id)
	}

	// Denied by a rule: the local response, the backend never sees it.
	hits := be.hits.Load()
	r = do(t, "GET", proxy+"/admin/users?page=2", nil, "")
	if r.status != 403 || r.body != "admin is closed\n" || r.echo != nil {
		t.Errorf("GET /admin: %d %q", r.status, r.body)
	}
	if r.header.Get("X-Celwasm-Rule") != "admin-closed" || r.header.Get("Content-Type") != "text/plain" {
		t.Errorf("GET /admin headers %v", r.header)
	}
	r = do(t, "POST", proxy+"/api/orders", map[string][]string{"X-Team": {"core"}}, `{"qty":1}`)
	if r.status != 401 || r.body != "token required\n" || r.header.Get("X-Celwasm-Rule") != "writes-need-token" {
		t.Errorf("POST without token: %d %q %v", r.status, r.body, r.header)
	}
	if be.hits.Load() != hits {
		t.Errorf("denied requests reached the backend (%d hits, want %d)", be.hits.Load(), hits)
	}

	// No rule matches: the default deny, without a rule header.
	r = do(t, "GET", proxy+"/api/orders", nil, "")
	if r.status != 403 || r.body != "no rule allows this request\n" || r.header.Get("X-Celwasm-Rule") != "" {
		t.Errorf("default deny: %d %q %v", r.status, r.body, r.header)
	}

	// Allowed through an optional header lookup and cidr() on source.ip;
	// the body goes upstream untouched.
	r = do(t, "PUT", proxy+"/api/orders/7", map[string][]string{"X-Team": {"core"}, "Authorization": {"Bearer t"}}, `{"qty":2}`)
	if r.status != 200 || r.echo == nil || r.echo.Body != `{"qty":2}` || r.echo.Method != "PUT" {
		t.Fatalf("PUT as core team: %d %q", r.status, r.body)
	}
	if got := r.echo.Headers["X-Celwasm-Rule"]; len(got) != 1 || got[0] != "core-team" {
		t.Errorf("backend saw x-celwasm-rule %q, want [core-team]", got)
	}
	if be.hits.Load() != hits+1 {
		t.Errorf("backend hits %d, want %d", be.hits.Load(), hits+1)
	}
	if !lg.find(proxywasm.LevelInfo, "celwasm: 4 rules compiled (kubernetes") {
		t.Errorf("no configure summary in the log:\n%s", lg)
	}
	st, err := p.Stats(false)
	if err != nil || st.Streams != 5 || st.LocalResponses != 3 || st.Traps != 0 {
		t.Errorf("stats %+v, %v", st, err)
	}
}

// TestAttributesOverRealRequests checks every attribute the filter binds
// against the real request: each rule denies with a body naming the
// attribute when it is wrong, the last allows.
func TestAttributesOverRealRequests(t *testing.T) {
	be := startBackend(t)
	l := listen(t)
	port := l.Addr().(*net.TCPAddr).Port
	now := time.Now().UTC()
	checks := []struct{ name, cond string }{
		{"path", `request.path == '/p/q?a=1&b=two'`},
		{"url_path", `request.url_path == '/p/q'`},
		{"query", `request.query == 'a=1&b=two'`},
		{"method", `request.method == 'PUT'`},
		{"host", fmt.Sprintf(`request.host == '127.0.0.1:%d'`, port)},
		{"scheme", `request.scheme == 'http'`},
		{"useragent", `request.useragent == 'celwasm-e2e/1'`},
		{"referer", `request.referer == 'http://referrer.test/x'`},
		{"id", `request.id == 'req-42'`},
		{"protocol", `request.protocol == 'HTTP/1.1'`},
		{"time", fmt.Sprintf(`type(request.time) == google.protobuf.Timestamp && request.time > timestamp('%s') && request.time < timestamp('%s')`,
			now.Add(-time.Minute).Format(time.RFC3339), now.Add(time.Minute).Format(time.RFC3339))},
		{"size", `type(request.size) == int && request.size == 4`},
		{"headers", `request.headers['x-multi'] == 'one,two' && request.headers[':method'] == 'PUT' && !('X-Multi' in request.headers)`},
		{"no-duration", `!has(request.duration) && !has(request.total_size)`},
		{"source", `type(source.port) == int && source.port > 0 && source.address == '127.0.0.1:' + string(source.port) && source.ip == '127.0.0.1'`},
		{"destination", fmt.Sprintf(`destination.address == '127.0.0.1:%d' && destination.port == %d && destination.ip == '127.0.0.1'`, port, port)},
		{"connection", `type(connection.id) == uint && connection.id > 0u && connection.mtls == false && connection.requested_server_name == '' && !has(connection.tls_version)`},
		{"iteration", `source.all(k, k in ['address', 'port', 'ip']) && size(source) == 3`},
	}
	var rules []string
	for _, c := range checks {
		rules = append(rules, fmt.Sprintf(`{"name":"bad-%s","expression":%q,"action":"deny","status":418,"body":"bad %s\n"}`, c.name, "!("+c.cond+")", c.name))
	}
	rules = append(rules, `{"name":"all-good","expression":"true","action":"allow"}`)
	p, lg := newPlugin(t, `{"rules":[`+strings.Join(rules, ",")+`],"ruleHeader":"x-celwasm-rule"}`, 1)
	proxy := startProxy(t, l, p, be.URL)

	r := do(t, "PUT", proxy+"/p/q?a=1&b=two", map[string][]string{
		"User-Agent": {"celwasm-e2e/1"}, "Referer": {"http://referrer.test/x"},
		"X-Request-Id": {"req-42"}, "X-Multi": {"one", "two"},
	}, "ping")
	if r.status != 200 || r.echo == nil {
		t.Fatalf("status %d body %q\nlog:\n%s", r.status, r.body, lg)
	}
	if got := r.echo.Headers["X-Celwasm-Rule"]; len(got) != 1 || got[0] != "all-good" {
		t.Errorf("rule header %q", got)
	}
	if r.echo.Body != "ping" || r.echo.URI != "/p/q?a=1&b=two" {
		t.Errorf("backend saw %+v", r.echo)
	}
	// And a request that differs in one attribute is caught by its rule.
	r = do(t, "PUT", proxy+"/p/q?a=1&b=two", map[string][]string{
		"User-Agent": {"other"}, "Referer": {"http://referrer.test/x"},
		"X-Request-Id": {"req-42"}, "X-Multi": {"one", "two"},
	}, "ping")
	if r.status != 418 || r.body != "bad useragent\n" {
		t.Errorf("changed user agent: %d %q", r.status, r.body)
	}
}

func TestEvaluationErrorsFailClosed(t *testing.T) {
	be := startBackend(t)
	rules := `"rules":[{"name":"needs-x-required","expression":"request.headers['x-required'] == 'yes'","action":"allow"}],
		"defaults":{"action":"deny","status":403,"body":"not allowed\n"}`
	p, lg := newPlugin(t, `{`+rules+`}`, 1)
	proxy := startProxy(t, listen(t), p, be.URL)

	// The header is missing: no such key, the filter fails closed.
	r := do(t, "GET", proxy+"/x", nil, "")
	if r.status != 403 || r.body != "not allowed\n" || be.hits.Load() != 0 {
		t.Errorf("missing header: %d %q (backend hits %d)", r.status, r.body, be.hits.Load())
	}
	if !lg.find(proxywasm.LevelWarn, `rule "needs-x-required": eval_error: no such key: x-required (onError: deny)`) {
		t.Errorf("the evaluation error is not logged:\n%s", lg)
	}
	r = do(t, "GET", proxy+"/x", map[string][]string{"X-Required": {"yes"}}, "")
	if r.status != 200 || be.hits.Load() != 1 {
		t.Errorf("with the header: %d %q", r.status, r.body)
	}

	// onError allow: the same error lets the request through.
	open, _ := newPlugin(t, `{`+rules+`,"onError":{"action":"allow"}}`, 1)
	proxyOpen := startProxy(t, listen(t), open, be.URL)
	if r := do(t, "GET", proxyOpen+"/x", nil, ""); r.status != 200 || be.hits.Load() != 2 {
		t.Errorf("fail open: %d %q", r.status, r.body)
	}

	// The cost limit stops an expensive rule: fail closed with the
	// configured error response.
	costly, lg2 := newPlugin(t, `{"costLimit":100,"onError":{"action":"deny","status":503,"body":"policy error\n"},"rules":[
		{"name":"expensive","expression":"request.path.split('/').all(a, request.path.split('/').all(b, a + b != 'zz'))","action":"allow"}]}`, 1)
	proxyCostly := startProxy(t, listen(t), costly, be.URL)
	r = do(t, "GET", proxyCostly+"/a/b/c/d/e/f/g/h/i/j/k/l/m/n/o/p", nil, "")
	if r.status != 503 || r.body != "policy error\n" || be.hits.Load() != 2 {
		t.Errorf("cost limit: %d %q", r.status, r.body)
	}
	if !lg2.find(proxywasm.LevelWarn, "cost_limit_exceeded") {
		t.Errorf("no cost limit in the log:\n%s", lg2)
	}
}

func TestBadConfigurationFailsPluginStart(t *testing.T) {
	for _, tc := range []struct{ name, config, want string }{
		{"compile error", `{"rules":[{"name":"broken","expression":"request.path.startsWith(","action":"deny"}]}`,
			`celwasm: plugin configuration rejected: rule "broken": compile_error: ERROR: <input>:1:25: Syntax error`},
		{"unknown attribute", `{"rules":[{"name":"typo","expression":"request.pathh == '/'","action":"deny"}]}`,
			`rule "typo": unknown attribute request.pathh (request has path, url_path`},
		{"not a bool", `{"rules":[{"name":"num","expression":"size(request.path)","action":"deny"}]}`,
			`rule "num": the expression's type is int`},
		{"bad action", `{"rules":[{"name":"a","expression":"true","action":"reject"}]}`, `action must be "allow" or "deny"`},
		{"invalid JSON", `{"rules":[`, "the plugin configuration is not valid"},
		{"unknown field", `{"rules":[],"default":{"action":"deny"}}`, `unknown field "default"`},
		{"empty", ``, "the plugin configuration is empty"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := &logs{}
			_, err := module.NewPlugin(context.Background(), proxywasm.PluginConfig{
				Configuration: []byte(tc.config), Workers: 1, Log: l.add,
			})
			var se *proxywasm.StartError
			if !errors.As(err, &se) || se.Phase != "configure" {
				t.Fatalf("NewPlugin error %v; want a configure StartError", err)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q does not contain %q", err, tc.want)
			}
			if !l.find(proxywasm.LevelError, tc.want) {
				t.Errorf("the reason is not logged at error level:\n%s", l)
			}
		})
	}
}

// TestTrapReplacesVM runs a VM out of memory (a 40 MiB memory cap and a
// rule that builds a huge list): the request fails closed with 503, the VM
// is replaced, the next request is served.
func TestTrapReplacesVM(t *testing.T) {
	wasm, err := os.ReadFile(moduleFile())
	if err != nil {
		t.Fatal(err)
	}
	small, err := proxywasm.Compile(context.Background(), wasm, proxywasm.WithMemoryLimit(40<<20))
	if err != nil {
		t.Fatal(err)
	}
	defer small.Close(context.Background())
	l := &logs{}
	// 10^8 list elements do not fit in 40 MiB (the VM starts at 25 MiB).
	big := `[0,1,2,3,4,5,6,7,8,9].map(a, [0,1,2,3,4,5,6,7,8,9].map(b, [0,1,2,3,4,5,6,7,8,9].map(c, [0,1,2,3,4,5,6,7,8,9].map(d, [0,1,2,3,4,5,6,7,8,9].map(e, [0,1,2,3,4,5,6,7,8,9].map(f, [0,1,2,3,4,5,6,7,8,9].map(g, [0,1,2,3,4,5,6,7,8,9].map(h, request.path))))))))`
	p, err := small.NewPlugin(context.Background(), proxywasm.PluginConfig{
		Configuration: []byte(`{"costLimit":18446744073709551615,"rules":[
			{"name":"boom","expression":"request.path == '/boom' && size(` + big + `) > 0","action":"deny"}]}`),
		Workers: 1, Log: l.add,
	})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close(context.Background())
	be := startBackend(t)
	proxy := startProxy(t, listen(t), p, be.URL)
	if r := do(t, "GET", proxy+"/boom", nil, ""); r.status != 503 {
		t.Fatalf("out of memory: %d %q", r.status, r.body)
	}
	if r := do(t, "GET", proxy+"/fine", nil, ""); r.status != 200 {
		t.Fatalf("after the trap: %d %q\n%s", r.status, r.body, l)
	}
	st, _ := p.Stats(false)
	if st.Traps != 1 || st.Restarts != 1 {
		t.Errorf("stats %+v", st)
	}
	if !l.find(proxywasm.LevelCritical, "VM trapped and is replaced") {
		t.Errorf("no trap in the log:\n%s", l)
	}
}

func moduleFile() string {
	if p := os.Getenv("CELWASM_PROXYWASM_MODULE"); p != "" {
		return p
	}
	return filepath.Join("..", "..", "build", "celwasm-proxywasm.wasm")
}
