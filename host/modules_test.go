package celwasm_test

import (
	"context"
	"strings"
	"testing"

	celwasm "github.com/celwasm/celwasm/host"
	"github.com/celwasm/celwasm/host/module"
)

// TestTwoModules: a Runtime serves expressions and CEL filters from the
// expression module and loads celwasm-full only for what that module
// answers with needs_module (Knative's attrs/cesql filters, CRDs), then
// evaluates those programs there; version describes both modules.
func TestTwoModules(t *testing.T) {
	ctx := context.Background()
	forEachEngine(t, func(t *testing.T, newRT func(...celwasm.Option) *celwasm.Runtime) {
		var loads []string
		rt := newRT(celwasm.WithBeforeLoad(func(m, _ string) { loads = append(loads, m) }))
		env := rt.NewEnv()
		event := []byte(`{"specversion":"1.0","id":"1","source":"s","type":"dev.x"}`)
		prg, err := env.CompileFilter(ctx, []byte(`{"expression":"ce.type == 'dev.x'"}`))
		if err != nil {
			t.Fatal(err)
		}
		if res, err := prg.EvalEvent(ctx, event); err != nil || string(res.JSON) != "true" {
			t.Fatalf("CEL filter: %s %v", res.JSON, err)
		}
		if rt.FullLoaded() || strings.Join(loads, ",") != "celwasm" {
			t.Fatalf("a CEL filter loaded celwasm-full (loads %v)", loads)
		}
		v, err := rt.Version(ctx)
		if err != nil || len(v.Modules) != 3 || v.Modules[0].Name != "celwasm" || !v.Modules[0].Loaded ||
			v.Modules[1].Name != "celwasm-full" || v.Modules[1].Loaded || v.Modules[1].SHA256 != module.Full.SHA256() ||
			v.Modules[1].Size != len(module.Full.Bytes()) || v.Modules[0].SHA256 != v.ModuleSHA256 ||
			v.Modules[2].Name != "celwasm-admission" || v.Modules[2].Loaded || v.Modules[2].SHA256 != module.Admission.SHA256() {
			t.Fatalf("version: %+v %v", v, err)
		}
		for filter, want := range map[string]string{
			`{"cesql":"type LIKE 'dev.%'"}`:   "true",
			`{"attributes":{"type":"dev.y"}}`: "false",
			`{"prefix":{"type":"dev."}}`:      "true",
		} {
			prg, err := env.CompileFilter(ctx, []byte(filter))
			if err != nil {
				t.Fatalf("%s: %v", filter, err)
			}
			res, err := prg.EvalEvent(ctx, event)
			if err != nil || string(res.JSON) != want {
				t.Fatalf("%s: %s %v", filter, res.JSON, err)
			}
			items, err := prg.EvalBatch(ctx, [][]byte{event}, celwasm.CloudEvents)
			if err != nil || len(items) != 1 || string(items[0].JSON) != want {
				t.Fatalf("%s batch: %+v %v", filter, items, err)
			}
		}
		if !rt.FullLoaded() || strings.Join(loads, ",") != "celwasm,celwasm-full" {
			t.Fatalf("loads %v", loads)
		}
		// An invalid cesql filter: celwasm-full's compile error, not needs_module.
		if _, err := env.CompileFilter(ctx, []byte(`{"cesql":"type LIKE"}`)); code(err) != celwasm.CodeCompile {
			t.Fatalf("bad cesql: %v", err)
		}
		if v, err := rt.Version(ctx); err != nil || !v.Modules[1].Loaded {
			t.Fatalf("version after loading: %+v %v", v, err)
		}
	})
}

// TestWithFullModule: version describes the celwasm-full given with
// WithFullModule before it is loaded (its sha256 is computed once, not per
// call), and a request that needs it loads those bytes.
func TestWithFullModule(t *testing.T) {
	ctx := context.Background()
	full := module.Full.Bytes()
	var loads []string
	rt, err := celwasm.New(ctx, celwasm.WithInstances(1), celwasm.WithFullModule(full),
		celwasm.WithBeforeLoad(func(m, _ string) { loads = append(loads, m) }))
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close(ctx)
	for i := 0; i < 2; i++ {
		v, err := rt.Version(ctx)
		if err != nil || v.Modules[1].Name != "celwasm-full" || v.Modules[1].Loaded ||
			v.Modules[1].SHA256 != module.Full.SHA256() || v.Modules[1].Size != len(full) {
			t.Fatalf("version: %+v %v", v, err)
		}
	}
	prg, err := rt.NewEnv().CompileFilter(ctx, []byte(`{"prefix":{"type":"dev."}}`))
	if err != nil {
		t.Fatal(err)
	}
	res, err := prg.EvalEvent(ctx, []byte(`{"specversion":"1.0","id":"1","source":"s","type":"dev.x"}`))
	if err != nil || string(res.JSON) != "true" || !rt.FullLoaded() || strings.Join(loads, ",") != "celwasm,celwasm-full" {
		t.Fatalf("prefix filter: %s %v (loads %v)", res.JSON, err, loads)
	}
	v, err := rt.Version(ctx)
	if err != nil || !v.Modules[1].Loaded || v.Modules[1].SHA256 != module.Full.SHA256() {
		t.Fatalf("version after loading: %+v %v", v, err)
	}
}
