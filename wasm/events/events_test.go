package events_test

import (
	. "github.com/celwasm/celwasm/wasm/events"
	_ "github.com/celwasm/celwasm/wasm/events/knative"
	"os"
	"strings"
	"testing"

	"github.com/celwasm/celwasm/wasm/codec"
	"github.com/celwasm/celwasm/wasm/engine"
	"github.com/celwasm/celwasm/wire"

	"github.com/tidwall/gjson"
)

func evalEvent(t *testing.T, expr, event string) (string, string) {
	t.Helper()
	env, err := engine.NewEnv(wire.EnvSpec{Base: engine.BaseCEL, Extensions: []wire.ExtensionRef{{Name: "strings"}, {Name: "lists"}},
		Variables: []wire.VariableDecl{{Name: "ce", Type: "map(string, dyn)"}, {Name: "data", Type: "dyn"}}})
	if err != nil {
		t.Fatal(err)
	}
	prg, err := env.Compile(expr)
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	if err := codec.CheckJSON(event); err != nil {
		t.Fatal(err)
	}
	act, err := Activation(env, gjson.Parse(event))
	if err != nil {
		return "", err.(*wire.Error).Code
	}
	v, _, err := prg.Eval(act, 0)
	if err != nil {
		return "", err.(*wire.Error).Code
	}
	b, _ := codec.AppendValue(nil, v)
	return string(b), ""
}

