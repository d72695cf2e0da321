// Command cmd runs stagebench over the CloudEvent and the reference cases
// (a JSON array of stagebench.Case) given as its arguments and prints the
// results as one JSON array. It is built for
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
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: stagebench EVENT_JSON CASES_JSON")
		os.Exit(2)
	}
	var cases []stagebench.Case
	if err := json.Unmarshal([]byte(os.Args[2]), &cases); err != nil {
		fmt.Fprintln(os.Stderr, "cases:", err)
		os.Exit(2)
	}
	res, err := stagebench.Run([]byte(os.Args[1]), cases)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	json.NewEncoder(os.Stdout).Encode(res)
}
