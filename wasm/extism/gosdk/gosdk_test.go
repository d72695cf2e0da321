package gosdk

import (
	"context"
	"encoding/json"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/celwasm/celwasm/wasm/abi"
	"github.com/celwasm/celwasm/wasm/abi/crdhandler"
	_ "github.com/celwasm/celwasm/wasm/events/knative"
)

// The plugin under test: CELWASM_EXTISM_PLUGIN (make -C wasm/extism test sets
// it). Without it the tests skip, unless CELWASM_EXTISM_REQUIRE=1.
func pluginPath(t *testing.T) string {
	p := os.Getenv("CELWASM_EXTISM_PLUGIN")
	if p == "" {
		p = "(CELWASM_EXTISM_PLUGIN is not set)"
	}
	if _, err := os.Stat(p); err != nil {
		if os.Getenv("CELWASM_EXTISM_REQUIRE") == "1" {
			t.Fatalf("plugin: %v (make extism)", err)
		}
		t.Skipf("plugin: %v (make extism)", err)
	}
	return p
}

func load(t *testing.T, o Options) *Plugin {
	t.Helper()
	p, err := Load(context.Background(), pluginPath(t), o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close(context.Background()) })
	return p
}

func instance(t *testing.T, p *Plugin) *Instance {
	t.Helper()
	in, err := p.Instance(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return in
}

func call(t *testing.T, in *Instance, export, req string) string {
	t.Helper()
	out, err := in.Call(context.Background(), export, []byte(req))
	if err != nil {
		t.Fatalf("%s %.100s: %v", export, req, err)
	}
	return string(out)
}

// handle compiles and returns the program handle.
func handle(t *testing.T, in *Instance, req string) uint32 {
	t.Helper()
	var r struct{ Program uint32 }
	out := call(t, in, "compile", req)
	if err := json.Unmarshal([]byte(out), &r); err != nil || r.Program == 0 {
		t.Fatalf("compile: %s", out)
	}
	return r.Program
}

// works checks that an instance compiles and evaluates.
func works(t *testing.T, in *Instance) {
	t.Helper()
	h := handle(t, in, `{"expression":"x + 1 == 2","env":{"variables":[{"name":"x","type":"int"}]}}`)
	if got := call(t, in, "eval", `{"program":`+strconv.Itoa(int(h))+`,"activation":{"x":1}}`); got != `{"value":true,"cost":3}` {
		t.Fatalf("eval: %s", got)
	}
}

// list is the JSON list 0..n-1.
func list(n int) string {
	s := make([]string, n)
	for i := range s {
		s[i] = strconv.Itoa(i)
	}
	return "[" + strings.Join(s, ",") + "]"
}

const (
	listEnv = `"env":{"variables":[{"name":"l","type":"list(int)"}]}`
	// A billion iterations, no allocation: runs until stopped.
	long = `{"expression":"l.all(x, l.all(y, l.all(z, true)))",` + listEnv + `}`
	// Nine million list elements: hundreds of MiB.
	hog      = `{"expression":"l.map(x, l.map(y, y))",` + listEnv + `}`
	noLimit  = `"costLimit":18446744073709551615`
	wantCode = `{"error":{"code":"`
)

// Bad input is an error object in the output of a successful call, as in
// the raw ABI; the instance keeps working.
func TestBadInput(t *testing.T) {
	in := instance(t, load(t, Options{}))
	for _, c := range []struct{ export, req, code string }{
		{"compile", `{"expression":`, "bad_request"},
		{"compile", "{\"expression\":\"'\xff'\"}", "bad_request"},
		{"compile", `{"expression":1}`, "bad_request"},
		{"compile", `{"expression":"x +"}`, "compile_error"},
		{"compile", `{"expression":"1","env":{"extensions":["nope"]}}`, "invalid_env"},
		{"eval", `{"program":999}`, "unknown_program"},
		{"eval", `[]`, "bad_request"},
		{"eval_batch", ``, "bad_request"},
		{"validate", `{}`, "bad_request"},
		{"cost", `{"crd":"x"}`, "invalid_crd"},
		{"free", `{"program":"1"}`, "bad_request"},
		{"free", `1`, "bad_request"},
	} {
		got := call(t, in, c.export, c.req)
		if !strings.HasPrefix(got, wantCode+c.code+`"`) {
			t.Errorf("%s %q: %.200s, want code %s", c.export, c.req, got, c.code)
		}
	}
	if got := call(t, in, "free", `{"program":999}`); got != `{"freed":false}` {
		t.Errorf("free of an unknown handle: %s", got)
	}
	if _, err := in.Call(context.Background(), "celwasm_eval", nil); err == nil {
		t.Error("a call of an export the plugin does not have succeeded")
	}
	works(t, in)
	// Programs live in the instance across calls; free ends them.
	h := handle(t, in, `{"expression":"true"}`)
	req := `{"program":` + strconv.Itoa(int(h)) + `}`
	if got := call(t, in, "eval", req); got != `{"value":true,"cost":0}` {
		t.Errorf("eval: %s", got)
	}
	if got := call(t, in, "free", req); got != `{"freed":true}` {
		t.Errorf("free: %s", got)
	}
	if got := call(t, in, "eval", req); !strings.HasPrefix(got, wantCode+`unknown_program"`) {
		t.Errorf("eval after free: %s", got)
	}
}

// The manifest's timeout_ms stops a call that runs too long; the host
// survives, and a fresh instance of the same compiled plugin works.
func TestTimeout(t *testing.T) {
	p := load(t, Options{TimeoutMs: 5000})
	in := instance(t, p)
	h := handle(t, in, long)
	start := time.Now()
	out, err := in.Call(context.Background(), "eval", []byte(`{"program":`+strconv.Itoa(int(h))+`,`+noLimit+`,"activation":{"l":`+list(1000)+`}}`))
	took := time.Since(start)
	if err == nil {
		t.Fatalf("eval of a billion iterations returned %.200s", out)
	}
	if took < 4*time.Second || took > 60*time.Second {
		t.Errorf("stopped after %v, timeout_ms is 5000", took)
	}
	t.Logf("stopped after %v: %v", took, err)
	if _, err := in.Call(context.Background(), "version", nil); err == nil {
		t.Error("the stopped instance still answers")
	}
	works(t, instance(t, p))
}

// The manifest's memory.max_pages caps the plugin's linear memory: a
// runaway allocation becomes a trap inside the plugin (the Go runtime's
// "out of memory"); the host survives, the trapped instance refuses later
// calls, and a fresh instance of the same compiled plugin works.
func TestMemoryLimit(t *testing.T) {
	p := load(t, Options{MaxPages: 1536})
	in := instance(t, p)
	h := handle(t, in, hog)
	out, err := in.Call(context.Background(), "eval", []byte(`{"program":`+strconv.Itoa(int(h))+`,`+noLimit+`,"activation":{"l":`+list(3000)+`}}`))
	if err == nil {
		t.Fatalf("eval of nine million elements under 96 MiB returned %.200s", out)
	}
	t.Logf("trap: %.300v", err)
	// The plugin refuses every later call on this instance (exit status
	// 70), whatever state the Go runtime stopped in.
	if out, err := in.Call(context.Background(), "version", nil); err == nil || !strings.Contains(err.Error(), "exit_code(70)") {
		t.Errorf("the trapped instance answered %.300s, %v; want exit status 70", out, err)
	}
	works(t, instance(t, p))
}

// Every function answers exactly what the module's handlers answer natively
// (wasm/abi), byte for byte, for the same sequence of requests: success
// responses of every kind and errors.
func TestSameBytesAsHandler(t *testing.T) {
	in := instance(t, load(t, Options{}))
	native := abi.NewHandler()
	const crd = `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"webapps.example.com"},` +
		`"spec":{"group":"example.com","names":{"kind":"WebApp","plural":"webapps","singular":"webapp","listKind":"WebAppList"},"scope":"Namespaced",` +
		`"versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object","properties":{"spec":{"type":"object",` +
		`"x-kubernetes-validations":[{"rule":"self.replicas <= self.maxReplicas","message":"replicas must not exceed maxReplicas"}],` +
		`"properties":{"replicas":{"type":"integer"},"maxReplicas":{"type":"integer"}}}}}}}]}}`
	nativeFn := map[string]func([]byte) []byte{
		"compile": native.Compile, "eval": native.Eval, "eval_batch": native.EvalBatch,
		"validate": crdhandler.New(native).Validate, "cost": crdhandler.New(native).Cost,
	}
	// (version: a native test binary reports other dependency versions.)
	if v := call(t, in, "version", ""); !strings.HasPrefix(v, `{"abi":1,`) || !strings.Contains(v, `"celGo":"v0.29.2"`) {
		t.Errorf("version: %.300s", v)
	}
	for _, c := range [][3]string{
		{"compile", `{"expression":"self.replicas <= self.maxReplicas","env":{"base":"kubernetes","variables":[{"name":"self","type":"map(string, int)"}]}}`, `{"program":1,`},
		{"eval", `{"program":1,"activation":{"self":{"replicas":3,"maxReplicas":5}}}`, `{"value":true,`},
		{"eval", `{"program":1,"activation":{"self":{"replicas":3}}}`, `{"error":{"code":"eval_error"`},
		{"eval_batch", "{\"program\":1,\"items\":\"activations\"}\n{\"self\":{\"replicas\":1,\"maxReplicas\":2}}\n{\"self\":{\"replicas\":3,\"maxReplicas\":2}}\n{}", "{\"value\":true,\"cost\":5}\n{\"value\":false,\"cost\":5}\n{\"error\":{\"code\":\"eval_error\""},
		{"compile", `{"cloudEventFilter":{"prefix":{"type":"dev.knative."}}}`, `{"program":2,`},
		{"eval", `{"program":2,"cloudEvent":{"specversion":"1.0","id":"1","source":"s","type":"dev.knative.x"}}`, `{"value":true,`},
		{"compile", `{"when":["'$(params.branch)' == 'main'"]}`, `{"program":3,`},
		{"eval", `{"program":3,"activation":{"params":{"branch":"main"}}}`, `{"value":true,`},
		{"validate", `{"crd":` + crd + `,"version":"v1","objects":[{"object":{"apiVersion":"example.com/v1","kind":"WebApp","metadata":{"name":"web","namespace":"shop"},"spec":{"replicas":3,"maxReplicas":2}}}]}`, `{"crd":{"name":"webapps.example.com"`},
		{"cost", `{"crd":` + crd + `}`, `{"crd":{"name":"webapps.example.com"`},
		{"compile", `{"expression":"1 +"}`, `{"error":{"code":"compile_error"`},
		{"eval", `{"program":9}`, `{"error":{"code":"unknown_program"`},
	} {
		got := call(t, in, c[0], c[1])
		want := string(nativeFn[c[0]]([]byte(c[1])))
		if got != want {
			t.Errorf("%s %.80s:\nplugin %.300s\nnative %.300s", c[0], c[1], got, want)
		}
		if !strings.HasPrefix(got, c[2]) {
			t.Errorf("%s %.80s: %.300s, want %s...", c[0], c[1], got, c[2])
		}
	}
}

// The plugin links the modules' patched Kubernetes copies, as every raw
// module does (wasm/third_party/modfile.sh): a CRD rule walks a map in key
// order, so the same object gives the same bytes on every call, as in the
// other hosts (host/crd_test.go's TestCRDRulesIterateMapsInKeyOrder).
func TestCRDRulesIterateMapsInKeyOrder(t *testing.T) {
	in := instance(t, load(t, Options{}))
	const crd = `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"things.example.com"},` +
		`"spec":{"group":"example.com","scope":"Namespaced","names":{"plural":"things","singular":"thing","kind":"Thing","listKind":"ThingList"},` +
		`"versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object","properties":{` +
		`"spec":{"type":"object","properties":{"labels":{"type":"object","additionalProperties":{"type":"string"},` +
		`"x-kubernetes-validations":[{"rule":"false","messageExpression":"'first key: ' + self.map(k, k)[0]"}]}}}}}}}]}}`
	req := `{"crd":` + crd + `,"version":"v1","objects":[{"object":{"apiVersion":"example.com/v1","kind":"Thing","metadata":{"name":"t","namespace":"default"},` +
		`"spec":{"labels":{"q":"1","e":"2","x":"3","a":"4","m":"5","c":"6","z":"7","b":"8"}}}}]}`
	first := call(t, in, "validate", req)
	if !strings.Contains(first, "first key: a") {
		t.Fatalf("the map's first key is not its least: %.500s", first)
	}
	for i := 1; i < 20; i++ {
		if got := call(t, in, "validate", req); got != first {
			t.Fatalf("call %d:\n%.500s\nthen\n%.500s", i, first, got)
		}
	}
}
