package cel

import (
	"errors"
	"testing"

	"github.com/google/cel-go/interpreter"
)

// TestEvalDetailsKeepCost: the tracker of an evaluation is reused by the
// next one (interpreter.CostTrackerTemplate), so EvalDetails keeps its own
// copy of the cost: it must not change when other evaluations run, also
// after an evaluation stopped at the cost limit. An evaluation with cost
// tracking allocates only its EvalDetails.
func TestEvalDetailsKeepCost(t *testing.T) {
	env, err := NewEnv(Variable("x", ListType(IntType)))
	if err != nil {
		t.Fatal(err)
	}
	program := func(expr string, opts ...ProgramOption) Program {
		ast, iss := env.Compile(expr)
		if iss.Err() != nil {
			t.Fatal(iss.Err())
		}
		prg, err := env.Program(ast, append(opts, EvalOptions(OptTrackCost))...)
		if err != nil {
			t.Fatal(err)
		}
		return prg
	}
	vars := map[string]any{"x": []int64{1, 2, 3, 4, 5, 6, 7, 8}}
	small, large := program("x.size() > 2"), program("x.map(i, i * 2).filter(i, i > 4).size() > 1")
	limited := program("x.map(i, i * 2).filter(i, i > 4).size() > 1", CostLimit(10))

	_, d1, err := small.Eval(vars)
	if err != nil {
		t.Fatal(err)
	}
	c1 := *d1.ActualCost()
	_, d2, err := large.Eval(vars)
	if err != nil {
		t.Fatal(err)
	}
	c2 := *d2.ActualCost()
	if c1 == c2 {
		t.Fatalf("the two programs cost the same (%d): the test cannot tell their costs apart", c1)
	}
	_, d3, err := limited.Eval(vars)
	var cancelled interpreter.EvalCancelledError
	if !errors.As(err, &cancelled) || cancelled.Cause != interpreter.CostLimitExceeded {
		t.Fatalf("cost limit 10: %v", err)
	}
	c3 := *d3.ActualCost()
	if c3 <= 10 {
		t.Fatalf("cost limit 10 exceeded at cost %d", c3)
	}
	for i := 0; i < 3; i++ {
		small.Eval(vars)
		large.Eval(vars)
	}
	if *d1.ActualCost() != c1 || *d2.ActualCost() != c2 || *d3.ActualCost() != c3 {
		t.Errorf("costs changed after later evaluations: %d %d %d, were %d %d %d",
			*d1.ActualCost(), *d2.ActualCost(), *d3.ActualCost(), c1, c2, c3)
	}
	if _, d, _ := small.Eval(vars); *d.ActualCost() != c1 {
		t.Errorf("the same evaluation again costs %d, was %d", *d.ActualCost(), c1)
	}
	// `true` over an empty activation: nothing to convert.
	constant := program("true")
	act, err := interpreter.NewActivation(map[string]any{})
	if err != nil {
		t.Fatal(err)
	}
	if n := testing.AllocsPerRun(100, func() { constant.Eval(act) }); n > 1 {
		t.Errorf("an evaluation with cost tracking allocates %v times, want 1 (its EvalDetails)", n)
	}
}
