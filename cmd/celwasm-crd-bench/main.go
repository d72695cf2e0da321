// Command celwasm-crd-bench measures CRD validation side by side in one
// process — kube-apiserver's own validator natively, celwasm's engine
// natively, and the celwasm module through the Go host on wazero and
// wasmtime-go — and writes the results as build/bench/crd.json
// (internal/benchdoc's format):
//
//	make bench-crd   (go run ./cmd/celwasm-crd-bench -o build/bench)
//
// The workload is a WebApp with 200 list items against the rule-heavy CRD of
// conformance/testdata/crd/kep (40 x-kubernetes-validations: the KEP-2876
// rule table, transition rules, three rules on every item), as a create and
// as an update of the same object (transition rules correlate the 200
// list-type=map items by key). Every path must give the same verdict and the
// same actual cost before it is timed.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"runtime"
	"sort"
	"testing"
	"time"

	"github.com/celwasm/celwasm/conformance/crdref"
	celwasm "github.com/celwasm/celwasm/host"
	"github.com/celwasm/celwasm/host/module"
	"github.com/celwasm/celwasm/host/wasmtime"
	"github.com/celwasm/celwasm/internal/benchdoc"
	"github.com/celwasm/celwasm/internal/crdbench"
	"github.com/celwasm/celwasm/wasm/crd"
)

// outcome is what a path decided, compared across paths.
type outcome struct {
	valid bool
	cost  uint64
	msg   string
}

type path struct {
	name string
	run  func(obj, old []byte) (outcome, error)
	// cold validates once on fresh state: the CRD decoded, checked and
	// compiled first.
	cold func(obj []byte) (time.Duration, error)
}

