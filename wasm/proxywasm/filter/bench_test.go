package filter

import "testing"

// BenchmarkDecide is one request's decision natively, over the fake host:
// the benchmark policy of host/envoy/cmd/envoy-bench (its loopback CIDR
// widened to the fake host's 10.1.2.3), and the one rule `true`. For a
// profile: go test -run '^$' -bench Decide -cpuprofile cpu.out ./wasm/proxywasm/filter
func BenchmarkDecide(b *testing.B) {
	const policy = `{
  "rules": [
    {"name": "health", "expression": "request.url_path == '/healthz'", "action": "allow"},
    {"name": "admin-closed", "expression": "request.path.startsWith('/admin')", "action": "deny", "status": 403, "body": "admin is closed\n"},
    {"name": "writes-need-token", "expression": "request.method in ['POST', 'PUT', 'DELETE'] && !('authorization' in request.headers)", "action": "deny", "status": 401},
    {"name": "core-team", "expression": "cidr('10.0.0.0/8').containsIP(source.ip) && request.headers[?'x-team'].orValue('') == 'core'", "action": "allow"}
  ],
  "defaults": {"action": "deny"},
  "ruleHeader": "x-celwasm-rule"
}`
	for _, c := range []struct{ name, config string }{
		{"policy", policy},
		{"true", `{"rules": [{"name": "all", "expression": "true", "action": "allow"}], "defaults": {"action": "deny"}}`},
	} {
		b.Run(c.name, func(b *testing.B) {
			f, err := New([]byte(c.config))
			if err != nil {
				b.Fatal(err)
			}
			h := newHost()
			b.ReportAllocs()
			for b.Loop() {
				h.calls = h.calls[:0]
				if d := f.Decide(h); !d.Allow {
					b.Fatalf("denied: %+v", d)
				}
			}
		})
	}
}
