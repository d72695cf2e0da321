package admissionref

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"k8s.io/klog/v2"

	"github.com/celwasm/celwasm/wire"
)

const casesDir = "../admission/cases"

func TestMain(m *testing.M) {
	// The plugins and informers log at info level; keep the test output to
	// the test's own lines.
	fs := flag.NewFlagSet("klog", flag.ContinueOnError)
	klog.InitFlags(fs)
	_ = fs.Set("logtostderr", "false")
	_ = fs.Set("alsologtostderr", "false")
	_ = fs.Set("stderrthreshold", "FATAL")
	klog.SetOutput(io.Discard)
	os.Exit(m.Run())
}

// runs is how often each case runs: kube-apiserver orders its policy hooks
// by Go map iteration, so a case whose answer depends on that order would
// answer differently across runs (1 - 2^-(runs-1) likely caught for two
// policies).
const runs = 3

// TestCorpus runs the reference over the corpus, checks each case's
// hand-written expectations, checks the answers do not depend on the hook
// order, and that the corpus as a whole exercises admission: requests
// allowed, denied, warned, audited and mutated, policies refused. With
// ADMREF_OUT set, it writes the answers there as JSON lines
// {"case": name, "answer": Answer.JSON()}.
func TestCorpus(t *testing.T) {
	cases, err := LoadCases(casesDir)
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) == 0 {
		t.Fatal("no cases")
	}
	var out bytes.Buffer
	var requests, allowed, denied, warned, audited, patched, refused, failed, typeWarned int
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			var first []byte
			var ans Answer
			for i := 0; i < runs; i++ {
				a, err := ReferenceAnswer(context.Background(), &c.Request)
				if err != nil {
					t.Fatalf("reference: %v", err)
				}
				b, err := a.JSON()
				if err != nil {
					t.Fatal(err)
				}
				if i == 0 {
					first, ans = b, a
				} else if !bytes.Equal(first, b) {
					t.Fatalf("the answer depends on kube-apiserver's hook order:\n%s\n%s", first, b)
				}
			}
			out.WriteString(`{"case":` + strconv.Quote(c.Name) + `,"answer":` + string(first) + "}\n")
			requests += len(c.Request.Requests)
			checkCase(t, c, ans)
			if ans.Error != nil {
				if ans.Error.Code == wire.CodeInvalidPolicy {
					refused++
				} else {
					failed++
				}
				return
			}
			if len(ans.Response.Warnings) > 0 {
				typeWarned++
			}
			for _, r := range ans.Response.Results {
				if r.Allowed {
					allowed++
				} else {
					denied++
				}
				if len(r.Warnings) > 0 {
					warned++
				}
				if len(r.AuditAnnotations) > 0 {
					audited++
				}
				if string(r.PatchedObject) != "null" {
					patched++
				}
			}
		})
	}
	t.Logf("compatibility version %s", CompatibilityVersion())
	t.Logf("%d cases, %d requests: %d allowed, %d denied, %d with warnings, %d with audit annotations, %d patched; %d cases refused as invalid policies, %d other errors; %d cases with type-checking warnings",
		len(cases), requests, allowed, denied, warned, audited, patched, refused, failed, typeWarned)
	for what, n := range map[string]int{"allowed": allowed, "denied": denied, "warned": warned, "audited": audited, "patched": patched, "refused": refused, "failed": failed, "type-warned": typeWarned} {
		if n == 0 {
			t.Errorf("no request or case %s: the corpus does not exercise it", what)
		}
	}
	if p := os.Getenv("ADMREF_OUT"); p != "" {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, out.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func checkCase(t *testing.T, c Case, a Answer) {
	t.Helper()
	js, _ := a.JSON()
	if c.ExpectError != nil {
		if a.Error == nil || a.Error.Code != c.ExpectError.Code {
			t.Fatalf("want error %s, got %s", c.ExpectError.Code, js)
		}
		if a.Error.Detail != "" {
			t.Logf("error: %s", a.Error.Detail)
		}
		if c.ExpectError.MessageContains != "" && !strings.Contains(a.Error.Message, c.ExpectError.MessageContains) {
			t.Fatalf("want an error message containing %q, got %s", c.ExpectError.MessageContains, js)
		}
		return
	}
	if a.Error != nil {
		t.Fatalf("unexpected error %s: %s", js, a.Error.Detail)
	}
	if len(a.Response.Warnings) != c.TypeWarnings {
		t.Errorf("%d type-checking warnings, want %d: %q", len(a.Response.Warnings), c.TypeWarnings, a.Response.Warnings)
	}
	for i, e := range c.Expect {
		r := a.Response.Results[i]
		rj, _ := json.Marshal(r)
		if e.Allowed != nil && r.Allowed != *e.Allowed {
			t.Errorf("requests[%d]: allowed %v, want %v: %s", i, r.Allowed, *e.Allowed, rj)
		}
		if e.Message != "" && r.Message != e.Message {
			t.Errorf("requests[%d]: message\n got %q\nwant %q", i, r.Message, e.Message)
		}
		if e.MessageContains != "" && !strings.Contains(r.Message, e.MessageContains) {
			t.Errorf("requests[%d]: message %q does not contain %q", i, r.Message, e.MessageContains)
		}
		if e.Code != 0 && r.Code != e.Code {
			t.Errorf("requests[%d]: code %d, want %d: %s", i, r.Code, e.Code, rj)
		}
		if e.Warnings != 0 && len(r.Warnings) != e.Warnings {
			t.Errorf("requests[%d]: %d warnings, want %d: %s", i, len(r.Warnings), e.Warnings, rj)
		}
		for _, k := range e.AuditKeys {
			if _, ok := r.AuditAnnotations[k]; !ok {
				t.Errorf("requests[%d]: no audit annotation %q: %s", i, k, rj)
			}
		}
		isPatched := string(r.PatchedObject) != "null"
		if e.Patched != nil && isPatched != *e.Patched {
			t.Errorf("requests[%d]: patched %v, want %v: %s", i, isPatched, *e.Patched, rj)
		}
		if len(e.Patch) > 0 {
			var want, got any
			if err := json.Unmarshal(e.Patch, &want); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(r.PatchedObject, &got); err != nil {
				t.Fatal(err)
			}
			if !contains(got, want) {
				t.Errorf("requests[%d]: the patched object does not contain %s: %s", i, e.Patch, r.PatchedObject)
			}
		}
	}
}

// contains reports whether got has every field of want (lists element-wise).
func contains(got, want any) bool {
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return false
		}
		for k, v := range w {
			if !contains(g[k], v) {
				return false
			}
		}
		return true
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			return false
		}
		for i := range w {
			if !contains(g[i], w[i]) {
				return false
			}
		}
		return true
	default:
		return reflect.DeepEqual(got, want)
	}
}