// readEvent reads a CloudEvent fixture of conformance/testdata/cloudevents.
func readEvent(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile("../../conformance/testdata/cloudevents/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestEventActivation(t *testing.T) {
	pr, push, ping := readEvent(t, "github-pull-request.json"), readEvent(t, "binary-github-push.json"), readEvent(t, "binary-ping.json")
	cases := []struct{ expr, event, want, code string }{
		// structured: time is a timestamp, data the JSON, attributes in document order
		{"ce.time", pr, `{"timestamp":"2026-11-20T14:05:11Z"}`, ""},
		{"ce.time < timestamp('2026-11-21T00:00:00Z')", pr, `true`, ""},
		{"data.pull_request.additions - data.pull_request.deletions", pr, `{"int":"475"}`, ""},
		{"ce.github.repository + '/' + ce.githubrepository", pr, `"eventing/knative/eventing"`, ""},
		{"'data' in ce || 'data_base64' in ce", pr, `false`, ""},
		{"ce.map(k, k).slice(0, 4)", pr, `["specversion","id","source","type"]`, ""},
		{"data", `{"specversion":"1.0","type":"t","data_base64":"AAEC"}`, `{"bytes":"AAEC"}`, ""},
		{"data", `{"specversion":"1.0","type":"t","datacontenttype":"text/plain","data":"hello"}`, `"hello"`, ""},
		{"ce.time", `{"specversion":"1.0","time":"not a time"}`, "", wire.CodeEval},
		{"has(ce.time)", `{"specversion":"1.0"}`, `false`, ""},
		// binary: headers lowercased, ce- stripped, percent-decoded; the body per content type
		{"ce.committer", push, `"José Domínguez"`, ""},
		{"ce.datacontenttype + ' ' + ce.type", push, `"application/json com.github.push"`, ""},
		{"data.commits[0].modified[0]", push, `"docs/eventing/triggers/README.md"`, ""},
		{"'user-agent' in ce || 'useragent' in ce", push, `false`, ""},
		{"ce.time.getHours()", push, `{"int":"17"}`, ""},
		{"data", ping, `"nightly report"`, ""},
		{"data", `{"headers":{"ce-specversion":"1.0"},"bodyBase64":"/w=="}`, `{"bytes":"/w=="}`, ""},
		{"ce.x", `{"headers":{"ce-specversion":"1.0","ce-x":["a","b"]}}`, `"a,b"`, ""},
		// not events
		{"true", `{"headers":{"ce-id":"1"}}`, "", wire.CodeInvalidActivation},
		{"true", `{"id":"1"}`, "", wire.CodeInvalidActivation},
		{"true", `{"headers":{"ce-specversion":"1.0","content-type":"application/json"},"body":"{"}`, "", wire.CodeInvalidActivation},
		{"true", `{"headers":{"ce-specversion":"1.0","ce-x":"%ff"}}`, "", wire.CodeInvalidActivation},
		{"true", `[1]`, "", wire.CodeInvalidActivation},
	}
	for _, c := range cases {
		got, code := evalEvent(t, c.expr, c.event)
		if got != c.want || code != c.code {
			ev := c.event
			if len(ev) > 60 {
				ev = ev[:60] + "…"
			}
			t.Errorf("%s over %s = %s (%s), want %s (%s)", c.expr, ev, got, code, c.want, c.code)
		}
	}
}

func TestFilterToCEL(t *testing.T) {
	cases := []struct{ filter, want, err string }{
		{`{"expression":"ce.type == 'a'"}`, `ce.type == 'a'`, ""},
		{`{"attributes":{"type":"a\"b","source":""}}`, `attrs.type == "a\"b" && attrs.source != ""`, ""},
		{`{"attributes":{}}`, `true`, ""},
		{`{"attributes":{"myext":"1"}}`, `has(attrs.myext) && attrs.myext == "1"`, ""},
		{`{"exact":{"in":"1"}}`, `"in" in attrs && string(attrs["in"]) == "1"`, ""},
		{`{"sourceAndType":{"type":"t"}}`, `attrs.type == "t"`, ""},
		{`{"exact":{"type":"t","myext":"x"}}`, `string(attrs.type) == "t" && has(attrs.myext) && string(attrs.myext) == "x"`, ""},
		{`{"prefix":{"source":"https://"}}`, `string(attrs.source).startsWith("https://")`, ""},
		{`{"suffix":{"subject":".json"}}`, `string(attrs.subject).endsWith(".json")`, ""},
		{`{"all":[]}`, `true`, ""},
		{`{"any":[]}`, `true`, ""},
		{`{"not":{"exact":{"type":"t"}}}`, `!(string(attrs.type) == "t")`, ""},
		{`{"any":[{"exact":{"type":"a"}},{"all":[{"exact":{"type":"b"}},{"not":{"prefix":{"source":"x"}}}]}]}`,
			`(string(attrs.type) == "a") || ((string(attrs.type) == "b") && (!(string(attrs.source).startsWith("x"))))`, ""},
		// three results: all(A, no filter) fails or gives no filter; not of that never fails
		{`{"not":{"all":[{"exact":{"type":"a"}},{"not":{"all":[]}}]}}`, `!(false)`, ""},
		{`{"cesql":"type = 'a'"}`, `cesql["type = 'a'"]`, ""},
		{`{"filter":{"exact":{"type":"t"}}}`, `string(attrs.type) == "t"`, ""},
		{`{"spec":{"filters":[{"exact":{"type":"t"}}]}}`, `string(attrs.type) == "t"`, ""},
		{`{"spec":{}}`, `true`, ""},
		{`{"attributes":{"a":"1"},"expression":"true"}`, "", "multiple dialects found"},
		{`{"sourceAndType":{"subject":"x"}}`, "", "only source and type"},
		{`{"all":{}}`, "", "list of filters"},
		{`{"cesql":"a = "}`, "", "invalid value: a = : cesql"},
		{`{"expression":""}`, "", "non-empty"},
		{`{"attributes":{"a":{"b":1}}}`, "", "must be a string"},
		{`{"attributes":{"a.b":"x"}}`, "", `invalid key name "a.b": attributes[a.b]`},
		{`[]`, "", "object"},
		{strings.Repeat(`{"not":`, 70) + `{"expression":"true"}` + strings.Repeat(`}`, 70), "", "deeper"},
	}
	for _, c := range cases {
		got, err := FilterToCEL(gjson.Parse(c.filter))
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s: error %v, want %q", c.filter, err, c.err)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("%s:\n got %s (%v)\nwant %s", c.filter, got, err, c.want)
		}
	}
}

