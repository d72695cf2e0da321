package envoy_test

import (
	"strings"
	"testing"
)

const phasesPolicy = `{"requestBody":{"maxBytes":64},"ruleHeader":"x-celwasm-rule","rules":[
  {"name":"admin","expression":"request.path.startsWith('/admin')","action":"deny"},
  {"name":"big-order","phase":"request_body","expression":"has(request.body) && has(request.body.qty) && request.body.qty > 10",
   "action":"deny","status":422,"body":"order too large\n"},
  {"name":"leak","phase":"response_headers","expression":"response.code == 200 && 'x-secret' in response.headers",
   "action":"deny","status":502,"body":"response withheld\n"},
  {"name":"teapot","phase":"response_headers","expression":"response.code == 418","action":"allow"}],
  "defaults":{"action":"allow"}}`

// TestEnvoyPhases: rules of phase request_body see the JSON-decoded body
// (Envoy buffers it while the filter holds the request headers), rules of
// phase response_headers see the response's status and headers.
func TestEnvoyPhases(t *testing.T) {
	proxy := shared.URL("phases")
	be := backend
	json := map[string][]string{"Content-Type": {"application/json"}}
	bodies := be.Bodies.Load()

	// Request body: denied before the body reaches the backend (the
	// upstream request may have started with the headers; Envoy resets it).
	r := do(t, "POST", proxy+"/orders", json, `{"qty": 12, "item": "tea"}`)
	if r.status != 422 || r.body != "order too large\n" || r.header.Get("X-Celwasm-Rule") != "big-order" {
		t.Errorf("big order: %d %q %v", r.status, r.body, r.header)
	}
	if be.Bodies.Load() != bodies {
		t.Errorf("the body of a request denied at its body reached the backend")
	}
	// Allowed: the body goes upstream unchanged.
	r = do(t, "POST", proxy+"/orders", json, `{"qty": 2, "item": "tea"}`)
	if r.status != 200 || r.echo == nil || r.echo.Body != `{"qty": 2, "item": "tea"}` {
		t.Fatalf("small order: %d %q", r.status, r.body)
	}
	if got := r.echo.Headers["X-Celwasm-Rule"]; len(got) != 0 {
		t.Errorf("rule header upstream %q, want none (the defaults allowed)", got)
	}
	// Over requestBody.maxBytes: 413 before any body rule.
	r = do(t, "POST", proxy+"/orders", json, `{"qty": 1, "item": "`+strings.Repeat("x", 100)+`"}`)
	if r.status != 413 || r.body != "request body too large\n" {
		t.Errorf("large body: %d %q", r.status, r.body)
	}
	// Not JSON: request.body is absent. Invalid JSON: an evaluation error,
	// and the filter fails closed.
	if r := do(t, "POST", proxy+"/orders", map[string][]string{"Content-Type": {"text/plain"}}, `qty=12`); r.status != 200 {
		t.Errorf("text body: %d %q", r.status, r.body)
	}
	if r := do(t, "POST", proxy+"/orders", json, `{"qty": 12`); r.status != 403 {
		t.Errorf("invalid JSON: %d %q", r.status, r.body)
	}
	// No body at all.
	if r := do(t, "GET", proxy+"/orders", nil, ""); r.status != 200 {
		t.Errorf("no body: %d %q", r.status, r.body)
	}
	// Request headers still decide first.
	if r := do(t, "POST", proxy+"/admin", json, `{"qty": 1}`); r.status != 403 {
		t.Errorf("admin: %d %q", r.status, r.body)
	}

	// Response headers: the backend answered, the filter replaces the
	// response.
	hits := be.Hits.Load()
	r = do(t, "GET", proxy+"/data", map[string][]string{"X-Backend-Header": {"X-Secret: 1"}}, "")
	if r.status != 502 || r.body != "response withheld\n" || r.header.Get("X-Secret") != "" || r.header.Get("X-Celwasm-Rule") != "leak" {
		t.Errorf("leaking response: %d %q %v", r.status, r.body, r.header)
	}
	// At least once: a request denied at its body above may reach the
	// backend late (its upstream request had opened; docs/proxy-wasm.md).
	if be.Hits.Load() < hits+1 {
		t.Errorf("the backend was not asked")
	}
	r = do(t, "GET", proxy+"/data", map[string][]string{"X-Backend-Status": {"418"}, "X-Backend-Header": {"X-Secret: 1"}}, "")
	if r.status != 418 || r.echo == nil {
		t.Errorf("teapot: %d %q", r.status, r.body)
	}
	if r := do(t, "GET", proxy+"/data", nil, ""); r.status != 200 || r.echo == nil {
		t.Errorf("plain response: %d %q", r.status, r.body)
	}
}
