package celwasm_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"testing"

	celwasm "github.com/celwasm/celwasm/host"
)

// TestReadsProjection: Eval of a map[string]any sends only what the program
// reads, and answers exactly what the whole document, sent as JSON bytes,
// answers — for the Kubernetes corpus cases with an activation and for a
// document whose unread members have no JSON form at all.
func TestReadsProjection(t *testing.T) {
	forEachEngine(t, func(t *testing.T, newRT func(...celwasm.Option) *celwasm.Runtime) {
		ctx := context.Background()
		rt := newRT()
		env := rt.NewEnv(celwasm.Variable("self", "dyn"), celwasm.Variable("oldSelf", "dyn"))
		prg := mustProgram(t, env, `self.spec.replicas > oldSelf.spec.replicas && has(self.spec.labels.app)`)
		if got, want := string(prg.Reads()), `{"oldSelf":{"spec":{"replicas":true}},"self":{"spec":{"labels":{"app":true},"replicas":true}}}`; got != want {
			t.Fatalf("reads %s, want %s", got, want)
		}
		// A channel cannot be marshalled: only a projection can send this.
		act := map[string]any{
			"self":    map[string]any{"spec": map[string]any{"replicas": 3, "labels": map[string]any{"app": "web"}, "unread": make(chan int)}},
			"oldSelf": map[string]any{"spec": map[string]any{"replicas": 2}, "status": make(chan int)},
			"other":   make(chan int),
		}
		res, err := prg.Eval(ctx, act)
		if err != nil || string(res.JSON) != "true" {
			t.Fatalf("eval over the projection: %v %v", res, err)
		}
		whole, err := prg.Eval(ctx, []byte(`{"self":{"spec":{"replicas":3,"labels":{"app":"web"}}},"oldSelf":{"spec":{"replicas":2}}}`))
		if err != nil || whole.Cost != res.Cost {
			t.Fatalf("cost %d over the projection, %v %v over JSON", res.Cost, whole, err)
		}
		// A nil map is null, whatever is read of it: has() on null is an
		// error where the specification's presence tests are on, on {} false.
		strict := rt.NewEnv(celwasm.WithSpec(celwasm.EnvSpec{ErrorOnBadPresenceTest: true,
			Variables: []celwasm.VariableDecl{{Name: "self", Type: "dyn"}}}))
		presence := mustProgram(t, strict, `has(self.spec.replicas)`)
		var none map[string]any
		overNil, errNil := presence.Eval(ctx, map[string]any{"self": map[string]any{"spec": none}})
		overNull, errNull := presence.Eval(ctx, []byte(`{"self":{"spec":null}}`))
		if errNull == nil || code(errNil) != code(errNull) || errNil.Error() != errNull.Error() {
			t.Fatalf("a nil map: %v %v; null: %v %v", overNil, errNil, overNull, errNull)
		}
		if p := mustProgram(t, env, `self.spec`); string(p.Reads()) != `{"self":{"spec":true}}` {
			t.Fatalf("reads %s", p.Reads())
		}

		compared := 0
		fh, err := os.Open("../conformance/corpus/k8s.jsonl")
		if err != nil {
			t.Fatal(err)
		}
		defer fh.Close()
		sc := bufio.NewScanner(fh)
		sc.Buffer(nil, 1<<22)
		for sc.Scan() {
			var c struct {
				Compile struct {
					Expression string          `json:"expression"`
					Env        celwasm.EnvSpec `json:"env"`
				} `json:"compile"`
				Eval struct {
					Activation json.RawMessage `json:"activation"`
				} `json:"eval"`
			}
			if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
				t.Fatal(err)
			}
			if len(c.Eval.Activation) < 3 {
				continue
			}
			var doc map[string]any
			dec := json.NewDecoder(bytes.NewReader(c.Eval.Activation))
			dec.UseNumber() // numbers marshal back as their own text
			if dec.Decode(&doc) != nil {
				continue
			}
			p, err := rt.NewEnv(celwasm.WithSpec(c.Compile.Env)).Compile(ctx, c.Compile.Expression)
			if err != nil || p.Reads() == nil {
				continue
			}
			overJSON, errJSON := p.Eval(ctx, []byte(c.Eval.Activation))
			overMap, errMap := p.Eval(ctx, doc)
			p.Close()
			if code(errJSON) != code(errMap) || (errJSON == nil && (string(overJSON.JSON) != string(overMap.JSON) || overJSON.Cost != overMap.Cost)) {
				t.Fatalf("%s over %s: JSON %v %v, map %v %v", c.Compile.Expression, c.Eval.Activation, overJSON, errJSON, overMap, errMap)
			}
			if ej, em := errorCost(errJSON), errorCost(errMap); ej != em {
				t.Fatalf("%s: error cost %d over JSON, %d over the map", c.Compile.Expression, ej, em)
			}
			compared++
		}
		if compared < 80 {
			t.Fatalf("compared %d corpus cases", compared)
		}
	})
}

func errorCost(err error) uint64 {
	if ce, ok := err.(*celwasm.Error); ok && ce.Cost != nil {
		return *ce.Cost
	}
	return 0
}
