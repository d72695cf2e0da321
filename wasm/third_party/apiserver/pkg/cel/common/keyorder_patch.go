package common

import (
	"reflect"
	"slices"
	"strings"

	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
)

// celwasm patch (PATCHES.md, "cel/common: maps iterated in key order"):
// a map or object value's iterator yields its keys sorted by code point,
// not in Go's randomised map order, so that a comprehension over it gives
// the same result, error and cost on every call.

// sortStringVals sorts keys, each a types.String.
func sortStringVals(keys []ref.Val) {
	slices.SortFunc(keys, func(a, b ref.Val) int {
		return strings.Compare(string(a.(types.String)), string(b.(types.String)))
	})
}

// sortReflectKeys sorts map keys of string kind.
func sortReflectKeys(keys []reflect.Value) []reflect.Value {
	slices.SortFunc(keys, func(a, b reflect.Value) int { return strings.Compare(a.String(), b.String()) })
	return keys
}

// sortNames sorts field names.
func sortNames(names []string) { slices.Sort(names) }
