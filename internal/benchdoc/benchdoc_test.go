package benchdoc

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func ptr(v float64) *float64 { return &v }

func TestEvaluate(t *testing.T) {
	metrics := map[string]float64{"a_us": 0.8, "b_us": 2.5, "native_us": 1.0, "rate": 70000, "zero": 0}
	for _, tc := range []struct {
		name   string
		target Target
		values []*float64
		status string
	}{
		{"met", Target{Op: "<=", Value: 1, Measures: []Measure{{Metric: "a_us"}}}, []*float64{ptr(0.8)}, Met},
		{"not met", Target{Op: "<=", Value: 1, Measures: []Measure{{Metric: "b_us"}}}, []*float64{ptr(2.5)}, NotMet},
		{"at the bound", Target{Op: ">=", Value: 70000, Measures: []Measure{{Metric: "rate"}}}, []*float64{ptr(70000)}, Met},
		{"strict", Target{Op: "<", Value: 0.8, Measures: []Measure{{Metric: "a_us"}}}, []*float64{ptr(0.8)}, NotMet},
		{"not measured", Target{Op: "<=", Value: 1, Measures: []Measure{{Metric: "envoy.p50_us"}}}, []*float64{nil}, NotMeasured},
		{"one missing, the rest met", Target{Op: "<=", Value: 3, Measures: []Measure{{Metric: "a_us"}, {Metric: "gone"}}}, []*float64{ptr(0.8), nil}, NotMeasured},
		{"one missing, one not met", Target{Op: "<=", Value: 1, Measures: []Measure{{Metric: "b_us"}, {Metric: "gone"}}}, []*float64{ptr(2.5), nil}, NotMet},
		{"ratio", Target{Op: "<=", Value: 3, Measures: []Measure{{Metric: "b_us", Per: "native_us"}}}, []*float64{ptr(2.5)}, Met},
		{"ratio, divisor missing", Target{Op: "<=", Value: 3, Measures: []Measure{{Metric: "b_us", Per: "gone"}}}, []*float64{nil}, NotMeasured},
		{"ratio, divisor zero", Target{Op: "<=", Value: 3, Measures: []Measure{{Metric: "b_us", Per: "zero"}}}, []*float64{nil}, NotMeasured},
		{"no bound", Target{Measures: []Measure{{Metric: "rate"}}}, []*float64{ptr(70000)}, Reported},
		{"no bound, missing", Target{Measures: []Measure{{Metric: "gone"}}}, []*float64{nil}, NotMeasured},
		{"floor beyond the bound", Target{Op: "<=", Value: 2, Measures: []Measure{{Metric: "b_us", Floor: "b_us"}}}, []*float64{ptr(2.5)}, OutOfReach},
		{"floor within the bound", Target{Op: "<=", Value: 1, Measures: []Measure{{Metric: "b_us", Floor: "a_us"}}}, []*float64{ptr(2.5)}, NotMet},
		{"one failing measure without a floor", Target{Op: "<=", Value: 2, Measures: []Measure{{Metric: "b_us", Floor: "b_us"}, {Metric: "b_us"}}}, []*float64{ptr(2.5), ptr(2.5)}, NotMet},
		{"floor metric missing", Target{Op: "<=", Value: 2, Measures: []Measure{{Metric: "b_us", Floor: "gone"}}}, []*float64{ptr(2.5)}, NotMet},
		{"met, floor aside", Target{Op: "<=", Value: 1, Measures: []Measure{{Metric: "a_us", Floor: "b_us"}}}, []*float64{ptr(0.8)}, Met},
	} {
		e := Evaluate(tc.target, metrics)
		if e.Status != tc.status || !reflect.DeepEqual(e.Values, tc.values) {
			t.Errorf("%s: got %v %v, want %v %v", tc.name, e.Status, deref(e.Values), tc.status, deref(tc.values))
		}
	}
}

func deref(vs []*float64) []any {
	var out []any
	for _, v := range vs {
		if v == nil {
			out = append(out, nil)
		} else {
			out = append(out, *v)
		}
	}
	return out
}

