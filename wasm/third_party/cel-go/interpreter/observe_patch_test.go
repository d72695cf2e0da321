package interpreter

import (
	"testing"

	"github.com/google/cel-go/common"
	"github.com/google/cel-go/common/containers"
	"github.com/google/cel-go/common/functions"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/parser"
)

// upstreamCase names the case of cel-go v0.29.2's switch in
// costTrackerFactory.Observe that a program step reaches.
func upstreamCase(step any) string {
	switch step.(type) {
	case ConstantQualifier:
		return "ConstantQualifier"
	case InterpretableConst:
		return "InterpretableConst"
	case InterpretableAttribute:
		return "InterpretableAttribute"
	case *evalExhaustiveConditional:
		return "evalExhaustiveConditional"
	case *evalOr:
		return "evalOr"
	case *evalAnd:
		return "evalAnd"
	case *evalExhaustiveOr:
		return "evalExhaustiveOr"
	case *evalExhaustiveAnd:
		return "evalExhaustiveAnd"
	case *evalFold:
		return "evalFold"
	case Qualifier:
		return "Qualifier"
	case InterpretableCall:
		return "InterpretableCall"
	case InterpretableConstructor:
		return "InterpretableConstructor"
	}
	return ""
}

// TestObservePatchFastCasesAreUpstreamCases checks that each concrete type
// Observe matches first reaches, in upstream's switch, the case whose code
// its fast case runs.
func TestObservePatchFastCasesAreUpstreamCases(t *testing.T) {
	for step, want := range map[any]string{
		&evalConst{}:         "InterpretableConst",
		&evalAttr{}:          "InterpretableAttribute",
		&evalTestOnly{}:      "InterpretableAttribute",
		&stringQualifier{}:   "ConstantQualifier",
		&intQualifier{}:      "ConstantQualifier",
		&uintQualifier{}:     "ConstantQualifier",
		&boolQualifier{}:     "ConstantQualifier",
		&doubleQualifier{}:   "ConstantQualifier",
		&fieldQualifier{}:    "ConstantQualifier",
		&testOnlyQualifier{}: "ConstantQualifier",
		&evalBinary{}:        "InterpretableCall",
		&evalEq{}:            "InterpretableCall",
		&evalNe{}:            "InterpretableCall",
		&evalUnary{}:         "InterpretableCall",
		&evalVarArgs{}:       "InterpretableCall",
		&evalAnd{}:           "evalAnd",
		&evalOr{}:            "evalOr",
	} {
		if got := upstreamCase(step); got != want {
			t.Errorf("%T reaches %s upstream, the fast path treats it as %s", step, got, want)
		}
	}
}

