//go:build wasip1

// Command extism is the celwasm Extism plugin: the same request handlers
// (wasm/abi) as the raw module, behind Extism's calling convention, built
// with GOOS=wasip1 GOARCH=wasm -buildmode=c-shared (a reactor; Extism hosts
// call _initialize once) into build/celwasm-extism.wasm (docs/extism.md).
//
// Each export reads its request with pdk.Input and writes its response with
// pdk.Output: the request and response JSON of docs/abi.md. Errors are
// error objects in the output and the export returns 0; only what traps in
// the raw module (the Go runtime failing, out of memory) fails the Extism
// call. Programs live in the plugin instance across calls.
package main

import (
	// First: klog needs os.Args[0], which Extism hosts do not pass.
	_ "github.com/celwasm/celwasm/wasm/extism/argv0"

	"github.com/extism/go-pdk"

	"github.com/celwasm/celwasm/wasm/abi"
	"github.com/celwasm/celwasm/wasm/abi/crdhandler"
	_ "github.com/celwasm/celwasm/wasm/events/knative" // every filter dialect
	"github.com/celwasm/celwasm/wasm/extism/free"
	"github.com/celwasm/celwasm/wasm/reactor"
)

var (
	handler = abi.NewHandler()
	crd     = crdhandler.New(handler)
)

// serve hands the call's input to h and sets its response as the output.
func serve(h func([]byte) []byte) int32 {
	defer reactor.EndCall()
	pdk.Output(h(pdk.Input()))
	return 0
}

//go:wasmexport compile
func compile() int32 { return serve(handler.Compile) }

//go:wasmexport eval
func eval() int32 { return serve(handler.Eval) }

//go:wasmexport eval_batch
func evalBatch() int32 { return serve(handler.EvalBatch) }

//go:wasmexport validate
func validate() int32 { return serve(crd.Validate) }

//go:wasmexport cost
func cost() int32 { return serve(crd.Cost) }

// version ignores its input.
//
//go:wasmexport version
func version() int32 { return serve(func([]byte) []byte { return handler.Version() }) }

// free: {"program":N} → {"freed":true} (false: the handle was unknown).
//
//go:wasmexport free
func freeProgram() int32 { return serve(func(req []byte) []byte { return free.Handle(handler, req) }) }

func main() {}
