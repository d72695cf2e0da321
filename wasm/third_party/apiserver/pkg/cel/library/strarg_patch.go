package library

import (
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
)

// stringArg is v.Value().(string): a String is read without boxing it
// into an interface, any other value as before.
//
// celwasm patch: on WebAssembly an allocation costs 6-12x native, and
// every library function taking a string argument boxed it to read it.
func stringArg(v ref.Val) (string, bool) {
	if s, ok := v.(types.String); ok {
		return string(s), true
	}
	s, ok := v.Value().(string)
	return s, ok
}
