package envoy_test

// End-to-end tests of the filter module (build/celwasm-proxywasm.wasm) in
// the real Envoy 1.40.0 with --concurrency 2 (a VM per worker), in front
// of a Go backend; everything on 127.0.0.1.

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/celwasm/celwasm/host/envoy"
)

var (
	binary, module string
	// shared is one Envoy for the end-to-end tests: V8 compiles the 43 MB
	// module once per process, which takes tens of seconds, so the tests
	// share the process and each has its own listener(s); listeners are
	// added and replaced through Envoy's filesystem LDS.
	shared  *envoy.Envoy
	backend *envoy.Backend
)

// TestMain runs the tests against the Envoy binary (envoy.Binary) and the
// filter module ($CELWASM_PROXYWASM_MODULE or build/celwasm-proxywasm.wasm).
// Both are required; CELWASM_ENVOY_TESTS=skip skips the package instead.
func TestMain(m *testing.M) {
	if os.Getenv("CELWASM_ENVOY_TESTS") == "skip" {
		fmt.Fprintln(os.Stderr, "skipping the Envoy tests: CELWASM_ENVOY_TESTS=skip")
		os.Exit(0)
	}
	root := filepath.Join("..", "..")
	var err error
	binary, err = envoy.Binary(root)
	if err == nil {
		module = os.Getenv("CELWASM_PROXYWASM_MODULE")
		if module == "" {
			module = filepath.Join(root, "build", "celwasm-proxywasm.wasm")
		}
		module, _ = filepath.Abs(module)
		_, err = os.Stat(module)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "Envoy and the filter module are required (make -C wasm/proxywasm test-envoy; CELWASM_ENVOY_TESTS=skip skips): %v\n", err)
		os.Exit(1)
	}
	os.Exit(run(m))
}

