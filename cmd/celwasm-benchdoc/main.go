// Command celwasm-benchdoc writes docs/benchmarks.md from the benchmark
// results: every build/bench/*.json (one section each, written by the
// benchmark commands) and the targets file. Sections that the results
// directory lacks keep the results embedded in the previous document, so one
// benchmark can be rerun alone.
//
//	go run ./cmd/celwasm-benchdoc [-in build/bench] [-targets docs/bench-targets.json] [-o docs/benchmarks.md]
package main

import (
	"bytes"
	_ "embed"
	"flag"
	"fmt"
	"os"

	"github.com/celwasm/celwasm/internal/benchdoc"
)

//go:embed header.md
var header string

func main() {
	in := flag.String("in", "build/bench", "directory of section files (*.json)")
	targetsFile := flag.String("targets", "docs/bench-targets.json", "targets file")
	out := flag.String("o", "docs/benchmarks.md", "document to write")
	keep := flag.Bool("keep", true, "keep the sections of the previous document that -in lacks")
	flag.Parse()
	if err := run(*in, *targetsFile, *out, *keep); err != nil {
		fmt.Fprintln(os.Stderr, "celwasm-benchdoc:", err)
		os.Exit(1)
	}
}

func run(in, targetsFile, out string, keep bool) error {
	targets, err := benchdoc.ReadTargets(targetsFile)
	if err != nil {
		return err
	}
	sections, err := benchdoc.Load(in)
	if err != nil {
		return err
	}
	for _, s := range sections {
		fmt.Fprintf(os.Stderr, "celwasm-benchdoc: %s from %s/%s.json (%s)\n", s.Section, in, s.Section, s.Date)
	}
	if keep {
		if prev, err := os.ReadFile(out); err == nil {
			old, err := benchdoc.Embedded(prev)
			if err != nil {
				return fmt.Errorf("%s: %w", out, err)
			}
			merged := benchdoc.Merge(sections, old)
			for _, s := range merged[len(sections):] {
				fmt.Fprintf(os.Stderr, "celwasm-benchdoc: %s kept from %s (%s)\n", s.Section, out, s.Date)
			}
			sections = merged
		} else if !os.IsNotExist(err) {
			return err
		}
	}
	if len(sections) == 0 {
		return fmt.Errorf("no results in %s", in)
	}
	var b bytes.Buffer
	if err := benchdoc.Render(&b, header, targets, sections); err != nil {
		return err
	}
	return os.WriteFile(out, b.Bytes(), 0o644)
}
