package cel

import (
	"iter"
	"maps"
	"slices"
)

// inKeyOrder yields obj's entries sorted by key: validateMap walks an
// object's fields in this order, not Go's random map order, so that which
// rules run before the cost budget runs out is the same on every call
// (celwasm patch, PATCHES.md "schema/cel: fields validated in key order").
func inKeyOrder(obj map[string]interface{}) iter.Seq2[string, interface{}] {
	return func(yield func(string, interface{}) bool) {
		for _, k := range slices.Sorted(maps.Keys(obj)) {
			if !yield(k, obj[k]) {
				return
			}
		}
	}
}
