package abi

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/celwasm/celwasm/wasm/codec"
	"github.com/celwasm/celwasm/wire"
)

// project keeps of the JSON activation act only what reads (a compile
// response's "reads") names, as the SDKs do with objects: members of
// objects along each path, a value whole where the path ends or where it
// is not an object. It works on the text, so numbers and strings keep
// their bytes.
func project(act string, reads gjson.Result) string {
	var b strings.Builder
	projectValue(&b, gjson.Parse(act), reads)
	return b.String()
}

func projectValue(b *strings.Builder, v, read gjson.Result) {
	if read.Type == gjson.True || !v.IsObject() {
		b.WriteString(v.Raw)
		return
	}
	b.WriteByte('{')
	n := 0
	v.ForEach(func(k, member gjson.Result) bool {
		sub := read.Get(gjson.Escape(k.String()))
		if !sub.Exists() {
			return true
		}
		if n > 0 {
			b.WriteByte(',')
		}
		n++
		b.WriteString(k.Raw)
		b.WriteByte(':')
		projectValue(b, member, sub)
		return true
	})
	b.WriteByte('}')
}

// withReads is a compile request asking for reads.
func withReads(compile string) string {
	return `{"reads":true,` + strings.TrimPrefix(strings.TrimSpace(compile), "{")
}

// checkProjected compiles compile asking for reads and, when the response
// has them, evaluates over act and over its projection: the answers must
// be the same bytes (value, error and cost), except where act itself is
// refused (invalid JSON, too deep), which a projection cannot reproduce.
// It reports whether the comparison ran.
func checkProjected(t *testing.T, compile, act string) bool {
	t.Helper()
	if codec.CheckJSON(act) != nil || !strings.HasPrefix(strings.TrimSpace(compile), "{") {
		return false
	}
	h := NewHandler()
	resp := h.Compile([]byte(withReads(compile)))
	cr := gjson.ParseBytes(resp)
	reads := cr.Get("reads")
	if !reads.Exists() {
		return false
	}
	if got, want := stripReads(resp), string(NewHandler().Compile([]byte(compile))); got != want {
		t.Fatalf("compile with reads answers\n%s\nwithout\n%s", resp, want)
	}
	projected := project(act, reads)
	full := string(h.Eval([]byte(`{"program":1,"activation":` + act + `}`)))
	if strings.Contains(full, `"code":"`+wire.CodeInvalidActivation+`"`) {
		return false
	}
	if got := string(h.Eval([]byte(`{"program":1,"activation":` + projected + `}`))); got != full {
		t.Fatalf("reads %s of %q\nprojected %s answers\n%s\nthe whole activation\n%s", reads.Raw, compile, projected, got, full)
	}
	return true
}

// stripReads is a compile response without its "reads" member.
func stripReads(resp []byte) string {
	r := gjson.GetBytes(resp, "reads")
	s := string(resp)
	return strings.Replace(s, `,"reads":`+r.Raw, "", 1)
}

func TestProjectedActivation(t *testing.T) {
	act := `{"self":{"spec":{"replicas":3,"min":1,"max":5,"name":"web","labels":{"a":"b","x-y":"z"},` +
		`"items":[{"name":"a"},{"name":"b"}],"n":null,"s":"text","deep":{"a":{"b":{"c":1}}}},` +
		`"status":{"big":"` + strings.Repeat("x", 2000) + `"}},"oldSelf":{"spec":{"replicas":2}},"unused":[1,2,3]}`
	exprs := []string{
		`self.spec.min <= self.spec.replicas && self.spec.replicas <= self.spec.max`,
		`self.spec.replicas > oldSelf.spec.replicas`,
		`self.spec.labels["x-y"] == "z"`,
		`has(self.spec.labels.a) && !has(self.spec.labels.q)`,
		`has(self.spec.deep.a.b.c)`,
		`has(self.spec.nope.a)`,                // no such key: nope
		`self.spec.missing == 1`,               // no such key
		`self.spec.s.x == 1`,                   // select on a string
		`self.spec.n.x == 1`,                   // select on null
		`self.spec.items[0].name == "a"`,       // a list is read whole
		`self.spec.items.all(i, i.name != "")`, // a comprehension's range
		`size(self.spec.labels) == 2`,
		`self.spec.labels == {"a": "b", "x-y": "z"}`,
		`self.spec.?labels.a.orValue("") == "b"`,
		`self.spec.labels[?"a"].orValue("") == "b"`,
		`[{"replicas": 1}].all(self, self.replicas == 1) && self.spec.replicas == 3`,
		`self.spec.name.startsWith("w") && self.spec.name.size() < 10`,
		`self.status.big.size()`,
		`cel.bind(s, self.spec, s.replicas + s.min)`,
		`self.spec.deep`,
		`self.spec.replicas + 1 > 10 || self.spec`, // no matching overload
		`"spec" in self`,
		`oldSelf.spec.replicas * 1000000000000000000`, // overflow
	}
	for _, expr := range exprs {
		compile, _ := json.Marshal(map[string]any{"expression": expr, "env": map[string]any{"extensions": []string{"bindings"}, "variables": []any{
			map[string]string{"name": "self", "type": "dyn"}, map[string]string{"name": "oldSelf", "type": "map(string, dyn)"},
			map[string]string{"name": "unused", "type": "dyn"}}}})
		if !checkProjected(t, string(compile), act) {
			t.Errorf("%s: no comparison", expr)
		}
	}
	// What a projection sends: only the members read.
	h := NewHandler()
	reads := gjson.ParseBytes(h.Compile([]byte(withReads(`{"expression":"self.spec.replicas > oldSelf.spec.replicas","env":{"variables":[{"name":"self","type":"dyn"},{"name":"oldSelf","type":"dyn"}]}}`)))).Get("reads")
	if got, want := project(act, reads), `{"self":{"spec":{"replicas":3}},"oldSelf":{"spec":{"replicas":2}}}`; got != want {
		t.Errorf("projection %s, want %s", got, want)
	}
	// Not type-checked, or a dialect: no reads, the whole activation goes.
	for _, req := range []string{
		`{"reads":true,"expression":"self.a","env":{"disableTypeCheck":true,"variables":[{"name":"self","type":"dyn"}]}}`,
		`{"reads":true,"when":["'a' == 'a'"]}`,
	} {
		if resp := h.Compile([]byte(req)); gjson.GetBytes(resp, "reads").Exists() || !gjson.GetBytes(resp, "program").Exists() {
			t.Errorf("%s: %s", req, resp)
		}
	}
}

// TestProjectedCorpus: every Kubernetes corpus case with an activation
// answers the same over its projection.
func TestProjectedCorpus(t *testing.T) {
	fh, err := os.Open("../../conformance/corpus/k8s.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	sc := bufio.NewScanner(fh)
	sc.Buffer(nil, 1<<22)
	compared := 0
	for sc.Scan() {
		c := gjson.ParseBytes(sc.Bytes())
		act := c.Get("eval.activation")
		if !act.IsObject() || !bytes.Contains([]byte(act.Raw), []byte(":")) {
			continue
		}
		if checkProjected(t, c.Get("compile").Raw, act.Raw) {
			compared++
		}
	}
	if compared < 80 {
		t.Fatalf("compared %d corpus cases, want at least 80", compared)
	}
}
