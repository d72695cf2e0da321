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

// Compress writes the module as `make wasm` embeds it: zstd at its best
// compression level, one encoder goroutine, so that the same module always
// gives the same bytes (RATIONALE.md, "The module ships inside the Go module").
func Compress(wasm []byte) ([]byte, error) {
	var buf bytes.Buffer
	w, err := zstd.NewWriter(&buf, zstd.WithEncoderLevel(zstd.SpeedBestCompression), zstd.WithEncoderConcurrency(1),
		zstd.WithWindowSize(8<<20))
	if err != nil {
		return nil, err
	}
	if _, err := w.Write(wasm); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
