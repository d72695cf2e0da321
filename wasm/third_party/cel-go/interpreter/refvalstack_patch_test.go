package interpreter

import (
	"math/rand"
	"testing"

	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
)

// naiveStack is cel-go v0.29.2's refValStack, the behaviour the patch keeps.
type naiveStack []stackVal

func (s *naiveStack) push(val ref.Val, id int64) { *s = append(*s, stackVal{Val: val, ID: id}) }

func (s *naiveStack) drop(ids ...int64) {
	for _, id := range ids {
		for idx := len(*s) - 1; idx >= 0; idx-- {
			if (*s)[idx].ID == id {
				*s = (*s)[:idx]
				break
			}
		}
	}
}

func (s *naiveStack) dropArgs(ids []int64) ([]ref.Val, bool) {
	result := make([]ref.Val, len(ids))
argloop:
	for nIdx := len(ids) - 1; nIdx >= 0; nIdx-- {
		for idx := len(*s) - 1; idx >= 0; idx-- {
			if (*s)[idx].ID == ids[nIdx] {
				el := (*s)[idx]
				*s = (*s)[:idx]
				result[nIdx] = el.Val
				continue argloop
			}
		}
		return nil, false
	}
	return result, true
}

type idArg int64

func (a idArg) ID() int64 { return int64(a) }

// TestRefValStackPatchKeepsBehaviour runs random push/drop/dropArgs
// sequences on the patched and the original stack and compares every result
// and the whole stack after every step.
func TestRefValStackPatchKeepsBehaviour(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	countedSteps := 0
	defer func() {
		// The counts must have been exercised: without it the test would
		// compare two stacks that never counted.
		if countedSteps < 10000 {
			t.Errorf("only %d steps with IDs counted", countedSteps)
		}
	}()
	for round := 0; round < 200; round++ {
		var patched refValStack
		var naive naiveStack
		nIDs := 1 + rng.Intn(40)
		// Some rounds also use IDs outside the dense range (counted in the
		// map): negative, and past denseIDs.
		far := round%4 == 0
		for step := 0; step < 2000; step++ {
			id := int64(rng.Intn(nIDs))
			if far && id%3 == 0 {
				id = []int64{-id - 1, denseIDs + id, 1<<40 + id}[id%9/3]
			}
			// A third of the rounds push more than they drop, so that
			// the stack grows deep and its IDs are counted.
			switch op := rng.Intn(10); {
			case op < 6 || (round%3 == 0 && op < 8):
				v := types.Int(step)
				patched.push(v, id)
				naive.push(v, id)
			case op < 8:
				ids := []int64{id, int64(rng.Intn(nIDs))}
				patched.drop(ids...)
				naive.drop(ids...)
			default:
				ids := []int64{id, int64(rng.Intn(nIDs)), int64(rng.Intn(nIDs))}[:1+rng.Intn(3)]
				wantVals, wantOK := naive.dropArgs(ids)
				args := make([]InterpretableV2, len(ids))
				for i, x := range ids {
					args[i] = stubInterpretable{idArg(x)}
				}
				gotVals, gotOK := patched.dropArgs(args)
				if gotOK != wantOK || len(gotVals) != len(wantVals) && wantOK {
					t.Fatalf("round %d step %d: dropArgs ok %v, want %v", round, step, gotOK, wantOK)
				}
				for i := range wantVals {
					if wantOK && gotVals[i] != wantVals[i] {
						t.Fatalf("round %d step %d: dropArgs values differ", round, step)
					}
				}
			}
			if len(patched.items) != len(naive) {
				t.Fatalf("round %d step %d: depth %d, want %d", round, step, len(patched.items), len(naive))
			}
			for i := range naive {
				if patched.items[i] != naive[i] {
					t.Fatalf("round %d step %d: entry %d differs", round, step, i)
				}
			}
			if patched.counting {
				countedSteps++
				n := map[int64]int32{}
				for _, it := range patched.items {
					n[it.ID]++
				}
				for k, c := range patched.counts {
					if c != n[int64(k)] {
						t.Fatalf("round %d step %d: count of %d is %d, want %d", round, step, k, c, n[int64(k)])
					}
				}
				for k, c := range patched.far {
					if c != n[k] {
						t.Fatalf("round %d step %d: count of %d is %d, want %d", round, step, k, c, n[k])
					}
				}
				for k, c := range n {
					if patched.absent(k) != (c == 0) {
						t.Fatalf("round %d step %d: absent(%d) with %d entries", round, step, k, c)
					}
				}
			}
		}
	}
}

type stubInterpretable struct{ idArg }

func (stubInterpretable) Eval(Activation) ref.Val           { return nil }
func (stubInterpretable) Exec(*ExecutionFrame) ref.Val      { return nil }
