// Command upstream times the reference cases on native cel-go as a Go
// program without celwasm runs it: upstream github.com/google/cel-go v0.29.2
// and k8s.io/apiserver v0.37.2's base environment, the versions kube-apiserver
// 1.37 pins, not the patched fork that celwasm's modules (and the rest of this
// repository) build with. It is a module of its own so that its build has
// that one copy of cel-go.
//
// make builds it twice: build/bin/celgo-upstream, and build/bin/celgo-fork
// with cel-go replaced by the patched fork, the same program differing in
// cel-go alone. celwasm-bench runs both (-upstream, -fork; make bench-go,
// make bench-js) as child processes. The cases come as JSON on stdin,
// [{"id","expression","variable","activation","want"}], and each is
// evaluated end to end as celwasm-bench's native path does (encoding/json
// in, prg.Eval, encoding/json out). A result other than "want" (what the
// fork's native path in celwasm-bench gives) is an error. It prints
// {"<id>": {"us": µs per call, "allocs": allocations per call}, ...}: the
// median of -rounds rounds, each the mean of a testing.Benchmark loop
// (-test.benchtime).
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"sort"
	"testing"
	"time"

	"github.com/google/cel-go/cel"
	"k8s.io/apimachinery/pkg/util/version"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
	"k8s.io/apiserver/pkg/cel/environment"
)

type refCase struct {
	ID         string `json:"id"`
	Expression string `json:"expression"`
	Variable   string `json:"variable"`
	Activation string `json:"activation"`
	Want       string `json:"want"`
}

type timing struct {
	US     float64 `json:"us"`
	Allocs int64   `json:"allocs"`
}

// compatibilityVersion is celwasm's default (engine.MaxCompatibilityVersion).
var compatibilityVersion = version.MajorMinor(1, 37)

func main() {
	testing.Init()
	rounds := flag.Int("rounds", 3, "rounds per case (the median is printed)")
	flag.Parse()
	var cases []refCase
	if err := json.NewDecoder(os.Stdin).Decode(&cases); err != nil {
		fail("cases on stdin: %v", err)
	}
	base := environment.MustBaseEnvSet(compatibilityVersion).NewExpressionsEnv()
	out := map[string]timing{}
	for _, c := range cases {
		eval, err := program(base, c)
		if err != nil {
			fail("%s: %v", c.ID, err)
		}
		got, err := eval([]byte(c.Activation))
		if err != nil {
			fail("%s: %v", c.ID, err)
		}
		if string(got) != c.Want {
			fail("%s: upstream cel-go gives %s, celwasm %s", c.ID, got, c.Want)
		}
		var ds []time.Duration
		var allocs int64
		for range *rounds {
			r := testing.Benchmark(func(b *testing.B) {
				for i := 0; i < b.N; i++ {
					if _, err := eval([]byte(c.Activation)); err != nil {
						b.Fatal(err)
					}
				}
			})
			ds = append(ds, time.Duration(r.NsPerOp()))
			allocs = r.AllocsPerOp()
		}
		sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
		out[c.ID] = timing{US: float64(ds[len(ds)/2]) / 1e3, Allocs: allocs}
	}
	b, _ := json.Marshal(out)
	fmt.Println(string(b))
}

// program compiles a case in the Kubernetes base environment (NewExpressions
// at celwasm's default compatibility version) with its variable as dyn, and
// returns its evaluation end to end, with kube-apiserver's per-call cost
// limit.
func program(base *cel.Env, c refCase) (func([]byte) ([]byte, error), error) {
	env, err := base.Extend(cel.Variable(c.Variable, cel.DynType))
	if err != nil {
		return nil, err
	}
	ast, iss := env.Compile(c.Expression)
	if iss.Err() != nil {
		return nil, iss.Err()
	}
	prg, err := env.Program(ast, cel.CostLimit(celconfig.PerCallLimit))
	if err != nil {
		return nil, err
	}
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
