// Command cmd runs stagebench over the CloudEvent given as its only
// argument and prints the results as one JSON array. It is built for
// GOOS=wasip1 (a WASI command) by make bench; celwasm-bench runs it under
// wazero and wasmtime-go beside the same code run natively.
package main

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/celwasm/celwasm/wasm/stagebench"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: stagebench EVENT_JSON")
		os.Exit(2)
	}
	res, err := stagebench.Run([]byte(os.Args[1]))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	json.NewEncoder(os.Stdout).Encode(res)
}
