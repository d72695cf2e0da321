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

	"os"

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

// inCall is set while an export runs. A call that finds it set comes after
// one that trapped (the Go runtime gave up inside it, as when out of the
// manifest's memory.max_pages): what that runtime left behind cannot be
// trusted, so the plugin exits instead of answering, and the host makes a
// new instance (as celwasm's own hosts do after a trap). Whether the Go
// runtime itself refuses the next call depends on where it stopped.
var inCall bool

// trappedExit is the exit status of a call made after a trap.
const trappedExit = 70

// serve hands the call's input to h and sets its response as the output.
func serve(h func([]byte) []byte) int32 {
	if inCall {
		os.Stderr.WriteString("celwasm: an earlier call trapped; this plugin instance cannot be used: make a new one\n")
		os.Exit(trappedExit)
	}
	inCall = true
	defer reactor.EndCall()
	pdk.Output(h(pdk.Input()))
	inCall = false
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
