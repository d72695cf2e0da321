package strfmt

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

// TestLazyRegexpPatchIsOnlyTheImport: the four files are upstream's with one
// line changed, the import of regexp, which names lazyregexp instead
// (PATCHES.md); every regexp.MustCompile stays as it is.
func TestLazyRegexpPatchIsOnlyTheImport(t *testing.T) {
	const from, to = "\t\"regexp\"\n", "\tregexp \"k8s.io/kube-openapi/pkg/internal/lazyregexp\"\n"
	for _, file := range []string{"default.go", "duration.go", "kubernetes-extensions.go", "time.go"} {
		up := upstreamFile(t, "pkg/validation/strfmt/"+file)
		if strings.Count(up, from) != 1 {
			t.Fatalf("%s: upstream does not import regexp once", file)
		}
		mine, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if want := strings.Replace(up, from, to, 1); string(mine) != want {
			t.Errorf("%s is not upstream's with only the import of regexp changed", file)
		}
	}
}

var lazy = map[string]*lazyregexp.Regexp{
	HostnamePattern: rxHostname, UUIDPattern: rxUUID, UUID3Pattern: rxUUID3, UUID4Pattern: rxUUID4,
	UUID5Pattern: rxUUID5, DateTimePattern: rxDateTime, `((\d+)\s*([A-Za-zµ]+))`: durationMatcher,
	"^" + shortNameFmt + "$": shortNameRegexp, "^" + longNameFmt + "$": longNameRegexp,
}

// TestLazyRegexpPatchNothingCompiledAtInit: initialising the package
// (registering every format in Default) compiles none of its expressions,
// the point of the patch. It runs before any test of this package uses one.
func TestLazyRegexpPatchNothingCompiledAtInit(t *testing.T) {
	for p, r := range lazy {
		if r.Compiled() {
			t.Errorf("%q was compiled at init", p)
		}
	}
}

// TestLazyRegexpPatchValidatesAsUpstream: each expression answers as the
// standard library's compilation of upstream's pattern, and the Default
// registry's formats (those Kubernetes' CEL format library and CRD
// validation use among them) give upstream's answers.
func TestLazyRegexpPatchValidatesAsUpstream(t *testing.T) {
	samples := []string{"", "example.com", "a.b.c.example.london", "-bad.com", "xn--bcher-kva.example", "ünï.cödé",
		"😀.example.com", "a_b.com", "550e8400-e29b-41d4-a716-446655440000", "6fa459ea-ee8a-3ca4-894e-db77e160355e",
		"886313e1-3b8a-5372-9b90-0c9aee199e5d", "550E8400E29B41D4A716446655440000", "12:30:00Z", "12:30:00.123+02:00",
		"3 hours 12min 5µs", "1h", "my-name", "My-Name", "a.b-c.d", "-a", strings.Repeat("a", 64)}
	for p, r := range lazy {
		std := regexp.MustCompile(p)
		for _, s := range samples {
			if r.MatchString(s) != std.MatchString(s) {
				t.Errorf("%q on %q: lazy %v, regexp %v", p, s, r.MatchString(s), std.MatchString(s))
			}
		}
	}
	for _, c := range []struct {
		format, in string
		want       bool
	}{
		{"hostname", "example.com", true}, {"hostname", "-bad.com", false}, {"hostname", "a." + strings.Repeat("b", 64) + ".com", false},
		{"uuid", "550e8400-e29b-41d4-a716-446655440000", true}, {"uuid", "550e8400-e29b-41d4-a716", false},
		{"uuid3", "6fa459ea-ee8a-3ca4-894e-db77e160355e", true}, {"uuid4", "6fa459ea-ee8a-3ca4-894e-db77e160355e", false},
		{"uuid5", "886313e1-3b8a-5372-9b90-0c9aee199e5d", true},
		{"datetime", "2026-11-26T12:30:00Z", true}, {"datetime", "2026-11-26T12:30:00.123+02:00", true}, {"datetime", "2026-11-26 noon", false},
		{"duration", "3 hours 12min", true}, {"duration", "forever", false},
		{"byte", "aGVsbG8=", true}, {"byte", "aGVsbG8", false}, {"date", "2026-11-26", true}, {"date", "2026-13-26", false},
		{"k8s-short-name", "my-name", true}, {"k8s-short-name", "My-Name", false},
		{"k8s-long-name", "a.b-c.d", true}, {"k8s-long-name", "a..b", false},
	} {
		if got := Default.Validates(c.format, c.in); got != c.want {
			t.Errorf("Default.Validates(%q, %q) = %v, want %v", c.format, c.in, got, c.want)
		}
	}
}
