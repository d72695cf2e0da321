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
	US     float64 `json:"us"`
	Allocs int64   `json:"allocs"`
}

// childTimes times cases on native cel-go in a child process: bin is
// cmd/celwasm-bench/upstream built, a module of its own. make builds it twice:
// build/bin/celgo-upstream links upstream github.com/google/cel-go v0.29.2
// and k8s.io/apiserver v0.37.2 (a Go program without celwasm), and
// build/bin/celgo-fork is the same program on the patched fork, so that the
// two differ in cel-go alone and not in the process they run in (this
// process holds both runtimes, their linear memories and the modules'
// bytes, a live heap that makes the collector run far less often than in a
// program of its own).
// Each case's result on the fork's native path is passed as the one wanted,
// so a baseline that answers differently fails the run. By case id ("a",
// ..., "true").
func childTimes(bin string, cases []benchCase, rounds int) (map[string]childTiming, error) {
	type refCase struct {
		ID         string `json:"id"`
		Expression string `json:"expression"`
		Variable   string `json:"variable"`
		Activation string `json:"activation"`
		Want       string `json:"want"`
	}
	var in []refCase
	for _, c := range cases {
		p, err := nativePath(c)
		if err != nil {
			return nil, err
		}
		want, err := p.eval(c.activation)
		if err != nil {
			return nil, err
		}
		in = append(in, refCase{caseID(c.name), c.expr, c.variable, string(c.activation), string(want)})
	}
	req, err := json.Marshal(in)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(bin, "-rounds", fmt.Sprint(rounds), "-test.benchtime", flag.Lookup("test.benchtime").Value.String())
	cmd.Stdin, cmd.Stderr = bytes.NewReader(req), os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("native cel-go baseline %s: %w", bin, err)
	}
	var res map[string]childTiming
	if err := json.Unmarshal(out, &res); err != nil {
		return nil, fmt.Errorf("native cel-go baseline %s: %w", bin, err)
	}
	for _, c := range in {
		if _, ok := res[c.ID]; !ok {
			return nil, fmt.Errorf("native cel-go baseline %s: no time for case %s", bin, c.ID)
		}
	}
	return res, nil
}
