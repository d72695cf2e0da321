package types

import (
	"reflect"
	"testing"
	"time"

	"github.com/google/cel-go/common/types/ref"
)

// TestNativeToValueOwnValues: CEL's own values convert to themselves, as
// through upstream's ref.Val case, without allocating (celwasm patch).
func TestNativeToValueOwnValues(t *testing.T) {
	reg, err := NewRegistry()
	if err != nil {
		t.Fatal(err)
	}
	vals := []ref.Val{
		True, False, Int(-3), Uint(7), Double(1.5), String("s"), Bytes("b"), NullValue,
		Duration{Duration: time.Second}, Timestamp{Time: time.Unix(1, 2).UTC()},
		NewErr("boom"), (*Err)(nil), NewUnknown(4, nil), OptionalOf(Int(1)), OptionalNone,
		NewStringList(reg, []string{"x"}), NewRefValMap(reg, map[ref.Val]ref.Val{String("k"): Int(1)}),
	}
	for _, v := range vals {
		for _, a := range []Adapter{reg, DefaultTypeAdapter} {
			got := a.NativeToValue(v)
			if reflect.TypeOf(got) != reflect.TypeOf(v) || !reflect.DeepEqual(got, v) {
				t.Errorf("NativeToValue(%T %v) = %T %v, want the value itself", v, v, got, got)
			}
		}
		var in any = v
		if n := testing.AllocsPerRun(50, func() { reg.NativeToValue(in) }); n != 0 {
			t.Errorf("NativeToValue(%T) allocates %v times", v, n)
		}
	}
}
