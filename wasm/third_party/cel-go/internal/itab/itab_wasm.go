//go:build wasm

package itab

import "unsafe"

const slots = 64

// Cache of the itabs of interface I: one entry per slot, the slot chosen
// by the dynamic type's address. wasm runs Go on one thread, and no
// goroutine switch can come between reading or writing an entry's two
// words (no call between them).
type Cache[I any] struct {
	t table
}

type table [slots]struct {
	typ, tab unsafe.Pointer
}

// words is the layout of an interface value: type (any) or itab
// (non-empty interface), then data.
type words struct {
	typ, data unsafe.Pointer
}

// find is the itab remembered for v's dynamic type, or nil.
func (t *table) find(v any) unsafe.Pointer {
	w := (*words)(unsafe.Pointer(&v))
	e := &t[int(uintptr(w.typ)>>4)&(slots-1)]
	if w.typ == nil || e.typ != w.typ {
		return nil
	}
	return e.tab
}

func (t *table) remember(v any, tab unsafe.Pointer) {
	w := (*words)(unsafe.Pointer(&v))
	if w.typ == nil || tab == nil {
		return
	}
	e := &t[int(uintptr(w.typ)>>4)&(slots-1)]
	e.typ, e.tab = w.typ, tab
}

// Assert is v.(I), answered from the cache when v's type was asserted to I
// before.
func (c *Cache[I]) Assert(v any) (i I, ok bool) {
	if i, ok = c.Lookup(v); !ok {
		if i, ok = v.(I); ok {
			c.Remember(v, i)
		}
	}
	return i, ok
}

// Lookup is v converted to I if v's type is in the cache; ok is false if
// it is not (not that v is not an I).
func (c *Cache[I]) Lookup(v any) (i I, ok bool) {
	tab := c.t.find(v)
	if tab == nil {
		return i, false
	}
	out := (*words)(unsafe.Pointer(&i))
	out.typ, out.data = tab, (*words)(unsafe.Pointer(&v)).data
	return i, true
}

// Remember records that v's type converts to I with i's itab; i must be v
// converted to I.
func (c *Cache[I]) Remember(v any, i I) {
	c.t.remember(v, (*words)(unsafe.Pointer(&i)).typ)
}
