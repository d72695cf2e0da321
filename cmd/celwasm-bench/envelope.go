package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"testing"
	"time"

	celwasm "github.com/celwasm/celwasm/host"
	"github.com/celwasm/celwasm/host/module"
	"github.com/celwasm/celwasm/host/wasmtime"
	"github.com/celwasm/celwasm/internal/benchdoc"
)

// envelopeSection times the call envelopes side by side on raw instances
// of the same module: celwasm_eval with a JSON request (what every host
// sent before celwasm_eval_activation) against celwasm_eval_activation, and
// for wasmtime-go, its generic Func.Call against the adapter's direct call
// (CELWASM_WASMTIME_CALLS=generic). The host's own work (pool, program
// handles) is left out: each path is one export call plus what the host
// must do with the result (copy the response out; read a packed bool).
func envelopeSection(ctx context.Context, s *benchdoc.Section, cases []benchCase, rounds int) {
	type runtimeCfg struct {
		name, metric string
		wasmtime     bool
		generic      bool
	}
	cfgs := []runtimeCfg{
		{"wazero", "wazero", false, false},
		{"wasmtime-go, Func.Call", "wasmtime_generic", true, true},
		{"wasmtime-go, direct call", "wasmtime", true, false},
	}
	t := s.AddTable("Call envelopes side by side: one export call on a raw instance, µs",
		"case", "runtime", "empty call (`celwasm_free`)", "celwasm_eval (JSON request)", "celwasm_eval_activation", "eval_activation / eval")
	var opts []celwasm.Option
	all := append([]benchCase{trueCase}, cases...)
	for _, rc := range cfgs {
		opts = nil
		if rc.wasmtime {
			opts = []celwasm.Option{wasmtime.Option()}
		}
		if rc.generic {
			os.Setenv("CELWASM_WASMTIME_CALLS", "generic")
		}
		eng, err := engineFactory(opts)(ctx, celwasm.EmbeddedModule(module.Expr), celwasm.EngineConfig{CacheDir: cacheDir(opts)})
		check(err)
		in, err := eng.Instantiate(ctx, celwasm.InstanceConfig{Args: []string{"celwasm"}})
		os.Unsetenv("CELWASM_WASMTIME_CALLS")
		check(err)
		ptr, err := in.Call(ctx, celwasm.ExportAlloc, 1<<20)
		check(err)
		buf := uint32(ptr)
		// request writes b into the buffer and calls fn; it returns the
		// response (copied out) or nil for a packed result.
		request := func(fn celwasm.Export, b []byte, lead ...uint32) []byte {
			copy(in.Memory()[buf:], b)
			r, err := in.Call(ctx, fn, append(lead, buf, uint32(len(b)))...)
			check(err)
			if r>>32 == 0 {
				return nil
			}
			return bytes.Clone(in.Memory()[r>>32 : r>>32+r&0xffffffff])
		}
		empty := timeIt(rounds, func() {
			_, err := in.Call(ctx, celwasm.ExportFree, 0)
			check(err)
		})
		for _, c := range all {
			creq, _ := json.Marshal(map[string]any{"expression": c.expr, "env": map[string]any{"variables": []any{map[string]string{"name": c.variable, "type": "dyn"}}}})
			var cr struct{ Program uint32 }
			check(json.Unmarshal(request(celwasm.ExportCompile, creq), &cr))
			ereq := []byte(fmt.Sprintf(`{"program":%d,"activation":%s}`, cr.Program, c.activation))
			if resp := request(celwasm.ExportEval, ereq); !bytes.HasPrefix(resp, []byte(`{"value":true,`)) {
				check(fmt.Errorf("%s: eval: %s", c.name, resp))
			}
			if resp := request(celwasm.ExportEvalActivation, c.activation, cr.Program, 0, 0); resp != nil {
				check(fmt.Errorf("%s: eval_activation: %s", c.name, resp))
			}
			jsonEnv, intEnv := timePair(rounds,
				func() { request(celwasm.ExportEval, ereq) },
				func() { request(celwasm.ExportEvalActivation, c.activation, cr.Program, 0, 0) })
			id := caseID(c.name)
			if c.name == "true" {
				id = "true"
			}
			t.Row(c.name, rc.name, usf(empty), usf(jsonEnv), usf(intEnv), ratio(intEnv, jsonEnv))
			s.Metrics["go.envelope."+id+"."+rc.metric+".eval_us"] = usf(jsonEnv)
			s.Metrics["go.envelope."+id+"."+rc.metric+".eval_activation_us"] = usf(intEnv)
			fmt.Fprintf(os.Stderr, "envelope %s %s: empty %v eval %v eval_activation %v\n", c.name, rc.name, empty, jsonEnv, intEnv)
		}
		s.Metrics["go.envelope.empty_call."+rc.metric+"_us"] = usf(empty)
		in.Close(ctx)
		eng.Close(ctx)
	}
}

// timePair times f and g in alternating rounds (so that a change of load
// affects both alike) and returns the medians of their times per call.
func timePair(rounds int, f, g func()) (time.Duration, time.Duration) {
	var fs, gs []time.Duration
	for range rounds {
		fs = append(fs, timeIt(1, f))
		gs = append(gs, timeIt(1, g))
	}
	return median(fs), median(gs)
}

// timeIt is the median over rounds of testing.Benchmark's time per call.
func timeIt(rounds int, f func()) time.Duration {
	var ds []time.Duration
	for range rounds {
		r := testing.Benchmark(func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				f()
			}
		})
		ds = append(ds, time.Duration(r.NsPerOp()))
	}
	return median(ds)
}
