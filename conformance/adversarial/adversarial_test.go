package adversarial_test

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"testing"

	"github.com/celwasm/celwasm/conformance/adversarial"
	celwasm "github.com/celwasm/celwasm/host"
	"github.com/celwasm/celwasm/host/wasmtime"
)

// outcome runs one case on rt: the value's canonical JSON, or the error code.
func outcome(ctx context.Context, rt *celwasm.Runtime, c adversarial.Case) (value json.RawMessage, code string) {
	var opts []celwasm.EnvOption
	for _, n := range c.Names() {
		opts = append(opts, celwasm.Variable(n, c.Variables[n]))
	}
	prg, err := rt.NewEnv(opts...).Compile(ctx, string(c.Expression))
	if err != nil {
		return nil, errCode(err)
	}
	defer prg.Close()
	var eo []celwasm.EvalOption
	if c.CostLimit > 0 {
		eo = append(eo, celwasm.CostLimit(c.CostLimit))
	}
	res, err := prg.Eval(ctx, []byte(c.Activation), eo...)
	if err != nil {
		return nil, errCode(err)
	}
	return res.JSON, ""
}

func errCode(err error) string {
	var ce *celwasm.Error
	if errors.As(err, &ce) {
		return ce.Code
	}
	return "untyped: " + err.Error()
}

func same(a, b json.RawMessage) bool {
	var x, y any
	return json.Unmarshal(a, &x) == nil && json.Unmarshal(b, &y) == nil && reflect.DeepEqual(x, y)
}

// TestAdversarialCorpus runs every case through the Go host on both runtimes,
// one instance each, and the canary after each case on the same runtime.
func TestAdversarialCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("64 MiB documents")
	}
	cases, err := adversarial.Load()
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) < 50 || cases[0].ID != "canary" {
		t.Fatalf("corpus: %d cases, first %q", len(cases), cases[0].ID)
	}
	ctx := context.Background()
	for _, eng := range []struct {
		name string
		opts []celwasm.Option
	}{{"wazero", nil}, {"wasmtime", []celwasm.Option{wasmtime.Option()}}} {
		t.Run(eng.name, func(t *testing.T) {
			rt, err := celwasm.New(ctx, append(eng.opts, celwasm.WithInstances(1))...)
			if err != nil {
				t.Fatal(err)
			}
			defer rt.Close(ctx)
			for _, c := range cases[1:] {
				value, code := outcome(ctx, rt, c)
				switch {
				case c.Expect.Error != "" && code != c.Expect.Error:
					t.Errorf("%s: got %q %s, want error %q", c.ID, code, value, c.Expect.Error)
				case c.Expect.Error == "" && (code != "" || !same(value, c.Expect.Value)):
					t.Errorf("%s: got %q %s, want %s", c.ID, code, value, c.Expect.Value)
				}
				if v, code := outcome(ctx, rt, cases[0]); code != "" || !same(v, cases[0].Expect.Value) {
					t.Fatalf("after %s the canary got %q %s", c.ID, code, v)
				}
			}
		})
	}
}
