package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"

	wt "github.com/bytecodealliance/wasmtime-go/v42"
	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"

	"github.com/celwasm/celwasm/internal/benchdoc"
	"github.com/celwasm/celwasm/wasm/stagebench"
)

// stagesSection runs wasm/stagebench natively and, built as a WASI command
// (wasmPath), under wazero and wasmtime-go: where the time of a batch item
// goes in each.
func stagesSection(ctx context.Context, s *benchdoc.Section, wasmPath string, refCases []benchCase, up, fk map[string]childTiming) {
	event, err := os.ReadFile("conformance/testdata/cloudevents/github-pull-request.json")
	check(err)
	var cases []stagebench.Case
	for _, c := range refCases {
		cases = append(cases, stagebench.Case{Name: c.name, Expression: c.expr, Variable: c.variable, Activation: c.activation})
	}
	casesJSON, err := json.Marshal(cases)
	check(err)
	native, err := stagebench.Run(event, cases)
	check(err)
	bin, err := os.ReadFile(wasmPath)
	check(err)
	wz := stagesWazero(ctx, bin, event, casesJSON, len(native))
	wtm := stagesWasmtime(bin, event, casesJSON, len(native))
	s.Contextf("Stages: the same Go code (`wasm/stagebench`, filter `%s`) run natively and, built as a WASI command, under each runtime; ns and heap allocations per operation (testing.Benchmark inside the program). The last rows time each reference case's evaluation alone: compiled as the module compiles it, evaluated over an activation whose values an earlier evaluation already read, so neither JSON nor the call is in it. No call of the module does less, so in a runtime it is the case's floor; the targets table gives it against upstream cel-go's whole call.", stagebench.Filter)
	t := s.AddTable("Where the time goes: one batch item, stage by stage; each reference case's evaluation alone",
		"stage", "native ns", "native allocs", "wazero ns", "wazero allocs", "wasmtime-go ns", "wasmtime-go allocs", "wazero / native", "wasmtime-go / native")
	for i, n := range native {
		z, w := wz[i], wtm[i]
		t.Row(n.Stage, n.Ns, n.Allocs, z.Ns, z.Allocs, w.Ns, w.Allocs,
			float64(z.Ns)/float64(max(n.Ns, 1)), float64(w.Ns)/float64(max(n.Ns, 1)))
		fmt.Fprintf(os.Stderr, "stage %s: native %d wazero %d wasmtime %d ns\n", n.Stage, n.Ns, z.Ns, w.Ns)
	}
	// Each case's floor: cel-go's evaluation alone in the runtime, against
	// native cel-go's whole call (decode, evaluate, encode) in this run, on
	// the fork and upstream.
	for i, c := range refCases {
		k := len(stagebench.Stages) + i
		id := caseID(c.name)
		nativeNs := s.Metrics["go."+id+".native_us"] * 1000
		s.Metrics["go."+id+".celgo_alone_native_ns"] = float64(native[k].Ns)
		s.Metrics["go."+id+".celgo_alone_wazero_ns"] = float64(wz[k].Ns)
		s.Metrics["go."+id+".celgo_alone_wasmtime_ns"] = float64(wtm[k].Ns)
		if nativeNs > 0 {
			s.Metrics["go."+id+".wazero_floor_per_native"] = float64(wz[k].Ns) / nativeNs
			s.Metrics["go."+id+".wasmtime_floor_per_native"] = float64(wtm[k].Ns) / nativeNs
		}
		if u := up[id].US * 1000; u > 0 {
			s.Metrics["go."+id+".wazero_floor_per_upstream"] = float64(wz[k].Ns) / u
			s.Metrics["go."+id+".wasmtime_floor_per_upstream"] = float64(wtm[k].Ns) / u
		}
		if f := fk[id].US * 1000; f > 0 {
			s.Metrics["go."+id+".wasmtime_floor_per_fork"] = float64(wtm[k].Ns) / f
		}
	}
	last := len(stagebench.Stages) - 1
	s.Metrics["go.stages.item.native_ns"] = float64(native[last].Ns)
	s.Metrics["go.stages.item.wazero_ns"] = float64(wz[last].Ns)
	s.Metrics["go.stages.item.wasmtime_ns"] = float64(wtm[last].Ns)
	s.Metrics["go.stages.item.allocs"] = float64(native[last].Allocs)
}

func decodeStages(out []byte, want int) []stagebench.Result {
	var res []stagebench.Result
	check(json.Unmarshal(out, &res))
	if len(res) != want {
		check(fmt.Errorf("stagebench: %d results, want %d", len(res), want))
	}
	return res
}

func stagesWazero(ctx context.Context, bin, event, cases []byte, want int) []stagebench.Result {
	// No compilation cache: the stage benchmark changes with the engine, and
	// stale entries would pile up in the user's cache directory.
	rt := wazero.NewRuntime(ctx)
	defer rt.Close(ctx)
	wasi_snapshot_preview1.MustInstantiate(ctx, rt)
	var stdout, stderr bytes.Buffer
	cfg := wazero.NewModuleConfig().WithArgs("stagebench", string(event), string(cases)).WithStdout(&stdout).WithStderr(&stderr).
		WithSysWalltime().WithSysNanotime().WithSysNanosleep()
	if _, err := rt.InstantiateWithConfig(ctx, bin, cfg); err != nil {
		check(fmt.Errorf("stagebench under wazero: %v: %s", err, stderr.String()))
	}
	return decodeStages(stdout.Bytes(), want)
}

func stagesWasmtime(bin, event, cases []byte, want int) []stagebench.Result {
	engine := wt.NewEngine()
	mod, err := wt.NewModule(engine, bin)
	check(err)
	out, err := os.CreateTemp("", "stagebench-*.json")
	check(err)
	out.Close()
	defer os.Remove(out.Name())
	wasi := wt.NewWasiConfig()
	wasi.SetArgv([]string{"stagebench", string(event), string(cases)})
	check(wasi.SetStdoutFile(out.Name()))
	wasi.InheritStderr()
	store := wt.NewStore(engine)
	store.SetWasi(wasi)
	linker := wt.NewLinker(engine)
	check(linker.DefineWasi())
	inst, err := linker.Instantiate(store, mod)
	check(err)
	if _, err := inst.GetFunc(store, "_start").Call(store); err != nil {
		// A Go program's main returns through proc_exit(0).
		var code int32 = -1
		if e, ok := err.(*wt.Error); ok {
			if c, ok := e.ExitStatus(); ok {
				code = c
			}
		}
		if code != 0 {
			check(fmt.Errorf("stagebench under wasmtime: %v", err))
		}
	}
	res, err := os.ReadFile(out.Name())
	check(err)
	return decodeStages(res, want)
}
