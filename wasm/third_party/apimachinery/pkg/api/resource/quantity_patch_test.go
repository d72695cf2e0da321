package resource

import (
	"encoding/json"
	"go/format"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

// TestQuantityPatchIsOnlyTheCBORMethods checks that quantity.go is upstream's
// without the CBOR import and Quantity's MarshalCBOR and UnmarshalCBOR, and
// nothing else: every other method, and so every result of the Kubernetes
// quantity library, is upstream's code.
func TestQuantityPatchIsOnlyTheCBORMethods(t *testing.T) {
	out, err := exec.Command("go", "mod", "download", "-json", "k8s.io/apimachinery@v0.37.2").Output()
	if err != nil {
		t.Fatalf("go mod download: %v", err)
	}
	var m struct{ Dir string }
	if err := json.Unmarshal(out, &m); err != nil || m.Dir == "" {
		t.Fatalf("go mod download: %s", out)
	}
	upstream, err := os.ReadFile(filepath.Join(m.Dir, "pkg/api/resource/quantity.go"))
	if err != nil {
		t.Fatal(err)
	}
	patched, err := os.ReadFile("quantity.go")
	if err != nil {
		t.Fatal(err)
	}
	want := string(upstream)
	for _, re := range []string{
		`\tcbor "k8s.io/apimachinery/pkg/runtime/serializer/cbor/direct"\n`,
		`(?s)func \(q Quantity\) MarshalCBOR\(\).*?\n}\n\n`,
		`(?s)func \(q \*Quantity\) UnmarshalCBOR\(.*?\n}\n\n`,
	} {
		r := regexp.MustCompile(re)
		if len(r.FindAllString(want, -1)) != 1 {
			t.Fatalf("upstream does not have exactly one %s", re)
		}
		want = r.ReplaceAllString(want, "")
	}
	if strings.Contains(want, "cbor") {
		t.Fatalf("upstream still mentions cbor after the edits")
	}
	got := regexp.MustCompile(`(?m)^// celwasm patch:.*\n\n`).ReplaceAllString(string(patched), "")
	w, err := format.Source([]byte(want))
	if err != nil {
		t.Fatal(err)
	}
	g, err := format.Source([]byte(got))
	if err != nil {
		t.Fatal(err)
	}
	if string(g) != string(w) {
		t.Fatalf("quantity.go differs from upstream by more than the CBOR methods")
	}
	// And the methods are gone (the point of the patch).
	for _, name := range []string{"MarshalCBOR", "UnmarshalCBOR"} {
		if _, ok := reflect.TypeOf(&Quantity{}).MethodByName(name); ok {
			t.Fatalf("Quantity still has %s", name)
		}
	}
}
