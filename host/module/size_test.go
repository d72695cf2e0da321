package module

import (
	"testing"

	"github.com/celwasm/celwasm/host/module/internal/zst"
)

// The committed streams record their module's size, so Size (which
// Runtime.Version reports) needs no decompression, and it is the real size.
func TestSizeFromFrameHeader(t *testing.T) {
	for _, m := range All() {
		n, ok := zst.ContentSize(m.compressed)
		if !ok {
			t.Fatalf("%s: the zstd frame header records no size (rebuild with make wasm)", m.Name)
		}
		if got := len(m.Bytes()); n != got || m.Size() != got {
			t.Errorf("%s: header says %d bytes, Size %d, the module has %d", m.Name, n, m.Size(), got)
		}
	}
}
