package abi

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"strconv"
	"strings"
	"testing"

	sigsyaml "sigs.k8s.io/yaml"

	"github.com/celwasm/celwasm/wasm/codec"
	"github.com/celwasm/celwasm/wire"
)

// Fuzz targets for every export's request handler (make fuzz; make test runs
// each for 30 s). Invariants, whatever the input:
//   - no panic escapes, and none is recovered either (an "internal" error
//     whose message starts with "panic:" is a bug);
//   - every response is JSON of the documented shape (docs/abi.md): an
//     {"error": {code, message}} with a known code, or the export's result;
//   - a request that succeeds gives the same bytes again, in the same
//     handler and in a fresh one;
//   - an activation cut down to a program's reads (compile "reads")
//     answers what the whole activation answers.

var knownCodes = map[string]bool{
	wire.CodeBadRequest: true, wire.CodeInvalidEnv: true, wire.CodeCompile: true, wire.CodeUnknownProgram: true,
	wire.CodeInvalidActivation: true, wire.CodeEval: true, wire.CodeCostLimit: true, wire.CodeCanceled: true,
	wire.CodeInternal: true, wire.CodeInvalidCRD: true, wire.CodeInvalidObject: true, wire.CodeInvalidPolicy: true,
}

// checkResponse checks one response object and reports whether it is an error.
func checkResponse(t *testing.T, what string, resp []byte, success ...string) (isErr bool) {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal(resp, &m); err != nil {
		t.Fatalf("%s: response is not a JSON object: %v\n%q", what, err, resp)
	}
	if raw, ok := m["error"]; ok {
		var e struct {
			Code    string `json:"code"`
			Message string `json:"message"`
		}
		if err := json.Unmarshal(raw, &e); err != nil || !knownCodes[e.Code] || e.Message == "" {
			t.Fatalf("%s: malformed error %s", what, raw)
		}
		if e.Code == wire.CodeInternal && strings.HasPrefix(e.Message, "panic:") {
			t.Fatalf("%s: recovered panic: %s", what, e.Message)
		}
		return true
	}
	for _, k := range success {
		if _, ok := m[k]; !ok {
			t.Fatalf("%s: success response without %q: %s", what, k, resp)
		}
	}
	return false
}

func clone(b []byte) []byte { return append([]byte(nil), b...) }

// seedCorpus adds compile requests (and activations) from the conformance
// corpus: every step-th case.
func seedCorpus(f *testing.F, step int, add func(compile, activation string)) {
	for _, file := range []string{"../../conformance/corpus/k8s.jsonl", "../../conformance/corpus/spec.jsonl"} {
		fh, err := os.Open(file)
		if err != nil {
			f.Fatal(err)
		}
		sc := bufio.NewScanner(fh)
		sc.Buffer(nil, 1<<22)
		for i := 0; sc.Scan(); i++ {
			if i%step != 0 {
				continue
			}
			var c struct {
				Compile json.RawMessage `json:"compile"`
				Eval    struct {
					Activation json.RawMessage `json:"activation"`
				} `json:"eval"`
			}
			if json.Unmarshal(sc.Bytes(), &c) == nil {
				act := string(c.Eval.Activation)
				if act == "" {
					act = "{}"
				}
				add(string(c.Compile), act)
			}
		}
		fh.Close()
	}
}

func FuzzCompile(f *testing.F) {
	seedCorpus(f, 40, func(c, _ string) { f.Add(c) })
	f.Add(`{"expression":"x + ","env":{}}`)
	f.Add(`{"cloudEventFilter":{"attributes":{"type":"a"}}}`)
	f.Add(`{"when":["$(params.x) == 'a'"]}`)
	f.Fuzz(func(t *testing.T, req string) {
		resp := clone(NewHandler().Compile([]byte(req)))
		if !checkResponse(t, "compile", resp, "program", "outputType") {
			if again := NewHandler().Compile([]byte(req)); !bytes.Equal(resp, again) {
				t.Fatalf("compile not deterministic:\n%s\n%s", resp, again)
			}
		}
	})
}

