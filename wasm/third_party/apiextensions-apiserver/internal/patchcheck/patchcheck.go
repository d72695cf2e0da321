// Package patchcheck is not part of the Kubernetes module it sits in: the patch tests of the
// celwasm copies (PATCHES.md) use it to prove that a patched file is upstream's
// v0.37.2 file with exactly the declared edits — declarations and imports
// removed, types replaced — and nothing else.
package patchcheck

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// Patch is the edit of one upstream file.
type Patch struct {
	// File is the path inside the module, e.g. "pkg/admission/plugin/policy/generic/policy_source.go".
	File string
	// RemoveDecls names top-level declarations that are removed: functions,
	// types (with their methods), variables and constants, by name. A
	// `var _ T = x` assertion goes when it mentions a removed name.
	RemoveDecls []string
	// RemoveMethods names methods removed from every type that has them.
	RemoveMethods []string
	// RemoveImports are the import paths removed; "name path" removes only
	// the import of path under that name.
	RemoveImports []string
	// Replace are textual edits applied after the removals, in order; each
	// old text must occur.
	Replace [][2]string
}

// Version is the upstream version of every copy (go.mod's k8s.io requirements).
const Version = "v0.37.2"

// UpstreamDir is the module cache's directory of module@version.
func UpstreamDir(t testing.TB, moduleAtVersion string) string {
	out, err := exec.Command("go", "mod", "download", "-json", moduleAtVersion).Output()
	if err != nil {
		t.Fatalf("go mod download %s: %v", moduleAtVersion, err)
	}
	var m struct{ Dir string }
	if err := json.Unmarshal(out, &m); err != nil || m.Dir == "" {
		t.Fatalf("go mod download %s: %s", moduleAtVersion, out)
	}
	return m.Dir
}

// Apply returns upstream's source with the patch's edits, gofmt'd.
func Apply(src []byte, p Patch) ([]byte, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, p.File, src, parser.ParseComments)
	if err != nil {
		return nil, err
	}
	removed := map[string]bool{}
	for _, n := range p.RemoveDecls {
		removed[n] = true
	}
	methods := map[string]bool{}
	for _, n := range p.RemoveMethods {
		methods[n] = true
	}
	found := map[string]bool{}
	type span struct{ from, to int }
	var cuts []span
	cut := func(doc *ast.CommentGroup, from, to token.Pos) {
		if doc != nil {
			from = doc.Pos()
		}
		cuts = append(cuts, span{fset.Position(from).Offset, fset.Position(to).Offset})
	}
	mentions := func(n ast.Node) bool {
		hit := false
		ast.Inspect(n, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && removed[id.Name] {
				hit = true
			}
			return !hit
		})
		return hit
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			name := d.Name.Name
			if d.Recv != nil && methods[name] {
				found["method "+name] = true
				cut(d.Doc, d.Pos(), d.End())
				continue
			}
			if d.Recv != nil && len(d.Recv.List) == 1 {
				if base := recvBase(d.Recv.List[0].Type); removed[base] {
					found[base] = true
					cut(d.Doc, d.Pos(), d.End())
					continue
				}
			}
			if removed[name] && d.Recv == nil {
				found[name] = true
				cut(d.Doc, d.Pos(), d.End())
			}
		case *ast.GenDecl:
			if d.Tok == token.IMPORT {
				for _, s := range d.Specs {
					is := s.(*ast.ImportSpec)
					path, _ := strconv.Unquote(is.Path.Value)
					named := path
					if is.Name != nil {
						named = is.Name.Name + " " + path
					}
					for _, r := range p.RemoveImports {
						if r == path || r == named {
							found["import "+r] = true
							cut(is.Doc, is.Pos(), is.End())
						}
					}
				}
				continue
			}
			all, some := true, false
			for _, s := range d.Specs {
				var names []*ast.Ident
				switch s := s.(type) {
				case *ast.TypeSpec:
					names = []*ast.Ident{s.Name}
				case *ast.ValueSpec:
					names = s.Names
				}
				hit := false
				for _, id := range names {
					if removed[id.Name] {
						found[id.Name] = true
						hit = true
					} else if id.Name == "_" && mentions(s) {
						hit = true
					}
				}
				all = all && hit
				some = some || hit
			}
			if all {
				cut(d.Doc, d.Pos(), d.End())
			} else if some {
				return nil, fmt.Errorf("%s: a declaration group is removed only in part", p.File)
			}
		}
	}
	for _, n := range p.RemoveDecls {
		if !found[n] {
			return nil, fmt.Errorf("%s: upstream has no declaration %s", p.File, n)
		}
	}
	for _, n := range p.RemoveMethods {
		if !found["method "+n] {
			return nil, fmt.Errorf("%s: upstream has no method %s", p.File, n)
		}
	}
	for _, r := range p.RemoveImports {
		if !found["import "+r] {
			return nil, fmt.Errorf("%s: upstream does not import %s", p.File, r)
		}
	}
	sort.Slice(cuts, func(i, j int) bool { return cuts[i].from > cuts[j].from })
	out := string(src)
	for _, c := range cuts {
		// Whole lines: from the line's start through its newline.
		for c.from > 0 && (out[c.from-1] == ' ' || out[c.from-1] == '\t') {
			c.from--
		}
		if c.to < len(out) && out[c.to] == '\n' {
			c.to++
		}
		out = out[:c.from] + out[c.to:]
	}
	for _, r := range p.Replace {
		if !strings.Contains(out, r[0]) {
			return nil, fmt.Errorf("%s: no %q to replace", p.File, r[0])
		}
		out = strings.ReplaceAll(out, r[0], r[1])
	}
	return format.Source([]byte(out))
}

