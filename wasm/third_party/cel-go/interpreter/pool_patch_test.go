package interpreter

import (
	"runtime"
	"sync"
	"testing"
)

// TestPoolPatchFreeList checks the pool the interpreter uses on
// WebAssembly: New when empty, the last object put comes back first, and
// at most len(free) objects are kept.
func TestPoolPatchFreeList(t *testing.T) {
	made := 0
	p := &freeList{New: func() any { made++; return &ExecutionFrame{} }}
	a := p.Get().(*ExecutionFrame)
	b := p.Get().(*ExecutionFrame)
	if made != 2 || a == b {
		t.Fatalf("two Gets from an empty list: New called %d times, same object %v", made, a == b)
	}
	p.Put(a)
	p.Put(b)
	if p.Get() != b || p.Get() != a || made != 2 {
		t.Fatalf("Gets after two Puts: want b then a without New, New called %d times", made)
	}
	kept := make([]*ExecutionFrame, len(p.free)+3)
	for i := range kept {
		kept[i] = &ExecutionFrame{}
		p.Put(kept[i])
	}
	if p.n != len(p.free) {
		t.Fatalf("after %d Puts the list holds %d, want its capacity %d", len(kept), p.n, len(p.free))
	}
	for i := len(p.free) - 1; i >= 0; i-- {
		if p.Get() != kept[i] {
			t.Fatalf("Get %d: not the object put at %d", len(p.free)-1-i, i)
		}
	}
	if p.Get(); made != 3 {
		t.Fatalf("Get from the emptied list: New called %d times in all, want 3", made)
	}
	for _, x := range p.free {
		if x != nil {
			t.Fatal("the emptied list still references an object")
		}
	}
}

// TestPoolPatchOnlyWebAssembly checks that the free list replaces
// sync.Pool only where Go runs on one thread.
func TestPoolPatchOnlyWebAssembly(t *testing.T) {
	var p any = &syncPool{}
	_, isSync := p.(*sync.Pool)
	_, isFree := p.(*freeList)
	if wasm := runtime.GOARCH == "wasm"; isFree != wasm || isSync == wasm {
		t.Fatalf("GOARCH %s: syncPool is %T", runtime.GOARCH, p)
	}
}