func main() {
	testing.Init()
	out := flag.String("o", "build/bench", "write the results as crd.json into this directory")
	rounds := flag.Int("rounds", 3, "rounds over all paths (the median is reported)")
	short := flag.Bool("short", false, "quick run: 200 ms per timed loop instead of 1 s, one first-object run instead of three")
	flag.Parse()
	coldRuns := 3
	if *short {
		check(flag.Set("test.benchtime", "200ms"))
		coldRuns = 1
	}
	ctx := context.Background()
	start := time.Now()
	crdDoc, obj, updated, err := crdbench.Workload(".")
	check(err)

	native, err := crdref.Load(crdDoc)
	check(err)
	eng, err := crd.Load(crdDoc)
	check(err)
	wz, err := celwasm.New(ctx, celwasm.WithInstances(1))
	check(err)
	wt, err := celwasm.New(ctx, celwasm.WithInstances(1), wasmtime.Option())
	check(err)
	hostPath := func(name string, rt *celwasm.Runtime, opts ...celwasm.Option) path {
		c := rt.NewCRD(crdDoc)
		return path{name: name,
			run: func(obj, old []byte) (outcome, error) {
				v, err := c.Validate(ctx, []celwasm.CRDObject{{Object: obj, OldObject: old}})
				if err != nil {
					return outcome{}, err
				}
				r := v.Results[0]
				if r.Err != nil {
					return outcome{}, r.Err
				}
				return outcome{r.Valid, r.Cost, r.Message}, nil
			},
			cold: func(obj []byte) (time.Duration, error) {
				fresh, err := celwasm.New(ctx, append([]celwasm.Option{celwasm.WithInstances(1)}, opts...)...)
				if err != nil {
					return 0, err
				}
				defer fresh.Close(ctx)
				t := time.Now()
				_, err = fresh.NewCRD(crdDoc).Validate(ctx, []celwasm.CRDObject{{Object: obj}})
				return time.Since(t), err
			},
		}
	}
	paths := []path{
		{name: "kube-apiserver's validator, native",
			run: func(obj, old []byte) (outcome, error) {
				r, err := native.Admit(obj, old)
				if err != nil {
					return outcome{}, err
				}
				return outcome{r.Valid, 0, r.Message}, nil
			},
			cold: func(obj []byte) (time.Duration, error) {
				t := time.Now()
				c, err := crdref.Load(crdDoc)
				if err == nil {
					_, err = c.Admit(obj, nil)
				}
				return time.Since(t), err
			}},
		{name: "celwasm engine, native",
			run: func(obj, old []byte) (outcome, error) {
				r, err := eng.Validate("", obj, old)
				if err != nil {
					return outcome{}, err
				}
				return outcome{r.Valid, r.Cost, r.Message}, nil
			},
			cold: func(obj []byte) (time.Duration, error) {
				// other bytes, so the engine's CRD cache misses
				fresh := append(append([]byte(nil), crdDoc...), ' ')
				t := time.Now()
				c, err := crd.Load(fresh)
				if err == nil {
					c.Check()
					_, err = c.Validate("", obj, nil)
				}
				return time.Since(t), err
			}},
		hostPath("celwasm wazero", wz),
		hostPath("celwasm wasmtime-go", wt, wasmtime.Option()),
	}

	// Every path must agree before anything is timed; the reference's actual
	// cost comes from crdref.Validate (which measures it).
	type workloadCase struct {
		name     string
		obj, old []byte
	}
	cases := []workloadCase{{"create", obj, nil}, {"update", updated, obj}}
	costs := map[string]uint64{}
	for _, wc := range cases {
		ref, err := native.Validate(wc.obj, wc.old)
		check(err)
		if !ref.Valid {
			check(fmt.Errorf("%s: the workload is invalid: %s", wc.name, ref.Message))
		}
		costs[wc.name] = ref.Cost
		for _, p := range paths[1:] {
			o, err := p.run(wc.obj, wc.old)
			check(err)
			if !o.valid || o.cost != ref.Cost {
				check(fmt.Errorf("%s on %s: valid=%v cost %d, kube-apiserver valid cost %d", wc.name, p.name, o.valid, o.cost, ref.Cost))
			}
		}
	}

	s := benchdoc.New("crd", "CRD validation: Go host against kube-apiserver's validator", "make bench-crd")
	s.Contextf("%s; celwasm module sha256 %s (%d bytes).", runtime.Version(), module.SHA256(), len(module.Bytes()))
	s.Contextf("Workload: a WebApp custom resource with %d list items (%d bytes of JSON) against the CRD of `%s` "+
		"(%d bytes; 40 x-kubernetes-validations: the KEP-2876 rule table, transition rules, three rules on every item of a "+
		"list-type=map list), validated as kube-apiserver validates a request: decoding with pruning and defaulting, "+
		"object metadata, the OpenAPI schema, list types, then every rule at every node. *Update* replaces the same "+
		"object (transition rules correlate the %d items by key).", crdbench.Items, len(obj), crdbench.CRDFile, len(crdDoc), crdbench.Items)
	s.Contextf("Actual rule cost: %d cost units (create), %d (update), the same on every path; every path gives the same verdict and cost before it is timed.", costs["create"], costs["update"])
	s.Contextf("The module's per-object time includes sending the CRD with every request and hashing it to find the compiled CRD in the module's cache. The first object, on a fresh runtime, pays for decoding the CRD, checking its rules and compiling the validator.")
	s.Contextf("Per object: the median of %d rounds, each round the mean of a %s timed loop (testing.Benchmark); first object: median of %d fresh runs.", *rounds, flag.Lookup("test.benchtime").Value, coldRuns)
	if *short {
		s.Contextf("Quick run (-short).")
	}
	t := s.AddTable("Per object, 200 list items", "path", "create ms", "update ms", "objects/s (create)", "first object, CRD compiled first, ms", "create / native", "update / native")
	ids := []string{"native", "engine", "wazero", "wasmtime"}
	var ref [2]time.Duration
	for i, p := range paths {
		var create, update, colds []time.Duration
		for r := 0; r < *rounds; r++ {
			create = append(create, measure(p, obj, nil))
			update = append(update, measure(p, updated, obj))
		}
		for r := 0; r < coldRuns; r++ {
			cold, err := p.cold(obj)
			check(err)
			colds = append(colds, cold)
		}
		c, u, cold := median(create), median(update), median(colds)
		if i == 0 {
			ref = [2]time.Duration{c, u}
		}
		t.Row(p.name, msf(c), msf(u), float64(time.Second)/float64(c), msf(cold), ratio(c, ref[0]), ratio(u, ref[1]))
		s.Metrics["crd.create."+ids[i]+"_ms"] = msf(c)
		s.Metrics["crd.update."+ids[i]+"_ms"] = msf(u)
		s.Metrics["crd.first."+ids[i]+"_ms"] = msf(cold)
		if i > 0 {
			s.Metrics["crd.create."+ids[i]+"_per_native"] = ratio(c, ref[0])
			s.Metrics["crd.update."+ids[i]+"_per_native"] = ratio(u, ref[1])
		}
		fmt.Fprintf(os.Stderr, "%s: create %v update %v cold %v\n", p.name, c, u, cold)
	}
	s.Contextf("Run time of this benchmark: %.0f s.", time.Since(start).Seconds())
	f, err := s.Write(*out)
	check(err)
	fmt.Fprintln(os.Stderr, "celwasm-crd-bench: wrote", f)
	wz.Close(ctx)
	wt.Close(ctx)
}

func measure(p path, obj, old []byte) time.Duration {
	var failed error
	r := testing.Benchmark(func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if _, err := p.run(obj, old); err != nil {
				failed = err
				b.FailNow()
			}
		}
	})
	check(failed)
	return time.Duration(r.NsPerOp())
}

func median(ds []time.Duration) time.Duration {
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[len(s)/2]
}

func ratio(a, b time.Duration) float64 { return float64(a) / float64(b) }
func msf(d time.Duration) float64      { return float64(d) / 1e6 }

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "celwasm-crd-bench:", err)
		os.Exit(1)
	}
}