// evalTwice compiles, evaluates eval twice in the same handler, and once in a
// fresh one; successful evaluations must agree byte for byte. Without
// success members, eval checks its own response (a batch: one per line).
func evalTwice(t *testing.T, compile string, eval func(h *Handler) []byte, success ...string) {
	h := NewHandler()
	if checkResponse(t, "compile", h.Compile([]byte(compile)), "program") {
		return
	}
	first := clone(eval(h))
	if len(success) > 0 && checkResponse(t, "eval", first, success...) {
		return
	}
	if second := eval(h); !bytes.Equal(first, second) {
		t.Fatalf("eval not repeatable:\n%s\n%s", first, second)
	}
	h2 := NewHandler()
	h2.Compile([]byte(compile))
	if fresh := eval(h2); !bytes.Equal(first, fresh) {
		t.Fatalf("eval differs in a fresh handler:\n%s\n%s", first, fresh)
	}
}

func FuzzEval(f *testing.F) {
	seedCorpus(f, 40, func(c, a string) { f.Add(c, a) })
	f.Add(`{"expression":"self.spec.replicas > 1","env":{"variables":[{"name":"self","type":"dyn"}]}}`, `{"self":{"spec":{"replicas":3}}}`)
	f.Add(`{"expression":"x.all(i, i > 0)","env":{"variables":[{"name":"x","type":"list(int)"}]}}`, `{"x":[1,2,18446744073709551616]}`)
	f.Add(`{"expression":"[self.spec, self]","env":{"variables":[{"name":"self","type":"dyn"}]}}`, `{"self":{"spec":{"replicas":3,"l":[{"a":"b"}]}}}`)
	f.Fuzz(func(t *testing.T, compile, activation string) {
		req := []byte(`{"program":1,"activation":` + activation + `}`)
		evalTwice(t, compile, func(h *Handler) []byte { return h.Eval(req) }, "value", "cost")
		evalActivationInPlace(t, compile, activation, req)
		checkProjected(t, compile, activation)
	})
}

// evalActivationInPlace: EvalActivation, which reads the activation where
// the caller wrote it, answers what Eval answers for the same activation
// (a single JSON value: other text could make a different eval request),
// and the next call over other bytes in the same buffer answers for those.
func evalActivationInPlace(t *testing.T, compile, activation string, req []byte) {
	if codec.CheckJSON(activation) != nil {
		return
	}
	h := NewHandler()
	if !bytes.HasPrefix(h.Compile([]byte(compile)), []byte(`{"program":1,`)) {
		return
	}
	answer := func(buf []byte) string {
		packed, resp := h.EvalActivation(1, 0, buf)
		if packed == 0 {
			return string(resp)
		}
		v := map[uint32]string{ScalarFalse: "false", ScalarTrue: "true"}[packed&^ScalarCostMask]
		return `{"value":` + v + `,"cost":` + strconv.FormatUint(uint64(packed&ScalarCostMask), 10) + `}`
	}
	want := string(h.Eval(req))
	buf := []byte(activation)
	got := answer(buf)
	for i := range buf {
		buf[i] = ' '
	}
	if got != want {
		t.Fatalf("eval_activation of %q:\n got %s\nwant %s", activation, got, want)
	}
	wantEmpty := string(h.Eval([]byte(`{"program":1,"activation":{}}`)))
	if got := answer(append(buf[:0], `{}`...)); got != wantEmpty {
		t.Fatalf("eval_activation of {} after %q over the same buffer:\n got %s\nwant %s", activation, got, wantEmpty)
	}
}

