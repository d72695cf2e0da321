package corpus

import (
	"os"
	"path/filepath"
	"testing"
)

func TestSkips(t *testing.T) {
	path := filepath.Join(t.TempDir(), "skips.txt")
	os.WriteFile(path, []byte("# comment\n\nenums/strong_proto2 # strong enums\nfields/a/map_key # one test\n"), 0o644)
	skips, err := ReadSkips(path)
	if err != nil || len(skips) != 2 {
		t.Fatalf("ReadSkips: %v %v", skips, err)
	}
	for id, want := range map[string]string{
		"enums/strong_proto2/type_global": "strong enums",
		"enums/strong_proto2":             "strong enums",
		"enums/strong_proto2x/a":          "",
		"fields/a/map_key":                "one test",
		"fields/a/map_key_null":           "",
	} {
		got := ""
		if s := Match(skips, id); s != nil {
			got = s.Reason
		}
		if got != want {
			t.Errorf("Match(%q) = %q, want %q", id, got, want)
		}
	}
	os.WriteFile(path, []byte("no reason here\n"), 0o644)
	if _, err := ReadSkips(path); err == nil {
		t.Error("a line without a reason must be rejected")
	}
}

func TestCheckID(t *testing.T) {
	for id, ok := range map[string]bool{"a/b c/'x'": true, "": false, `a"b`: false, `a\b`: false, "é": false, "a\tb": false} {
		if err := CheckID(id); (err == nil) != ok {
			t.Errorf("CheckID(%q) = %v", id, err)
		}
	}
}
