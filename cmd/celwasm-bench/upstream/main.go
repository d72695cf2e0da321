// Command upstream times one expression on native cel-go as a Go program
// without celwasm runs it: upstream github.com/google/cel-go v0.29.2 and
// k8s.io/apiserver v0.37.2's base environment, the versions kube-apiserver
// 1.37 pins, not the patched fork that celwasm's modules (and the rest of this
// repository) build with. It is a module of its own so that its build has
// that one copy of cel-go.
//
// make builds it twice: build/bin/celgo-upstream, and build/bin/celgo-fork
// with cel-go replaced by the patched fork, the same program differing in
// cel-go alone. celwasm-bench runs both as child processes (-upstream,
// -fork; make bench-go, make bench-js):
//
//	upstream -expression E -variable V < activation.json
//
// evaluates E end to end as celwasm-bench's native path does (the activation
// decoded with encoding/json, prg.Eval, the result marshalled with
// encoding/json), then times that with one testing.Benchmark loop
// (-test.benchtime), and prints {"result": <the result's JSON>, "us": µs per
// call, "allocs": allocations per call}. celwasm-bench compares the result
// with its own.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"testing"

	"github.com/google/cel-go/cel"
	"k8s.io/apimachinery/pkg/util/version"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
	"k8s.io/apiserver/pkg/cel/environment"
)

// compatibilityVersion is celwasm's default (engine.MaxCompatibilityVersion).
var compatibilityVersion = version.MajorMinor(1, 37)

func main() {
	testing.Init()
	expr := flag.String("expression", "", "the CEL expression")
	variable := flag.String("variable", "self", "the variable it reads, declared dyn")
	flag.Parse()
	act, err := io.ReadAll(os.Stdin)
	if err != nil {
		fail("activation on stdin: %v", err)
	}
	eval, err := program(*expr, *variable)
	if err != nil {
		fail("%s: %v", *expr, err)
	}
	result, err := eval(act)
	if err != nil {
		fail("%s: %v", *expr, err)
	}
	r := testing.Benchmark(func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if _, err := eval(act); err != nil {
				b.Fatal(err)
			}
		}
	})
	out, _ := json.Marshal(struct {
		Result json.RawMessage `json:"result"`
		US     float64         `json:"us"`
		Allocs int64           `json:"allocs"`
	}{result, float64(r.NsPerOp()) / 1e3, r.AllocsPerOp()})
	fmt.Println(string(out))
}

// program compiles expr in the Kubernetes base environment (NewExpressions
// at celwasm's default compatibility version) with variable as dyn, and
// returns its evaluation end to end, with kube-apiserver's per-call cost
// limit.
func program(expr, variable string) (func([]byte) ([]byte, error), error) {
	env, err := environment.MustBaseEnvSet(compatibilityVersion).NewExpressionsEnv().Extend(cel.Variable(variable, cel.DynType))
	if err != nil {
		return nil, err
	}
	ast, iss := env.Compile(expr)
	if iss.Err() != nil {
		return nil, iss.Err()
	}
	prg, err := env.Program(ast, cel.CostLimit(celconfig.PerCallLimit))
	if err != nil {
		return nil, err
	}
	// As celwasm-bench's nativePath: the two cannot share it, this module
	// links upstream cel-go and celwasm-bench the fork.
	return func(act []byte) ([]byte, error) {
		var vars map[string]any
		if err := json.Unmarshal(act, &vars); err != nil {
			return nil, err
		}
		out, _, err := prg.Eval(vars)
		if err != nil {
			return nil, err
		}
		return json.Marshal(out.Value())
	}, nil
}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "upstream: "+format+"\n", args...)
	os.Exit(1)
}
