// Package corpus reads and writes celwasm's conformance corpus and result
// files (conformance/FORMAT.md).
package corpus

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Test is one corpus line. Compile and Eval keep their bytes exactly as in
// the file: runners send them as they are.
type Test struct {
	ID      string          `json:"id"`
	Compile json.RawMessage `json:"compile"`
	Eval    json.RawMessage `json:"eval,omitempty"`
	Expect  Expect          `json:"expect"`
	Skip    string          `json:"skip,omitempty"`
	// Part is the corpus file's name without ".jsonl" ("spec", "k8s"); set by Read.
	Part string `json:"-"`
}

// Expect is what a test expects. Value, EvalError and CompileError exclude
// each other; Type may accompany Value (cel-spec typed_result tests).
// Kubernetes cases also carry the cost estimate and the actual cost.
type Expect struct {
	Value        json.RawMessage `json:"value,omitempty"`
	EvalError    bool            `json:"evalError,omitempty"`
	CompileError bool            `json:"compileError,omitempty"`
	Type         string          `json:"type,omitempty"`
	CostEstimate *CostEstimate   `json:"costEstimate,omitempty"`
	Cost         *uint64         `json:"cost,omitempty"`
}

// CostEstimate is a static cost estimate in cost units.
type CostEstimate struct {
	Min uint64 `json:"min"`
	Max uint64 `json:"max"`
}

// Files returns the corpus files of dir in the order runners read them:
// byte order of their names.
func Files(dir string) ([]string, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	if err != nil {
		return nil, err
	}
	sort.Strings(files)
	if len(files) == 0 {
		return nil, fmt.Errorf("no corpus files in %s", dir)
	}
	return files, nil
}

// Read reads every corpus file of dir, in order.
func Read(dir string) ([]Test, error) {
	files, err := Files(dir)
	if err != nil {
		return nil, err
	}
	var out []Test
	seen := map[string]bool{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		sc := bufio.NewScanner(bytes.NewReader(b))
		sc.Buffer(nil, 64<<20)
		n := 0
		for sc.Scan() {
			n++
			var t Test
			if err := json.Unmarshal(sc.Bytes(), &t); err != nil {
				return nil, fmt.Errorf("%s:%d: %v", f, n, err)
			}
			if seen[t.ID] {
				return nil, fmt.Errorf("%s:%d: duplicate id %q", f, n, t.ID)
			}
			seen[t.ID] = true
			t.Part = strings.TrimSuffix(filepath.Base(f), ".jsonl")
			out = append(out, t)
		}
		if err := sc.Err(); err != nil {
			return nil, fmt.Errorf("%s: %v", f, err)
		}
	}
	return out, nil
}

// CheckID reports whether an id is printable ASCII without '"' and '\\', so
// that every JSON encoder writes it the same way.
func CheckID(id string) error {
	if id == "" {
		return fmt.Errorf("empty id")
	}
	for i := 0; i < len(id); i++ {
		if c := id[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' {
			return fmt.Errorf("id %q: only printable ASCII without '\"' and '\\\\'", id)
		}
	}
	return nil
}

// Marshal writes v as compact JSON without HTML escaping.
func Marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// Write writes tests as a corpus file, one line each.
func Write(path string, tests []Test) error {
	var buf bytes.Buffer
	for _, t := range tests {
		if err := CheckID(t.ID); err != nil {
			return err
		}
		b, err := Marshal(t)
		if err != nil {
			return fmt.Errorf("%s: %v", t.ID, err)
		}
		buf.Write(b)
		buf.WriteByte('\n')
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, buf.Bytes(), 0o644)
}

// Skip is one entry of the skip list.
type Skip struct {
	Prefix string
	Reason string
	Used   int
}

// ReadSkips reads the skip list: one "ID_PREFIX # reason" per line; blank
// lines and lines starting with '#' are ignored. A prefix matches an id
// equal to it or continuing with '/'.
func ReadSkips(path string) ([]*Skip, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var out []*Skip
	for i, line := range strings.Split(string(b), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		prefix, reason, ok := strings.Cut(line, " # ")
		prefix, reason = strings.TrimSpace(prefix), strings.TrimSpace(reason)
		if !ok || prefix == "" || reason == "" {
			return nil, fmt.Errorf("%s:%d: want \"ID_PREFIX # reason\"", path, i+1)
		}
		out = append(out, &Skip{Prefix: prefix, Reason: reason})
	}
	return out, nil
}

// Match returns the skip entry covering id, or nil.
func Match(skips []*Skip, id string) *Skip {
	for _, s := range skips {
		if id == s.Prefix || strings.HasPrefix(id, s.Prefix+"/") {
			return s
		}
	}
	return nil
}