func run(m *testing.M) int {
	var err error
	backend, err = envoy.StartBackend()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer backend.Close()
	dir, err := os.MkdirTemp("", "celwasm-envoy-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	shared, err = envoy.Start(context.Background(), envoy.Options{
		Binary: binary, Module: module, Backend: backend.Addr, Listeners: baseListeners,
		Concurrency: 2, Dir: dir,
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	fmt.Fprintf(os.Stderr, "envoy %s ready in %v with the filter module %s\n", envoy.Version, shared.Ready.Round(time.Millisecond), module)
	code := m.Run()
	shared.Stop()
	if code != 0 {
		fmt.Fprintf(os.Stderr, "envoy log (tail):\n%s\n", tail(shared.Log(), 60))
	}
	return code
}

func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// The listeners of the shared Envoy.
var baseListeners = []envoy.Listener{
	{Name: "policy", Plugin: accessPolicy},
	{Name: "attributes", Plugin: attributesPolicy()},
	{Name: "error-closed", Plugin: `{` + errorRules + `}`},
	{Name: "error-open", Plugin: `{` + errorRules + `,"onError":{"action":"allow"}}`},
	{Name: "error-skip", Plugin: `{` + errorRules + `,"onError":{"action":"skip"}}`},
	{Name: "cost", Plugin: costPolicy},
	{Name: "metrics", Plugin: metricsPolicy},
	{Name: "phases", Plugin: phasesPolicy},
	{Name: "adversarial", Plugin: func() string { p, _, _ := adversarialPolicy(); return p }()},
	{Name: "nofilter"},
}

var client = &http.Client{
	Timeout:   20 * time.Second,
	Transport: &http.Transport{Proxy: nil, MaxIdleConnsPerHost: 64},
}

type response struct {
	status int
	header http.Header
	body   string
	echo   *envoy.Echo // when the backend answered
}

func do(t testing.TB, method, u string, header map[string][]string, body string) response {
	t.Helper()
	r, err := tryDo(method, u, header, body)
	if err != nil {
		t.Fatalf("%s %s: %v", method, u, err)
	}
	return r
}

func tryDo(method, u string, header map[string][]string, body string) (response, error) {
	return tryDoClient(client, method, u, header, body)
}

func tryDoClient(client *http.Client, method, u string, header map[string][]string, body string) (response, error) {
	req, err := http.NewRequest(method, u, strings.NewReader(body))
	if err != nil {
		return response{}, err
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
		return response{}, err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		return response{}, err
	}
	r := response{status: res.StatusCode, header: res.Header, body: string(b)}
	if strings.HasPrefix(res.Header.Get("Content-Type"), "application/json") {
		var e envoy.Echo
		if json.Unmarshal(b, &e) == nil && e.Method != "" {
			r.echo = &e
		}
	}
	return r, nil
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

func TestEnvoyAllowDenyAndRuleHeader(t *testing.T) {
	e, be := shared, backend
	proxy := e.URL("policy")
	// Allowed by a rule: forwarded, with the rule named upstream, and a
	// client-sent rule header does not survive.
	r := do(t, "GET", proxy+"/healthz", map[string][]string{"X-Celwasm-Rule": {"forged"}}, "")
	if r.status != 200 || r.echo == nil {
		t.Fatalf("GET /healthz: %d %q", r.status, r.body)
	}
	if got := r.echo.Headers["X-Celwasm-Rule"]; len(got) != 1 || got[0] != "health" {
		t.Errorf("backend saw x-celwasm-rule %q, want [health]", got)
	}
	if r.echo.URI != "/healthz" || r.echo.Method != "GET" {
		t.Errorf("backend saw %+v", r.echo)
	}

	// Denied by a rule: the local response, the backend never sees it.
	hits := be.Hits.Load()
	r = do(t, "GET", proxy+"/admin/users?page=2", nil, "")
	if r.status != 403 || r.body != "admin is closed\n" || r.echo != nil {
		t.Errorf("GET /admin: %d %q", r.status, r.body)
	}
	if r.header.Get("X-Celwasm-Rule") != "admin-closed" {
		t.Errorf("GET /admin headers %v", r.header)
	}
	r = do(t, "POST", proxy+"/api/orders", map[string][]string{"X-Team": {"core"}}, `{"qty":1}`)
	if r.status != 401 || r.body != "token required\n" || r.header.Get("X-Celwasm-Rule") != "writes-need-token" {
		t.Errorf("POST without token: %d %q %v", r.status, r.body, r.header)
	}
	if be.Hits.Load() != hits {
		t.Errorf("denied requests reached the backend (%d hits, want %d)", be.Hits.Load(), hits)
	}

	// No rule matches: the default deny, without a rule header; a forged
	// rule header is not echoed back either.
	r = do(t, "GET", proxy+"/api/orders", map[string][]string{"X-Celwasm-Rule": {"forged"}}, "")
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
	if be.Hits.Load() != hits+1 {
		t.Errorf("backend hits %d, want %d", be.Hits.Load(), hits+1)
	}
	// One configure per worker VM (and the main thread's).
	if n := len(e.LogLines("info", "celwasm: 4 rules compiled (kubernetes")); n < 2 {
		t.Errorf("%d configure summaries in the log, want one per worker", n)
	}
}

// attributesPolicy checks every attribute the filter binds against the real
// request: each rule denies with a body naming the attribute when it is
// wrong, the last allows.
func attributesPolicy() string {
	now := time.Now().UTC()
	checks := []struct{ name, cond string }{
		{"path", `request.path == '/p/q?a=1&b=two'`},
		{"url_path", `request.url_path == '/p/q'`},
		{"query", `request.query == 'a=1&b=two'`},
		{"method", `request.method == 'PUT'`},
		{"host", `request.host == '127.0.0.1:' + string(destination.port)`},
		{"scheme", `request.scheme == 'http'`},
		{"useragent", `request.useragent == 'celwasm-e2e/1'`},
		{"referer", `request.referer == 'http://referrer.test/x'`},
		{"id", `request.id == 'req-42'`},
		{"protocol", `request.protocol == 'HTTP/1.1'`},
		{"time", fmt.Sprintf(`type(request.time) == google.protobuf.Timestamp && request.time > timestamp('%s') && request.time < timestamp('%s')`,
			now.Add(-time.Hour).Format(time.RFC3339), now.Add(time.Hour).Format(time.RFC3339))},
		{"size", `type(request.size) == int && request.size == 4`},
		{"headers", `request.headers['x-multi'] == 'one,two' && request.headers[':method'] == 'PUT' && !('X-Multi' in request.headers)`},
		{"no-duration", `!has(request.duration)`},
		{"total_size", `type(request.total_size) == int && request.total_size > 0`},
		{"source", `type(source.port) == int && source.port > 0 && source.address == '127.0.0.1:' + string(source.port) && source.ip == '127.0.0.1'`},
		{"destination", `destination.port > 0 && destination.address == '127.0.0.1:' + string(destination.port) && destination.ip == '127.0.0.1'`},
		{"connection", `type(connection.id) == uint && connection.id > 0u && connection.mtls == false && !has(connection.tls_version)`},
		{"iteration", `source.all(k, k in ['address', 'port', 'ip']) && size(source) == 3`},
	}
	var rules []string
	for _, c := range checks {
		rules = append(rules, fmt.Sprintf(`{"name":"bad-%s","expression":%q,"action":"deny","status":418,"body":"bad %s\n"}`, c.name, "!("+c.cond+")", c.name))
	}
	rules = append(rules, `{"name":"all-good","expression":"true","action":"allow"}`)
	return `{"rules":[` + strings.Join(rules, ",") + `],"ruleHeader":"x-celwasm-rule"}`
}

func TestEnvoyAttributes(t *testing.T) {
	proxy := shared.URL("attributes")
	header := map[string][]string{
		"User-Agent": {"celwasm-e2e/1"}, "Referer": {"http://referrer.test/x"},
		"X-Request-Id": {"req-42"}, "X-Multi": {"one", "two"},
	}
	r := do(t, "PUT", proxy+"/p/q?a=1&b=two", header, "ping")
	if r.status != 200 || r.echo == nil {
		t.Fatalf("status %d body %q", r.status, r.body)
	}
	if got := r.echo.Headers["X-Celwasm-Rule"]; len(got) != 1 || got[0] != "all-good" {
		t.Errorf("rule header %q", got)
	}
	if r.echo.Body != "ping" || r.echo.URI != "/p/q?a=1&b=two" {
		t.Errorf("backend saw %+v", r.echo)
	}
	// A request that differs in one attribute is caught by its rule.
	header["User-Agent"] = []string{"other"}
	r = do(t, "PUT", proxy+"/p/q?a=1&b=two", header, "ping")
	if r.status != 418 || r.body != "bad useragent\n" {
		t.Errorf("changed user agent: %d %q", r.status, r.body)
	}
}

const errorRules = `"rules":[{"name":"needs-x-required","expression":"request.headers['x-required'] == 'yes'","action":"allow"},
	{"name":"after","expression":"request.url_path == '/after'","action":"allow"}],
	"defaults":{"action":"deny","status":403,"body":"not allowed\n"}`

func TestEnvoyEvaluationErrors(t *testing.T) {
	be := backend
	hits := be.Hits.Load()
	// The header is missing: no such key, the filter fails closed (onError
	// deny with the defaults' response); the reason is logged at warn.
	r := do(t, "GET", shared.URL("error-closed")+"/after", nil, "")
	if r.status != 403 || r.body != "not allowed\n" || be.Hits.Load() != hits {
		t.Errorf("fail closed: %d %q", r.status, r.body)
	}
	if !shared.WaitLog("warning", `rule "needs-x-required": eval_error: no such key: x-required (onError: deny)`) {
		t.Errorf("the evaluation error is not logged at warning")
	}
	r = do(t, "GET", shared.URL("error-closed")+"/x", map[string][]string{"X-Required": {"yes"}}, "")
	if r.status != 200 || be.Hits.Load() != hits+1 {
		t.Errorf("with the header: %d %q", r.status, r.body)
	}
	// onError allow: the same error lets the request through.
	if r := do(t, "GET", shared.URL("error-open")+"/x", nil, ""); r.status != 200 || be.Hits.Load() != hits+2 {
		t.Errorf("fail open: %d %q", r.status, r.body)
	}
	// onError skip: the failing rule does not match, the next rule decides.
	if r := do(t, "GET", shared.URL("error-skip")+"/after", nil, ""); r.status != 200 || be.Hits.Load() != hits+3 {
		t.Errorf("skip, next rule allows: %d %q", r.status, r.body)
	}
	if r := do(t, "GET", shared.URL("error-skip")+"/x", nil, ""); r.status != 403 || r.body != "not allowed\n" || be.Hits.Load() != hits+3 {
		t.Errorf("skip, defaults deny: %d %q", r.status, r.body)
	}
}

const costPolicy = `{"costLimit":100,"onError":{"action":"deny","status":503,"body":"policy error\n"},"rules":[
	{"name":"expensive","expression":"request.path.split('/').all(a, request.path.split('/').all(b, a + b != 'zz'))","action":"allow"}]}`

func TestEnvoyCostLimit(t *testing.T) {
	hits := backend.Hits.Load()
	r := do(t, "GET", shared.URL("cost")+"/a/b/c/d/e/f/g/h/i/j/k/l/m/n/o/p", nil, "")
	if r.status != 503 || r.body != "policy error\n" || backend.Hits.Load() != hits {
		t.Errorf("cost limit: %d %q", r.status, r.body)
	}
	if !shared.WaitLog("warning", `rule "expensive": cost_limit_exceeded`) {
		t.Errorf("no cost limit in the log")
	}
	// A short path stays under the limit.
	if r := do(t, "GET", shared.URL("cost")+"/a", nil, ""); r.status != 200 {
		t.Errorf("cheap request: %d %q", r.status, r.body)
	}
}

// TestEnvoyRefusesBadConfiguration pushes listeners whose plugin
// configuration is wrong: Envoy rejects the update, the filter's reason
// (with cel-go's caret for a compile error) is in Envoy's log at error
// level, and the running listeners keep serving.
func TestEnvoyRefusesBadConfiguration(t *testing.T) {
	for _, tc := range []struct{ name, config, want string }{
		{"compile-error", `{"rules":[{"name":"broken","expression":"request.path.startsWith(","action":"deny"}]}`,
			`celwasm: plugin configuration rejected: rule "broken": compile_error: ERROR: <input>:1:25: Syntax error`},
		{"unknown-attribute", `{"rules":[{"name":"typo","expression":"request.pathh == '/'","action":"deny"}]}`,
			`rule "typo": unknown attribute request.pathh (request has path, url_path`},
		{"not-a-bool", `{"rules":[{"name":"num","expression":"size(request.path)","action":"deny"}]}`,
			`rule "num": the expression's type is int`},
		{"unknown-field", `{"rules":[],"default":{"action":"deny"}}`, `unknown field "default"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := shared.Update(append(append([]envoy.Listener{}, baseListeners...), envoy.Listener{Name: "bad-" + tc.name, Plugin: tc.config}))
			if err == nil {
				t.Fatalf("Envoy accepted the listener")
			}
			if !shared.WaitLog("error", tc.want) {
				t.Errorf("%q is not in Envoy's log at error level:\n%s", tc.want, tail(shared.Log(), 20))
			}
		})
	}
	t.Run("caret", func(t *testing.T) {
		// The compile error's source line and caret follow the message.
		if !strings.Contains(shared.Log(), " | request.path.startsWith(\n | ........................^") {
			t.Errorf("no caret in the log:\n%s", tail(shared.Log(), 20))
		}
	})
	if err := shared.Update(baseListeners); err != nil {
		t.Fatal(err)
	}
	if r := do(t, "GET", shared.URL("policy")+"/healthz", nil, ""); r.status != 200 {
		t.Errorf("after the rejected updates: %d %q", r.status, r.body)
	}
}
