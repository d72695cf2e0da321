// Package benchdoc writes benchmark sections into docs/benchmarks.md: each
// benchmark command owns the text between its markers
// <!-- NAME:start --> and <!-- NAME:end -->, so several commands (Go, JS,
// Python, proxy-wasm, CRD) share one file.
package benchdoc

import (
	"os"
	"strings"
)

// Splice replaces the text between NAME's markers in file with body. A
// missing file or missing markers get a new section under heading at the end.
func Splice(file, name, heading, body string) error {
	start, end := "<!-- "+name+":start -->", "<!-- "+name+":end -->"
	old, err := os.ReadFile(file)
	if err != nil && !os.IsNotExist(err) {
		return err
	}
	s := string(old)
	i, j := strings.Index(s, start), strings.Index(s, end)
	block := start + "\n" + body + end
	if i < 0 || j < i {
		if s == "" {
			s = "# Benchmarks\n"
		}
		s = strings.TrimRight(s, "\n") + "\n\n## " + heading + "\n\n" + block + "\n"
	} else {
		s = s[:i] + block + s[j+len(end):]
	}
	return os.WriteFile(file, []byte(s), 0o644)
}
