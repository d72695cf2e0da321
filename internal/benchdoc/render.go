package benchdoc

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"sort"
	"strconv"
	"strings"
)

// Targets is the checked-in targets file: the order of the sections in the
// document and the open issues' targets, each compared with metrics.
type Targets struct {
	// Order lists section ids in document order; sections not listed follow,
	// sorted by id.
	Order   []string `json:"order"`
	Targets []Target `json:"targets"`
}

// Target is one row of the targets table.
type Target struct {
	Issue  int    `json:"issue"`
	Target string `json:"target"`
	// Op compares each measured value with Value: "<=", "<", ">=", ">";
	// "" means no threshold (the value is reported).
	Op    string  `json:"op,omitempty"`
	Value float64 `json:"value,omitempty"`
	Unit  string  `json:"unit,omitempty"`
	// Measures are the measured values; the target is met when each is.
	Measures []Measure `json:"measures"`
	// Floor says what the measures' floors are and which profile explains
	// them (a note under the table); required when a measure has a floor.
	Floor string `json:"floor,omitempty"`
}

// Measure names a metric, or the ratio of two metrics (Metric / Per).
type Measure struct {
	Label  string `json:"label,omitempty"`
	Metric string `json:"metric"`
	Per    string `json:"per,omitempty"`
	// Floor names a metric in the same unit: the least the measured value
	// can be without changing what the target's text holds fixed (for a
	// call of the module, cel-go's own evaluation in the runtime). A target
	// whose failing measures all have floors that fail the bound too is
	// out of reach, and its row says so.
	Floor string `json:"floor,omitempty"`
	// Also names a metric in the same unit shown beside the measured value,
	// after AlsoLabel, and not compared with the bound: the same ratio to
	// another baseline.
	Also      string `json:"also,omitempty"`
	AlsoLabel string `json:"alsoLabel,omitempty"`
}

// Status of a target.
const (
	Met         = "met"
	NotMet      = "not met"
	NotMeasured = "not measured"
	Reported    = "reported" // measured, no threshold
	// OutOfReach: not met, and every measure that fails has a floor that
	// fails the bound too.
	OutOfReach = "not met; out of reach (floor)"
)

// ReadTargets reads and checks the targets file.
func ReadTargets(file string) (Targets, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return Targets{}, err
	}
	var t Targets
	if err := decodeStrict(b, &t); err != nil {
		return Targets{}, fmt.Errorf("%s: %w", file, err)
	}
	for i, x := range t.Targets {
		switch x.Op {
		case "", "<=", "<", ">=", ">":
		default:
			return Targets{}, fmt.Errorf("%s: target %d (%q): op %q, want <=, <, >=, > or none", file, i+1, x.Target, x.Op)
		}
		if x.Target == "" || len(x.Measures) == 0 {
			return Targets{}, fmt.Errorf("%s: target %d: a target needs its text and at least one measure", file, i+1)
		}
		for _, m := range x.Measures {
			if m.Metric == "" {
				return Targets{}, fmt.Errorf("%s: target %d (%q): a measure without a metric", file, i+1, x.Target)
			}
			if m.Floor != "" && (x.Floor == "" || x.Op == "") {
				return Targets{}, fmt.Errorf("%s: target %d (%q): a floor needs a bound and the target's floor note", file, i+1, x.Target)
			}
		}
	}
	return t, nil
}

// Evaluation is a target's measured values and their floors (nil: not
// measured) and status.
type Evaluation struct {
	Values []*float64
	Floors []*float64
	Status string
}

// Evaluate compares a target's measures with the metrics.
func Evaluate(t Target, metrics map[string]float64) Evaluation {
	e := Evaluation{Values: make([]*float64, len(t.Measures)), Floors: make([]*float64, len(t.Measures))}
	missing, failed, beyond := 0, 0, 0
	for i, m := range t.Measures {
		if f, ok := metrics[m.Floor]; ok && m.Floor != "" {
			e.Floors[i] = &f
		}
		v, ok := metrics[m.Metric]
		if ok && m.Per != "" {
			d, ok2 := metrics[m.Per]
			ok = ok2 && d != 0
			if ok {
				v /= d
			}
		}
		if !ok {
			missing++
			continue
		}
		e.Values[i] = &v
		if !holds(t.Op, v, t.Value) {
			failed++
			if f := e.Floors[i]; f != nil && !holds(t.Op, *f, t.Value) {
				beyond++
			}
		}
	}
	switch {
	case failed > 0 && beyond == failed:
		e.Status = OutOfReach
	case failed > 0:
		e.Status = NotMet
	case missing > 0:
		e.Status = NotMeasured
	case t.Op == "":
		e.Status = Reported
	default:
		e.Status = Met
	}
	return e
}