func sampleSections() []Section {
	return []Section{
		{Section: "python", Title: "Python", Command: "make -C sdk-python bench", Date: "2026-11-25", Machine: "m",
			Metrics: map[string]float64{"python.b.dict_us": 25.7, "python.b.cel_rust_us": 5.2}},
		{Section: "go", Title: "Go host", Command: "go run ./cmd/celwasm-bench", Date: "2026-11-25", Machine: "m",
			Context: []string{"module sha256 abc"},
			Tables: []Table{{Title: "steady", Columns: []string{"case", "native µs", "wazero µs"},
				Rows: [][]any{{"(a) a|b", 18.9, 112.63}, {"(b)", 3.21, nil}}}},
			Metrics: map[string]float64{"go.true.wazero_us": 4.6, "go.b.native_us": 3.21, "go.batch.wazero_events_per_s": 14092.4}},
		{Section: "zeta", Title: "Unlisted", Command: "true", Date: "2026-11-25", Machine: "m"},
	}
}

var sampleTargets = Targets{
	Order: []string{"go", "python", "envoy"},
	Targets: []Target{
		{Issue: 17, Target: "`true` on wazero", Op: "<=", Value: 2, Unit: "µs", Measures: []Measure{{Label: "wazero", Metric: "go.true.wazero_us"}}},
		{Issue: 17, Target: "batch", Op: ">=", Value: 30000, Unit: "events/s", Measures: []Measure{{Metric: "go.batch.wazero_events_per_s"}}},
		{Issue: 17, Target: "Python (b)", Op: "<=", Value: 1, Unit: "×", Measures: []Measure{{Label: "(b)", Metric: "python.b.dict_us", Per: "python.b.cel_rust_us"}}},
		{Issue: 18, Target: "Envoy p50", Op: "<=", Value: 50, Unit: "µs", Measures: []Measure{{Metric: "envoy.added_latency_p50_us"}}},
		{Issue: 1, Target: "met one", Op: "<", Value: 5, Unit: "µs", Measures: []Measure{{Metric: "go.b.native_us"}}},
	},
}

