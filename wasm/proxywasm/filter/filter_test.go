package filter

import (
	"encoding/binary"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/celwasm/celwasm/wasm/proxywasm/abi"
)

// fakeHost serves properties serialized as Envoy serializes them.
type fakeHost struct {
	props       map[string][]byte
	headers     []abi.Pair
	body        []byte // nil: no body buffered (before phase request_body)
	respHeaders []abi.Pair
	calls       []string
	err         error
}

func (h *fakeHost) RequestBody() ([]byte, bool, error) {
	h.calls = append(h.calls, "body")
	return h.body, h.body != nil, h.err
}

func (h *fakeHost) ResponseHeaders() ([]abi.Pair, error) {
	h.calls = append(h.calls, "response headers")
	return h.respHeaders, h.err
}

func (h *fakeHost) Property(path ...string) ([]byte, bool, error) {
	key := strings.Join(path, ".")
	h.calls = append(h.calls, key)
	if h.err != nil {
		return nil, false, h.err
	}
	b, ok := h.props[key]
	return b, ok, nil
}

func (h *fakeHost) RequestHeaders() ([]abi.Pair, error) {
	h.calls = append(h.calls, "headers")
	return h.headers, h.err
}

func i64(n int64) []byte { return binary.LittleEndian.AppendUint64(nil, uint64(n)) }

var requestTime = time.Date(2026, 7, 1, 12, 0, 0, 0, time.UTC)

func newHost() *fakeHost {
	return &fakeHost{
		props: map[string][]byte{
			"request.path":        []byte("/api/v1/items?limit=5"),
			"request.url_path":    []byte("/api/v1/items"),
			"request.query":       []byte("limit=5"),
			"request.host":        []byte("shop.example"),
			"request.scheme":      []byte("https"),
			"request.method":      []byte("GET"),
			"request.useragent":   []byte("curl/8"),
			"request.id":          []byte("4a0e-id"),
			"request.protocol":    []byte("HTTP/1.1"),
			"request.time":        i64(requestTime.UnixNano()),
			"request.size":        i64(0),
			"source.address":      []byte("10.1.2.3:40000"),
			"source.port":         i64(40000),
			"destination.address": []byte("[::1]:8443"),
			"destination.port":    i64(8443),
			"connection.id":       binary.LittleEndian.AppendUint64(nil, 7),
			"connection.mtls":     {0},
		},
		headers: []abi.Pair{
			{Key: ":authority", Value: "shop.example"}, {Key: ":path", Value: "/api/v1/items?limit=5"},
			{Key: "X-Multi", Value: "a"}, {Key: "x-multi", Value: "b"}, {Key: "x-team", Value: "core"},
		},
	}
}

func mustNew(t *testing.T, config string) *Filter {
	t.Helper()
	f, err := New([]byte(config))
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return f
}

func TestAttributesAsEnvoyTypesThem(t *testing.T) {
	exprs := []string{
		`request.path == '/api/v1/items?limit=5'`,
		`request.url_path == '/api/v1/items' && request.query == 'limit=5'`,
		`request.host == 'shop.example' && request.scheme == 'https' && request.method == 'GET'`,
		`request.useragent == 'curl/8' && request.id == '4a0e-id' && request.protocol == 'HTTP/1.1'`,
		`type(request.time) == google.protobuf.Timestamp && request.time == timestamp('2026-07-01T12:00:00Z')`,
		`type(request.size) == int && request.size == 0`,
		`request.headers['x-multi'] == 'a,b' && request.headers[':authority'] == 'shop.example'`,
		`request.headers.size() == 4 && !('X-Team' in request.headers) && 'x-team' in request.headers`,
		`type(source.port) == int && source.port == 40000 && source.address == '10.1.2.3:40000'`,
		`source.ip == '10.1.2.3' && cidr('10.0.0.0/8').containsIP(source.ip)`,
		`destination.ip == '::1' && destination.port == 8443`,
		`type(connection.id) == uint && connection.id == 7u && connection.mtls == false`,
		`!has(request.referer) && !has(connection.tls_version) && has(request.path)`,
		`'path' in request && !('referer' in request)`,
		`source.exists(k, k == 'ip') && size(source) == 3`,
		`request.filter(k, k.startsWith('url')) == ['url_path']`,
		`source == {'address': dyn('10.1.2.3:40000'), 'port': dyn(40000), 'ip': dyn('10.1.2.3')}`,
	}
	for _, e := range exprs {
		f := mustNew(t, `{"rules":[{"name":"r","expression":`+quote(e)+`,"action":"allow"}],"defaults":{"action":"deny"}}`)
		var logs []string
		f.Log = func(_ abi.LogLevel, m string) { logs = append(logs, m) }
		d := f.Decide(newHost())
		if !d.Allow || d.Rule != "r" {
			t.Errorf("%s: decision %+v, logs %q", e, d, logs)
		}
	}
}

