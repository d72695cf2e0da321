package types

import (
	"testing"

	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"
	"google.golang.org/protobuf/types/known/structpb"
)

// TestMapIterationOrder: Go-map-backed maps iterate sorted by key, the same
// way every time, through Iterator and Fold (celwasm patch).
func TestMapIterationOrder(t *testing.T) {
	refVals := map[ref.Val]ref.Val{}
	for i := 0; i < 50; i++ {
		refVals[Int(49-i)] = Int(i)
		refVals[String(string(rune('a'+i%26))+string(rune('a'+i/26)))] = Int(i)
	}
	refVals[True] = Int(1)
	refVals[False] = Int(0)
	refVals[Uint(3)] = Int(3)
	strs := map[string]any{}
	for i := 0; i < 50; i++ {
		strs[string(rune('z'-i%26))+string(rune('a'+i/26))] = i
	}
	js, _ := structpb.NewStruct(strs)
	ints := map[int32]string{}
	for i := int32(0); i < 50; i++ {
		ints[i*7%50-25] = "x"
	}
	maps := map[string]func() ref.Val{
		"refval":  func() ref.Val { return NewRefValMap(DefaultTypeAdapter, refVals) },
		"mutable": func() ref.Val { return NewMutableMap(DefaultTypeAdapter, refVals) },
		"strings": func() ref.Val { return NewStringInterfaceMap(DefaultTypeAdapter, strs) },
		"json":    func() ref.Val { return NewJSONStruct(DefaultTypeAdapter, js) },
		"reflect": func() ref.Val { return NewDynamicMap(DefaultTypeAdapter, ints) },
	}
	for name, mk := range maps {
		var first []ref.Val
		for run := 0; run < 20; run++ {
			var keys []ref.Val
			it := mk().(traits.Mapper).Iterator()
			for it.HasNext() == True {
				keys = append(keys, it.Next())
			}
			for i := 1; i < len(keys); i++ {
				if !keyLess(keys[i-1], keys[i]) {
					t.Fatalf("%s: keys out of order at %d: %v, %v", name, i, keys[i-1], keys[i])
				}
			}
			var folded []ref.Val
			mk().(traits.Foldable).Fold(folderFunc(func(k, v any) bool {
				folded = append(folded, DefaultTypeAdapter.NativeToValue(k))
				return true
			}))
			if len(folded) != len(keys) {
				t.Fatalf("%s: fold saw %d keys, iterator %d", name, len(folded), len(keys))
			}
			for i := range keys {
				if keys[i].Equal(folded[i]) != True {
					t.Fatalf("%s: fold order differs from iterator order at %d", name, i)
				}
			}
			if run == 0 {
				first = keys
			}
			for i := range keys {
				if keys[i].Equal(first[i]) != True {
					t.Fatalf("%s: run %d differs from run 0 at %d", name, run, i)
				}
			}
		}
	}
}

type folderFunc func(k, v any) bool

func (f folderFunc) FoldEntry(k, v any) bool { return f(k, v) }
