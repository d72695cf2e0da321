package cel

import (
	"fmt"
	"testing"

	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/interpreter"
)

// costEvaluator is what celwasm's engine asserts a Program to be.
type costEvaluator interface {
	EvalCost(act interpreter.Activation) (out ref.Val, cost uint64, tracked bool, err error)
}

// TestEvalCostIsEval: EvalCost gives what Eval gives (value, error, and
// the cost in EvalDetails, or no cost where Eval has none) for programs
// with and without cost tracking, failing ones, one stopped at its cost
// limit, one reading a global (cel.Globals), and no activation, which
// Eval refuses; and it allocates nothing for a constant, where Eval
// allocates its EvalDetails.
func TestEvalCostIsEval(t *testing.T) {
	env, err := NewEnv(Variable("x", ListType(IntType)), Variable("m", MapType(StringType, IntType)), Variable("y", IntType))
	if err != nil {
		t.Fatal(err)
	}
	program := func(expr string, opts ...ProgramOption) Program {
		ast, iss := env.Compile(expr)
		if iss.Err() != nil {
			t.Fatal(iss.Err())
		}
		prg, err := env.Program(ast, opts...)
		if err != nil {
			t.Fatal(err)
		}
		return prg
	}
	tracked := EvalOptions(OptTrackCost)
	vars, err := interpreter.NewActivation(map[string]any{"x": []int64{1, 2, 3, 4, 5, 6, 7, 8}, "m": map[string]int64{"a": 1}})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		prg  Program
		in   interpreter.Activation
	}{
		{"constant", program("true", tracked), vars},
		{"comprehension", program("x.map(i, i * 2).filter(i, i > 4).size() > 1", tracked), vars},
		{"no such key", program("m.b == 1", tracked), vars},
		{"division by zero", program("x[0] / (x[0] - 1) == 0", tracked), vars},
		{"cost limit", program("x.map(i, i * 2).filter(i, i > 4).size() > 1", tracked, CostLimit(10)), vars},
		{"untracked", program("x.size() > 2"), vars},
		{"global", program("y + x[0] == 3", tracked, Globals(map[string]any{"y": 2})), vars},
		{"no activation", program("true", tracked), nil},
	}
	seen := map[string]bool{}
	for _, c := range cases {
		for round := 0; round < 2; round++ { // the second round reuses pooled state
			v1, det, err1 := c.prg.Eval(c.in)
			v2, cost, ok, err2 := c.prg.(costEvaluator).EvalCost(c.in)
			want := fmt.Sprintf("%v %v %v", v1, err1, det.ActualCost() != nil)
			if det.ActualCost() != nil {
				want += fmt.Sprint(" ", *det.ActualCost())
			}
			got := fmt.Sprintf("%v %v %v", v2, err2, ok)
			if ok {
				got += fmt.Sprint(" ", cost)
			}
			if got != want {
				t.Errorf("%s, round %d: EvalCost gives %q, Eval %q", c.name, round, got, want)
			}
			seen[fmt.Sprint(err1 != nil, det.ActualCost() != nil)] = true
		}
	}
	if len(seen) != 4 {
		t.Fatalf("the cases cover %v of the four (error, cost tracked) pairs", seen)
	}
	constant := program("true", tracked)
	act, err := interpreter.NewActivation(map[string]any{})
	if err != nil {
		t.Fatal(err)
	}
	ec := constant.(costEvaluator)
	if n := testing.AllocsPerRun(100, func() { ec.EvalCost(act) }); n != 0 {
		t.Errorf("EvalCost of a constant allocates %v times, want 0", n)
	}
}
