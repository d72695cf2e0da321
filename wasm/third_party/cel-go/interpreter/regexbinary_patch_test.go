package interpreter

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/google/cel-go/common/overloads"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
)

// variadicMatches is MatchesRegexOptimization as it was before patch 17
// for String arguments: the planned call is NewCall's variadic call.
var variadicMatches = &RegexOptimization{
	Function:   "matches",
	RegexIndex: 1,
	Factory: func(call InterpretableCall, pattern string) (InterpretableCall, error) {
		re, err := regexp.Compile(pattern)
		if err != nil {
			return nil, err
		}
		return NewCall(call.ID(), call.Function(), call.OverloadID(), call.Args(), func(values ...ref.Val) ref.Val {
			if len(values) != 2 {
				return types.NoSuchOverloadErr()
			}
			s, ok := values[0].(types.String) // as patch 15 reads it
			if !ok {
				return types.NoSuchOverloadErr()
			}
			return types.Bool(re.MatchString(string(s)))
		}), nil
	},
}

// TestMatchesBinaryCallPatch: a planned `matches` of a constant pattern is
// a binary call, and answers and costs what the variadic call did, for
// every kind of argument, inside comprehensions and with errors (an error
// in the first argument: the pattern is not evaluated, so the call is not
// costed).
func TestMatchesBinaryCallPatch(t *testing.T) {
	plan := stdPlanner(t)
	tracker, err := NewCostTracker(&countingEstimator{per: map[string]uint64{}})
	if err != nil {
		t.Fatal(err)
	}
	top := plan("s.matches('^[a-z]+$')", CompileRegexConstants(MatchesRegexOptimization), CostObserver(CostTrackerTemplate(tracker))).InterpretableV2
	if w, ok := top.(*evalWatch); !ok {
		t.Fatalf("planned %T", top)
	} else if c, ok := w.InterpretableV2.(*evalBinary); !ok || !c.lhsFirst {
		t.Fatalf("matches of a constant pattern is planned as %T, not a binary call", w.InterpretableV2)
	}
	exprs := []string{
		"s.matches('^[a-z]+$')",
		"matches(s, 'b+')",
		"u.matches('^[a-z]+$')",
		"i.matches('1')",
		"b.matches('a')",
		"n.matches('a')",
		"m.missing.matches('a')",
		"m.missing.matches('a') || true",
		"l.all(x, x.matches('^[a-z]+$'))",
		"l.exists(x, x.matches('^[0-9]+$')) || l.filter(x, x.matches('b')).size() == 1",
		"l.map(x, x.matches('[a-z]')).size()",
	}
	vars := map[string]any{
		"s": "abc", "u": "aBc\u00e9", "i": 1, "b": []byte("a"), "n": nil,
		"m": map[string]any{"k": "v"}, "l": []string{"ab", "cd", "e1", ""},
	}
	for _, e := range exprs {
		var got, want [2]string
		for k, opt := range []*RegexOptimization{variadicMatches, MatchesRegexOptimization} {
			tracker, err := NewCostTracker(&countingEstimator{per: map[string]uint64{}})
			if err != nil {
				t.Fatal(err)
			}
			i := plan(e, CompileRegexConstants(opt), CostObserver(CostTrackerTemplate(tracker)))
			if k == 0 {
				want[0], want[1] = run(t, i, vars), run(t, i, vars)
			} else {
				got[0], got[1] = run(t, i, vars), run(t, i, vars)
			}
		}
		if got != want {
			t.Errorf("%s:\n got %q\nwant %q", e, got, want)
		}
	}
}

// TestMatchesBinaryCallAllocatesNothing: evaluating the planned call over
// a String allocates nothing; the variadic call allocated its arguments.
func TestMatchesBinaryCallAllocatesNothing(t *testing.T) {
	args := []InterpretableV2{NewConstValue(2, types.String("abcdef")), NewConstValue(3, types.String("^[a-z]+$"))}
	for _, c := range []struct {
		opt    *RegexOptimization
		allocs float64
	}{{MatchesRegexOptimization, 0}, {variadicMatches, 1}} { // the variadic call: its arguments' slice
		call, err := c.opt.Factory(NewCall(1, overloads.Matches, overloads.MatchesString, args, nil), "^[a-z]+$")
		if err != nil {
			t.Fatal(err)
		}
		frame, err := NewExecutionFrame(map[string]any{})
		if err != nil {
			t.Fatal(err)
		}
		exec := call.(InterpretableV2)
		n := testing.AllocsPerRun(100, func() {
			if v := exec.Exec(frame); v != types.True {
				panic(fmt.Sprint(v))
			}
		})
		if n != c.allocs {
			t.Errorf("%T: %v allocations per call, want %v", call, n, c.allocs)
		}
	}
}

// TestMatchesOtherArities: a call of any other number of arguments is
// what upstream's planned call was for it: no such overload.
func TestMatchesOtherArities(t *testing.T) {
	c := func(v string) InterpretableV2 { return NewConstValue(2, types.String(v)) }
	for _, args := range [][]InterpretableV2{nil, {c("a")}, {c("a"), c("a"), c("a")}} {
		call, err := MatchesRegexOptimization.Factory(NewCall(1, overloads.Matches, "", args, nil), "a")
		if err != nil {
			t.Fatal(err)
		}
		got := call.(*evalVarArgs).impl()
		if e, ok := got.(*types.Err); !ok || e.String() != types.NoSuchOverloadErr().(*types.Err).String() {
			t.Errorf("%d arguments: %v", len(args), got)
		}
	}
}
