// celwasm patch (see PATCHES.md): maps backed by Go maps iterate in a fixed
// order, sorted by key, instead of Go's randomized map order. CEL leaves map
// iteration order unspecified; a fixed order makes results and costs that
// depend on it (m.map(k, k), the cost of a short-circuited m.exists(...))
// the same on every run and every host.

package types

import (
	"fmt"
	"reflect"
	"sort"

	"github.com/google/cel-go/common/types/ref"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// keyRank orders key kinds: bool < signed < unsigned < float < string < other.
func keyRank(k any) int {
	switch k.(type) {
	case bool:
		return 0
	case int, int8, int16, int32, int64:
		return 1
	case uint, uint8, uint16, uint32, uint64:
		return 2
	case float32, float64:
		return 3
	case string:
		return 4
	}
	return 5
}

// nativeKey returns the Go value a map key compares by.
func nativeKey(k any) any {
	switch v := k.(type) {
	case ref.Val:
		return v.Value()
	case reflect.Value:
		if v.IsValid() && v.CanInterface() {
			return nativeKey(v.Interface())
		}
	case protoreflect.MapKey:
		return v.Interface()
	}
	return k
}

func keyLess(a, b any) bool {
	a, b = nativeKey(a), nativeKey(b)
	ra, rb := keyRank(a), keyRank(b)
	if ra != rb {
		return ra < rb
	}
	switch ra {
	case 0:
		return !a.(bool) && b.(bool)
	case 1:
		return reflect.ValueOf(a).Int() < reflect.ValueOf(b).Int()
	case 2:
		return reflect.ValueOf(a).Uint() < reflect.ValueOf(b).Uint()
	case 3:
		return reflect.ValueOf(a).Float() < reflect.ValueOf(b).Float()
	case 4:
		return a.(string) < b.(string)
	}
	return fmt.Sprint(a) < fmt.Sprint(b)
}

func sortedRefValKeys(m map[ref.Val]ref.Val) []ref.Val {
	keys := make([]ref.Val, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.SliceStable(keys, func(i, j int) bool { return keyLess(keys[i], keys[j]) })
	return keys
}

func sortedReflectKeys(m reflect.Value) []reflect.Value {
	keys := m.MapKeys()
	sort.SliceStable(keys, func(i, j int) bool { return keyLess(keys[i], keys[j]) })
	return keys
}

func sortedStringKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func sortedProtoMapKeys(m protoreflect.Map) []protoreflect.MapKey {
	keys := make([]protoreflect.MapKey, 0, m.Len())
	m.Range(func(k protoreflect.MapKey, _ protoreflect.Value) bool {
		keys = append(keys, k)
		return true
	})
	sort.SliceStable(keys, func(i, j int) bool { return keyLess(keys[i], keys[j]) })
	return keys
}

// sortedKeyIterator iterates over keys in a fixed order.
type sortedKeyIterator struct {
	*baseIterator
	Adapter
	keys   []any
	cursor int
}

func (it *sortedKeyIterator) HasNext() ref.Val {
	return Bool(it.cursor < len(it.keys))
}

func (it *sortedKeyIterator) Next() ref.Val {
	if it.cursor < len(it.keys) {
		k := it.keys[it.cursor]
		it.cursor++
		return it.NativeToValue(k)
	}
	return nil
}
