package itab

import (
	"fmt"
	"reflect"
	"runtime"
	"testing"
)

type shape interface{ Area() int }

type sq int

func (s sq) Area() int { return int(s) * int(s) }

type rect struct{ w, h int }

func (r *rect) Area() int { return r.w * r.h }

type notShape string

// many gives values of more dynamic types than a Cache has slots, so
// that entries are replaced.
func many() []any {
	var vs []any
	add := func(v any) { vs = append(vs, v) }
	add(sq(3))
	add(&rect{2, 5})
	add(notShape("x"))
	add(nil)
	add((*rect)(nil))
	add(7)
	add("s")
	// 72 more, all shapes.
	for _, v := range arrays() {
		add(v)
	}
	return vs
}

// TestAssertIsTheAssertionPatch: Assert answers what v.(I) answers, first and
// again (from the cache, when built for wasm), over more types than slots.
func TestAssertIsTheAssertionPatch(t *testing.T) {
	var c Cache[shape]
	vs := many()
	for round := 0; round < 3; round++ {
		for _, v := range vs {
			got, ok := c.Assert(v)
			want, wantOK := v.(shape)
			if ok != wantOK || !reflect.DeepEqual(got, want) || fmt.Sprintf("%T", got) != fmt.Sprintf("%T", want) {
				t.Fatalf("round %d: Assert(%T %v) = %T %v, %v; want %T %v, %v", round, v, v, got, got, ok, want, want, wantOK)
			}
			if r, isRect := v.(*rect); ok && (!isRect || r != nil) && got.Area() != want.Area() {
				t.Fatalf("Assert(%T).Area() = %d, want %d", v, got.Area(), want.Area())
			}
		}
	}
}

// TestLookupAnswersOnlyWhatWasRememberedPatch: Lookup knows a type only after
// Remember, and then converts any value of that type (its own data word),
// never one of another type.
func TestLookupAnswersOnlyWhatWasRememberedPatch(t *testing.T) {
	var c Cache[shape]
	if _, ok := c.Lookup(sq(2)); ok {
		t.Fatal("Lookup found a type nothing remembered")
	}
	c.Remember(sq(2), sq(2))
	got, ok := c.Lookup(sq(4))
	if runtime.GOARCH == "wasm" { // the only build with a cache
		if !ok || got.Area() != 16 {
			t.Fatalf("Lookup(sq(4)) = %v, %v; want sq(4) from the cache", got, ok)
		}
	} else if ok {
		t.Fatal("Lookup found a type outside wasm")
	}
	for _, v := range []any{&rect{1, 1}, 4, nil, notShape("y")} {
		if got, ok := c.Lookup(v); ok {
			t.Fatalf("Lookup(%T) = %v, want no entry", v, got)
		}
	}
}

// TestAssertCachedAllocatesNothingPatch: an answer from the cache is the value
// in place, not a copy.
func TestAssertCachedAllocatesNothingPatch(t *testing.T) {
	var c Cache[shape]
	var v any = &rect{3, 4}
	c.Assert(v)
	var s shape
	if n := testing.AllocsPerRun(100, func() { s, _ = c.Assert(v) }); n != 0 {
		t.Fatalf("Assert allocates %v times", n)
	}
	if s.(*rect) != v.(*rect) {
		t.Fatal("Assert gave another pointer")
	}
}