func recvBase(e ast.Expr) string {
	for {
		switch x := e.(type) {
		case *ast.StarExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.IndexListExpr:
			e = x.X
		case *ast.Ident:
			return x.Name
		default:
			return ""
		}
	}
}

// patchComment is how the copy marks its edits: whole-line or trailing
// comments starting "celwasm patch:", ignored by the comparison.
var patchComment = regexp.MustCompile(`(?m)^[ \t]*// celwasm patch:.*\n| // celwasm patch:.*`)

// Check requires the copy's file (moduleRoot/p.File) to equal upstream's
// (the module named by moduleRoot/go.mod, at Version)
// with p applied, both gofmt'd, the copy's "celwasm patch:" comments aside.
// With PATCHCHECK_WRITE=1 it writes that file instead (to make a patch).
func Check(t *testing.T, moduleRoot string, p Patch) {
	t.Helper()
	gomod, err := os.ReadFile(filepath.Join(moduleRoot, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	module := regexp.MustCompile(`(?m)^module (\S+)`).FindSubmatch(gomod)
	if module == nil {
		t.Fatal("no module line in go.mod")
	}
	upstream := UpstreamDir(t, string(module[1])+"@"+Version)
	src, err := os.ReadFile(filepath.Join(upstream, p.File))
	if err != nil {
		t.Fatal(err)
	}
	want, err := Apply(src, p)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(moduleRoot, p.File)
	if os.Getenv("PATCHCHECK_WRITE") == "1" {
		if err := os.WriteFile(path, want, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	mine, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	got, err := format.Source([]byte(patchComment.ReplaceAllString(string(mine), "")))
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Errorf("%s is not upstream's with exactly the declared edits:\n%s", p.File, firstDiff(string(want), string(got)))
	}
}

func firstDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < len(w) || i < len(g); i++ {
		var a, b string
		if i < len(w) {
			a = w[i]
		}
		if i < len(g) {
			b = g[i]
		}
		if a != b {
			return fmt.Sprintf("line %d: want %q, copy has %q", i+1, a, b)
		}
	}
	return ""
}
