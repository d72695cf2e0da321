//go:build !wasm

package itab

// Cache of the itabs of interface I: outside wasm, nothing (the compiler's
// own cache serves assertions).
type Cache[I any] struct{}

// Assert is v.(I).
func (*Cache[I]) Assert(v any) (I, bool) {
	i, ok := v.(I)
	return i, ok
}

// Lookup finds nothing outside wasm.
func (*Cache[I]) Lookup(any) (I, bool) {
	var zero I
	return zero, false
}

// Remember does nothing outside wasm.
func (*Cache[I]) Remember(any, I) {}
