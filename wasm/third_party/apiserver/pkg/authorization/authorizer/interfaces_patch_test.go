package authorizer

import (
	"encoding/json"
	"go/format"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestInterfacesPatchIsOnlyTheDeclaredEdits checks that interfaces.go is
// upstream's with exactly the edits PATCHES.md describes: no net/http and
// apimachinery runtime imports, no RequestAttributesGetter, and any for the
// three runtime.Object results of ConditionsData. They change declarations
// only (no statement), so no behaviour; anything else differing fails here.
func TestInterfacesPatchIsOnlyTheDeclaredEdits(t *testing.T) {
	out, err := exec.Command("go", "mod", "download", "-json", "k8s.io/apiserver@v0.37.2").Output()
	if err != nil {
		t.Fatalf("go mod download: %v", err)
	}
	var m struct{ Dir string }
	if err := json.Unmarshal(out, &m); err != nil || m.Dir == "" {
		t.Fatalf("go mod download: %s", out)
	}
	upstream, err := os.ReadFile(filepath.Join(m.Dir, "pkg/authorization/authorizer/interfaces.go"))
	if err != nil {
		t.Fatal(err)
	}
	patched, err := os.ReadFile("interfaces.go")
	if err != nil {
		t.Fatal(err)
	}
	want := string(upstream)
	for _, edit := range [][2]string{
		{"\t\"net/http\"\n", ""},
		{"\t\"k8s.io/apimachinery/pkg/runtime\"\n", ""},
		{"// RequestAttributesGetter provides a function that extracts Attributes from an http.Request\n" +
			"type RequestAttributesGetter interface {\n\tGetRequestAttributes(user.Info, *http.Request) Attributes\n}\n", ""},
		{"() runtime.Object\n", "() any\n"},
	} {
		if !strings.Contains(want, edit[0]) {
			t.Fatalf("upstream has no %q", edit[0])
		}
		want = strings.ReplaceAll(want, edit[0], edit[1])
	}
	if strings.Contains(want, "runtime.") || strings.Contains(want, "http.") {
		t.Fatalf("upstream still uses runtime or http after the edits")
	}
	// The patch's own comments aside.
	got := regexp.MustCompile(`(?m)^// celwasm patch:.*\n| // celwasm patch:.*`).ReplaceAllString(string(patched), "")
	w, err := format.Source([]byte(want))
	if err != nil {
		t.Fatal(err)
	}
	g, err := format.Source([]byte(got))
	if err != nil {
		t.Fatal(err)
	}
	if string(g) != string(w) {
		t.Fatalf("interfaces.go differs from upstream by more than the declared edits")
	}
}
