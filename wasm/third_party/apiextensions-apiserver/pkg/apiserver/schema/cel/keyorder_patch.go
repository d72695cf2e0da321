package cel

import (
	"iter"
	"slices"
)

// inKeyOrder yields obj's entries sorted by key: validateMap walks an
// object's fields in this order, not Go's random map order, so that which
// rules run before the cost budget runs out is the same on every call
// (celwasm patch, PATCHES.md "schema/cel: fields validated in key order").
func inKeyOrder(obj map[string]interface{}) iter.Seq2[string, interface{}] {
	return func(yield func(string, interface{}) bool) {
		keys := make([]string, 0, len(obj)) // one allocation per object
		for k := range obj {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			if !yield(k, obj[k]) {
				return
			}
		}
	}
}
