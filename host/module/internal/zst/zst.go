// Package zst is the module's embedded compression (zstd, klauspost/compress).
package zst

import (
	"bytes"
	"io"

	"github.com/klauspost/compress/zstd"
)

// Decompress reads a zstd stream (celwasm.wasm.zst).
func Decompress(z []byte) ([]byte, error) {
	r, err := zstd.NewReader(bytes.NewReader(z), zstd.WithDecoderConcurrency(1))
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return io.ReadAll(r)
}

// ContentSize returns the uncompressed size that the stream's frame header
// records (Compress writes it), without decompressing; ok is false when the
// header has none.
func ContentSize(z []byte) (size int, ok bool) {
	var h zstd.Header
	if h.Decode(z) != nil || !h.HasFCS {
		return 0, false
	}
	return int(h.FrameContentSize), true
}

// Compress writes the module as `make wasm` embeds it: zstd at its best
// compression level, one encoder goroutine, so that the same module always
// gives the same bytes (RATIONALE.md, "The module ships inside the Go module"),
// with the module's size in the frame header (ContentSize).
func Compress(wasm []byte) ([]byte, error) {
	var buf bytes.Buffer
	w, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedBestCompression), zstd.WithEncoderConcurrency(1),
		zstd.WithWindowSize(8<<20))
	if err != nil {
		return nil, err
	}
	w.ResetContentSize(&buf, int64(len(wasm)))
	if _, err := w.Write(wasm); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
