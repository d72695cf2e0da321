package interpreter

import (
	"fmt"
	"testing"

	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
)

// wrappedAdapter is the registry behind another type, so that refQualify
// takes upstream's path (conversion, then the switch) for the same values.
type wrappedAdapter struct{ types.Adapter }

// TestRefQualifyMapShortcut: with the registry as adapter, a map is
// qualified without the conversion; every answer (value, found, error) is
// the one upstream's path gives (celwasm patch).
func TestRefQualifyMapShortcut(t *testing.T) {
	reg, err := types.NewRegistry()
	if err != nil {
		t.Fatal(err)
	}
	objs := map[string]any{
		"string map":        types.NewStringInterfaceMap(reg, map[string]any{"a": 1, "b": "x"}),
		"refval map":        types.NewRefValMap(reg, map[ref.Val]ref.Val{types.String("a"): types.Int(1), types.Int(2): types.True}),
		"mutable":           types.NewMutableMap(reg, map[ref.Val]ref.Val{types.String("a"): types.Int(1)}),
		"string-string map": types.NewStringStringMap(reg, map[string]string{"a": "z"}),
		"list":              types.NewStringList(reg, []string{"p", "q"}),
		"go map":            map[string]int{"a": 5},
		"int":               types.Int(1),
		"error":             types.NewErr("boom"),
		"unknown":           types.NewUnknown(9, nil),
	}
	idxs := []ref.Val{types.String("a"), types.String("missing"), types.Int(2), types.Int(0), types.Double(1.5), types.True}
	for name, obj := range objs {
		for _, idx := range idxs {
			for _, flags := range [][3]bool{{false, false, false}, {true, false, false}, {true, true, false}, {true, false, true}} {
				v1, f1, e1 := refQualify(reg, obj, idx, flags[0], flags[1], flags[2])
				v2, f2, e2 := refQualify(wrappedAdapter{reg}, obj, idx, flags[0], flags[1], flags[2])
				got, want := fmt.Sprintf("%T %v %v %v", v1, v1, f1, e1), fmt.Sprintf("%T %v %v %v", v2, v2, f2, e2)
				if got != want {
					t.Errorf("%s[%v] %v: registry %s, upstream's path %s", name, idx, flags, got, want)
				}
			}
		}
	}
}