func quote(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`)
	return `"` + r.Replace(s) + `"`
}

func TestOnlyReadAttributesAreFetched(t *testing.T) {
	f := mustNew(t, `{"rules":[
		{"name":"admin","expression":"request.path.startsWith('/admin')","action":"deny"},
		{"name":"team","expression":"request.path.startsWith('/api') && request.headers['x-team'] == 'core'","action":"allow"}]}`)
	h := newHost()
	d := f.Decide(h)
	if !d.Allow || d.Rule != "team" {
		t.Fatalf("decision %+v", d)
	}
	// request.path once (cached across rules), the header map once.
	if got := strings.Join(h.calls, " "); got != "request.path headers" {
		t.Errorf("host calls %q, want %q", got, "request.path headers")
	}
	// The next request starts from a clean cache.
	h2 := newHost()
	h2.props["request.path"] = []byte("/admin/users")
	if d := f.Decide(h2); d.Allow || d.Rule != "admin" || d.Status != 403 || d.Body != DefaultDenyBody || d.Details != DetailsRule {
		t.Errorf("second request: %+v", d)
	}
}

func TestFirstMatchDefaultsAndStatus(t *testing.T) {
	f := mustNew(t, `{
		"rules":[
			{"name":"health","expression":"request.url_path == '/healthz'","action":"allow"},
			{"name":"no-delete","expression":"request.method == 'DELETE'","action":"deny","status":405,"body":"no deletes\n"},
			{"name":"api","expression":"request.url_path.startsWith('/api/')","action":"deny"}],
		"defaults":{"action":"allow","status":451,"body":"default body\n"}}`)
	h := newHost()
	h.props["request.url_path"] = []byte("/healthz")
	h.props["request.method"] = []byte("DELETE")
	if d := f.Decide(h); !d.Allow || d.Rule != "health" {
		t.Errorf("health: %+v", d)
	}
	h = newHost()
	h.props["request.method"] = []byte("DELETE")
	if d := f.Decide(h); d.Allow || d.Rule != "no-delete" || d.Status != 405 || d.Body != "no deletes\n" {
		t.Errorf("no-delete: %+v", d)
	}
	// A deny rule without status/body takes the defaults'.
	if d := f.Decide(newHost()); d.Allow || d.Rule != "api" || d.Status != 451 || d.Body != "default body\n" {
		t.Errorf("api: %+v", d)
	}
	h = newHost()
	h.props["request.url_path"] = []byte("/other")
	if d := f.Decide(h); !d.Allow || d.Rule != "" {
		t.Errorf("no match: %+v", d)
	}
	deny := mustNew(t, `{"rules":[],"defaults":{"action":"deny","status":401,"body":"who are you\n"}}`)
	if d := deny.Decide(newHost()); d.Allow || d.Status != 401 || d.Body != "who are you\n" || d.Details != DetailsDefault {
		t.Errorf("default deny: %+v", d)
	}
}

func TestEvaluationErrorsFailClosed(t *testing.T) {
	rules := `"rules":[
		{"name":"needs-header","expression":"request.headers['x-required'] == 'yes'","action":"allow"},
		{"name":"after","expression":"true","action":"allow"}]`
	var logs []string
	f := mustNew(t, `{`+rules+`}`)
	f.Log = func(_ abi.LogLevel, m string) { logs = append(logs, m) }
	d := f.Decide(newHost())
	if d.Allow || d.Status != 403 || d.Details != DetailsError || d.ErrRule != "needs-header" || ErrorCode(d.Err) != "eval_error" {
		t.Fatalf("fail closed: %+v", d)
	}
	if len(logs) != 1 || !strings.Contains(logs[0], `rule "needs-header"`) || !strings.Contains(logs[0], "no such key") {
		t.Errorf("logs %q", logs)
	}

	open := mustNew(t, `{`+rules+`,"onError":{"action":"allow"}}`)
	if d := open.Decide(newHost()); !d.Allow || d.Rule != "" || d.Err == nil {
		t.Errorf("onError allow: %+v", d)
	}
	skip := mustNew(t, `{`+rules+`,"onError":{"action":"skip"}}`)
	if d := skip.Decide(newHost()); !d.Allow || d.Rule != "after" {
		t.Errorf("onError skip: %+v", d)
	}
	custom := mustNew(t, `{`+rules+`,"onError":{"action":"deny","status":500,"body":"policy error\n"}}`)
	if d := custom.Decide(newHost()); d.Allow || d.Status != 500 || d.Body != "policy error\n" {
		t.Errorf("onError custom deny: %+v", d)
	}

	// A dyn expression that is not a bool at run time.
	nb := mustNew(t, `{"rules":[{"name":"dyn","expression":"request.headers['x-team']","action":"allow"}]}`)
	if d := nb.Decide(newHost()); d.Allow || !strings.Contains(d.Err.Error(), "not a bool") {
		t.Errorf("non-bool: %+v", d)
	}

	// The per-request cost limit.
	costly := mustNew(t, `{"costLimit":50,"rules":[{"name":"loop","expression":"[1,2,3,4,5,6,7,8,9,10].all(x, [1,2,3,4,5,6,7,8,9,10].all(y, x + y > 0))","action":"allow"}]}`)
	if d := costly.Decide(newHost()); d.Allow || ErrorCode(d.Err) != "cost_limit_exceeded" {
		t.Errorf("cost limit: %+v", d)
	}

	// A host failure reading a property.
	h := newHost()
	h.err = errors.New("host is broken")
	hf := mustNew(t, `{"rules":[{"name":"p","expression":"request.path == '/'","action":"allow"}]}`)
	if d := hf.Decide(h); d.Allow || !strings.Contains(d.Err.Error(), "host is broken") {
		t.Errorf("host error: %+v", d)
	}
}

func TestBadConfigurations(t *testing.T) {
	for _, tc := range []struct{ config, want string }{
		{``, "empty"},
		{`[]`, "not valid"},
		{`{"rules":[],"extra":1}`, `unknown field "extra"`},
		{`{}`, `no "rules"`},
		{`{"rules":[]} {}`, "data after"},
		{`{"rules":[{"name":"a b","expression":"true","action":"allow"}]}`, "name must be"},
		{`{"rules":[{"name":"a","expression":"true","action":"allow"},{"name":"a","expression":"true","action":"deny"}]}`, "used by another rule"},
		{`{"rules":[{"name":"a","expression":"  ","action":"allow"}]}`, "expression is empty"},
		{`{"rules":[{"name":"a","expression":"true","action":"block"}]}`, `action must be "allow" or "deny", got "block"`},
		{`{"rules":[{"name":"a","expression":"true","action":"allow","status":403}]}`, "apply to action \"deny\" only"},
		{`{"rules":[{"name":"a","expression":"true","action":"deny","status":99}]}`, "status 99"},
		{`{"rules":[],"onError":{"action":"maybe"}}`, `"allow", "deny" or "skip"`},
		{`{"rules":[],"defaults":{"action":"skip"}}`, `defaults: action must be`},
		{`{"rules":[],"ruleHeader":"bad header"}`, "not a valid HTTP header name"},
		{`{"rules":[{"name":"syntax","expression":"request.path ==","action":"allow"}]}`, `rule "syntax": compile_error`},
		{`{"rules":[{"name":"undeclared","expression":"response.code == 200","action":"allow"}]}`, "response exists from phase response_headers on"},
		{`{"rules":[{"name":"typo","expression":"request.pth == '/'","action":"allow"}]}`, "unknown attribute request.pth"},
		{`{"rules":[{"name":"typo2","expression":"has(source.adress) || request['metod'] == 'GET'","action":"allow"}]}`, "unknown attribute request.metod, source.adress"},
		{`{"rules":[{"name":"str","expression":"'x' + 'y'","action":"allow"}]}`, "type is string; a rule must be a bool expression"},
		{`{"rules":[],"env":{"base":"nope"}}`, "env: invalid_env"},
		{`{"rules":[],"gcPercent":5}`, "gcPercent 5 is outside"},
	} {
		_, err := New([]byte(tc.config))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("New(%s) = %v; want an error containing %q", tc.config, err, tc.want)
		}
	}
}

func TestCELBaseAndExtensions(t *testing.T) {
	f := mustNew(t, `{"env":{"base":"cel","extensions":["strings","network"]},"rules":[
		{"name":"n","expression":"request.method.lowerAscii() == 'get' && cidr('10.0.0.0/8').containsIP(ip(source.ip))","action":"allow"}],
		"defaults":{"action":"deny"}}`)
	if d := f.Decide(newHost()); !d.Allow {
		t.Errorf("decision %+v", d)
	}
	if !strings.Contains(f.Summary(), "1 rules compiled (cel environment)") {
		t.Errorf("summary %q", f.Summary())
	}
}

func TestAddressIP(t *testing.T) {
	for in, want := range map[string]string{
		"10.0.0.1:80": "10.0.0.1", "[2001:db8::1]:443": "2001:db8::1", "/run/envoy.sock": "/run/envoy.sock", "10.0.0.2": "10.0.0.2",
	} {
		if got := addressIP(in); got != want {
			t.Errorf("addressIP(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestCounters(t *testing.T) {
	f := mustNew(t, `{"costLimit":100,"onError":{"action":"deny"},"rules":[
		{"name":"team","expression":"request.headers[?'x-team'].orValue('') == 'core'","action":"allow"},
		{"name":"missing","expression":"request.headers['x-none'] == 'y'","action":"allow"},
		{"name":"costly","expression":"request.path.split('/').all(a, request.path.split('/').all(b, a + b != 'zz'))","action":"allow"}]}`)
	counts := map[string]int{}
	f.Count = func(rule int, c Counter) { counts[f.Config.Rules[rule].Name+"."+CounterNames[c]]++ }
	h := newHost()
	if d := f.Decide(h); !d.Allow || d.Rule != "team" {
		t.Fatalf("decision %+v", d)
	}
	h.headers = h.headers[:2] // no x-team: "missing" fails, onError deny
	if d := f.Decide(newHostWith(h)); d.Allow || d.ErrRule != "missing" {
		t.Fatalf("decision %+v", d)
	}
	f.Config.OnError.Action = ActionSkip // then "costly" exceeds the cost limit
	h.props["request.path"] = []byte("/a/b/c/d/e/f/g/h/i/j/k/l/m/n/o/p")
	if d := f.Decide(newHostWith(h)); !d.Allow || d.Rule != "" { // the defaults allow
		t.Fatalf("decision %+v", d)
	}
	want := map[string]int{
		"team.matched": 1, "team.allowed": 1,
		"missing.evaluation_errors": 2, "missing.denied": 1,
		"costly.evaluation_errors": 1, "costly.cost_limit_exceeded": 1,
	}
	for k, v := range want {
		if counts[k] != v {
			t.Errorf("%s = %d, want %d", k, counts[k], v)
		}
	}
	if len(counts) != len(want) {
		t.Errorf("counts %v, want %v", counts, want)
	}
}

func newHostWith(h *fakeHost) *fakeHost { return &fakeHost{props: h.props, headers: h.headers} }

func TestPhases(t *testing.T) {
	f := mustNew(t, `{"requestBody":{"maxBytes":1024},"rules":[
		{"name":"admin","expression":"request.path.startsWith('/admin')","action":"deny"},
		{"name":"big-order","phase":"request_body","expression":"has(request.body) && has(request.body.qty) && request.body.qty > 10","action":"deny","status":422},
		{"name":"leak","phase":"response_headers","expression":"response.code == 200 && 'x-secret' in response.headers","action":"deny","status":502}],
		"defaults":{"action":"allow"}}`)
	if f.LastPhase != PhaseResponseHeaders || !f.HasPhase[PhaseRequestBody] || f.Config.RequestBody.MaxBytes != 1024 {
		t.Fatalf("phases: last %v, has %v", f.LastPhase, f.HasPhase)
	}
	h := newHost()
	// Request headers: no match, a later phase has rules.
	if _, ok := f.Evaluate(h, PhaseRequestHeaders); ok {
		t.Fatalf("decided at request headers")
	}
	// Request body, JSON: rule 2.
	h.headers = append(h.headers, abi.Pair{Key: "content-type", Value: "application/json; charset=utf-8"})
	h.body = []byte(`{"qty": 12}`)
	if d, ok := f.Evaluate(h, PhaseRequestBody); !ok || d.Allow || d.Rule != "big-order" || d.Status != 422 {
		t.Fatalf("body: %+v %v", d, ok)
	}
	h.body = []byte(`{"qty": 2}`)
	if _, ok := f.Evaluate(h, PhaseRequestBody); ok {
		t.Fatalf("small order decided")
	}
	// A body that is not JSON is absent for a non-JSON content type, an
	// error for a JSON one.
	h.body = []byte(`qty=12`)
	h.headers[len(h.headers)-1].Value = "text/plain"
	if _, ok := f.Evaluate(h, PhaseRequestBody); ok {
		t.Fatalf("text body decided")
	}
	h.headers[len(h.headers)-1].Value = "application/merge-patch+json"
	if d, ok := f.Evaluate(h, PhaseRequestBody); !ok || d.Allow || d.ErrRule != "big-order" || !strings.Contains(d.Err.Error(), "not valid JSON") {
		t.Fatalf("invalid JSON: %+v %v", d, ok)
	}
	// Response headers: the last phase, the defaults decide there.
	h.props["response.code"] = i64(200)
	h.respHeaders = []abi.Pair{{Key: "X-Secret", Value: "1"}}
	if d, ok := f.Evaluate(h, PhaseResponseHeaders); !ok || d.Allow || d.Rule != "leak" || d.Status != 502 {
		t.Fatalf("response: %+v %v", d, ok)
	}
	h.respHeaders = nil
	if d, ok := f.Evaluate(h, PhaseResponseHeaders); !ok || !d.Allow || d.Rule != "" {
		t.Fatalf("response defaults: %+v %v", d, ok)
	}
}

func TestPhaseChecks(t *testing.T) {
	for _, tc := range []struct{ config, want string }{
		{`{"rules":[{"name":"r","expression":"response.code == 200","action":"deny"}]}`,
			`rule "r": response exists from phase response_headers on; the rule's phase is request_headers`},
		{`{"rules":[{"name":"r","phase":"request_body","expression":"response.code == 200","action":"deny"}]}`,
			`rule "r": response exists from phase response_headers on; the rule's phase is request_body`},
		{`{"rules":[{"name":"r","expression":"request.body.qty > 1","action":"deny"}]}`,
			`rule "r": request.body exists from phase request_body on`},
		{`{"rules":[{"name":"r","expression":"request['body'] == 1","action":"deny"}]}`,
			`rule "r": request.body exists from phase request_body on`},
		{`{"rules":[{"name":"a","phase":"response_headers","expression":"true","action":"deny"},{"name":"b","expression":"true","action":"deny"}]}`,
			`rule "b": phase request_headers after a rule of phase response_headers`},
		{`{"rules":[{"name":"a","phase":"response","expression":"true","action":"deny"}]}`, `phase must be`},
		{`{"requestBody":{"maxBytes":2000000},"rules":[]}`, `requestBody.maxBytes 2000000 is outside`},
	} {
		_, err := New([]byte(tc.config))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.config, err, tc.want)
		}
	}
	// In its phase the same rules compile.
	mustNew(t, `{"rules":[{"name":"r","phase":"response_headers","expression":"response.code == 200 && request.body.x == 1","action":"deny"}]}`)
}
