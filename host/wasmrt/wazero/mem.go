package wazero

// sliceMemory is a Go-slice linear memory that may move when it grows; used
// where address space cannot be reserved. Interrupts are then best effort.
type sliceMemory struct{ buf []byte }

func (m *sliceMemory) Reallocate(size uint64) []byte {
	if size <= uint64(cap(m.buf)) {
		m.buf = m.buf[:size]
		return m.buf
	}
	nb := make([]byte, size, size+size/2)
	copy(nb, m.buf)
	m.buf = nb
	return m.buf
}

func (m *sliceMemory) Free() { m.buf = nil }