func FuzzEvalBatch(f *testing.F) {
	f.Add(`{"expression":"x > 1","env":{"variables":[{"name":"x","type":"int"}]}}`, "{\"x\":2}\n{\"x\":0}\n\n{\"x\":\"a\"}\nnot json\n")
	f.Add(`{"cloudEventFilter":{"exact":{"type":"t"}}}`, `{"specversion":"1.0","id":"1","source":"s","type":"t"}`+"\n")
	f.Fuzz(func(t *testing.T, compile, items string) {
		var c struct {
			Filter json.RawMessage `json:"cloudEventFilter"`
		}
		kind := "activations"
		if json.Unmarshal([]byte(compile), &c) == nil && c.Filter != nil {
			kind = "cloudEvents"
		}
		req := []byte(`{"program":1,"items":"` + kind + `"}` + "\n" + items)
		evalTwice(t, compile, func(h *Handler) []byte {
			out := h.EvalBatch(req)
			if len(out) == 0 {
				return out // no items, no lines
			}
			for i, line := range bytes.Split(out, []byte("\n")) {
				checkResponse(t, "batch line "+strconv.Itoa(i), line, "value", "cost")
			}
			return out
		})
	})
}

func FuzzFilter(f *testing.F) {
	events, _ := os.ReadFile("../../conformance/testdata/cloudevents/events.ndjson")
	first, _, _ := strings.Cut(string(events), "\n")
	for _, filter := range []string{`{"attributes":{"type":"com.github.pull.create"}}`, `{"any":[{"prefix":{"type":"com."}},{"not":{"exact":{"source":"x"}}}]}`,
		`{"expression":"ce.type == 'x' && data.action == 'opened'"}`, `{"sourceAndType":{"source":"s","type":"t"}}`} {
		f.Add(filter, first)
		f.Add(filter, `{"headers":{"ce-specversion":"1.0","ce-type":"t","ce-id":"1","ce-source":"s","content-type":"application/json"},"body":"{\"a\":1}"}`)
	}
	f.Fuzz(func(t *testing.T, filter, event string) {
		compile, err := json.Marshal(map[string]json.RawMessage{"cloudEventFilter": json.RawMessage(filter)})
		if err != nil {
			return // not JSON: the compile request cannot carry it
		}
		req := []byte(`{"program":1,"cloudEvent":` + event + `}`)
		evalTwice(t, string(compile), func(h *Handler) []byte { return h.Eval(req) }, "value", "cost")
	})
}

func FuzzWhen(f *testing.F) {
	ctx, _ := os.ReadFile("../../conformance/testdata/tekton/pipelinerun-context.json")
	f.Add("$(tasks.unit-test.results.test-coverage) >= 0.9", "'$(params.path)' == 'README.md'", string(ctx))
	f.Add("$(tasks.status) == 'Succeeded'", "'refs/heads/$(params.branch)'.startsWith('refs')", `{"params":{"branch":"main"},"tasks":{"status":"Succeeded"}}`)
	f.Fuzz(func(t *testing.T, a, b, activation string) {
		compile, _ := json.Marshal(map[string][]string{"when": {a, b}})
		req := []byte(`{"program":1,"activation":` + activation + `}`)
		evalTwice(t, string(compile), func(h *Handler) []byte { return h.Eval(req) }, "value", "cost")
	})
}

func crdSeeds(f *testing.F) (crds, objects []string) {
	for _, dir := range []string{"kep", "budget", "invalid"} {
		ys, _ := os.ReadFile("../../conformance/testdata/crd/" + dir + "/crd.yaml")
		if j, err := yamlToJSON(ys); err == nil {
			crds = append(crds, j)
		}
	}
	ys, _ := os.ReadFile("../../conformance/testdata/crd/kep/valid.yaml")
	if j, err := yamlToJSON(ys); err == nil {
		objects = append(objects, j)
	}
	if len(crds) == 0 || len(objects) == 0 {
		f.Fatal("no CRD seeds")
	}
	return crds, objects
}

// yamlToJSON reads the first document of a YAML file as JSON.
func yamlToJSON(y []byte) (string, error) {
	doc, _, _ := strings.Cut(string(y), "\n---")
	j, err := sigsyaml.YAMLToJSON([]byte(doc))
	return string(j), err
}