func holds(op string, v, bound float64) bool {
	switch op {
	case "<=":
		return v <= bound
	case "<":
		return v < bound
	case ">=":
		return v >= bound
	case ">":
		return v > bound
	}
	return true
}

// Order sorts sections by the targets file's order, the rest by id.
func Order(sections []Section, order []string) []Section {
	rank := map[string]int{}
	for i, id := range order {
		rank[id] = i
	}
	out := append([]Section(nil), sections...)
	sort.SliceStable(out, func(i, j int) bool {
		ri, oki := rank[out[i].Section]
		rj, okj := rank[out[j].Section]
		switch {
		case oki && okj:
			return ri < rj
		case oki != okj:
			return oki
		}
		return out[i].Section < out[j].Section
	})
	return out
}

// Metrics merges every section's metrics; a name in two sections is an error.
func Metrics(sections []Section) (map[string]float64, error) {
	all := map[string]float64{}
	from := map[string]string{}
	for _, s := range sections {
		for k, v := range s.Metrics {
			if prev, dup := from[k]; dup {
				return nil, fmt.Errorf("metric %q is in two sections: %s and %s", k, prev, s.Section)
			}
			all[k], from[k] = v, s.Section
		}
	}
	return all, nil
}

const embedPrefix = "<!-- benchdoc:section "

// Embedded returns the sections a previous rendering embedded in its
// document, so that one section can be regenerated alone while the others
// keep their last results.
func Embedded(doc []byte) ([]Section, error) {
	var out []Section
	for _, line := range strings.Split(string(doc), "\n") {
		rest, ok := strings.CutPrefix(line, embedPrefix)
		if !ok {
			continue
		}
		rest, ok = strings.CutSuffix(strings.TrimSpace(rest), "-->")
		if !ok {
			return nil, fmt.Errorf("embedded section without its end: %.60s", line)
		}
		var s Section
		if err := decodeStrict([]byte(rest), &s); err != nil {
			return nil, fmt.Errorf("embedded section: %w", err)
		}
		if err := s.check(); err != nil {
			return nil, fmt.Errorf("embedded section: %w", err)
		}
		out = append(out, s)
	}
	return out, nil
}

// Merge returns fresh plus every old section whose id fresh lacks.
func Merge(fresh, old []Section) []Section {
	have := map[string]bool{}
	for _, s := range fresh {
		have[s.Section] = true
	}
	out := append([]Section(nil), fresh...)
	for _, s := range old {
		if !have[s.Section] {
			out = append(out, s)
			have[s.Section] = true
		}
	}
	return out
}

