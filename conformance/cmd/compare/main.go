// Command compare checks conformance result files (conformance/FORMAT.md)
// against the corpus expectations and against each other, byte for byte.
// For every host it prints "N passed, N failed, N skipped" and the sha256 of
// its result file; it fails when a test fails, a result file is missing or
// malformed, or the hosts' files differ. With -table it also writes the
// conformance table (docs/conformance.md).
package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/celwasm/celwasm/conformance/internal/check"
	"github.com/celwasm/celwasm/conformance/internal/corpus"
)

func main() {
	dir := flag.String("corpus", "conformance/corpus", "corpus directory")
	results := flag.String("results", "out/conformance", "result directory")
	hostList := flag.String("hosts", "", "comma-separated hosts to compare (default: every <host>.jsonl in -results)")
	skipsPath := flag.String("skips", "conformance/skips.txt", "the skip list (for the table)")
	table := flag.String("table", "", "write the conformance table (markdown) to this file")
	verbose := flag.Int("v", 20, "failures to list per host")
	flag.Parse()
	ok, err := run(*dir, *results, *hostList, *skipsPath, *table, *verbose)
	if err != nil {
		fmt.Fprintln(os.Stderr, "compare:", err)
		os.Exit(2)
	}
	if !ok {
		os.Exit(1)
	}
}

// hostReport is one host's outcome.
type hostReport struct {
	name                    string
	passed, failed, skipped int
	sha256                  string
	// per corpus part ("spec", "k8s") and per cel-spec file
	byPart map[string]*counts
	byFile map[string]*counts
}

type counts struct{ tests, passed, failed, skipped int }

func (c *counts) add(o check.Outcome) {
	c.tests++
	switch o {
	case check.Passed:
		c.passed++
	case check.Failed:
		c.failed++
	case check.Skipped:
		c.skipped++
	}
}

func run(dir, results, hostList, skipsPath, table string, verbose int) (bool, error) {
	tests, err := corpus.Read(dir)
	if err != nil {
		return false, err
	}
	var hosts []string
	if hostList != "" {
		hosts = strings.Split(hostList, ",")
	} else {
		files, _ := filepath.Glob(filepath.Join(results, "*.jsonl"))
		for _, f := range files {
			hosts = append(hosts, strings.TrimSuffix(filepath.Base(f), ".jsonl"))
		}
		// The reference first, then the others by name.
		sort.Slice(hosts, func(i, j int) bool {
			if (hosts[i] == "native") != (hosts[j] == "native") {
				return hosts[i] == "native"
			}
			return hosts[i] < hosts[j]
		})
	}
	if len(hosts) == 0 {
		return false, fmt.Errorf("no result files in %s", results)
	}
	ok := true
	var reports []*hostReport
	for _, h := range hosts {
		rep, err := judge(h, filepath.Join(results, h+".jsonl"), tests, verbose)
		if err != nil {
			fmt.Printf("%s: %v\n", h, err)
			ok = false
			continue
		}
		reports = append(reports, rep)
		if rep.failed > 0 {
			ok = false
		}
	}
	fmt.Println()
	for _, r := range reports {
		fmt.Printf("%-9s sha256 %s\n", r.name, r.sha256)
	}
	same := len(reports) == len(hosts)
	for _, r := range reports[1:] {
		same = same && r.sha256 == reports[0].sha256
	}
	if same {
		fmt.Printf("result files identical across %d hosts (%s)\n", len(reports), strings.Join(hosts, ", "))
	} else {
		fmt.Println("RESULT FILES DIFFER between hosts")
		diffFirst(results, hosts)
		ok = false
	}
	for _, r := range reports {
		for _, part := range sortedKeys(r.byPart) {
			c := r.byPart[part]
			fmt.Printf("%-9s %-11s %5d tests: %d passed, %d failed, %d skipped\n", r.name, part+".jsonl", c.tests, c.passed, c.failed, c.skipped)
		}
	}
	for _, r := range reports {
		fmt.Printf("%s: %d passed, %d failed, %d skipped\n", r.name, r.passed, r.failed, r.skipped)
	}
	if table != "" {
		skips, err := corpus.ReadSkips(skipsPath)
		if err != nil {
			return false, err
		}
		if err := writeTable(table, tests, reports, skips, same); err != nil {
			return false, err
		}
		fmt.Println("wrote", table)
	}
	return ok, nil
}

func judge(host, path string, tests []corpus.Test, verbose int) (*hostReport, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(b)
	if len(b) == 0 || b[len(b)-1] != '\n' {
		return nil, fmt.Errorf("%s: empty, or the last line does not end with \\n", path)
	}
	lines := bytes.Split(b[:len(b)-1], []byte("\n"))
	if len(lines) != len(tests) {
		return nil, fmt.Errorf("%s has %d lines, the corpus %d tests", path, len(lines), len(tests))
	}
	rep := &hostReport{name: host, sha256: hex.EncodeToString(sum[:]), byPart: map[string]*counts{}, byFile: map[string]*counts{}}
	listed := 0
	for i, t := range tests {
		o, why := check.Judge(t, lines[i])
		switch o {
		case check.Passed:
			rep.passed++
		case check.Failed:
			rep.failed++
			if listed < verbose {
				fmt.Printf("%s: FAIL %s: %s\n", host, t.ID, truncate(why, 400))
				listed++
			}
		case check.Skipped:
			rep.skipped++
		}
		part := t.Part
		if rep.byPart[part] == nil {
			rep.byPart[part] = &counts{}
		}
		rep.byPart[part].add(o)
		if part == "spec" {
			file, _, _ := strings.Cut(t.ID, "/")
			if rep.byFile[file] == nil {
				rep.byFile[file] = &counts{}
			}
			rep.byFile[file].add(o)
		}
	}
	if rep.failed > listed {
		fmt.Printf("%s: ... %d more failures\n", host, rep.failed-listed)
	}
	return rep, nil
}

// diffFirst prints the first line where two hosts' result files differ.
func diffFirst(results string, hosts []string) {
	ref, err := os.ReadFile(filepath.Join(results, hosts[0]+".jsonl"))
	if err != nil {
		return
	}
	refLines := bytes.Split(ref, []byte("\n"))
	for _, h := range hosts[1:] {
		b, err := os.ReadFile(filepath.Join(results, h+".jsonl"))
		if err != nil {
			continue
		}
		for i, l := range bytes.Split(b, []byte("\n")) {
			if i >= len(refLines) || !bytes.Equal(l, refLines[i]) {
				other := []byte("(missing)")
				if i < len(refLines) {
					other = refLines[i]
				}
				fmt.Printf("  %s line %d: %s\n  %s line %d: %s\n", hosts[0], i+1, truncate(string(other), 300), h, i+1, truncate(string(l), 300))
				break
			}
		}
	}
}

func truncate(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}
