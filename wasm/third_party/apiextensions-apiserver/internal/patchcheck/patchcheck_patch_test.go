package patchcheck

import (
	"strings"
	"testing"
)

const src = `package p

import (
	"fmt"
	"net/http"
)

// T goes, with its methods and the assertion naming it.
type T struct{ c *http.Client }

var _ fmt.Stringer = T{}

func (T) String() string { return "t" }

// Keep stays.
func Keep(x int) string { return fmt.Sprint(x) }
`

func TestPatchcheckApplyRemovesExactlyTheNamedDeclarations(t *testing.T) {
	got, err := Apply([]byte(src), Patch{File: "p.go", RemoveDecls: []string{"T"}, RemoveImports: []string{"net/http"},
		Replace: [][2]string{{"x int", "y int"}, {"Sprint(x)", "Sprint(y)"}}})
	if err != nil {
		t.Fatal(err)
	}
	want := "package p\n\nimport (\n\t\"fmt\"\n)\n\n// Keep stays.\nfunc Keep(y int) string { return fmt.Sprint(y) }\n"
	if string(got) != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}

func TestPatchcheckApplyRemovesMethodsOfEveryTypeAndNamedImports(t *testing.T) {
	const in = "package p\n\nimport (\n\tf \"fmt\"\n\t\"fmt\"\n)\n\ntype A int\ntype B int\n\nfunc (A) Size() int { return f.Sprint(1) }\nfunc (*B) Size() int { return 2 }\nfunc (A) Keep() string { return fmt.Sprint(3) }\n"
	got, err := Apply([]byte(in), Patch{File: "p.go", RemoveMethods: []string{"Size"}, RemoveImports: []string{"f fmt"}})
	if err != nil {
		t.Fatal(err)
	}
	want := "package p\n\nimport (\n\t\"fmt\"\n)\n\ntype A int\ntype B int\n\nfunc (A) Keep() string { return fmt.Sprint(3) }\n"
	if string(got) != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}

func TestPatchcheckApplyRefusesWhatUpstreamDoesNotHave(t *testing.T) {
	for _, p := range []Patch{
		{File: "p.go", RemoveDecls: []string{"Missing"}},
		{File: "p.go", RemoveImports: []string{"os"}},
		{File: "p.go", Replace: [][2]string{{"no such text", ""}}},
		{File: "p.go", RemoveMethods: []string{"NoSuchMethod"}},
	} {
		if _, err := Apply([]byte(src), p); err == nil {
			t.Errorf("%+v: no error", p)
		}
	}
}

func TestPatchCommentsAreIgnored(t *testing.T) {
	in := "type A struct {\n\tX int // celwasm patch: was int64\n}\n// celwasm patch: a note\n"
	if got := patchComment.ReplaceAllString(in, ""); strings.Contains(got, "celwasm") {
		t.Fatalf("%q", got)
	}
}
