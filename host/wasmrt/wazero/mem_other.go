//go:build !unix

package wazero

import "github.com/tetratelabs/wazero/experimental"

func newMemoryAllocator() experimental.MemoryAllocator {
	return experimental.MemoryAllocatorFunc(func(capBytes, maxBytes uint64) experimental.LinearMemory {
		return &sliceMemory{}
	})
}
