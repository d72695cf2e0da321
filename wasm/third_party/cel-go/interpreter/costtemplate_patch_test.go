package interpreter

import (
	"fmt"
	"slices"
	"testing"

	"github.com/google/cel-go/common"
	"github.com/google/cel-go/common/containers"
	"github.com/google/cel-go/common/stdlib"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/parser"
)

// TestCostTrackerTemplatePatch evaluates the same programs, in one sequence,
// with upstream's tracker (a clone per evaluation, CostTrackerFactory) and
// with the tracker kept in the pooled evaluation state
// (CostTrackerTemplate), and compares every result and cost: stacks deep
// enough to count IDs and to be dropped rather than kept, errors, and cost
// limits exceeded part way.
func TestCostTrackerTemplatePatch(t *testing.T) {
	exprs := []string{
		"true",
		"x.size() > 2 && x[0] == 1",
		"x.all(i, i > 0 && i < 1000) || x.exists(i, i == 3)",
		"x.map(i, i * 2).filter(i, i % 3 == 0).size()",
		"big.all(i, i >= 0 && i < 5000)",
		"big.exists(i, i == 1999) && big.map(i, i + 1).size() == 2000",
		"'abc' + string(x.size()) == 'abc5'",
		"x.exists(i, i == 4) ? 1 / 0 : 2",
		"x.filter(i, i > 1).size() > 1 || 1 / 0 == 1",
	}
	big := make([]int, 2000)
	for i := range big {
		big[i] = i
	}
	vars := map[string]any{"x": []int{1, 2, 3, 4, 5}, "big": big}

	plan := stdPlanner(t)

	for _, limit := range []uint64{0, 60, 3000} {
		var opts []CostTrackerOption
		if limit > 0 {
			opts = append(opts, CostTrackerLimit(limit))
		}
		template, err := NewCostTracker(nil, opts...)
		if err != nil {
			t.Fatal(err)
		}
		var upstream, patched []*ObservableInterpretable
		for _, e := range exprs {
			upstream = append(upstream, plan(e, CostObserver(CostTrackerFactory(template.Clone))))
			patched = append(patched, plan(e, CostObserver(CostTrackerTemplate(template))))
		}
		// Three rounds, so that every program runs after every other one
		// on the pooled state; the result and cost are read once the
		// frame is closed, as cel.Program's EvalDetails does.
		for round := 0; round < 3; round++ {
			for i, e := range exprs {
				want, got := run(t, upstream[i], vars), run(t, patched[i], vars)
				if got != want {
					t.Errorf("limit %d, round %d, %s:\n got %s\nwant %s", limit, round, e, got, want)
				}
			}
		}
	}
}

// stdPlanner returns a function that parses expr with every macro and plans
// it with cel-go's standard library and the given options.
func stdPlanner(t *testing.T) func(expr string, o ...PlannerOption) *ObservableInterpretable {
	t.Helper()
	p, err := parser.NewParser(parser.Macros(parser.AllMacros...))
	if err != nil {
		t.Fatal(err)
	}
	reg, err := types.NewRegistry()
	if err != nil {
		t.Fatal(err)
	}
	disp := NewDispatcher()
	for _, fn := range stdlib.Functions() {
		ovs, err := fn.Bindings()
		if err != nil {
			t.Fatal(err)
		}
		if err := disp.Add(ovs...); err != nil {
			t.Fatal(err)
		}
	}
	cont := containers.DefaultContainer
	interp := NewInterpreter(disp, cont, reg, reg, NewAttributeFactory(cont, reg, reg))
	return func(expr string, o ...PlannerOption) *ObservableInterpretable {
		parsed, iss := p.Parse(common.NewTextSource(expr))
		if len(iss.GetErrors()) != 0 {
			t.Fatal(iss.ToDisplayString())
		}
		i, err := interp.NewInterpretable(parsed, o...)
		if err != nil {
			t.Fatalf("%s: %v", expr, err)
		}
		return i.(*ObservableInterpretable)
	}
}

// run evaluates i over vars and describes the result, the cost and a cost
// limit panic.
func run(t *testing.T, i *ObservableInterpretable, vars map[string]any) (out string) {
	frame, err := NewExecutionFrame(vars)
	if err != nil {
		t.Fatal(err)
	}
	var tracker *CostTracker
	var cost uint64
	defer func() {
		if tracker != nil {
			cost = tracker.ActualCost()
		}
		frame.Close()
		if r := recover(); r != nil {
			out = fmt.Sprintf("panic %v, cost %d", r, cost)
		}
	}()
	val := i.ObserveExec(frame, func(o any) {
		if ct, ok := o.(*CostTracker); ok {
			tracker = ct
		}
	})
	cost = tracker.ActualCost()
	return fmt.Sprintf("%v (%T), cost %d", describe(val), val, cost)
}

func describe(v ref.Val) any {
	if e, ok := v.(*types.Err); ok {
		return e.String()
	}
	return v.Value()
}

// TestCostTrackerTemplateReleasesValues: once a frame is closed, its pooled
// tracker holds no values of the evaluation, keeps a stack of at most
// maxKeptStack entries, and the next evaluation starts from a cost of zero.
func TestCostTrackerTemplateReleasesValues(t *testing.T) {
	template, err := NewCostTracker(nil)
	if err != nil {
		t.Fatal(err)
	}
	fac := &costTrackerFactory{template: template}
	for _, n := range []int{3, 100, maxKeptStack + 1} {
		frame, err := NewExecutionFrame(map[string]any{})
		if err != nil {
			t.Fatal(err)
		}
		state, err := fac.InitState(frame)
		if err != nil {
			t.Fatal(err)
		}
		tracker := state.(*CostTracker)
		if tracker != &frame.ctx.tracker || tracker.cost != 0 || len(tracker.stack.items) != 0 || tracker.stack.counting {
			t.Fatalf("n=%d: a reused tracker does not start empty: %+v", n, tracker)
		}
		for i := 0; i < n; i++ {
			tracker.stack.push(types.String("value"), int64(i))
		}
		tracker.stack.dropArgs(nil)
		tracker.cost = 42
		ctx := frame.ctx
		frame.Close()
		items := ctx.tracker.stack.items
		if n > maxKeptStack {
			if items != nil {
				t.Errorf("n=%d: a stack of capacity %d was kept", n, cap(items))
			}
			continue
		}
		for i, it := range items[:cap(items)] {
			if it.Val != nil {
				t.Fatalf("n=%d: entry %d still holds %v after Close", n, i, it.Val)
			}
		}
		if st := &ctx.tracker.stack; st.counting || st.far != nil || slices.ContainsFunc(st.counts, func(c int32) bool { return c != 0 }) {
			t.Errorf("n=%d: counts kept after Close", n)
		}
	}
}
