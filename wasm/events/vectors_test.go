package events_test

import (
	"encoding/json"
	. "github.com/celwasm/celwasm/wasm/events"
	_ "github.com/celwasm/celwasm/wasm/events/knative"
	"os"
	"strings"
	"testing"

	"github.com/celwasm/celwasm/wasm/codec"
	"github.com/celwasm/celwasm/wasm/engine"
	"github.com/celwasm/celwasm/wire"

	"github.com/google/cel-go/common/types"
	"github.com/tidwall/gjson"
)

type filterVector struct {
	Name    string          `json:"name"`
	Filter  json.RawMessage `json:"filter"`
	Event   json.RawMessage `json:"event"`
	Deliver *bool           `json:"deliver"`
	Error   string          `json:"error"`
}

func readFilterVectors(t *testing.T) []filterVector {
	t.Helper()
	b, err := os.ReadFile("../../conformance/testdata/knative/eventfilter.json")
	if err != nil {
		t.Fatal(err)
	}
	var f struct{ Cases []filterVector }
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	if len(f.Cases) < 100 {
		t.Fatalf("%d cases", len(f.Cases))
	}
	return f.Cases
}

func filterEnv(t *testing.T) *engine.Env {
	env, err := engine.NewEnv(wire.EnvSpec{Base: engine.BaseCEL, Extensions: []wire.ExtensionRef{{Name: "strings"}},
		Variables: []wire.VariableDecl{{Name: "ce", Type: "map(string, dyn)"}, {Name: "data", Type: "dyn"},
			{Name: AttributesVariable, Type: "map(string, dyn)"}, {Name: CESQLVariable, Type: "map(string, bool)"}}})
	if err != nil {
		t.Fatal(err)
	}
	return env
}

// TestFilterVectors runs the Knative vectors natively (the CLI and SDK
// tests run them through the module).
func TestFilterVectors(t *testing.T) {
	env := filterEnv(t)
	for _, c := range readFilterVectors(t) {
		expr, err := FilterToCEL(gjson.ParseBytes(c.Filter))
		if c.Error != "" {
			if err == nil || !strings.Contains(err.Error(), c.Error) {
				t.Errorf("%s: error %v, want %q", c.Name, err, c.Error)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", c.Name, err)
			continue
		}
		prg, err := env.Compile(expr)
		if err != nil {
			t.Errorf("%s: %s: %v", c.Name, expr, err)
			continue
		}
		act, err := Activation(env, gjson.ParseBytes(c.Event))
		if err != nil {
			t.Errorf("%s: %v", c.Name, err)
			continue
		}
		v, _, err := prg.Eval(act, 0)
		if err != nil {
			t.Errorf("%s: %s: %v", c.Name, expr, err)
			continue
		}
		b, _ := codec.AppendValue(nil, v)
		if want := map[bool]string{true: "true", false: "false"}[*c.Deliver]; string(b) != want {
			t.Errorf("%s: %s = %s, want %s", c.Name, expr, b, want)
		}
	}
}

// BenchmarkFilter: one structured event through an expression filter (ce,
// no SDK decoding), an exact filter (attrs: the SDK decodes the event) and
// a cesql filter.
func BenchmarkFilter(b *testing.B) {
	t := &testing.T{}
	env := filterEnv(t)
	ev := gjson.Parse(`{"specversion":"1.0","type":"dev.knative.example","source":"knativesource","id":"1","myextension":"my-extension-value","datacontenttype":"application/json","data":{"msg":"hello"}}`)
	for _, f := range []struct{ name, filter string }{
		{"expression", `{"expression":"ce.type == 'dev.knative.example' && ce.source == 'knativesource'"}`},
		{"exact", `{"exact":{"type":"dev.knative.example","source":"knativesource"}}`},
		{"cesql", `{"cesql":"type = 'dev.knative.example' AND source = 'knativesource'"}`},
	} {
		expr, err := FilterToCEL(gjson.Parse(f.filter))
		if err != nil {
			b.Fatal(err)
		}
		prg, err := env.Compile(expr)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(f.name, func(b *testing.B) {
			for b.Loop() {
				act, _ := Activation(env, ev)
				if v, _, err := prg.Eval(act, 0); err != nil || v != types.True {
					b.Fatal(v, err)
				}
			}
		})
	}
}
