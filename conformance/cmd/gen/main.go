// Command gen writes celwasm's conformance corpus (conformance/FORMAT.md):
// corpus/spec.jsonl from the cel-spec tests of cel.dev/expr, and
// corpus/k8s.jsonl from the Kubernetes cases, whose expected values and
// costs come from running kube-apiserver's CEL environment natively.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/celwasm/celwasm/conformance/internal/corpus"
	"github.com/celwasm/celwasm/conformance/internal/k8s"
	"github.com/celwasm/celwasm/conformance/internal/spec"
)

func main() {
	out := flag.String("out", "conformance/corpus", "corpus directory")
	skipsPath := flag.String("skips", "conformance/skips.txt", "the skip list")
	testdata := flag.String("testdata", "", "cel-spec testdata directory (default: cel.dev/expr's tests/simple/testdata from the module cache)")
	deployment := flag.String("deployment", "conformance/testdata/k8s/deployment.yaml", "the Deployment the Kubernetes cases read as object")
	flag.Parse()
	if err := run(*out, *skipsPath, *testdata, *deployment); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func run(out, skipsPath, testdata, deploymentPath string) error {
	skips, err := corpus.ReadSkips(skipsPath)
	if err != nil {
		return err
	}
	if testdata == "" {
		if testdata, err = spec.TestdataDir(); err != nil {
			return err
		}
	}
	tests, err := spec.Generate(testdata)
	if err != nil {
		return err
	}
	if err := write(filepath.Join(out, "spec.jsonl"), tests, skips); err != nil {
		return err
	}
	deployment, err := os.ReadFile(deploymentPath)
	if err != nil {
		return err
	}
	kube, err := k8s.Generate(deployment)
	if err != nil {
		return err
	}
	if err := write(filepath.Join(out, "k8s.jsonl"), kube, skips); err != nil {
		return err
	}
	for _, s := range skips {
		if s.Used == 0 {
			return fmt.Errorf("skip list entry %q matches no test", s.Prefix)
		}
	}
	return nil
}

func write(path string, tests []corpus.Test, skips []*corpus.Skip) error {
	skipped := 0
	for i := range tests {
		if s := corpus.Match(skips, tests[i].ID); s != nil {
			tests[i].Skip = s.Reason
			s.Used++
			skipped++
		}
	}
	if err := corpus.Write(path, tests); err != nil {
		return err
	}
	fmt.Printf("%s: %d tests, %d skipped\n", path, len(tests), skipped)
	return nil
}
