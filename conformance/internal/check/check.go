// Package check judges result files (conformance/FORMAT.md) against the
// corpus expectations.
package check

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"

	"github.com/celwasm/celwasm/conformance/internal/corpus"
)

// Result is one parsed result line.
type Result struct {
	ID        string          `json:"id"`
	Compile   json.RawMessage `json:"compile"`
	Eval      json.RawMessage `json:"eval"`
	Skip      bool            `json:"skip"`
	HostError string          `json:"hostError"`
}

type response struct {
	OutputType   string               `json:"outputType"`
	CostEstimate *corpus.CostEstimate `json:"costEstimate"`
	Value        json.RawMessage      `json:"value"`
	Cost         *uint64              `json:"cost"`
	Error        *struct {
		Code string  `json:"code"`
		Cost *uint64 `json:"cost"`
	} `json:"error"`
}

// Outcome of one test.
type Outcome int

const (
	Passed Outcome = iota
	Failed
	Skipped
)

// Judge decides one test: skipped, passed, or failed with the reason.
func Judge(t corpus.Test, line []byte) (Outcome, string) {
	var r Result
	if err := json.Unmarshal(line, &r); err != nil {
		return Failed, "malformed result line: " + err.Error()
	}
	if r.ID != t.ID {
		return Failed, fmt.Sprintf("result for %q where the corpus has %q", r.ID, t.ID)
	}
	if t.Skip != "" {
		if !r.Skip {
			return Failed, "the corpus skips this test but the runner ran it"
		}
		return Skipped, ""
	}
	if r.Skip {
		return Failed, "skipped by the runner"
	}
	if r.HostError != "" {
		return Failed, "host error " + r.HostError
	}
	var c response
	if err := json.Unmarshal(r.Compile, &c); err != nil {
		return Failed, "compile response: " + err.Error()
	}
	e := t.Expect
	if e.CompileError {
		if c.Error == nil || c.Error.Code != "compile_error" {
			return Failed, "want a compile error, got " + string(r.Compile)
		}
		return Passed, ""
	}
	if c.Error != nil {
		return Failed, "compile failed: " + string(r.Compile)
	}
	if e.Type != "" && c.OutputType != e.Type {
		return Failed, fmt.Sprintf("output type %s, want %s", c.OutputType, e.Type)
	}
	if e.CostEstimate != nil && (c.CostEstimate == nil || *c.CostEstimate != *e.CostEstimate) {
		return Failed, fmt.Sprintf("cost estimate %s, want %+v", costString(c.CostEstimate), *e.CostEstimate)
	}
	if t.Eval == nil {
		if e.Value != nil || e.EvalError {
			return Failed, "the test expects an evaluation but has no eval request"
		}
		return Passed, ""
	}
	if len(r.Eval) == 0 || string(r.Eval) == "null" {
		return Failed, "no eval response"
	}
	var v response
	if err := json.Unmarshal(r.Eval, &v); err != nil {
		return Failed, "eval response: " + err.Error()
	}
	cost := v.Cost
	if v.Error != nil {
		cost = v.Error.Cost
	}
	if e.Cost != nil && (cost == nil || *cost != *e.Cost) {
		got := "none"
		if cost != nil {
			got = strconv.FormatUint(*cost, 10)
		}
		return Failed, fmt.Sprintf("actual cost %s, want %d (%s)", got, *e.Cost, r.Eval)
	}
	switch {
	case e.EvalError:
		if v.Error == nil {
			return Failed, "want an evaluation error, got " + string(r.Eval)
		}
	case e.Value != nil:
		if v.Error != nil {
			return Failed, "evaluation failed: " + string(r.Eval)
		}
		eq, err := Equal(e.Value, v.Value)
		if err != nil {
			return Failed, err.Error()
		}
		if !eq {
			return Failed, fmt.Sprintf("value %s, want %s", v.Value, e.Value)
		}
	}
	return Passed, ""
}

func costString(c *corpus.CostEstimate) string {
	if c == nil {
		return "none"
	}
	return fmt.Sprintf("%+v", *c)
}

// Equal compares two canonical values as CEL values: map entries in any
// order, doubles numerically (-0 equals 0, NaN equals NaN), object members in
// any order (message JSON); everything else exactly.
func Equal(a, b []byte) (bool, error) {
	var x, y any
	if err := decode(a, &x); err != nil {
		return false, fmt.Errorf("expected value: %v", err)
	}
	if err := decode(b, &y); err != nil {
		return false, fmt.Errorf("value: %v", err)
	}
	return equal(x, y), nil
}

func decode(b []byte, v *any) error {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	return d.Decode(v)
}

func equal(x, y any) bool {
	switch a := x.(type) {
	case map[string]any:
		b, ok := y.(map[string]any)
		if !ok || len(a) != len(b) {
			return false
		}
		if len(a) == 1 {
			if d, ok := a["double"].(string); ok {
				e, ok := b["double"].(string)
				return ok && doubleEqual(d, e)
			}
			if m, ok := a["map"].([]any); ok {
				n, ok := b["map"].([]any)
				return ok && sameEntries(m, n)
			}
		}
		for k, v := range a {
			w, ok := b[k]
			if !ok || !equal(v, w) {
				return false
			}
		}
		return true
	case []any:
		b, ok := y.([]any)
		if !ok || len(a) != len(b) {
			return false
		}
		for i := range a {
			if !equal(a[i], b[i]) {
				return false
			}
		}
		return true
	case json.Number:
		b, ok := y.(json.Number)
		return ok && doubleEqual(string(a), string(b))
	}
	return x == y
}

func doubleEqual(a, b string) bool {
	if a == b {
		return true
	}
	f, err1 := strconv.ParseFloat(a, 64)
	g, err2 := strconv.ParseFloat(b, 64)
	if err1 != nil || err2 != nil {
		return false
	}
	return f == g || (math.IsNaN(f) && math.IsNaN(g))
}

// sameEntries compares map entries as a multiset of [key, value] pairs.
func sameEntries(a, b []any) bool {
	if len(a) != len(b) {
		return false
	}
	used := make([]bool, len(b))
	for _, e := range a {
		found := false
		for j, f := range b {
			if !used[j] && equal(e, f) {
				used[j], found = true, true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}
