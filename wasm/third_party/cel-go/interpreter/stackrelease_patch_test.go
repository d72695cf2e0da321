package interpreter

import (
	"testing"

	"github.com/google/cel-go/common/types"
)

// TestStackReleaseClearsWhatWasUsed: a closed frame's tracker holds no
// values however its stack rose and fell during the evaluation, and
// release writes only the entries the evaluation used, not the whole
// capacity a deeper evaluation left behind.
func TestStackReleaseClearsWhatWasUsed(t *testing.T) {
	template, err := NewCostTracker(nil)
	if err != nil {
		t.Fatal(err)
	}
	fac := &costTrackerFactory{template: template}
	evaluate := func(steps func(s *refValStack)) *evalContext {
		frame, err := NewExecutionFrame(map[string]any{})
		if err != nil {
			t.Fatal(err)
		}
		state, err := fac.InitState(frame)
		if err != nil {
			t.Fatal(err)
		}
		steps(&state.(*CostTracker).stack)
		ctx := frame.ctx
		frame.Close()
		return ctx
	}
	push := func(s *refValStack, from, to int) {
		for i := from; i < to; i++ {
			s.push(types.String("value"), int64(i))
		}
	}
	// Up to 300 entries, down to 10, up to 40, down to 0.
	ctx := evaluate(func(s *refValStack) {
		push(s, 0, 300)
		s.truncate(10)
		push(s, 10, 40)
		s.truncate(0)
	})
	items := ctx.tracker.stack.items
	for i, it := range items[:cap(items)] {
		if it.Val != nil {
			t.Fatalf("entry %d still holds %v after Close", i, it.Val)
		}
	}
	if ctx.tracker.stack.used != 0 {
		t.Fatalf("used is %d after Close, want 0", ctx.tracker.stack.used)
	}
	// Mark the capacity the deep evaluation left; a shallow one on the same
	// stack must clear its own entries and leave the marks alone.
	mark := types.String("mark")
	for i := range items[:cap(items)] {
		items[:cap(items)][i].Val = mark
	}
	s := &ctx.tracker.stack
	s.items = items[:0]
	push(s, 0, 3)
	s.release()
	for i, it := range items[:cap(items)] {
		var want any
		if i >= 3 {
			want = mark
		}
		if any(it.Val) != want {
			t.Fatalf("entry %d after a release of 3 entries: %v, want %v", i, it.Val, want)
		}
	}
}
