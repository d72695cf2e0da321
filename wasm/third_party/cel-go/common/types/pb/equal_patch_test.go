package pb

import (
	"testing"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/dynamicpb"
	"google.golang.org/protobuf/types/known/anypb"
	"google.golang.org/protobuf/types/known/typepb"
	"google.golang.org/protobuf/types/known/wrapperspb"
)

// TestEqualDynamicAny: google.protobuf.Any fields of dynamic messages compare
// like those of generated ones instead of panicking (celwasm patch).
func TestEqualDynamicAny(t *testing.T) {
	dyn := func(v proto.Message, raw []byte) proto.Message {
		a, err := anypb.New(v)
		if err != nil {
			t.Fatal(err)
		}
		if raw != nil {
			a.Value = raw
		}
		opt := &typepb.Option{Name: "o", Value: a}
		b, err := proto.Marshal(opt)
		if err != nil {
			t.Fatal(err)
		}
		m := dynamicpb.NewMessage(opt.ProtoReflect().Descriptor())
		if err := proto.Unmarshal(b, m); err != nil {
			t.Fatal(err)
		}
		return m
	}
	one := dyn(wrapperspb.Int64(1), nil)
	if !Equal(one, dyn(wrapperspb.Int64(1), nil)) {
		t.Error("equal Any fields compare unequal")
	}
	if Equal(one, dyn(wrapperspb.Int64(2), nil)) {
		t.Error("different Any fields compare equal")
	}
	// Bytes that differ but decode to the same message (a repeated field
	// written twice): equal after unpacking.
	if !Equal(one, dyn(wrapperspb.Int64(1), []byte{0x08, 0x05, 0x08, 0x01})) {
		t.Error("Any fields equal after unpacking compare unequal")
	}
}
