package cel

import (
	"strings"
	"testing"

	"k8s.io/apiserver/internal/patchcheck"
)

// TestUnescapePatchIsOnlyTheDeclaredEdit: escaping.go is upstream's with
// the early return for names without "__" (PATCHES.md, "cel: Unescape
// without a regexp run").
func TestUnescapePatchIsOnlyTheDeclaredEdit(t *testing.T) {
	patchcheck.Check(t, "../..", patchcheck.Patch{
		File: "pkg/cel/escaping.go",
		Replace: [][2]string{
			{"import (\n\t\"regexp\"\n", "import (\n\t\"regexp\"\n\t\"strings\"\n"},
			{"func Unescape(escaped string) (string, bool) {\n\tok := true\n",
				"func Unescape(escaped string) (string, bool) {\n\tif !strings.Contains(escaped, \"__\") {\n\t\treturn escaped, true\n\t}\n\tok := true\n"},
		},
	})
}

// TestUnescapePatchSameAnswers: without "__" upstream's pattern finds
// nothing to replace, so its answer is the name itself; with "__" the
// regexp runs as before.
func TestUnescapePatchSameAnswers(t *testing.T) {
	for _, s := range []string{"", "a", "_", "_a_", "a_b", "a_b_c", "_dot_", "x_-_y", "ünïcode", "metadata", "a.b", "a__", "__a"} {
		if !strings.Contains(s, "__") && unexpandMatcher.MatchString(s) {
			t.Fatalf("upstream's pattern matches %q, which has no \"__\"", s)
		}
		if got, ok := Unescape(s); got != s || !ok {
			t.Errorf("Unescape(%q) = %q, %t; want it unchanged", s, got, ok)
		}
	}
	for in, want := range map[string]string{"a__dot__b": "a.b", "__namespace__": "namespace", "a__dash__b__slash__c": "a-b/c", "x__underscores__y": "x__y"} {
		if got, ok := Unescape(in); got != want || !ok {
			t.Errorf("Unescape(%q) = %q, %t; want %q", in, got, ok, want)
		}
	}
	if _, ok := Unescape("a__bogus__b"); ok {
		t.Error("an unknown escape was accepted")
	}
	if n := testing.AllocsPerRun(100, func() { Unescape("replicas") }); n != 0 {
		t.Errorf("Unescape of a plain name: %v allocations", n)
	}
}
