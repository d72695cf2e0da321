// Command gohost runs test cases through the Go host (github.com/celwasm/celwasm/host:
// CompileFilter, CompileWhen, Compile, Eval, EvalEvent, EvalBatch, CRD.Validate, CRD.Cost)
// and prints what it returns, so that the JS and Python SDK tests compare their results
// with the Go host's byte for byte instead of with expectations typed by hand.
//
//	go run ./conformance/cmd/gohost -module build/celwasm.wasm [-engine wasmtime] < cases.jsonl
//	go run ./conformance/cmd/gohost -crd-corpus conformance/testdata/crd
//
// Each input line is one case:
//
//	{"filter": F} | {"when": ["expr", ...]} | {"expression": "...", "env": {...}}
//	 + "events": ["<event JSON>", ...]          each through EvalEvent
//	 + "activations": ["<activation JSON>", ...] each through Eval
//	 + "batch": {"kind": "activations"|"cloudEvents", "items": ["<item>", ...]}  one EvalBatch
//	 + "costLimit": N
//
// Each output line: {"compile": C, "events": [R...], "activations": [R...], "batch": [R...] | E}
// where C is {"expression","outputType","costEstimate":{"min":"N","max":"N"}} or {"error": E}, R is
// {"json": "<canonical JSON>", "cost": N} or {"error": E}, and E is the host's *Error
// ({"code","message","issues"?,"cost"?}).
//
// A case may instead be a CustomResourceDefinition case (docs/abi.md, "validate" and "cost"):
//
//	{"crd": "<CRD JSON text>", "version": "v1",
//	 "validate": true, "objects": [{"object": "<JSON>", "oldObject": "<JSON>"}, ...],   one CRD.Validate
//	 "cost": true}                                                                         one CRD.Cost
//
// ("version" goes to both: Version(v) for Validate, the version argument of Cost). Its output
// line is {"validate": "<JSON>", "cost": "<JSON>"}, each the Go host's answer as json.Marshal
// writes it (a string, so that JavaScript reads the uint64 costs exactly): Validate's
// {"crd": CRDInfo, "results": [ObjectResult | {"error": E}]}, Cost's CRDCostReport, or
// {"error": E, "fieldErrors": [FieldError...]} when the call failed (fieldErrors: the
// *CRDFieldErrors cause of an invalid_crd error).
//
// With -crd-corpus DIR, gohost reads DIR/corpus.yaml (conformance/testdata/crd) with
// conformance/crdref, as the differential test does — the modules it names are fetched into
// the Go module cache and checked against their sums — and prints one line per corpus case
// instead: {"name", "crdErrors", "crds": [F...], "valid": [F...], "invalid": [F...],
// "updates": {"old": [F...], "valid": [F...], "invalid": [F...]}}, F being {"file": path,
// "docs": ["<JSON>", ...]} for each file (a directory's .yaml/.yml/.json files in name order),
// its documents converted from YAML as crdref.ReadDocs (and the Go CLI) convert them.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/celwasm/celwasm/conformance/crdref"
	celwasm "github.com/celwasm/celwasm/host"
	"github.com/celwasm/celwasm/host/wasmtime"
)

type testCase struct {
	Filter      json.RawMessage `json:"filter"`
	When        []string        `json:"when"`
	Expression  *string         `json:"expression"`
	Env         celwasm.EnvSpec `json:"env"`
	Events      []string        `json:"events"`
	Activations []string        `json:"activations"`
	Batch       *batch          `json:"batch"`
	CostLimit   uint64          `json:"costLimit"`

	// CustomResourceDefinition cases.
	CRD      *string     `json:"crd"`
	Version  string      `json:"version"`
	Validate bool        `json:"validate"`
	Objects  []crdObject `json:"objects"`
	Cost     bool        `json:"cost"`
}

// crdObject is one object of a validate case: JSON texts, the old object's
// empty for a create.
type crdObject struct {
	Object    string `json:"object"`
	OldObject string `json:"oldObject"`
}

type batch struct {
	Kind  celwasm.BatchItems `json:"kind"`
	Items []string           `json:"items"`
}

type result struct {
	JSON  *string        `json:"json,omitempty"`
	Cost  *uint64        `json:"cost,omitempty"`
	Error *celwasm.Error `json:"error,omitempty"`
}

type compiled struct {
	Expression   string         `json:"expression,omitempty"`
	OutputType   string         `json:"outputType,omitempty"`
	CostEstimate *costEstimate  `json:"costEstimate,omitempty"`
	Error        *celwasm.Error `json:"error,omitempty"`
}

// costEstimate carries the numbers as decimal strings: max may be 2^64-1,
// which JavaScript's JSON.parse would round.
type costEstimate struct {
	Min string `json:"min"`
	Max string `json:"max"`
}

type output struct {
	Compile     compiled `json:"compile"`
	Events      []result `json:"events,omitempty"`
	Activations []result `json:"activations,omitempty"`
	Batch       any      `json:"batch,omitempty"`
}

func asError(err error) *celwasm.Error {
	var ce *celwasm.Error
	if errors.As(err, &ce) {
		return ce
	}
	return &celwasm.Error{Code: "host", Message: err.Error()}
}

