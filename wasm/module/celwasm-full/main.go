// Command celwasm-full is the module that serves every request,
// build/celwasm-full.wasm: what the expression module serves plus CRD
// validate and cost (k8s.io/apiextensions-apiserver) and the filters that
// read attrs or cesql (Knative's decoding with the CloudEvents Go SDK,
// CloudEvents SQL). Hosts load it only for those (RATIONALE.md, "Two
// modules").
package main

import (
	"os"
	"runtime/debug"

	"github.com/celwasm/celwasm/wasm/abi"
	"github.com/celwasm/celwasm/wasm/abi/crdhandler"
	_ "github.com/celwasm/celwasm/wasm/events/knative"
	"github.com/celwasm/celwasm/wasm/input"
	"github.com/celwasm/celwasm/wasm/module"
	"github.com/celwasm/celwasm/wire"
)

// DefaultGCPercent is this module's GOGC when the host sets none: CRD
// validation allocates 1-3 MB per object, and in WebAssembly the collector
// marks on the caller's thread, where native Go marks on other cores
// (RATIONALE.md, "CRD validation").
const DefaultGCPercent = 200

func init() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(DefaultGCPercent)
	}
	h := abi.NewHandler()
	crd := crdhandler.New(h)
	module.Serve(module.Table{
		Compile: h.Compile, Eval: h.Eval, EvalBatch: h.EvalBatch,
		Validate: crd.Validate, Cost: crd.Cost,
		Admit:   module.Elsewhere("admit", wire.ModuleAdmission, "admission policies are served by their own module, loaded only when used"),
		Version: h.Version, Input: input.Handle, Free: h.Free, EvalActivation: h.EvalActivation,
	})
}

func main() {}
