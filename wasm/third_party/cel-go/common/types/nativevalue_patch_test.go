package types

import (
	"fmt"
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

// TestNativeToValueRefValCaseCache: values whose types reach different
// cases of nativeToValue, converted again and again in alternation, keep
// the first answer of each (on wasm, later answers for the types that reach
// the ref.Val case come from refValCase).
func TestNativeToValueRefValCaseCache(t *testing.T) {
	reg, err := NewRegistry()
	if err != nil {
		t.Fatal(err)
	}
	i := Int(4)
	ins := []any{
		Int(3), String("s"), Double(2.5), Uint(9), &i, (*Int)(nil), 5, "t", nil,
		NewStringList(reg, []string{"x"}), []string{"y"}, map[string]int{"k": 1},
		time.Second, Duration{Duration: time.Minute},
	}
	first := make([]ref.Val, len(ins))
	for round := 0; round < 3; round++ {
		for k, in := range ins {
			got := reg.NativeToValue(in)
			if round == 0 {
				first[k] = got
				continue
			}
			if reflect.TypeOf(got) != reflect.TypeOf(first[k]) || (got.Equal(first[k]) != True && fmt.Sprint(got) != fmt.Sprint(first[k])) {
				t.Errorf("round %d: NativeToValue(%T) = %T %v, first %T %v", round, in, got, got, first[k], first[k])
			}
		}
	}
	if got := reg.NativeToValue(&i); got != Int(4) {
		t.Errorf("NativeToValue(*Int) = %T %v, want Int 4", got, got)
	}
}