func render(t *testing.T, sections []Section) string {
	t.Helper()
	var b bytes.Buffer
	if err := Render(&b, "# Benchmarks\n", sampleTargets, sections); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestRender(t *testing.T) {
	doc := render(t, sampleSections())
	for _, want := range []string{
		"| #17 | `true` on wazero | ≤ 2 µs | wazero 4.60 µs | not met | `go.true.wazero_us` |\n",
		"| #17 | batch | ≥ 30,000 events/s | 14,092 events/s | not met |",
		"| #17 | Python (b) | ≤ 1× | (b) 4.94× | not met | `python.b.dict_us` / `python.b.cel_rust_us` |\n",
		"| #18 | Envoy p50 | ≤ 50 µs | — | not measured |",
		"| #1 | met one | < 5 µs | 3.21 µs | met |",
		"Sections without results: `envoy`.\n",
		"Reproduce: `go run ./cmd/celwasm-bench`, then `go run ./cmd/celwasm-benchdoc`. Measured 2026-11-25 on m.\n",
		"- module sha256 abc\n",
		"| case | native µs | wazero µs |\n|---|---|---|\n| (a) a\\|b | 18.9 | 113 |\n| (b) | 3.21 | — |\n",
	} {
		if !strings.Contains(doc, want) {
			t.Errorf("missing %q in\n%s", want, doc)
		}
	}
	// Listed sections in the targets file's order, then the rest by id.
	gi, pi, zi := strings.Index(doc, "\n## Go host"), strings.Index(doc, "\n## Python"), strings.Index(doc, "\n## Unlisted")
	if !(gi > 0 && gi < pi && pi < zi) {
		t.Errorf("section order: go %d, python %d, zeta %d", gi, pi, zi)
	}
}

func TestRenderIsStable(t *testing.T) {
	s := sampleSections()
	first := render(t, s)
	for i := 0; i < 20; i++ { // map iteration order differs between runs
		s[0], s[1], s[2] = s[2], s[0], s[1]
		if got := render(t, s); got != first {
			t.Fatalf("render %d differs from the first", i)
		}
	}
}

func TestEmbeddedRoundTrip(t *testing.T) {
	s := sampleSections()
	doc := render(t, s)
	got, err := Embedded([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 {
		t.Fatalf("%d embedded sections, want 3", len(got))
	}
	// Rendering the embedded sections again gives the same document.
	if again := render(t, got); again != doc {
		t.Fatalf("re-rendered embedded sections differ")
	}
	fresh := Section{Section: "go", Title: "Go host, rerun", Command: "x", Date: "2026-11-26", Machine: "m"}
	merged := Merge([]Section{fresh}, got)
	if len(merged) != 3 || merged[0].Title != "Go host, rerun" {
		t.Fatalf("merge: %+v", merged)
	}
}

func TestDuplicateMetric(t *testing.T) {
	s := sampleSections()
	s[2].Metrics = map[string]float64{"go.b.native_us": 1}
	var b bytes.Buffer
	err := Render(&b, "", sampleTargets, s)
	if err == nil || !strings.Contains(err.Error(), `"go.b.native_us" is in two sections`) {
		t.Fatalf("got %v", err)
	}
}

func TestLoadErrors(t *testing.T) {
	for _, tc := range []struct{ name, file, text, want string }{
		{"syntax", "go.json", "{\n  \"section\": \"go\",\n  \"title\": \"x\" \"command\": \"y\"\n}", "go.json: line 3, column 16: invalid character"},
		{"type", "go.json", `{"section":"go","title":"t","command":"c","metrics":{"x":"fast"}}`, "go.json: line 1, column 63: json: cannot unmarshal string into Go struct field Section.metrics of type float64"},
		{"unknown field", "go.json", `{"section":"go","title":"t","command":"c","metric":{}}`, `go.json: json: unknown field "metric"`},
		{"name", "js.json", `{"section":"go","title":"t","command":"c"}`, `js.json: section "go" must be in go.json`},
		{"no command", "go.json", `{"section":"go","title":"t"}`, `go.json: section "go": title and command are required`},
		{"row length", "go.json", `{"section":"go","title":"t","command":"c","tables":[{"title":"x","columns":["a","b"],"rows":[[1]]}]}`, `table "x", row 1: 1 cells for 2 columns`},
		{"cell type", "go.json", `{"section":"go","title":"t","command":"c","tables":[{"title":"x","columns":["a"],"rows":[[{"v":1}]]}]}`, `is neither number, string nor null`},
		{"null metric", "go.json", `{"section":"go","title":"t","command":"c","metrics":{"x":null}}`, `metric "x" is null`},
		{"trailing", "go.json", `{"section":"go","title":"t","command":"c"} {}`, `data after the JSON value`},
	} {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, tc.file), []byte(tc.text), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := Load(dir)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want %q", tc.name, err, tc.want)
		}
	}
}

func TestReadTargetsErrors(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{`{"targets":[{"issue":1,"target":"x","op":"=<","value":1,"measures":[{"metric":"m"}]}]}`, `op "=<"`},
		{`{"targets":[{"issue":1,"target":"x","op":"<=","value":1,"measures":[]}]}`, `at least one measure`},
		{`{"targets":[{"issue":1,"target":"x","measures":[{"label":"l"}]}]}`, `a measure without a metric`},
		{`{"targets":[{"issue":1,"target":"x","measures":[{"metric":"m","over":"n"}]}]}`, `unknown field "over"`},
		{`{"targets":[{"issue":1,"target":"x","op":"<=","value":1,"measures":[{"metric":"m","floor":"f"}]}]}`, `floor note`},
	} {
		f := filepath.Join(t.TempDir(), "t.json")
		os.WriteFile(f, []byte(tc.text), 0o644)
		if _, err := ReadTargets(f); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want %q", tc.text, err, tc.want)
		}
	}
}

