// Package stagebench times the stages of evaluating a CloudEvent filter
// (validate the JSON, build the activation, evaluate) and two Go runtime
// primitives, so that the same code can be measured natively and as
// WebAssembly (cmd under GOOS=wasip1) and the ratio located stage by stage.
// celwasm-bench runs it both ways and writes the table in
// docs/benchmarks.md.
package stagebench

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/celwasm/celwasm/wire"

	"github.com/google/cel-go/common/types"
	"github.com/tidwall/gjson"

	"github.com/celwasm/celwasm/wasm/abi"
	"github.com/celwasm/celwasm/wasm/codec"
	"github.com/celwasm/celwasm/wasm/engine"
	"github.com/celwasm/celwasm/wasm/events"
	_ "github.com/celwasm/celwasm/wasm/events/knative" // every filter dialect, as celwasm-full
)

// Filter is the trigger filter the stages evaluate (the batch benchmark's):
// the CEL the attributes filter became before it read attributes the Knative
// way (the fixture event has a nested extension, which Knative refuses).
const Filter = `{"expression":"has(ce.type) && ce.type == 'com.github.pull.create' && has(ce.source) && ce.source == 'https://github.com/knative/eventing/pulls/123'"}`

// Result is one stage's timing: nanoseconds, heap allocations and bytes
// allocated per operation, as testing.Benchmark reports them.
type Result struct {
	Stage  string `json:"stage"`
	Ns     int64  `json:"ns"`
	Allocs int64  `json:"allocs"`
	Bytes  int64  `json:"bytes"`
}

// Case is a reference case of docs/benchmarks.md: an expression over one
// variable (declared dyn, in the Kubernetes environment) and the
// activation object it is evaluated against.
type Case struct {
	Name       string          `json:"name"`
	Expression string          `json:"expression"`
	Variable   string          `json:"variable"`
	Activation json.RawMessage `json:"activation"`
}

// CaseStage names the stage Run adds for a case: the expression evaluated
// over an activation whose values an earlier evaluation already read, so
// that only cel-go's evaluation (cost tracking on) is timed. No call of
// the module does less: it is the floor of the case's per-call time.
func CaseStage(c Case) string {
	return "cel-go alone: " + c.Name + ", over an activation already read"
}

// Stages names the stages in the order Run reports them, before the
// cases' stages.
var Stages = []string{
	"Go runtime: allocate a 64-byte object",
	"Go runtime: map[string]int lookup",
	"validate the event JSON",
	"validate 11 kB of plain strings",
	"validate 11 kB of strings holding escaped JSON",
	"build the CloudEvent activation (ce, data)",
	"evaluate `true` (the fixed cost of one evaluation)",
	"evaluate the filter over a built activation",
	"whole batch item (EvalBatch of 1000 events, per event)",
}

var sink any