func toResult(res *celwasm.Result, err error) result {
	if err != nil {
		return result{Error: asError(err)}
	}
	s, c := string(res.JSON), res.Cost
	return result{JSON: &s, Cost: &c}
}

func main() {
	modulePath := flag.String("module", "", "module file (default: the one embedded in the Go host)")
	engine := flag.String("engine", "wazero", "WebAssembly runtime: wazero or wasmtime")
	corpus := flag.String("crd-corpus", "", "print the CRD corpus in this `directory` (corpus.yaml) and exit")
	flag.Parse()
	if *corpus != "" {
		if err := printCorpus(*corpus); err != nil {
			fmt.Fprintln(os.Stderr, "gohost:", err)
			os.Exit(2)
		}
		return
	}
	ctx := context.Background()
	opts := []celwasm.Option{celwasm.WithInstances(1)}
	switch *engine {
	case "wazero":
	case "wasmtime":
		opts = append(opts, wasmtime.Option())
	default:
		fmt.Fprintln(os.Stderr, "gohost: -engine must be wazero or wasmtime")
		os.Exit(2)
	}
	if *modulePath != "" {
		wasm, err := os.ReadFile(*modulePath)
		if err != nil {
			fmt.Fprintln(os.Stderr, "gohost:", err)
			os.Exit(2)
		}
		opts = append(opts, celwasm.WithModule(wasm))
	}
	rt, err := celwasm.New(ctx, opts...)
	if err != nil {
		fmt.Fprintln(os.Stderr, "gohost:", err)
		os.Exit(2)
	}
	defer rt.Close(ctx)
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(make([]byte, 1<<20), 256<<20)
	for sc.Scan() {
		var c testCase
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			fmt.Fprintln(os.Stderr, "gohost: case:", err)
			os.Exit(2)
		}
		if c.CRD != nil {
			b, err := json.Marshal(runCRD(ctx, rt, &c))
			if err != nil {
				fmt.Fprintln(os.Stderr, "gohost: output:", err)
				os.Exit(2)
			}
			out.Write(b)
			out.WriteByte('\n')
			continue
		}
		env := rt.NewEnv(celwasm.WithSpec(c.Env))
		var prg *celwasm.Program
		switch {
		case c.Filter != nil:
			prg, err = env.CompileFilter(ctx, c.Filter)
		case c.When != nil:
			prg, err = env.CompileWhen(ctx, c.When...)
		case c.Expression != nil:
			prg, err = env.Compile(ctx, *c.Expression)
		default:
			err = errors.New("case has no filter, when or expression")
		}
		var o output
		if err != nil {
			o.Compile.Error = asError(err)
		} else {
			o.Compile = compiled{Expression: prg.Expression, OutputType: prg.OutputType}
			if ce := prg.CostEstimate; ce != nil {
				o.Compile.CostEstimate = &costEstimate{strconv.FormatUint(ce.Min, 10), strconv.FormatUint(ce.Max, 10)}
			}
			var eo []celwasm.EvalOption
			if c.CostLimit > 0 {
				eo = append(eo, celwasm.CostLimit(c.CostLimit))
			}
			for _, ev := range c.Events {
				o.Events = append(o.Events, toResult(prg.EvalEvent(ctx, []byte(ev), eo...)))
			}
			for _, act := range c.Activations {
				o.Activations = append(o.Activations, toResult(prg.Eval(ctx, []byte(act), eo...)))
			}
			if c.Batch != nil {
				items := make([][]byte, len(c.Batch.Items))
				for i, it := range c.Batch.Items {
					items[i] = []byte(it)
				}
				results, err := prg.EvalBatch(ctx, items, c.Batch.Kind, eo...)
				if err != nil {
					o.Batch = map[string]any{"error": asError(err)}
				} else {
					rs := make([]result, len(results))
					for i := range results {
						if results[i].Err != nil {
							rs[i] = result{Error: results[i].Err}
						} else {
							rs[i] = toResult(&results[i].Result, nil)
						}
					}
					o.Batch = rs
				}
			}
			prg.Close()
		}
		b, err := json.Marshal(o)
		if err != nil {
			fmt.Fprintln(os.Stderr, "gohost: output:", err)
			os.Exit(2)
		}
		out.Write(b)
		out.WriteByte('\n')
	}
	if err := sc.Err(); err != nil {
		fmt.Fprintln(os.Stderr, "gohost:", err)
		os.Exit(2)
	}
}

// crdOutput is the output line of a CRD case: the Go host's answers as json.Marshal
// writes them.
type crdOutput struct {
	Validate *string `json:"validate,omitempty"`
	Cost     *string `json:"cost,omitempty"`
}

// crdFailure is a failed CRD call: the *Error and, for invalid_crd, the CRD's field errors.
type crdFailure struct {
	Error       *celwasm.Error       `json:"error"`
	FieldErrors []celwasm.FieldError `json:"fieldErrors,omitempty"`
}

