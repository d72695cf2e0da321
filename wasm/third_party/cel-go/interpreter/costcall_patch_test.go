package interpreter

import (
	"fmt"
	"math/rand"
	"regexp"
	"testing"

	"github.com/google/cel-go/common/overloads"
	"github.com/google/cel-go/common/stdlib"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
)

// extTrackedIDs are the overload IDs that cel-go's extensions give runtime
// cost trackers (ext/lists.go, sets.go, strings.go, regex.go).
var extTrackedIDs = []string{
	"list_distinct", "list_flatten", "list_flatten_int", "list_join", "list_join_string", "list_reverse",
	"list_sets_contains_list", "list_sets_equivalent_list", "list_sets_intersects_list", "list_slice", "lists_range",
	"regex_extractAll_string_string", "regex_extract_string_string", "regex_replace_string_string_string",
	"regex_replace_string_string_string_int", "string_char_at_int", "string_index_of_string",
	"string_index_of_string_int", "string_last_index_of_string", "string_last_index_of_string_int",
	"string_lower_ascii", "string_replace_string_string", "string_replace_string_string_int", "string_reverse",
	"string_split_string", "string_split_string_int", "string_substring_int", "string_substring_int_int",
	"string_trim", "string_upper_ascii",
}

// TestTrackerFilterPatch: the filter never turns away an ID that was added,
// over random sets of random and real IDs (empty and long ones included);
// and with the extensions' IDs it turns away the standard overloads of the
// reference rules, which is what it is for.
func TestTrackerFilterPatch(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	randomID := func() string {
		b := make([]byte, rng.Intn(90)) // some shorter than two bytes
		for i := range b {
			b[i] = byte(rng.Intn(256))
		}
		return string(b)
	}
	for round := 0; round < 2000; round++ {
		var f trackerFilter
		var keys []string
		for i := rng.Intn(40); i >= 0; i-- {
			k := randomID()
			if rng.Intn(2) == 0 {
				k = extTrackedIDs[rng.Intn(len(extTrackedIDs))]
			}
			keys = append(keys, k)
			f.add(k)
		}
		for _, k := range keys {
			if !f.mayHold(k) {
				t.Fatalf("round %d: %q was added but mayHold reports false", round, k)
			}
		}
	}
	var f trackerFilter
	for _, k := range extTrackedIDs {
		f.add(k)
	}
	for _, fn := range stdlib.Functions() {
		for _, o := range fn.OverloadDecls() {
			if id := o.ID(); f.mayHold(id) {
				t.Errorf("%q: the extensions' IDs do not turn it away; the filter no longer saves its lookup", id)
			}
		}
	}
}

// countingEstimator gives every call cost per[function] (nil when absent),
// and counts how it was asked.
type countingEstimator struct {
	per           map[string]uint64
	ptrs, values  int
	valueDisabled bool
}

func (e *countingEstimator) CallCost(function, overloadID string, args []ref.Val, result ref.Val) *uint64 {
	e.ptrs++
	if c, ok := e.per[function]; ok {
		return &c
	}
	return nil
}

func (e *countingEstimator) CallCostValue(function, overloadID string, args []ref.Val, result ref.Val) (uint64, bool) {
	e.values++
	c, ok := e.per[function]
	return c, ok
}

// pointerEstimator is countingEstimator without CallCostValue: upstream's
// only way of asking.
type pointerEstimator struct{ e *countingEstimator }

func (p pointerEstimator) CallCost(function, overloadID string, args []ref.Val, result ref.Val) *uint64 {
	return p.e.CallCost(function, overloadID, args, result)
}

