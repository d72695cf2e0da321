// Command celwasm is the expression module, build/celwasm.wasm: compile,
// eval, eval_batch, the filter and when dialects, input and version. It
// links cel-go, the Kubernetes CEL libraries and celwasm's own code, not CRD
// validation (k8s.io/apiextensions-apiserver) or the CloudEvents Go SDK
// (Knative's event decoding, CloudEvents SQL): validate, cost, and filters
// reading attrs or cesql answer code needs_module naming celwasm-full
// (RATIONALE.md, "Two modules").
package main

import (
	"github.com/celwasm/celwasm/wasm/abi"
	"github.com/celwasm/celwasm/wasm/input"
	"github.com/celwasm/celwasm/wasm/module"
	"github.com/celwasm/celwasm/wire"
)

func init() {
	h := abi.NewHandler()
	module.Serve(module.Table{
		Compile: h.Compile, Eval: h.Eval, EvalBatch: h.EvalBatch,
		Validate: module.Elsewhere("validate", wire.ModuleFull, crdWhy),
		Cost:     module.Elsewhere("cost", wire.ModuleFull, crdWhy),
		Admit:    module.Elsewhere("admit", wire.ModuleAdmission, admissionWhy),
		Version:  h.Version, Input: input.Handle, Free: h.Free, EvalActivation: h.EvalActivation,
	})
}

const (
	crdWhy       = "CRD validation links k8s.io/apiextensions-apiserver, which the expression module leaves out"
	admissionWhy = "admission links k8s.io/apiserver's admission plugins, which the expression module leaves out"
)

func main() {}
