// Command celwasm is the expression module, build/celwasm.wasm: compile,
// eval, eval_batch, the filter and when dialects, input and version. It
// links cel-go, the Kubernetes CEL libraries and celwasm's own code, not CRD
// validation (k8s.io/apiextensions-apiserver) or the CloudEvents Go SDK
// (Knative's event decoding, CloudEvents SQL): validate, cost, and filters
// reading attrs or cesql answer code needs_module naming celwasm-full
// (RATIONALE.md, "Two modules").
package main

import (
	"encoding/json"

	"github.com/celwasm/celwasm/wasm/abi"
	"github.com/celwasm/celwasm/wasm/input"
	"github.com/celwasm/celwasm/wasm/module"
	"github.com/celwasm/celwasm/wire"
)

func init() {
	h := abi.NewHandler()
	module.Serve(module.Table{
		Compile: h.Compile, Eval: h.Eval, EvalBatch: h.EvalBatch,
		Validate: elsewhere("validate"), Cost: elsewhere("cost"),
		Version: h.Version, Input: input.Handle, Free: h.Free, EvalActivation: h.EvalActivation,
	})
}

// elsewhere answers every request of a CRD export with needs_module.
func elsewhere(export string) func([]byte) []byte {
	b, _ := json.Marshal(struct {
		Error *wire.Error `json:"error"`
	}{&wire.Error{Code: wire.CodeNeedsModule, Module: wire.ModuleFull,
		Message: export + " needs the module " + wire.ModuleFull + " (CRD validation links k8s.io/apiextensions-apiserver, which the expression module leaves out)"}})
	return func([]byte) []byte { return b }
}

func main() {}
