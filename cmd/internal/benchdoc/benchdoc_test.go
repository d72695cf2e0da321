package benchdoc

import (
	"os"
	"path/filepath"
	"testing"
)

func TestSplice(t *testing.T) {
	f := filepath.Join(t.TempDir(), "b.md")
	if err := Splice(f, "a", "Section A", "one\n"); err != nil {
		t.Fatal(err)
	}
	if err := Splice(f, "b", "Section B", "x\n"); err != nil {
		t.Fatal(err)
	}
	if err := Splice(f, "a", "Section A", "two\n"); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(f)
	want := "# Benchmarks\n\n## Section A\n\n<!-- a:start -->\ntwo\n<!-- a:end -->\n\n## Section B\n\n<!-- b:start -->\nx\n<!-- b:end -->\n"
	if string(got) != want {
		t.Fatalf("got %q\nwant %q", got, want)
	}
}
