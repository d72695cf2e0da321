package wasmtime

import (
	"bytes"
	"context"
	"testing"

	celwasm "github.com/celwasm/celwasm/host"
	"github.com/celwasm/celwasm/host/module"
	"github.com/celwasm/celwasm/host/wasmrt"
)

// TestMemoryRange: MemoryRange answers from the view it last read while a
// range lies inside it, reads the memory again when the guest has grown it
// since, refuses what lies outside, and sees what the guest wrote.
func TestMemoryRange(t *testing.T) {
	ctx := context.Background()
	eng, err := New(ctx, wasmrt.Module{SHA256: module.Expr.SHA256(), Bytes: module.Expr.Load}, wasmrt.EngineConfig{CacheDir: celwasm.DefaultCacheDir("wasmtime")})
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close(ctx)
	raw, err := eng.Instantiate(ctx, wasmrt.InstanceConfig{Args: []string{"celwasm"}})
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close(ctx)
	in := raw.(*instance)
	size := uint32(len(in.Memory()))
	if _, ok := in.MemoryRange(size-8, 8); !ok {
		t.Fatalf("the last 8 bytes of a %d-byte memory: outside", size)
	}
	if _, ok := in.MemoryRange(size-8, 9); ok {
		t.Fatalf("a range past the end of memory: inside")
	}
	// A buffer larger than the memory makes the guest grow it; the view is
	// now stale, and the range past it must still be found.
	n := size + 1<<20
	ptr, err := raw.Call(ctx, wasmrt.ExportAlloc, n)
	if err != nil || ptr == 0 {
		t.Fatalf("alloc %d: %d, %v", n, ptr, err)
	}
	if uint64(len(in.view)) >= uint64(ptr)+uint64(n) {
		t.Fatalf("the view already holds the new buffer: the test grows nothing")
	}
	b, ok := in.MemoryRange(uint32(ptr), n)
	if !ok || len(b) != int(n) {
		t.Fatalf("the grown buffer: ok %v, %d bytes", ok, len(b))
	}
	copy(b[n-5:], "hello")
	if got := in.Memory()[uint32(ptr)+n-5 : uint32(ptr)+n]; !bytes.Equal(got, []byte("hello")) {
		t.Errorf("written through the range, read through Memory: %q", got)
	}
	if _, ok := in.MemoryRange(^uint32(0)-2, 8); ok {
		t.Errorf("a range that wraps 32 bits: inside")
	}
}
