//go:build unix

package wazero

import (
	"github.com/tetratelabs/wazero/experimental"
	"golang.org/x/sys/unix"
)

// reservedMemory backs a guest's linear memory with an address range
// reserved up to the memory limit and committed as the guest grows it, as
// wasmtime does. The buffer never moves, so the interrupt flag can be
// written from another goroutine while the guest runs, and pages the guest
// never touches cost no RSS.
type reservedMemory struct {
	region    []byte // the whole reservation
	committed uint64
}

func newMemoryAllocator() experimental.MemoryAllocator {
	return experimental.MemoryAllocatorFunc(func(capBytes, maxBytes uint64) experimental.LinearMemory {
		region, err := unix.Mmap(-1, 0, int(maxBytes), unix.PROT_NONE, unix.MAP_PRIVATE|unix.MAP_ANON|unix.MAP_NORESERVE)
		if err != nil {
			return &sliceMemory{}
		}
		return &reservedMemory{region: region}
	})
}

func (m *reservedMemory) Reallocate(size uint64) []byte {
	if size > uint64(len(m.region)) {
		return nil
	}
	if size > m.committed {
		if err := unix.Mprotect(m.region[m.committed:size], unix.PROT_READ|unix.PROT_WRITE); err != nil {
			return nil
		}
		m.committed = size
	}
	return m.region[:size]
}

func (m *reservedMemory) Free() {
	if m.region != nil {
		unix.Munmap(m.region)
		m.region = nil
	}
}
