// Command celwasm-admission is the admission module,
// build/celwasm-admission.wasm: admit (ValidatingAdmissionPolicy and
// MutatingAdmissionPolicy with k8s.io/apiserver's admission plugins) beside
// compile, eval and eval_batch. Hosts load it only for admit
// (RATIONALE.md, "Two modules").
package main

import (
	"github.com/celwasm/celwasm/wasm/abi"
	"github.com/celwasm/celwasm/wasm/abi/admithandler"
	"github.com/celwasm/celwasm/wasm/input"
	_ "github.com/celwasm/celwasm/wasm/input/yamlop"
	"github.com/celwasm/celwasm/wasm/module"
	"github.com/celwasm/celwasm/wire"
)

const crdWhy = "CRD validation links k8s.io/apiextensions-apiserver, which the admission module leaves out"

func init() {
	h := abi.NewHandler()
	module.Serve(module.Table{
		Compile: h.Compile, Eval: h.Eval, EvalBatch: h.EvalBatch,
		Validate: module.Elsewhere("validate", wire.ModuleFull, crdWhy),
		Cost:     module.Elsewhere("cost", wire.ModuleFull, crdWhy),
		Admit:    admithandler.New(h).Admit,
		Version:  h.Version, Input: input.Handle, Free: h.Free, EvalActivation: h.EvalActivation,
	})
}

func main() {}