// TestCostCallPatchKeepsCosts evaluates the same programs with trackers
// that take both patched paths (the filter over overloadTrackers, the
// value estimator) and with trackers that take upstream's (a filter that
// holds everything, an estimator that only has CallCost), and compares
// every result and cost. Overload trackers are set on IDs that the
// programs call, so that lookups the filter lets through find them.
func TestCostCallPatchKeepsCosts(t *testing.T) {
	exprs := []string{
		"x.size() > 2 && x[0] == 1",
		"x.all(i, i > 0 && i < 1000) || x.exists(i, i == 3)",
		"x.map(i, i * 2).filter(i, i % 3 == 0).size()",
		"'abc' + string(x.size()) == 'abc5'",
		"s.matches('^[a-z]+$') && s.startsWith('ab') && s.size() <= 10",
		"x.exists(i, i == 4) ? 1 / 0 : 2",
	}
	vars := map[string]any{"x": []int{1, 2, 3, 4, 5}, "s": "abcdef"}
	planStd := stdPlanner(t)
	plan := func(expr string, tracker *CostTracker) *ObservableInterpretable {
		return planStd(expr, CostObserver(CostTrackerTemplate(tracker)))
	}
	per := map[string]uint64{overloads.Size: 7, overloads.StartsWith: 11, "_*_": 3}
	fnTracker := func(args []ref.Val, result ref.Val) *uint64 { c := uint64(5); return &c }
	opts := []CostTrackerOption{
		OverloadCostTracker(overloads.ModuloInt64, fnTracker),
		OverloadCostTracker(overloads.AddString, fnTracker),
	}
	for _, id := range extTrackedIDs {
		opts = append(opts, OverloadCostTracker(id, fnTracker))
	}
	values := &countingEstimator{per: per}
	patched, err := NewCostTracker(values, opts...)
	if err != nil {
		t.Fatal(err)
	}
	pointers := &countingEstimator{per: per}
	upstream, err := NewCostTracker(pointerEstimator{pointers}, opts...)
	if err != nil {
		t.Fatal(err)
	}
	all := [4]uint64{^uint64(0), ^uint64(0), ^uint64(0), ^uint64(0)}
	upstream.trackedIDs = trackerFilter{a: all, b: all, short: true}
	if patched.valueEstimator == nil || upstream.valueEstimator != nil {
		t.Fatal("NewCostTracker: the value estimator is not read from the estimator given")
	}
	for _, e := range exprs {
		for round := 0; round < 2; round++ {
			want, got := run(t, plan(e, upstream), vars), run(t, plan(e, patched), vars)
			if got != want {
				t.Errorf("%s:\n got %s\nwant %s", e, got, want)
			}
		}
	}
	if values.values == 0 || values.ptrs != 0 || pointers.ptrs != values.values {
		t.Errorf("estimator asked %d times by value and %d by pointer; upstream's path asked %d times", values.values, values.ptrs, pointers.ptrs)
	}

	// A tracker whose Estimator was replaced after NewCostTracker asks the
	// new estimator, by pointer.
	clone, err := patched.Clone()
	if err != nil {
		t.Fatal(err)
	}
	other := &countingEstimator{per: map[string]uint64{overloads.Size: 1000}}
	clone.Estimator = pointerEstimator{other}
	got := run(t, plan("x.size() > 2", clone), vars)
	// size (1000), the select of x (1) and > (the standard cost, 1).
	if other.ptrs != 2 || got != "true (types.Bool), cost 1002" {
		t.Errorf("replaced estimator: %s, asked %d times", got, other.ptrs)
	}
}

// TestCostCallValueAllocatesNothing: with a value estimator and an ID the
// filter turns away, costing a call allocates nothing.
func TestCostCallValueAllocatesNothing(t *testing.T) {
	est := &countingEstimator{per: map[string]uint64{overloads.Size: 7}}
	tracker, err := NewCostTracker(est, OverloadCostTracker("list_slice", func(args []ref.Val, result ref.Val) *uint64 { return nil }))
	if err != nil {
		t.Fatal(err)
	}
	call := NewCall(1, overloads.Size, overloads.SizeString, nil, nil)
	args := []ref.Val{types.String("abc")}
	if n := testing.AllocsPerRun(100, func() {
		if c := tracker.costCall(call, args, types.Int(3)); c != 7 {
			panic(fmt.Sprint("cost ", c))
		}
	}); n != 0 {
		t.Errorf("costCall allocates %v times per call", n)
	}
}

// TestMatchesOptimizationPatch: the planned `matches` reads a String
// without allocating and answers every argument as upstream's reading
// through Value() does.
func TestMatchesOptimizationPatch(t *testing.T) {
	pattern := NewConstValue(3, types.String("^[a-z]+$"))
	call, err := MatchesRegexOptimization.Factory(NewCall(1, overloads.Matches, overloads.MatchesString, []InterpretableV2{NewConstValue(2, types.String("")), pattern}, nil), "^[a-z]+$")
	if err != nil {
		t.Fatal(err)
	}
	bin := call.(*evalBinary).impl // patch 17
	impl := func(args ...ref.Val) ref.Val { return bin(args[0], args[1]) }
	re := regexp.MustCompile("^[a-z]+$")
	for _, v := range []ref.Val{types.String("abc"), types.String("aB"), types.String(""), types.Bytes("abc"), types.Int(1), types.NullValue, types.NewErr("e")} {
		want := ref.Val(types.NoSuchOverloadErr())
		if s, ok := v.Value().(string); ok {
			want = types.Bool(re.MatchString(s))
		}
		got := impl(v, types.String("^[a-z]+$"))
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("matches(%v): got %v, want %v", v, got, want)
		}
	}
	args := []ref.Val{types.String("abcdef"), types.String("^[a-z]+$")}
	if n := testing.AllocsPerRun(100, func() { impl(args...) }); n != 0 {
		t.Errorf("matches allocates %v times per call", n)
	}
}
