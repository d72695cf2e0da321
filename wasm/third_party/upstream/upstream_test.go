// Package upstream checks the patched copies in wasm/third_party against the
// upstream modules they were copied from (the go.mod versions, in the module
// cache): every file is upstream's byte for byte unless its PATCHES.md names
// it, every file PATCHES.md names does differ, each patched package carries a
// *_patch_test.go, and no upstream file of a copied package is missing unless
// a "Dropped:" paragraph of PATCHES.md names it (the section says why).
package upstream

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

func TestAPIServerCopyIsUpstreamPlusPatches(t *testing.T) {
	checkCopy(t, "k8s.io/apiserver", "../apiserver")
}

func TestAPIMachineryCopyIsUpstreamPlusPatches(t *testing.T) {
	checkCopy(t, "k8s.io/apimachinery", "../apimachinery")
}

func TestAPICopyIsUpstreamPlusPatches(t *testing.T) {
	checkCopy(t, "k8s.io/api", "../api")
}

func TestClientGoCopyIsUpstreamPlusPatches(t *testing.T) {
	checkCopy(t, "k8s.io/client-go", "../client-go")
}

func TestKubeOpenAPICopyIsUpstreamPlusPatches(t *testing.T) {
	checkCopy(t, "k8s.io/kube-openapi", "../kube-openapi")
}

func TestStructuredMergeDiffCopyIsUpstreamPlusPatches(t *testing.T) {
	checkCopy(t, "sigs.k8s.io/structured-merge-diff/v6", "../structured-merge-diff")
}

func TestAPIExtensionsAPIServerCopyIsUpstreamPlusPatches(t *testing.T) {
	checkCopy(t, "k8s.io/apiextensions-apiserver", "../apiextensions-apiserver")
}

func TestCloudEventsSQLCopyIsUpstreamPlusPatches(t *testing.T) {
	checkCopy(t, "github.com/cloudevents/sdk-go/sql/v2", "../cloudevents-sql")
}

// Each copy carries the same patch checker (internal/patchcheck, which its
// PATCHES.md names): one tool, five copies only because a module's tests
// cannot import another module's internal package.
func TestPatchcheckCopiesAreTheSame(t *testing.T) {
	for _, f := range []string{"patchcheck.go", "patchcheck_patch_test.go"} {
		want, err := os.ReadFile(filepath.Join("../apiserver/internal/patchcheck", f))
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []string{"apimachinery", "apiextensions-apiserver", "api", "client-go"} {
			got, err := os.ReadFile(filepath.Join("..", c, "internal/patchcheck", f))
			if err != nil || !bytes.Equal(got, want) {
				t.Errorf("%s/internal/patchcheck/%s differs from apiserver's (%v)", c, f, err)
			}
		}
	}
}

// upstreamDir is where the go command keeps module's version of go.mod.
func upstreamDir(t *testing.T, module string) string {
	cmd := exec.Command("go", "mod", "download", "-json", module)
	cmd.Dir = "../../.."
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go mod download %s: %v", module, err)
	}
	var m struct{ Dir, Version string }
	if err := json.Unmarshal(out, &m); err != nil || m.Dir == "" {
		t.Fatalf("go mod download %s: %s", module, out)
	}
	t.Logf("%s %s: %s", module, m.Version, m.Dir)
	return m.Dir
}

func checkCopy(t *testing.T, module, copyDir string) {
	upstream := upstreamDir(t, module)
	notes, err := os.ReadFile(filepath.Join(copyDir, "PATCHES.md"))
	if err != nil {
		t.Fatal(err)
	}
	// A file is named with its path in the module: `dir/file.go`, or
	// `./file.go` for one in the module's root directory.
	declared := map[string]bool{}
	for _, m := range regexp.MustCompile("`(\\./[A-Za-z0-9_.-]+\\.go|[A-Za-z0-9_.-]+/[A-Za-z0-9_./-]+\\.go)`").FindAllSubmatch(notes, -1) {
		declared[strings.TrimPrefix(string(m[1]), "./")] = true
	}
	// Dropped files: named in a paragraph starting "Dropped:", absent from the copy.
	dropped := map[string]bool{}
	for _, para := range strings.Split(string(notes), "\n\n") {
		if !strings.HasPrefix(para, "Dropped:") {
			continue
		}
		for _, m := range regexp.MustCompile("`([A-Za-z0-9_.-]+/[A-Za-z0-9_./-]+\\.go)`").FindAllStringSubmatch(para, -1) {
			dropped[m[1]] = true
			if _, err := os.Stat(filepath.Join(copyDir, m[1])); err == nil {
				t.Errorf("PATCHES.md drops %s, but the copy has it", m[1])
			}
			if _, err := os.Stat(filepath.Join(upstream, m[1])); err != nil {
				t.Errorf("PATCHES.md drops %s, which upstream does not have", m[1])
			}
		}
	}
	changed := map[string]bool{}
	dirs := map[string]bool{}
	err = filepath.WalkDir(copyDir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(copyDir, path)
		if rel == "PATCHES.md" {
			return nil
		}
		if strings.HasSuffix(rel, ".go") {
			dirs[filepath.Dir(rel)] = true
		}
		mine, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		theirs, err := os.ReadFile(filepath.Join(upstream, rel))
		if err == nil && bytes.Equal(mine, theirs) {
			return nil
		}
		changed[rel] = true
		if strings.HasSuffix(rel, "_patch_test.go") {
			return nil // a patch's test: named by its package's patch files
		}
		if !declared[rel] {
			t.Errorf("%s differs from %s %s but PATCHES.md does not name it", rel, module, upstream)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for rel := range declared {
		if !changed[rel] && !dropped[rel] {
			t.Errorf("PATCHES.md names %s, which is upstream's as is (or missing)", rel)
		}
	}
	patchedDirs := map[string]bool{}
	for rel := range dropped {
		patchedDirs[filepath.Dir(rel)] = true
	}
	for rel := range changed {
		if !strings.HasSuffix(rel, "_test.go") {
			patchedDirs[filepath.Dir(rel)] = true
		}
	}
	for dir := range patchedDirs {
		tests, _ := filepath.Glob(filepath.Join(copyDir, dir, "*_patch_test.go"))
		if len(tests) == 0 {
			t.Errorf("%s is patched but has no *_patch_test.go", dir)
		}
	}
	// Every non-test Go file of a copied package is there.
	var missing []string
	for dir := range dirs {
		files, _ := filepath.Glob(filepath.Join(upstream, dir, "*.go"))
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			if dropped[filepath.Join(dir, filepath.Base(f))] {
				continue
			}
			if _, err := os.Stat(filepath.Join(copyDir, dir, filepath.Base(f))); err != nil {
				missing = append(missing, filepath.Join(dir, filepath.Base(f)))
			}
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("upstream files missing from the copy: %v", missing)
	}
	if len(changed) == 0 {
		t.Errorf("the copy is upstream's as is: nothing was compared against a patch")
	}
}