// TestScratchReuse: one Scratch over events of different shapes, in both
// orders, gives what a fresh activation gives for each: nothing of an
// earlier event (more attributes, more than the index keeps inline or
// searches linearly, binary after structured) shows through.
func TestScratchReuse(t *testing.T) {
	var many strings.Builder
	many.WriteString(`{"specversion":"1.0","id":"m","type":"t","data":{"n":1}`)
	for i := 0; i < 20; i++ {
		many.WriteString(`,"a` + string(rune('a'+i)) + `":"` + strings.Repeat("x", i) + `"`)
	}
	many.WriteString(`}`)
	evs := []string{readEvent(t, "github-pull-request.json"), many.String(), `{"specversion":"1.0","type":"small"}`,
		readEvent(t, "binary-github-push.json"), `{"specversion":"1.0","id":"2","time":"2026-01-02T03:04:05Z","data":[1,2]}`, readEvent(t, "binary-ping.json")}
	env, err := engine.NewEnv(wire.EnvSpec{Base: engine.BaseCEL,
		Variables: []wire.VariableDecl{{Name: "ce", Type: "map(string, dyn)"}, {Name: "data", Type: "dyn"}}})
	if err != nil {
		t.Fatal(err)
	}
	var prgs []*engine.Program
	for _, expr := range []string{"ce", "has(ce.aj) || has(ce.time)", "data", "ce.size()"} {
		p, err := env.Compile(expr)
		if err != nil {
			t.Fatal(err)
		}
		prgs = append(prgs, p)
	}
	eval := func(act *codec.Activation, p *engine.Program) string {
		v, _, err := p.Eval(act, 0)
		if err != nil {
			return "error: " + err.Error()
		}
		b, _ := codec.AppendValue(nil, v)
		return string(b)
	}
	var s Scratch
	var ms codec.Members
	for _, order := range [][]int{{0, 1, 2, 3, 4, 5}, {5, 4, 3, 2, 1, 0}, {1, 2, 1, 3, 1}} {
		for _, i := range order {
			for _, p := range prgs {
				fresh, err := Activation(env, gjson.Parse(evs[i]))
				if err != nil {
					t.Fatal(err)
				}
				want := eval(fresh, p)
				// Reading the event, and from the members its check listed.
				reused, err := s.Activation(env, gjson.Parse(evs[i]), nil, ReadsOf(p))
				if err != nil {
					t.Fatal(err)
				}
				if got := eval(reused, p); got != want {
					t.Errorf("event %d, %s: reused %s, fresh %s", i, p.Expression, got, want)
				}
				if err := codec.CheckJSONMembers(evs[i], &ms); err != nil {
					t.Fatal(err)
				}
				if reused, err = s.Activation(env, gjson.Parse(evs[i]), &ms, ReadsOf(p)); err != nil {
					t.Fatal(err)
				}
				if got := eval(reused, p); got != want {
					t.Errorf("event %d, %s, from its members: %s, fresh %s", i, p.Expression, got, want)
				}
			}
		}
	}
	for _, reads := range []Reads{{}, {Data: true}, {Knative: true}, ReadsAll} {
		act, err := s.Activation(env, gjson.Parse(evs[0]), nil, reads)
		if err != nil {
			t.Fatal(err)
		}
		for name, want := range map[string]bool{AttributesVariable: reads.Knative, CESQLVariable: reads.Knative, DataVariable: reads.Data, EventVariable: true} {
			if _, ok := act.ResolveName(name); ok != want {
				t.Errorf("%+v: %s bound %v", reads, name, ok)
			}
		}
	}
	// Reading nothing of data still rejects the events a fresh activation rejects.
	for _, ev := range []string{`{"specversion":"1.0","data_base64":"%%"}`, `{"headers":{"ce-specversion":"1.0","content-type":"application/json"},"body":"{"}`} {
		_, errFresh := Activation(env, gjson.Parse(ev))
		_, errReused := s.Activation(env, gjson.Parse(ev), nil, Reads{})
		if errFresh == nil || errReused == nil || errFresh.Error() != errReused.Error() {
			t.Errorf("%s: fresh %v, reading no data %v", ev, errFresh, errReused)
		}
	}
}