// TestDiff: Diff is empty for equal answers and names the field that differs.
func TestDiff(t *testing.T) {
	res := func(allowed bool, msg string, patched string) Answer {
		p := json.RawMessage("null")
		if patched != "" {
			p = json.RawMessage(patched)
		}
		return Answer{Response: &wire.AdmitResponse{Results: []wire.AdmitResult{{Allowed: allowed, Message: msg, Warnings: []string{}, AuditAnnotations: map[string]string{}, PatchedObject: p}}}}
	}
	if d := Diff(res(true, "", `{"b":1,"a":2}`), res(true, "", `{"a":2, "b":1}`)); d != "" {
		t.Errorf("equal answers (key order aside) differ: %s", d)
	}
	if d := Diff(res(false, "x", ""), res(true, "", "")); !strings.Contains(d, "results[0].allowed") || !strings.Contains(d, "results[0].message") {
		t.Errorf("diff %q does not name allowed and message", d)
	}
	if d := Diff(res(true, "", `{"a":1}`), res(true, "", `{"a":2}`)); !strings.Contains(d, "results[0].patchedObject") {
		t.Errorf("diff %q does not name patchedObject", d)
	}
	if d := Diff(ErrorAnswer(wire.CodeInvalidObject, "mine", nil), ErrorAnswer(wire.CodeInvalidObject, "theirs", nil)); d != "" {
		t.Errorf("invalid_object messages are not compared, got %q", d)
	}
	if d := Diff(ErrorAnswer(wire.CodeInvalidPolicy, "a", nil), ErrorAnswer(wire.CodeInvalidPolicy, "b", nil)); d == "" {
		t.Error("invalid_policy messages are compared")
	}
}

// TestTypedBuiltins measures what taking built-in objects as given
// (unstructured) changes against kube-apiserver's typed handling
// (Options.TypedBuiltins): it runs every case both ways and logs the cases
// whose answers differ, with the differences.
func TestTypedBuiltins(t *testing.T) {
	cases, err := LoadCases(casesDir)
	if err != nil {
		t.Fatal(err)
	}
	differ := 0
	for _, c := range cases {
		u, err := NewAnswer(Admit(context.Background(), &c.Request))
		if err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		ty, err := NewAnswer(AdmitWithOptions(context.Background(), &c.Request, Options{TypedBuiltins: true}))
		if err != nil {
			t.Fatalf("%s: typed: %v", c.Name, err)
		}
		if d := Diff(u, ty); d != "" {
			differ++
			t.Logf("%s: as given (want) vs typed (got):\n%s", c.Name, d)
		}
	}
	t.Logf("%d of %d cases answer differently with typed built-in objects", differ, len(cases))
}
