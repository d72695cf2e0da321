// Package module embeds the celwasm WebAssembly module that `make wasm`
// builds (GOOS=wasip1 GOARCH=wasm -buildmode=c-shared, from wasm/module),
// with the sha256 the build recorded for it.
package module

import (
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"strings"
	"sync"
)

//go:embed celwasm.wasm
var wasm []byte

//go:embed celwasm.wasm.sha256
var recorded string

// Bytes returns the module's bytes. Callers must not modify them.
func Bytes() []byte { return wasm }

var sum = sync.OnceValue(func() string {
	if s := strings.TrimSpace(recorded); len(s) == 64 {
		return s
	}
	s := sha256.Sum256(wasm)
	return hex.EncodeToString(s[:])
})

// SHA256 returns the hex sha256 of the module as `make wasm` recorded it
// (build/celwasm.wasm.sha256), so that no process has to hash the module
// to name its compile cache.
func SHA256() string { return sum() }