func TestWriteThenLoad(t *testing.T) {
	dir := t.TempDir()
	s := New("go", "Go host", "go run ./cmd/celwasm-bench")
	s.Contextf("module sha256 %s", "abc")
	tb := s.AddTable("steady", "case", "µs", "matches")
	tb.Row("(a)", 1.5, 200)
	s.Metrics["go.a.wazero_us"] = 1.5
	if _, err := s.Write(dir); err != nil {
		t.Fatal(err)
	}
	got, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].Tables[0].Rows[0][2] != 200.0 || got[0].Metrics["go.a.wazero_us"] != 1.5 {
		t.Fatalf("%+v", got)
	}
	bad := New("go", "Go host", "c")
	bad.AddTable("t", "a", "b").Row(1)
	if _, err := bad.Write(dir); err == nil {
		t.Fatal("a row with too few cells was written")
	}
}

func TestNumber(t *testing.T) {
	for v, want := range map[float64]string{0.0823: "0.0823", 0.5: "0.5", 2.289: "2.29", 3: "3", 18.94: "18.9",
		112.63: "113", 14092.4: "14,092", 47503518: "47,503,518", -1234.5: "-1,234", 0: "0"} {
		if got := number(v); got != want {
			t.Errorf("number(%v) = %q, want %q", v, got, want)
		}
	}
}

// TestRenderFloors: a floor is shown beside its measure and named beside
// its metric, the status says when every failing measure's floor fails the
// bound too, and the target's note follows the table.
func TestRenderFloors(t *testing.T) {
	tg := Targets{Targets: []Target{{Issue: 17, Target: "(b) on wasmtime-go", Op: "<=", Value: 3, Unit: "×",
		Measures: []Measure{{Label: "(b)", Metric: "go.b.ratio", Floor: "go.b.floor"}},
		Floor:    "cel-go's evaluation alone in the runtime (make profile)."},
		{Issue: 17, Target: "(d) on wazero", Op: "<=", Value: 6, Unit: "×",
			Measures: []Measure{{Label: "(d)", Metric: "go.b.ratio", Floor: "go.b.floor"}},
			Floor:    "cel-go's evaluation alone in the runtime (make profile)."}}}
	s := Section{Section: "go", Title: "Go", Command: "c", Date: "2026-11-27", Machine: "m",
		Metrics: map[string]float64{"go.b.ratio": 4.5, "go.b.floor": 3.9}}
	var b strings.Builder
	if err := Render(&b, "# H", tg, []Section{s}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"| #17 | (b) on wasmtime-go | ≤ 3× | (b) 4.50× (floor 3.90×) | not met; out of reach (floor) | `go.b.ratio` (floor `go.b.floor`) |\n",
		"\nFloors, where a row gives them:\n\n- #17 (b) on wasmtime-go; #17 (d) on wazero: cel-go's evaluation alone in the runtime (make profile).\n",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("missing %q in\n%s", want, b.String())
		}
	}
}

// TestRenderAlso: a measure's Also metric is shown beside its value and
// named beside its metric, and does not decide the status.
func TestRenderAlso(t *testing.T) {
	tg := Targets{Targets: []Target{{Issue: 17, Target: "(c) on wasmtime-go", Op: "<=", Value: 3, Unit: "×",
		Measures: []Measure{{Label: "(c)", Metric: "go.c.up", Also: "go.c.fork", AlsoLabel: "to the fork"}}}}}
	s := Section{Section: "go", Title: "Go", Command: "c", Date: "2026-12-07", Machine: "m",
		Metrics: map[string]float64{"go.c.up": 2.9, "go.c.fork": 3.7}}
	var b strings.Builder
	if err := Render(&b, "# H", tg, []Section{s}); err != nil {
		t.Fatal(err)
	}
	want := "| #17 | (c) on wasmtime-go | ≤ 3× | (c) 2.90× [3.70× to the fork] | met | `go.c.up` [`go.c.fork`] |\n"
	if !strings.Contains(b.String(), want) {
		t.Errorf("missing %q in\n%s", want, b.String())
	}
}
