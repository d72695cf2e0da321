package codec

import (
	"strings"
	"testing"

	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"

	"github.com/celwasm/celwasm/wasm/engine"
	"github.com/celwasm/celwasm/wire"
)

// TestReusedActivationLendsMaps: an activation reused with Reset lends the
// objects it converts from a pool, so a second object of the same shape
// allocates no Map; every object read after a Reset holds that object's
// members, never the previous one's; Drop and Reset zero what was lent;
// past maxPooledMaps objects are allocated, not pooled.
func TestReusedActivationLendsMaps(t *testing.T) {
	env, err := engine.NewEnv(wire.EnvSpec{Variables: []wire.VariableDecl{{Name: "self", Type: "dyn"}}})
	if err != nil {
		t.Fatal(err)
	}
	var a Activation
	get := func(m ref.Val, path ...string) ref.Val {
		for _, k := range path {
			v, ok := m.(traits.Mapper).Find(types.String(k))
			if !ok {
				return nil
			}
			m = v
		}
		return m
	}
	read := func(doc string) ref.Val {
		if err := a.Reset(env, doc, nil); err != nil {
			t.Fatal(err)
		}
		v, _ := a.ResolveName("self")
		return v.(ref.Val)
	}
	self := read(`{"self":{"spec":{"replicas":3,"name":"a"},"x":1}}`)
	if got := get(self, "spec", "replicas"); got != types.Int(3) {
		t.Fatalf("replicas: %v", got)
	}
	if a.maps.used != 2 {
		t.Fatalf("%d maps lent for two objects", a.maps.used)
	}
	lent := a.maps.maps[0]
	// The next object reuses the same Maps, with its own members only.
	self = read(`{"self":{"spec":{"name":"b"}}}`)
	if self.(*Map) != lent {
		t.Errorf("the second object did not reuse the first Map")
	}
	if got := get(self, "spec", "replicas"); got != nil {
		t.Errorf("a member of the previous object is still there: %v", got)
	}
	if got := get(self, "spec", "name"); got != types.String("b") {
		t.Errorf("name: %v", got)
	}
	if get(self, "x") != nil {
		t.Errorf("x of the previous object is still there")
	}
	specK, nameK := ref.Val(types.String("spec")), ref.Val(types.String("name")) // boxed once: the test's own
	if n := testing.AllocsPerRun(100, func() {
		// A number below 256: Go boxes those without allocating, so
		// the count is the objects' alone.
		spec, _ := read(`{"self":{"spec":{"name":7}}}`).(traits.Mapper).Find(specK)
		if name, _ := spec.(traits.Mapper).Find(nameK); name != types.Int(7) {
			t.Fatalf("name: %v", name)
		}
	}); n != 0 {
		t.Errorf("%v allocations per reuse, want 0", n)
	}
	a.Drop()
	for i, m := range a.maps.maps {
		if m.conv != nil || m.raw != "" || m.index != nil || m.keys != nil || len(m.own.entries) != 0 || m.own.inline[0] != (mapEntry{}) {
			t.Errorf("map %d still holds %q after Drop", i, m.raw)
		}
	}
	// More objects than the pool keeps: the rest are allocated.
	items := strings.Repeat(`{"a":1},`, maxPooledMaps+10)
	self = read(`{"self":{"items":[` + items + `{"a":2}]}}`)
	n := 0
	it := get(self, "items").(traits.Lister).Iterator()
	for it.HasNext() == types.True {
		if get(it.Next(), "a") == nil {
			t.Fatalf("item %d has no a", n)
		}
		n++
	}
	if n != maxPooledMaps+11 || len(a.maps.maps) != maxPooledMaps {
		t.Errorf("%d items read, %d maps pooled (bound %d)", n, len(a.maps.maps), maxPooledMaps)
	}
}
