package stdlib

import (
	"testing"

	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"
)

// TestComparerPatch: comparer is the assertion to traits.Comparer, first
// and again (from comparerCache on wasm), and panics where it panics.
func TestComparerPatch(t *testing.T) {
	pairs := [][2]ref.Val{
		{types.Int(1), types.Int(2)}, {types.String("b"), types.String("a")},
		{types.Double(1), types.Int(1)}, {types.Uint(3), types.Uint(3)},
		{types.Bool(false), types.Bool(true)}, {types.Bytes("a"), types.Bytes("b")},
	}
	for round := 0; round < 3; round++ {
		for _, p := range pairs {
			got := comparer(p[0]).Compare(p[1])
			want := p[0].(traits.Comparer).Compare(p[1])
			if got != want {
				t.Errorf("round %d: comparer(%v).Compare(%v) = %v, want %v", round, p[0], p[1], got, want)
			}
		}
		func() {
			defer func() {
				if recover() == nil {
					t.Error("comparer(null) did not panic")
				}
			}()
			comparer(types.NullValue)
		}()
	}
}