// Render writes the document: header, targets table, then every section in
// order. The output depends only on its arguments.
func Render(w io.Writer, header string, targets Targets, sections []Section) error {
	sections = Order(sections, targets.Order)
	metrics, err := Metrics(sections)
	if err != nil {
		return err
	}
	var b strings.Builder
	b.WriteString(strings.TrimRight(header, "\n") + "\n\n")

	b.WriteString("## Targets\n\n")
	b.WriteString("| issue | target | bound | measured | status | metrics |\n|---|---|---|---|---|---|\n")
	// Floor notes, each once, with the targets it serves.
	var floorNotes []string
	noteTargets := map[string][]string{}
	for _, t := range targets.Targets {
		e := Evaluate(t, metrics)
		var vals, names []string
		for i, m := range t.Measures {
			v := "—"
			if e.Values[i] != nil {
				v = withUnit(*e.Values[i], t.Unit)
			}
			if m.Label != "" {
				v = m.Label + " " + v
			}
			if f := e.Floors[i]; f != nil {
				v += " (floor " + withUnit(*f, t.Unit) + ")"
			}
			if a, ok := metrics[m.Also]; ok && m.Also != "" {
				v += " [" + strings.TrimSpace(withUnit(a, t.Unit)+" "+m.AlsoLabel) + "]"
			}
			vals = append(vals, v)
			n := "`" + m.Metric + "`"
			if m.Per != "" {
				n += " / `" + m.Per + "`"
			}
			if m.Floor != "" {
				n += " (floor `" + m.Floor + "`)"
			}
			if m.Also != "" {
				n += " [`" + m.Also + "`]"
			}
			names = append(names, n)
		}
		if t.Floor != "" {
			if noteTargets[t.Floor] == nil {
				floorNotes = append(floorNotes, t.Floor)
			}
			noteTargets[t.Floor] = append(noteTargets[t.Floor], fmt.Sprintf("#%d %s", t.Issue, t.Target))
		}
		bound := "—"
		if t.Op != "" {
			b := strconv.FormatFloat(t.Value, 'f', -1, 64) // as written in the targets file
			if t.Value == math.Trunc(t.Value) {
				b = number(t.Value)
			}
			bound = opSign(t.Op) + " " + strings.TrimSpace(b+unitSep(t.Unit)+t.Unit)
		}
		fmt.Fprintf(&b, "| #%d | %s | %s | %s | %s | %s |\n", t.Issue, cell(t.Target), bound, cell(strings.Join(vals, "; ")), e.Status, strings.Join(names, ", "))
	}
	if len(floorNotes) > 0 {
		b.WriteString("\nFloors, where a row gives them:\n\n")
		for _, n := range floorNotes {
			fmt.Fprintf(&b, "- %s: %s\n", cell(strings.Join(noteTargets[n], "; ")), n)
		}
	}
	var absent []string
	have := map[string]bool{}
	for _, s := range sections {
		have[s.Section] = true
	}
	for _, id := range targets.Order {
		if !have[id] {
			absent = append(absent, "`"+id+"`")
		}
	}
	if len(absent) > 0 {
		fmt.Fprintf(&b, "\nSections without results: %s.\n", strings.Join(absent, ", "))
	}

	for _, s := range sections {
		fmt.Fprintf(&b, "\n## %s\n\n", s.Title)
		fmt.Fprintf(&b, "Reproduce: `%s`, then `go run ./cmd/celwasm-benchdoc`. Measured %s on %s.\n\n", s.Command, s.Date, s.Machine)
		for _, c := range s.Context {
			fmt.Fprintf(&b, "- %s\n", cell(c))
		}
		if len(s.Context) > 0 {
			b.WriteString("\n")
		}
		for _, t := range s.Tables {
			if t.Title != "" {
				fmt.Fprintf(&b, "### %s\n\n", t.Title)
			}
			cols := make([]string, len(t.Columns))
			for i, c := range t.Columns {
				cols[i] = cell(c)
			}
			b.WriteString("| " + strings.Join(cols, " | ") + " |\n|" + strings.Repeat("---|", len(cols)) + "\n")
			for _, r := range t.Rows {
				cells := make([]string, len(r))
				for i, c := range r {
					cells[i] = format(c)
				}
				b.WriteString("| " + strings.Join(cells, " | ") + " |\n")
			}
			b.WriteString("\n")
		}
		if len(s.Metrics) > 0 {
			names := make([]string, 0, len(s.Metrics))
			for k := range s.Metrics {
				names = append(names, k)
			}
			sort.Strings(names)
			fmt.Fprintf(&b, "<details><summary>Metrics (%d)</summary>\n\n| metric | value |\n|---|---|\n", len(names))
			for _, k := range names {
				fmt.Fprintf(&b, "| `%s` | %s |\n", k, number(s.Metrics[k]))
			}
			b.WriteString("\n</details>\n\n")
		}
		raw, err := json.Marshal(s) // escapes < and >, so "-->" cannot occur
		if err != nil {
			return err
		}
		b.WriteString(embedPrefix + string(raw) + " -->\n")
	}
	_, err = io.WriteString(w, b.String())
	return err
}

func opSign(op string) string {
	return map[string]string{"<=": "≤", "<": "<", ">=": "≥", ">": ">"}[op]
}

func withUnit(v float64, unit string) string { return number(v) + unitSep(unit) + unit }

func unitSep(unit string) string {
	if unit == "" || unit == "×" || unit == "%" {
		return ""
	}
	return " "
}

// format renders a table cell.
func format(c any) string {
	switch v := c.(type) {
	case nil:
		return "—"
	case string:
		return cell(v)
	case float64:
		return number(v)
	case bool:
		return strconv.FormatBool(v)
	case json.Number:
		f, _ := v.Float64()
		return number(f)
	default:
		if f, err := strconv.ParseFloat(fmt.Sprint(v), 64); err == nil {
			return number(f)
		}
		return cell(fmt.Sprint(v))
	}
}

// number prints a value with the precision a reader needs: thousands
// grouped from 1,000, whole numbers from 100, three significant digits below.
func number(v float64) string {
	a := math.Abs(v)
	switch {
	case math.IsNaN(v) || math.IsInf(v, 0):
		return "—"
	case v == math.Trunc(v) && a < 1e15:
		return group(strconv.FormatFloat(v, 'f', 0, 64))
	case a >= 1000:
		return group(strconv.FormatFloat(v, 'f', 0, 64))
	case a >= 100:
		return strconv.FormatFloat(v, 'f', 0, 64)
	case a >= 10:
		return strconv.FormatFloat(v, 'f', 1, 64)
	case a >= 1:
		return strconv.FormatFloat(v, 'f', 2, 64)
	}
	return strconv.FormatFloat(v, 'g', 3, 64)
}

func group(s string) string {
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// cell makes text safe inside a table cell or list item.
func cell(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "\n", " "), "|", "\\|")
}
