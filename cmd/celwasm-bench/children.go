package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
)

// childTiming is one case on native cel-go in a child process: µs and heap
// allocations per call.
type childTiming struct {
	US     float64
	Allocs int64
}

// childTime times case c once on native cel-go in a child process: bin is
// cmd/celwasm-bench/upstream built, a module of its own. make builds it twice:
// build/bin/celgo-upstream links upstream github.com/google/cel-go v0.29.2
// and k8s.io/apiserver v0.37.2 (a Go program without celwasm), and
// build/bin/celgo-fork is the same program on the patched fork, so that the
// two differ in cel-go alone and not in the process they run in (this
// process holds both runtimes, their linear memories and the modules'
// bytes, a live heap that makes the collector run far less often than in a
// program of its own). want is the case's result on the fork's native path
// here; a child that answers otherwise is an error.
func childTime(bin string, c benchCase, want []byte) (childTiming, error) {
	cmd := exec.Command(bin, "-expression", c.expr, "-variable", c.variable, "-test.benchtime", flag.Lookup("test.benchtime").Value.String())
	cmd.Stdin, cmd.Stderr = bytes.NewReader(c.activation), os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return childTiming{}, fmt.Errorf("native cel-go baseline %s, %s: %w", bin, c.name, err)
	}
	var res struct {
		Result json.RawMessage `json:"result"`
		US     float64         `json:"us"`
		Allocs int64           `json:"allocs"`
	}
	if err := json.Unmarshal(out, &res); err != nil {
		return childTiming{}, fmt.Errorf("native cel-go baseline %s, %s: %w", bin, c.name, err)
	}
	if !bytes.Equal(res.Result, want) {
		return childTiming{}, fmt.Errorf("native cel-go baseline %s, %s: gives %s, the fork natively %s", bin, c.name, res.Result, want)
	}
	return childTiming{res.US, res.Allocs}, nil
}
