package govalidator

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"k8s.io/kube-openapi/pkg/internal/lazyregexp"
)

// upstreamFile reads a file of the kube-openapi version go.mod requires from the module cache.
func upstreamFile(t *testing.T, rel string) string {
	out, err := exec.Command("go", "mod", "download", "-json", "k8s.io/kube-openapi@v0.0.0-20260721132016-d427ff9ee9ad").Output()
	if err != nil {
		t.Fatalf("go mod download: %v", err)
	}
	var m struct{ Dir string }
	if err := json.Unmarshal(out, &m); err != nil || m.Dir == "" {
		t.Fatalf("go mod download: %s", out)
	}
	b, err := os.ReadFile(filepath.Join(m.Dir, rel))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestLazyRegexpPatchIsOnlyTheImport: patterns.go and validator.go are
// upstream's with one line changed, the import of regexp, which names
// lazyregexp instead (PATCHES.md); every regexp.MustCompile stays as it is.
func TestLazyRegexpPatchIsOnlyTheImport(t *testing.T) {
	for file, edit := range map[string][2]string{
		"patterns.go":  {"import \"regexp\"\n", "import regexp \"k8s.io/kube-openapi/pkg/internal/lazyregexp\"\n"},
		"validator.go": {"\t\"regexp\"\n", "\tregexp \"k8s.io/kube-openapi/pkg/internal/lazyregexp\"\n"},
	} {
		up := upstreamFile(t, "pkg/internal/third_party/govalidator/"+file)
		if strings.Count(up, edit[0]) != 1 {
			t.Fatalf("%s: upstream does not import regexp once as %q", file, edit[0])
		}
		mine, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if want := strings.Replace(up, edit[0], edit[1], 1); string(mine) != want {
			t.Errorf("%s is not upstream's with only the import of regexp changed", file)
		}
	}
}

var lazy = map[string]*lazyregexp.Regexp{
	CreditCard: rxCreditCard, Int: rxInt, ISBN10: rxISBN10, ISBN13: rxISBN13, Hexcolor: rxHexcolor,
	RGBcolor: rxRGBcolor, Base64: rxBase64, SSN: rxSSN, "[^0-9]+": notNumberRegexp, `[\s-]+`: whiteSpacesAndMinus,
}

// TestLazyRegexpPatchNothingCompiledAtInit: initialising the package
// compiles none of its expressions (the point of the patch). It runs before
// any test of this package uses one.
func TestLazyRegexpPatchNothingCompiledAtInit(t *testing.T) {
	for p, r := range lazy {
		if r.Compiled() {
			t.Errorf("%q was compiled at init", p)
		}
	}
}

// TestLazyRegexpPatchValidatesAsUpstream: each expression answers as the
// standard library's compilation of upstream's pattern, and the validators
// built on them give upstream's answers.
func TestLazyRegexpPatchValidatesAsUpstream(t *testing.T) {
	samples := []string{"", "0", "-12", "+7", "007", "4111111111111111", "4111-1111-1111-1111", "0306406152",
		"978-0-306-40615-7", "9780306406157", "#fff", "#abcdeg", "rgb(0, 255, 12)", "rgb(256,0,0)",
		"aGVsbG8=", "aGVsbG8", "Zm9vYmFy", "123-45-6789", "123456789", "a b-c", "ünïcödé"}
	for p, r := range lazy {
		std := regexp.MustCompile(p)
		for _, s := range samples {
			if r.MatchString(s) != std.MatchString(s) {
				t.Errorf("%q on %q: lazy %v, regexp %v", p, s, r.MatchString(s), std.MatchString(s))
			}
		}
	}
	for _, c := range []struct {
		name string
		f    func(string) bool
		in   string
		want bool
	}{
		{"IsBase64", IsBase64, "aGVsbG8=", true}, {"IsBase64", IsBase64, "aGVsbG8", false},
		{"IsCreditCard", IsCreditCard, "4111 1111 1111 1111", true}, {"IsCreditCard", IsCreditCard, "4111 1111 1111 1112", false},
		{"IsISBN10", IsISBN10, "0-306-40615-2", true}, {"IsISBN13", IsISBN13, "978-0-306-40615-7", true},
		{"IsISBN13", IsISBN13, "978-0-306-40615-8", false}, {"IsHexcolor", IsHexcolor, "#a0b1c2", true},
		{"IsRGBcolor", IsRGBcolor, "rgb(1,2,3)", true}, {"IsSSN", IsSSN, "123-45-6789", true}, {"IsSSN", IsSSN, "12-345-6789", false},
	} {
		if got := c.f(c.in); got != c.want {
			t.Errorf("%s(%q) = %v, want %v", c.name, c.in, got, c.want)
		}
	}
}
