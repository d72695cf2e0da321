package stdlib

import (
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"
	"github.com/google/cel-go/internal/itab"
)

// comparerCache serves the comparison operators' assertion to
// traits.Comparer (celwasm patch, package itab).
var comparerCache itab.Cache[traits.Comparer]

// comparer is v.(traits.Comparer), and panics as that assertion does.
func comparer(v ref.Val) traits.Comparer {
	if c, ok := comparerCache.Assert(v); ok {
		return c
	}
	return v.(traits.Comparer)
}
