package envoy_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/celwasm/celwasm/host/envoy"
)

// TestEnvoyMemoryCap: a rule whose evaluation needs more than the VM's
// memory cap. Envoy's V8 runtime caps each Wasm VM's linear memory at 1 GiB
// (proxy-wasm-cpp-host's PROXY_WASM_HOST_MAX_WASM_MEMORY_SIZE_BYTES), the
// cap every other host sets by default; the Go runtime in the VM fails
// with "out of memory", the request fails closed (503) and, with Envoy's
// failure_policy FAIL_RELOAD, the VM is replaced by a fresh one that
// answers the next requests by their own data. The listener has its own VM
// (vm_id celwasm-memcap) so that the shared VMs of the other tests stay
// untouched.
func TestEnvoyMemoryCap(t *testing.T) {
	var is, js []string
	for i := 0; i < 100; i++ {
		is = append(is, fmt.Sprint(i))
	}
	for j := 0; j < 200; j++ {
		js = append(js, fmt.Sprint(j))
	}
	// 20,000 strings of the x-self header's length: 48 KiB each, 960 MiB
	// live, past 1 GiB with the collector's headroom.
	grow := fmt.Sprintf("size([%s].map(i, [%s].map(j, request.headers['x-self'] + string(i) + string(j)))) == 100",
		strings.Join(is, ","), strings.Join(js, ","))
	policy, _ := json.Marshal(map[string]any{
		"rules": []map[string]any{
			{"name": "teapot", "expression": "request.path == '/teapot'", "action": "deny", "status": 418, "body": "teapot\n"},
			{"name": "grow", "expression": "'x-self' in request.headers && " + grow, "action": "deny", "status": 418, "body": "grown\n"},
		},
		"costLimit": uint64(1) << 40, // memory, not cost, stops it
	})
	l := envoy.Listener{Name: "memcap", Plugin: string(policy), Module: module, VMID: "celwasm-memcap", FailurePolicy: "FAIL_RELOAD"}
	if err := shared.Update(append(append([]envoy.Listener{}, baseListeners...), l)); err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := shared.Update(baseListeners); err != nil {
			t.Error(err)
		}
	}()
	url := shared.URL("memcap")
	configured := func() int { return len(shared.LogLines("info", "celwasm-memcap: celwasm: 2 rules compiled")) }
	// The same rule over a small header: a value, the request denied by it.
	if r := do(t, "GET", url+"/x", map[string][]string{"X-Self": {"m"}}, ""); r.status != 418 || r.body != "grown\n" {
		t.Fatalf("small x-self: %d %q", r.status, r.body)
	}
	before := configured()
	r := do(t, "GET", url+"/x", map[string][]string{"X-Self": {strings.Repeat("m", 48<<10)}}, "")
	if r.status != 503 || r.echo != nil {
		t.Errorf("past the memory cap: %d %q, want 503 (fail closed) without reaching the backend", r.status, r.body)
	}
	// Which message the Go runtime dies with depends on which allocation
	// meets the cap first: the heap's "runtime: out of memory: cannot
	// allocate N-byte block" and "fatal error: out of memory", or, for
	// its own metadata (persistentalloc, during a collection), "fatal
	// error: runtime: cannot allocate memory". A make test run once died
	// during a collection without the heap's message.
	if !shared.WaitLog("error", "out of memory") && len(shared.LogLines("error", "runtime: cannot allocate memory")) == 0 {
		t.Errorf("Envoy's log does not show the VM's out of memory:\n%s", tail(shared.Log(), 20))
	}
	// FAIL_RELOAD: the failed VM is replaced (its plugin configured anew).
	deadline := time.Now().Add(30 * time.Second)
	for configured() == before && time.Now().Before(deadline) {
		do(t, "GET", url+"/teapot", nil, "")
		time.Sleep(100 * time.Millisecond)
	}
	if configured() == before {
		t.Fatalf("no VM was configured again after the failure:\n%s", tail(shared.Log(), 20))
	}
	// Every VM of the listener (one per worker) answers by the request's own data.
	for i := 0; i < 20; i++ {
		if r := do(t, "GET", url+"/teapot", nil, ""); r.status != 418 || r.body != "teapot\n" {
			t.Errorf("after the replacement, /teapot: %d %q", r.status, r.body)
		}
		if r := do(t, "GET", url+"/x", map[string][]string{"X-Self": {fmt.Sprint(i)}}, ""); r.status != 418 || r.body != "grown\n" {
			t.Errorf("after the replacement, x-self %d: %d %q", i, r.status, r.body)
		}
		if r := do(t, "GET", url+fmt.Sprintf("/open/%d", i), nil, ""); r.status != 200 || r.echo == nil || r.echo.URI != fmt.Sprintf("/open/%d", i) {
			t.Errorf("after the replacement, /open/%d: %d %q", i, r.status, r.body)
		}
	}
}
