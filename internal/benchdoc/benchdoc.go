// Package benchdoc is the benchmark results format and its renderer.
//
// Every benchmark command writes one Section as build/bench/<section>.json;
// celwasm-benchdoc reads them all, plus the targets file
// (docs/bench-targets.json), and writes docs/benchmarks.md: a targets table
// computed from the sections' metrics, then one part per section. Generators
// write facts (numbers, versions, workloads); prose lives in the renderer's
// header template.
package benchdoc

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"
)

// Section is one benchmark command's results.
type Section struct {
	// Section is the stable id; the file is named <Section>.json.
	Section string `json:"section"`
	Title   string `json:"title"`
	// Command reproduces this section alone.
	Command string `json:"command"`
	Date    string `json:"date"`    // YYYY-MM-DD, UTC
	Machine string `json:"machine"` // e.g. "linux/amd64, 2 CPUs, AMD EPYC 7B13"
	// Context holds factual lines: versions, module sha256, workload.
	Context []string `json:"context,omitempty"`
	Tables  []Table  `json:"tables,omitempty"`
	// Metrics are flat name → number; targets refer to them by name.
	Metrics map[string]float64 `json:"metrics,omitempty"`

	loadStart float64 // 1-minute load average when New was called, or -1
}

// Table is one table of a section. A cell is a number, a string or null
// (nothing measured).
type Table struct {
	Title   string   `json:"title"`
	Columns []string `json:"columns"`
	Rows    [][]any  `json:"rows"`
}

// New returns a section with today's date (UTC) and this machine filled in.
func New(id, title, command string) *Section {
	return &Section{Section: id, Title: title, Command: command, Date: time.Now().UTC().Format("2006-01-02"),
		Machine: Machine(), Metrics: map[string]float64{}, loadStart: loadAverage()}
}

// loadAverage is the 1-minute load average (/proc/loadavg), or -1.
func loadAverage() float64 {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return -1
	}
	var l float64
	if _, err := fmt.Sscan(string(b), &l); err != nil {
		return -1
	}
	return l
}

// Machine describes this machine: OS/architecture, CPU count and model.
func Machine() string {
	s := fmt.Sprintf("%s/%s, %d CPUs", runtime.GOOS, runtime.GOARCH, runtime.NumCPU())
	if f, err := os.Open("/proc/cpuinfo"); err == nil {
		defer f.Close()
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if k, v, ok := strings.Cut(sc.Text(), ":"); ok && strings.TrimSpace(k) == "model name" {
				return s + ", " + strings.TrimSpace(v)
			}
		}
	}
	return s
}

// Contextf adds a context line.
func (s *Section) Contextf(format string, args ...any) {
	s.Context = append(s.Context, fmt.Sprintf(format, args...))
}

// AddTable adds a table and returns it for adding rows.
func (s *Section) AddTable(title string, columns ...string) *Table {
	s.Tables = append(s.Tables, Table{Title: title, Columns: columns, Rows: [][]any{}})
	return &s.Tables[len(s.Tables)-1]
}

// Row adds a row; cells are numbers, strings or nil.
func (t *Table) Row(cells ...any) { t.Rows = append(t.Rows, cells) }

// Write writes the section as dir/<section>.json (dir is created). A
// section made by New gets a context line with the machine's load average
// at its start and now: the machine may be shared.
func (s *Section) Write(dir string) (string, error) {
	if err := s.check(); err != nil {
		return "", err
	}
	if end := loadAverage(); s.loadStart >= 0 && end >= 0 {
		s.Contextf("Load average (1 min): %.1f at the start, %.1f at the end.", s.loadStart, end)
		s.loadStart = -1
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return "", err
	}
	f := filepath.Join(dir, s.Section+".json")
	return f, os.WriteFile(f, append(b, '\n'), 0o644)
}

// check reports what makes a section unusable by the renderer.
func (s *Section) check() error {
	if s.Section == "" || strings.ContainsAny(s.Section, "/\\ ") {
		return fmt.Errorf("section id %q: want a non-empty name without spaces or slashes", s.Section)
	}
	if s.Title == "" || s.Command == "" {
		return fmt.Errorf("section %q: title and command are required", s.Section)
	}
	for i, t := range s.Tables {
		if len(t.Columns) == 0 {
			return fmt.Errorf("section %q, table %d (%q): no columns", s.Section, i+1, t.Title)
		}
		for j, r := range t.Rows {
			if len(r) != len(t.Columns) {
				return fmt.Errorf("section %q, table %q, row %d: %d cells for %d columns", s.Section, t.Title, j+1, len(r), len(t.Columns))
			}
			for k, c := range r {
				switch c.(type) {
				case nil, string, float64, float32, int, int64, int32, uint64, uint32, uint, bool:
				default:
					return fmt.Errorf("section %q, table %q, row %d, column %q: a %T is neither number, string nor null", s.Section, t.Title, j+1, t.Columns[k], c)
				}
			}
		}
	}
	return nil
}

// Load reads every *.json file of dir, sorted by name. A file that is not a
// valid section is an error naming the file (and, for JSON syntax errors,
// the line).
func Load(dir string) ([]Section, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return nil, err
	}
	var out []Section
	for _, f := range files {
		s, err := ReadSection(f)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

// ReadSection reads and checks one section file.
func ReadSection(file string) (Section, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return Section{}, err
	}
	var s Section
	if err := decodeStrict(b, &s); err != nil {
		return Section{}, fmt.Errorf("%s: %w", file, err)
	}
	if err := nullMetrics(b); err != nil {
		return Section{}, fmt.Errorf("%s: %w", file, err)
	}
	if err := s.check(); err != nil {
		return Section{}, fmt.Errorf("%s: %w", file, err)
	}
	if base := strings.TrimSuffix(filepath.Base(file), ".json"); base != s.Section {
		return Section{}, fmt.Errorf("%s: section %q must be in %s.json", file, s.Section, s.Section)
	}
	return s, nil
}

// nullMetrics rejects a metric whose value is null (JavaScript writes NaN
// as null), which would otherwise decode as 0 and meet every "≤" target.
func nullMetrics(b []byte) error {
	var raw struct {
		Metrics map[string]json.RawMessage `json:"metrics"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	for k, v := range raw.Metrics {
		if strings.TrimSpace(string(v)) == "null" {
			return fmt.Errorf("metric %q is null: leave out a metric that was not measured", k)
		}
	}
	return nil
}

// decodeStrict decodes one JSON value, rejecting unknown fields and
// trailing data, and turns syntax errors into line:column messages.
func decodeStrict(b []byte, v any) error {
	dec := json.NewDecoder(strings.NewReader(string(b)))
	dec.DisallowUnknownFields()
	err := dec.Decode(v)
	if err == nil && dec.More() {
		err = fmt.Errorf("data after the JSON value")
	}
	if err == nil {
		return nil
	}
	var off int64 = -1
	switch e := err.(type) {
	case *json.SyntaxError:
		off = e.Offset
	case *json.UnmarshalTypeError:
		off = e.Offset
	}
	if off >= 0 {
		line := 1 + strings.Count(string(b[:min(int(off), len(b))]), "\n")
		col := int(off) - strings.LastIndex(string(b[:min(int(off), len(b))]), "\n") - 1
		return fmt.Errorf("line %d, column %d: %w", line, col, err)
	}
	return err
}