// Run measures every stage over event, a structured CloudEvent (JSON),
// in the order of Stages, then each case's CaseStage.
func Run(event []byte, cases []Case) ([]Result, error) {
	var compact bytes.Buffer
	if err := json.Compact(&compact, event); err != nil {
		return nil, fmt.Errorf("event: %v", err)
	}
	expr, err := events.FilterToCEL(gjson.Parse(Filter))
	if err != nil {
		return nil, err
	}
	env, err := engine.NewEnv(wire.EnvSpec{Base: engine.BaseCEL, Extensions: []wire.ExtensionRef{{Name: "strings"}},
		Variables: []wire.VariableDecl{{Name: events.EventVariable, Type: "map(string, dyn)"}, {Name: events.DataVariable, Type: "dyn"}}})
	if err != nil {
		return nil, err
	}
	filter, err := env.Compile(expr)
	if err != nil {
		return nil, err
	}
	always, err := env.Compile("true")
	if err != nil {
		return nil, err
	}
	ev := compact.String() // one line, for the NDJSON batch
	act, err := events.Activation(env, gjson.Parse(ev))
	if err != nil {
		return nil, err
	}
	if v, _, err := filter.Eval(act, 0); err != nil || v == nil {
		return nil, fmt.Errorf("filter: %v", err)
	}
	h := abi.NewHandler()
	resp := h.Compile([]byte(`{"cloudEventFilter":` + Filter + `}`))
	if !bytes.HasPrefix(resp, []byte(`{"program":1,`)) {
		return nil, fmt.Errorf("compile: %s", resp)
	}
	const items = 1000
	batch := []byte(`{"program":1,"items":"cloudEvents"}` + strings.Repeat("\n"+ev, items))
	if out := h.EvalBatch(batch); bytes.Count(out, []byte(`"value"`)) != items {
		return nil, fmt.Errorf("batch: %.200s", out)
	}
	m := map[string]int{}
	for i := 0; i < 16; i++ {
		m[fmt.Sprintf("attribute-%d", i)] = i
	}
	key := "attribute-11"
	// Strings as other documents carry them: long plain text, and JSON
	// inside a string (a last-applied-configuration annotation).
	plain := "[" + strings.Repeat(`"`+strings.Repeat("lorem ipsum dolor ", 12)+`",`, 50) + "1]"
	escaped := "[" + strings.Repeat(`"`+strings.Repeat(`{\"lorem\":\"ipsum dolor\"},`, 8)+`",`, 50) + "1]"
	for _, doc := range []string{plain, escaped} {
		if err := codec.CheckJSON(doc); err != nil {
			return nil, err
		}
	}
	type obj struct{ a, b, c, d, e, f, g, h int64 }
	checkJSON := func(doc string) func(b *testing.B) {
		return func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				_ = codec.CheckJSON(doc)
			}
		}
	}

	bench := []func(b *testing.B){
		func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				sink = &obj{}
			}
		},
		func(b *testing.B) {
			n := 0
			for i := 0; i < b.N; i++ {
				n += m[key]
			}
			sink = n
		},
		checkJSON(ev),
		checkJSON(plain),
		checkJSON(escaped),
		func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				sink, _ = events.Activation(env, gjson.Parse(ev))
			}
		},
		func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				sink, _, _ = always.Eval(act, 0)
			}
		},
		func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				sink, _, _ = filter.Eval(act, 0)
			}
		},
		func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				sink = h.EvalBatch(batch)
			}
		},
	}
	out := make([]Result, len(bench), len(bench)+len(cases))
	for i, f := range bench {
		r := testing.Benchmark(func(b *testing.B) { b.ReportAllocs(); f(b) })
		out[i] = Result{Stage: Stages[i], Ns: r.NsPerOp(), Allocs: r.AllocsPerOp(), Bytes: r.AllocedBytesPerOp()}
	}
	last := &out[len(out)-1]
	last.Ns, last.Allocs, last.Bytes = last.Ns/items, last.Allocs/items, last.Bytes/items
	for _, c := range cases {
		eval, err := caseEval(c)
		if err != nil {
			return nil, err
		}
		r := testing.Benchmark(func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				sink = eval()
			}
		})
		out = append(out, Result{Stage: CaseStage(c), Ns: r.NsPerOp(), Allocs: r.AllocsPerOp(), Bytes: r.AllocedBytesPerOp()})
	}
	return out, nil
}

// caseEval compiles c in the Kubernetes environment, as the module does
// for an eval request, evaluates it once over its activation (reading the
// values the expression reaches) and returns the evaluation to repeat over
// the same activation.
func caseEval(c Case) (func() any, error) {
	env, err := engine.NewEnv(wire.EnvSpec{Variables: []wire.VariableDecl{{Name: c.Variable, Type: "dyn"}}})
	if err != nil {
		return nil, err
	}
	prg, err := env.Compile(c.Expression)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", c.Name, err)
	}
	act, err := codec.NewActivation(env, string(c.Activation))
	if err != nil {
		return nil, fmt.Errorf("%s: %v", c.Name, err)
	}
	if v, _, err := prg.Eval(act, 0); err != nil || v != types.True {
		return nil, fmt.Errorf("%s: %v, %v; want true", c.Name, v, err)
	}
	return func() any {
		v, _, _ := prg.Eval(act, 0)
		return v
	}, nil
}
