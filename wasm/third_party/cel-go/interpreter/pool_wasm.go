//go:build wasm

package interpreter

// syncPool is a freeList: WebAssembly runs Go on one thread.
type syncPool = freeList