// TestObservePatchKeepsCosts observes each kind of step through Observe (the
// fast path) and through upstream's switch (observeStep, then the push) on
// trackers in the same state, and compares the cost and the whole stack.
func TestObservePatchKeepsCosts(t *testing.T) {
	s := func(id int64) InterpretableV2 { return stubInterpretable{idArg(id)} }
	steps := []struct {
		name string
		step any
	}{
		{"const", &evalConst{id: 10, val: types.True}},
		{"attribute", &evalAttr{attr: &absoluteAttribute{id: 2}}},
		{"qualified attribute", &evalAttr{attr: &absoluteAttribute{id: 1, qualifiers: []Qualifier{&stringQualifier{id: 3, value: "x"}}}}},
		{"conditional attribute", &evalAttr{attr: &conditionalAttribute{id: 10, expr: s(1), truthy: &absoluteAttribute{id: 2}, falsy: &absoluteAttribute{id: 3}}}},
		{"test only", &evalTestOnly{id: 10, InterpretableAttribute: &evalAttr{attr: &absoluteAttribute{id: 3}}}},
		{"binary, planned", &evalBinary{id: 10, function: "matches", overload: "matches_string", lhs: s(1), rhs: s(2), args: []InterpretableV2{s(1), s(2)}}},
		{"binary", &evalBinary{id: 10, function: "_+_", overload: "add_string", lhs: s(1), rhs: s(2)}},
		{"eq", &evalEq{id: 10, lhs: s(2), rhs: s(3)}},
		{"ne", &evalNe{id: 10, lhs: s(1), rhs: s(3), args: []InterpretableV2{s(1), s(3)}}},
		{"unary", &evalUnary{id: 10, function: "size", overload: "size_string", arg: s(3)}},
		{"var args", &evalVarArgs{id: 10, function: "f", overload: "f_string_string_string", args: []InterpretableV2{s(1), s(2), s(3)}}},
		{"var args, absent", &evalVarArgs{id: 10, function: "f", overload: "f_string", args: []InterpretableV2{s(7)}}},
		{"and", &evalAnd{id: 10, terms: []InterpretableV2{s(1), s(3)}}},
		{"or", &evalOr{id: 10, terms: []InterpretableV2{s(2), s(7)}}},
		{"constant qualifier", &stringQualifier{id: 10, value: "x"}},
		{"int qualifier", &intQualifier{id: 10, value: 1}},
		{"bool qualifier", &boolQualifier{id: 10, value: true}},
		{"test-only qualifier", &testOnlyQualifier{ConstantQualifier: &stringQualifier{id: 10, value: "x"}}},
		{"list", &evalList{id: 10, elems: []InterpretableV2{s(2), s(3)}}},
		// Calls that reach observeStep's InterpretableCall case, from the
		// second observation on through the callStep cache on wasm; and a
		// call that is also a constant qualifier, which reaches the
		// ConstantQualifier case and must never be taken for a call.
		{"zero arity", &evalZeroArity{id: 10, function: "now", overload: "now"}},
		{"call of another package", &foreignCall{stubInterpretable{idArg(10)}, []InterpretableV2{s(1), s(3)}}},
		{"call that is a constant qualifier", &qualifyingCall{foreignCall{stubInterpretable{idArg(10)}, []InterpretableV2{s(1), s(2)}}}},
	}
	val := types.String("a result string")
	for _, presence := range []bool{true, false} {
		for _, st := range steps {
			for _, depth := range []int{0, 1, 3, 5} {
				fast, _ := NewCostTracker(nil, PresenceTestHasCost(presence))
				slow, _ := NewCostTracker(nil, PresenceTestHasCost(presence))
				for i := 1; i <= depth; i++ {
					v := types.String(string(make([]byte, 10*i)))
					fast.stack.push(v, int64((i-1)%3+1))
					slow.stack.push(v, int64((i-1)%3+1))
				}
				// The ID observed is the step's, as its watcher passes it
				// (for an attribute, evalWatchAttr.ID: its attribute's ID).
				var id int64 = 10
				if a, ok := st.step.(*evalAttr); ok {
					id = a.Attr().ID()
				}
				ct := &costTrackerFactory{}
				ct.Observe(&ExecutionFrame{ctx: &evalContext{costs: fast}}, id, st.step, val)
				slow.observeStep(st.step, val)
				slow.stack.push(val, id)
				if fast.cost != slow.cost {
					t.Errorf("%s, presence cost %v, depth %d: cost %d, upstream's switch %d", st.name, presence, depth, fast.cost, slow.cost)
				}
				if len(fast.stack.items) != len(slow.stack.items) {
					t.Fatalf("%s, depth %d: stack depth %d, upstream's switch %d", st.name, depth, len(fast.stack.items), len(slow.stack.items))
				}
				for i := range slow.stack.items {
					if fast.stack.items[i] != slow.stack.items[i] {
						t.Errorf("%s, depth %d: stack entry %d differs", st.name, depth, i)
					}
				}
			}
		}
	}
}

// TestCallArgsPatch checks that planned calls answer Args with their
// arguments, in order, without allocating.
func TestCallArgsPatch(t *testing.T) {
	p, err := parser.NewParser()
	if err != nil {
		t.Fatal(err)
	}
	parsed, iss := p.Parse(common.NewTextSource("-x + y == x != (y + x)"))
	if len(iss.GetErrors()) != 0 {
		t.Fatal(iss.ToDisplayString())
	}
	reg, err := types.NewRegistry()
	if err != nil {
		t.Fatal(err)
	}
	cont := containers.DefaultContainer
	disp := NewDispatcher()
	for _, o := range []*functions.Overload{
		{Operator: "-_", Unary: func(v ref.Val) ref.Val { return v }},
		{Operator: "_+_", Binary: func(a, b ref.Val) ref.Val { return a }},
	} {
		if err := disp.Add(o); err != nil {
			t.Fatal(err)
		}
	}
	interp := NewInterpreter(disp, cont, reg, reg, NewAttributeFactory(cont, reg, reg))
	var calls []InterpretableCall
	_, err = interp.NewInterpretable(parsed, CustomDecoratorV2(func(i InterpretableV2) (InterpretableV2, error) {
		if c, ok := i.(InterpretableCall); ok {
			calls = append(calls, c)
		}
		return i, nil
	}))
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]bool{}
	for _, c := range calls {
		var want []InterpretableV2
		switch n := c.(type) {
		case *evalUnary:
			want = []InterpretableV2{n.arg}
		case *evalBinary:
			want = []InterpretableV2{n.lhs, n.rhs}
		case *evalEq:
			want = []InterpretableV2{n.lhs, n.rhs}
		case *evalNe:
			want = []InterpretableV2{n.lhs, n.rhs}
		default:
			continue
		}
		kinds[c.Function()] = true
		got := c.Args()
		if len(got) != len(want) || cap(got) != len(want) {
			t.Fatalf("%T: %d args (capacity %d), want %d", c, len(got), cap(got), len(want))
		}
		for i := range want {
			if got[i] != want[i] {
				t.Errorf("%T: arg %d is not the planned argument", c, i)
			}
		}
		if n := testing.AllocsPerRun(100, func() { c.Args() }); n != 0 {
			t.Errorf("%T: Args allocates %v times", c, n)
		}
	}
	if len(kinds) != 4 {
		t.Fatalf("planned calls %v, want -_, _+_, _==_ and _!=_", kinds)
	}
}

