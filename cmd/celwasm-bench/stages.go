package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	wt "github.com/bytecodealliance/wasmtime-go/v42"
	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"

	"github.com/celwasm/celwasm/wasm/stagebench"
)

// stagesSection runs wasm/stagebench natively and, built as a WASI command
// (wasmPath), under wazero and wasmtime-go, and writes where the time of a
// batch item goes in each.
func stagesSection(ctx context.Context, md *strings.Builder, wasmPath string) {
	event, err := os.ReadFile("conformance/testdata/cloudevents/github-pull-request.json")
	check(err)
	native, err := stagebench.Run(event)
	check(err)
	bin, err := os.ReadFile(wasmPath)
	check(err)
	wz := stagesWazero(ctx, bin, event)
	wtm := stagesWasmtime(bin, event)
	md.WriteString("### Where the time goes: one batch item, stage by stage\n\n")
	fmt.Fprintf(md, "The same Go code (`wasm/stagebench`, filter `%s`) run natively and built as a WASI command run under each runtime: ns per operation (heap allocations per operation).\n\n", stagebench.Filter)
	md.WriteString("| stage | native | wazero | wasmtime-go | wazero / native | wasmtime / native |\n|---|---|---|---|---|---|\n")
	for i, n := range native {
		z, t := wz[i], wtm[i]
		fmt.Fprintf(md, "| %s | %d (%d) | %d (%d) | %d (%d) | %.1f× | %.1f× |\n", n.Stage, n.Ns, n.Allocs, z.Ns, z.Allocs, t.Ns, t.Allocs,
			float64(z.Ns)/float64(max(n.Ns, 1)), float64(t.Ns)/float64(max(n.Ns, 1)))
		fmt.Fprintf(os.Stderr, "stage %s: native %d wazero %d wasmtime %d ns\n", n.Stage, n.Ns, z.Ns, t.Ns)
	}
	worst := 0
	for i := range native[:len(native)-1] {
		if float64(wz[i].Ns)/float64(max(native[i].Ns, 1)) > float64(wz[worst].Ns)/float64(max(native[worst].Ns, 1)) {
			worst = i
		}
	}
	item := wz[len(wz)-1].Ns
	fmt.Fprintf(md, "\nNo single stage explains the gap: every stage is several times slower as WebAssembly, the runtime primitives included "+
		"(an allocation, a map lookup), and the furthest from native under wazero is \"%s\" (%.1f×). A batch item takes %.1f µs under wazero, "+
		"so one core tops out near %.0f events/s; 100,000 events/s would need the per-event work cut %.1f×, which the batch ABI cannot do: "+
		"it already pays the call boundary once per 1,000 events.\n\n",
		wz[worst].Stage, float64(wz[worst].Ns)/float64(max(native[worst].Ns, 1)), float64(item)/1000, 1e9/float64(max(item, 1)), float64(item)/10000)
}

func decodeStages(out []byte) []stagebench.Result {
	var res []stagebench.Result
	check(json.Unmarshal(out, &res))
	if len(res) != len(stagebench.Stages) {
		check(fmt.Errorf("stagebench: %d results, want %d", len(res), len(stagebench.Stages)))
	}
	return res
}

func stagesWazero(ctx context.Context, bin, event []byte) []stagebench.Result {
	// No compilation cache: the stage benchmark changes with the engine, and
	// stale entries would pile up in the user's cache directory.
	rt := wazero.NewRuntime(ctx)
	defer rt.Close(ctx)
	wasi_snapshot_preview1.MustInstantiate(ctx, rt)
	var stdout, stderr bytes.Buffer
	cfg := wazero.NewModuleConfig().WithArgs("stagebench", string(event)).WithStdout(&stdout).WithStderr(&stderr).
		WithSysWalltime().WithSysNanotime().WithSysNanosleep()
	if _, err := rt.InstantiateWithConfig(ctx, bin, cfg); err != nil {
		check(fmt.Errorf("stagebench under wazero: %v: %s", err, stderr.String()))
	}
	return decodeStages(stdout.Bytes())
}

func stagesWasmtime(bin, event []byte) []stagebench.Result {
	engine := wt.NewEngine()
	mod, err := wt.NewModule(engine, bin)
	check(err)
	out, err := os.CreateTemp("", "stagebench-*.json")
	check(err)
	out.Close()
	defer os.Remove(out.Name())
	wasi := wt.NewWasiConfig()
	wasi.SetArgv([]string{"stagebench", string(event)})
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
	return decodeStages(res)
}
