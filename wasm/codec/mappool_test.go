package codec

import (
	"fmt"
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

// TestReusedActivationPoolsIndexesAndLists: over a reused activation, the
// index of an object past inlineEntries members and the elements of a list
// come from runs of the activation's pool. Every value read equals what a
// fresh activation gives (duplicate keys: the last wins; document order),
// objects and lists read in one call keep their own runs, a list read while
// another converts its elements gets its own, allocations do not grow with
// the number of members or elements, Drop zeroes the runs, and runs past
// maxPooledRun are not kept.
func TestReusedActivationPoolsIndexesAndLists(t *testing.T) {
	env, err := engine.NewEnv(wire.EnvSpec{Variables: []wire.VariableDecl{
		{Name: "self", Type: "dyn"}, {Name: "lists", Type: "list(list(int))"},
	}})
	if err != nil {
		t.Fatal(err)
	}
	object := func(n int, prefix string) string {
		var b strings.Builder
		b.WriteString("{")
		for i := range n {
			fmt.Fprintf(&b, `"%s%d":%d,`, prefix, i, i)
		}
		fmt.Fprintf(&b, `"%s3":"last"}`, prefix) // a duplicate of a member listed before
		return b.String()
	}
	doc := `{"self":{"big":` + object(40, "k") + `,"mid":` + object(7, "m") +
		`,"items":[` + object(6, "a") + `,` + object(5, "b") + `,[1,[2,3]],"s"]},"lists":[[1,2],[3],[]]}`
	encode := func(a *Activation, name string) string {
		v, ok := a.ResolveName(name)
		if !ok {
			t.Fatalf("%s: not found", name)
		}
		b, err := AppendValue(nil, v.(ref.Val))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	fresh, err := NewActivation(env, doc)
	if err != nil {
		t.Fatal(err)
	}
	keys := func(a *Activation) string { // the big object's keys, in iteration order
		self, _ := a.ResolveName("self")
		var b strings.Builder
		for it := self.(traits.Mapper).Get(types.String("big")).(traits.Mapper).Iterator(); it.HasNext() == types.True; {
			b.WriteString(string(it.Next().(types.String)) + " ")
		}
		return b.String()
	}
	want := encode(fresh, "self") + encode(fresh, "lists") + keys(fresh)
	if !strings.HasPrefix(keys(fresh), "k0 k1 k2 k3 k4 ") || strings.Count(keys(fresh), " ") != 40 {
		t.Fatalf("fresh activation's keys: %s", keys(fresh))
	}
	if !strings.Contains(want, `["k3","last"]`) || strings.Contains(want, `["k3",{"int":"3"}]`) {
		t.Fatalf("fresh activation: %s", want)
	}
	var a Activation
	for round := range 3 {
		if err := a.Reset(env, doc, nil); err != nil {
			t.Fatal(err)
		}
		// Read the members in an order that interleaves the runs: the
		// inner objects and lists first, then the outer ones.
		self, _ := a.ResolveName("self")
		items := self.(traits.Mapper).Get(types.String("items")).(traits.Lister)
		first := items.Get(types.Int(0)).(traits.Mapper)
		if got := first.Get(types.String("a3")); got != types.String("last") {
			t.Fatalf("round %d: items[0].a3 = %v", round, got)
		}
		if got := items.Get(types.Int(2)).(traits.Lister).Get(types.Int(1)).(traits.Lister).Get(types.Int(0)); got != types.Int(2) {
			t.Fatalf("round %d: items[2][1][0] = %v", round, got)
		}
		big := self.(traits.Mapper).Get(types.String("big")).(traits.Mapper)
		if got := big.Get(types.String("k39")); got != types.Int(39) {
			t.Fatalf("round %d: big.k39 = %v", round, got)
		}
		if got := first.Get(types.String("a5")); got != types.Int(5) {
			t.Fatalf("round %d: items[0].a5 after big was indexed = %v", round, got)
		}
		if got := encode(&a, "self") + encode(&a, "lists") + keys(&a); got != want {
			t.Fatalf("round %d:\n got %s\nwant %s", round, got, want)
		}
		if len(a.maps.entries) == 0 || len(a.maps.vals) == 0 {
			t.Fatalf("round %d: %d entries and %d elements pooled", round, len(a.maps.entries), len(a.maps.vals))
		}
	}
	a.Drop()
	for i, e := range a.maps.entries[:cap(a.maps.entries)] {
		if e != (mapEntry{}) {
			t.Fatalf("entry %d still holds %q after Drop", i, e.key)
		}
	}
	for i, v := range a.maps.vals[:cap(a.maps.vals)] {
		if v != nil {
			t.Fatalf("element %d still holds %v after Drop", i, v)
		}
	}

	// Allocations per call do not grow with the members and elements read
	// (up to linearLimit members: past it an index adds a map).
	allocs := func(members int) float64 {
		doc := `{"self":{"o":` + object(members, "k") + `,"l":[` + strings.Repeat(`7,`, members) + `7]}}`
		oK, lK, kK := ref.Val(types.String("o")), ref.Val(types.String("l")), ref.Val(types.String(fmt.Sprintf("k%d", members-1)))
		return testing.AllocsPerRun(50, func() {
			if err := a.Reset(env, doc, nil); err != nil {
				t.Fatal(err)
			}
			self, _ := a.ResolveName("self")
			o, _ := self.(traits.Mapper).Find(oK)
			if v, _ := o.(traits.Mapper).Find(kK); v != types.Int(members-1) {
				t.Fatalf("k%d: %v", members-1, v)
			}
			l, _ := self.(traits.Mapper).Find(lK)
			if n := l.(traits.Lister).Size(); n != types.Int(members+1) {
				t.Fatalf("list size %v", n)
			}
		})
	}
	if small, large := allocs(8), allocs(linearLimit); large != small {
		t.Errorf("%v allocations per call over 8 members and elements, %v over %d", small, large, linearLimit)
	}

	// Runs past the bound are let go at Drop.
	if err := a.Reset(env, `{"self":`+object(maxPooledRun+1, "k")+`}`, nil); err != nil {
		t.Fatal(err)
	}
	self, _ := a.ResolveName("self")
	if v := self.(traits.Mapper).Get(types.String("k4096")); v != types.Int(4096) {
		t.Fatalf("k4096: %v", v)
	}
	a.Drop()
	if a.maps.entries != nil {
		t.Errorf("%d pooled entries kept past the bound", cap(a.maps.entries))
	}
}
