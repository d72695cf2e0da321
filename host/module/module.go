// Package module embeds the celwasm WebAssembly module that `make wasm`
// builds (GOOS=wasip1 GOARCH=wasm -buildmode=c-shared, from wasm/module).
package module

import (
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"sync"
)

//go:embed celwasm.wasm
var wasm []byte

// Bytes returns the module's bytes. Callers must not modify them.
func Bytes() []byte { return wasm }

var sum = sync.OnceValue(func() string {
	s := sha256.Sum256(wasm)
	return hex.EncodeToString(s[:])
})

// SHA256 returns the hex sha256 of the module, as `make wasm` records it in
// build/celwasm.wasm.sha256.
func SHA256() string { return sum() }
