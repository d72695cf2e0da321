// Command celwasm-admission is the admission module,
// build/celwasm-admission.wasm: admit (ValidatingAdmissionPolicy and
// MutatingAdmissionPolicy with k8s.io/apiserver's admission plugins), with
// version and input; compile, eval and eval_batch answer needs_module naming
// the expression module. Hosts load it only for admit (RATIONALE.md, "Two
// modules", "Admission module size").
package main

import (
	"github.com/celwasm/celwasm/wasm/abi"
	"github.com/celwasm/celwasm/wasm/abi/admithandler"
	"github.com/celwasm/celwasm/wasm/input"
	_ "github.com/celwasm/celwasm/wasm/input/yamlop"
	"github.com/celwasm/celwasm/wasm/module"
	"github.com/celwasm/celwasm/wire"
)

const (
	crdWhy  = "CRD validation links k8s.io/apiextensions-apiserver's validator, which the admission module leaves out"
	exprWhy = "the admission module serves admit only; expressions are the expression module's"
)

func init() {
	h := abi.NewHandler()
	module.Serve(module.Table{
		Compile:   module.Elsewhere("compile", wire.ModuleExpr, exprWhy),
		Eval:      module.Elsewhere("eval", wire.ModuleExpr, exprWhy),
		EvalBatch: module.Elsewhere("eval_batch", wire.ModuleExpr, exprWhy),
		Validate:  module.Elsewhere("validate", wire.ModuleFull, crdWhy),
		Cost:      module.Elsewhere("cost", wire.ModuleFull, crdWhy),
		Admit:     admithandler.New(h).Admit,
		Version:   h.Version, Input: input.Handle, Free: h.Free, EvalActivation: h.EvalActivation,
	})
}

func main() {}