func failure(err error) crdFailure {
	f := crdFailure{Error: asError(err)}
	var fe *celwasm.CRDFieldErrors
	if errors.As(err, &fe) {
		f.FieldErrors = fe.Errors
	}
	return f
}

func marshalString(v any) *string {
	b, err := json.Marshal(v)
	if err != nil {
		fmt.Fprintln(os.Stderr, "gohost: output:", err)
		os.Exit(2)
	}
	s := string(b)
	return &s
}

func runCRD(ctx context.Context, rt *celwasm.Runtime, c *testCase) crdOutput {
	var o crdOutput
	crd := rt.NewCRD([]byte(*c.CRD))
	if c.Validate {
		var objects []celwasm.CRDObject
		for _, obj := range c.Objects {
			co := celwasm.CRDObject{Object: json.RawMessage(obj.Object)}
			if obj.OldObject != "" {
				co.OldObject = json.RawMessage(obj.OldObject)
			}
			objects = append(objects, co)
		}
		var opts []celwasm.ValidateOption
		if c.Version != "" {
			opts = append(opts, celwasm.Version(c.Version))
		}
		v, err := crd.Validate(ctx, objects, opts...)
		if err != nil {
			o.Validate = marshalString(failure(err))
		} else {
			// A result whose object never reached validation is {"error": E}, as the
			// module answers it (the other members of an ObjectResult are empty then).
			results := make([]any, len(v.Results))
			for i := range v.Results {
				if r := &v.Results[i]; r.Err != nil {
					results[i] = map[string]any{"error": r.Err}
				} else {
					results[i] = r
				}
			}
			o.Validate = marshalString(struct {
				CRD     celwasm.CRDInfo `json:"crd"`
				Results []any           `json:"results"`
			}{v.CRD, results})
		}
	}
	if c.Cost {
		rep, err := crd.Cost(ctx, c.Version)
		if err != nil {
			o.Cost = marshalString(failure(err))
		} else {
			o.Cost = marshalString(rep)
		}
	}
	return o
}

// corpusFile is one file of the CRD corpus with its documents as JSON.
type corpusFile struct {
	File string   `json:"file"`
	Docs []string `json:"docs"`
}

type corpusCase struct {
	Name      string        `json:"name"`
	CRDErrors bool          `json:"crdErrors"`
	CRDs      []corpusFile  `json:"crds"`
	Valid     []corpusFile  `json:"valid"`
	Invalid   []corpusFile  `json:"invalid"`
	Updates   *corpusUpdate `json:"updates,omitempty"`
}

type corpusUpdate struct {
	Old     []corpusFile `json:"old"`
	Valid   []corpusFile `json:"valid"`
	Invalid []corpusFile `json:"invalid"`
}

// printCorpus prints the CRD corpus (conformance/testdata/crd/corpus.yaml) as crdref reads
// it for the differential test: one line per case.
func printCorpus(dir string) error {
	cases, err := crdref.LoadCorpus(dir)
	if err != nil {
		return err
	}
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	for _, c := range cases {
		cc := corpusCase{Name: c.Name, CRDErrors: c.CRDErrors}
		if cc.CRDs, err = corpusFiles(c, c.CRDs); err != nil {
			return err
		}
		if cc.Valid, err = corpusFiles(c, c.Valid); err != nil {
			return err
		}
		if cc.Invalid, err = corpusFiles(c, c.Invalid); err != nil {
			return err
		}
		if u := c.Updates; u != nil {
			cc.Updates = &corpusUpdate{}
			if cc.Updates.Old, err = corpusFiles(c, []string{u.Old}); err != nil {
				return err
			}
			if cc.Updates.Valid, err = corpusFiles(c, u.Valid); err != nil {
				return err
			}
			if cc.Updates.Invalid, err = corpusFiles(c, u.Invalid); err != nil {
				return err
			}
		}
		b, err := json.Marshal(cc)
		if err != nil {
			return err
		}
		out.Write(b)
		out.WriteByte('\n')
	}
	return nil
}

// corpusFiles resolves corpus paths (module: paths in the module cache; a directory's
// .yaml/.yml/.json files in name order, as crdref.Case.Docs walks them) and reads each.
func corpusFiles(c *crdref.Case, paths []string) ([]corpusFile, error) {
	out := []corpusFile{}
	for _, p := range paths {
		full := c.Path(p)
		st, err := os.Stat(full)
		if err != nil {
			return nil, err
		}
		files := []string{full}
		if st.IsDir() {
			files = nil
			filepath.WalkDir(full, func(path string, d fs.DirEntry, err error) error {
				if err == nil && !d.IsDir() && (strings.HasSuffix(path, ".yaml") || strings.HasSuffix(path, ".yml") || strings.HasSuffix(path, ".json")) {
					files = append(files, path)
				}
				return nil
			})
			sort.Strings(files)
		}
		for _, f := range files {
			docs, err := crdref.ReadDocs(f)
			if err != nil {
				return nil, err
			}
			cf := corpusFile{File: f, Docs: []string{}}
			for _, d := range docs {
				cf.Docs = append(cf.Docs, string(d.JSON))
			}
			out = append(out, cf)
		}
	}
	return out, nil
}
