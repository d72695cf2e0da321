// Command compress writes the embedded form of the module:
//
//	go run ./host/module/compress build/celwasm.wasm host/module/celwasm.wasm.zst
package main

import (
	"fmt"
	"os"

	"github.com/celwasm/celwasm/host/module/internal/zst"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: compress MODULE.wasm OUT.wasm.zst")
		os.Exit(2)
	}
	raw, err := os.ReadFile(os.Args[1])
	if err == nil {
		var z []byte
		if z, err = zst.Compress(raw); err == nil {
			err = os.WriteFile(os.Args[2], z, 0o644)
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "compress:", err)
		os.Exit(1)
	}
}