// TestWatchedAttributeIDPatch plans expressions whose attributes gain
// qualifiers after they are watched (selects, indexes, optional selects,
// presence tests, comprehension variables, names resolved in a container)
// and checks that every attribute watcher's ID is its attribute's ID once
// planning is done, which Observe relies on for an attribute's step.
// (A ternary's branches are left out: planning takes their attributes out
// of their watchers, which are then dropped.)
func TestWatchedAttributeIDPatch(t *testing.T) {
	p, err := parser.NewParser(parser.EnableOptionalSyntax(true), parser.Macros(parser.AllMacros...))
	if err != nil {
		t.Fatal(err)
	}
	reg, err := types.NewRegistry()
	if err != nil {
		t.Fatal(err)
	}
	cont, err := containers.NewContainer(containers.Name("a.b"))
	if err != nil {
		t.Fatal(err)
	}
	disp := NewDispatcher()
	for _, o := range []*functions.Overload{
		{Operator: "_<=_", Binary: func(a, b ref.Val) ref.Val { return types.True }},
		{Operator: "_&&_", Binary: func(a, b ref.Val) ref.Val { return types.True }},
	} {
		if err := disp.Add(o); err != nil {
			t.Fatal(err)
		}
	}
	watched := 0
	for _, src := range []string{
		"self.minReplicas <= self.replicas && self.replicas <= self.maxReplicas",
		"a.b.c.d[1]['x'].e", "has(self.spec.x) && self.spec.x.y <= self.z", "self.?x.?y.orValue(1).z",
		"self.items.all(i, i.name.x[0] <= i.b.c)", "x.y.z[self.k].w", "[self.a.b, {'k': self.c.d}.k.e]",
	} {
		parsed, iss := p.Parse(common.NewTextSource(src))
		if len(iss.GetErrors()) != 0 {
			t.Fatal(iss.ToDisplayString())
		}
		var watchers []*evalWatchAttr
		interp := NewInterpreter(disp, cont, reg, reg, NewAttributeFactory(cont, reg, reg))
		tracker, _ := NewCostTracker(nil)
		_, err = interp.NewInterpretable(parsed, CostObserver(CostTrackerTemplate(tracker)), CustomDecoratorV2(func(i InterpretableV2) (InterpretableV2, error) {
			if w, ok := i.(*evalWatchAttr); ok {
				watchers = append(watchers, w)
			}
			return i, nil
		}))
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		for _, w := range watchers {
			if w.ID() != w.InterpretableAttribute.ID() {
				t.Errorf("%s: a watcher's ID is %d, its attribute's %d", src, w.ID(), w.InterpretableAttribute.ID())
			}
		}
		watched += len(watchers)
	}
	if watched < 20 {
		t.Fatalf("only %d attribute watchers planned", watched)
	}
}

// foreignCall is an InterpretableCall of a type the fast path does not
// name (as celwasm's own call steps are).
type foreignCall struct {
	stubInterpretable
	args []InterpretableV2
}

func (*foreignCall) Function() string          { return "f" }
func (*foreignCall) OverloadID() string        { return "f_string_string" }
func (c *foreignCall) Args() []InterpretableV2 { return c.args }

// qualifyingCall is both a ConstantQualifier and an InterpretableCall.
type qualifyingCall struct{ foreignCall }

func (*qualifyingCall) Qualify(Activation, any) (any, error) { return nil, nil }
func (*qualifyingCall) QualifyIfPresent(Activation, any, bool) (any, bool, error) {
	return nil, false, nil
}
func (*qualifyingCall) IsOptional() bool { return false }
func (*qualifyingCall) Value() ref.Val   { return types.String("x") }
