//go:build !wasm

package interpreter

import "sync"

// syncPool is sync.Pool, as upstream uses it.
type syncPool = sync.Pool
