package wire

import (
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// The TypeScript and Python SDKs declare the module's response shapes by
// hand. This test reads their sources and checks that each declaration has
// exactly the JSON members of the Go type here, so a field added in Go
// cannot be forgotten in an SDK (and an SDK cannot invent one).
var sdkShapes = []struct {
	goType reflect.Type
	ts, py string
	// extra members an SDK adds on top of the module's (host information).
	tsExtra, pyExtra []string
}{
	{goType: reflect.TypeOf(Issue{}), ts: "Issue", py: "Issue"},
	{goType: reflect.TypeOf(CostEstimate{}), ts: "CostEstimate", py: "CostEstimate"},
	{goType: reflect.TypeOf(VersionInfo{}), ts: "VersionInfo", py: "VersionInfo", pyExtra: []string{"moduleSha256", "engine", "modules"}},
	{goType: reflect.TypeOf(CRDInfo{}), ts: "CRDInfo", py: "CRDInfo"},
	{goType: reflect.TypeOf(RuleRef{}), ts: "RuleRef", py: "RuleRef"},
	{goType: reflect.TypeOf(FieldError{}), ts: "FieldError", py: "FieldError"},
	{goType: reflect.TypeOf(ObjectResult{}), ts: "ObjectResult", py: "ObjectResult"},
	{goType: reflect.TypeOf(BoundNode{}), ts: "BoundNode", py: "BoundNode"},
	{goType: reflect.TypeOf(UnknownSize{}), ts: "UnknownSize", py: "UnknownSize"},
	{goType: reflect.TypeOf(CallCost{}), ts: "CallCost", py: "CallCost"},
	{goType: reflect.TypeOf(BoundFix{}), ts: "BoundFix", py: "BoundFix"},
	{goType: reflect.TypeOf(CostExplanation{}), ts: "CostExplanation", py: "CostExplanation"},
	{goType: reflect.TypeOf(RuleCost{}), ts: "RuleCost", py: "RuleCost"},
	{goType: reflect.TypeOf(SchemaCost{}), ts: "SchemaCost", py: "SchemaCost"},
	{goType: reflect.TypeOf(CostResponse{}), ts: "CRDCostReport", py: "CRDCostReport"},
	// Python's Runtime.admit takes and returns the module's JSON as dicts:
	// no declaration to drift there.
	{goType: reflect.TypeOf(AdmitRequest{}), ts: "AdmitRequest"},
	{goType: reflect.TypeOf(AdmitItem{}), ts: "AdmitItem"},
	{goType: reflect.TypeOf(AdmitResult{}), ts: "AdmitResult"},
	{goType: reflect.TypeOf(AdmitResponse{}), ts: "AdmitResponse"},
}

func jsonMembers(t reflect.Type) []string {
	var out []string
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" || !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		out = append(out, name)
	}
	sort.Strings(out)
	return out
}

// readAll concatenates the sources of an SDK directory.
func readAll(t *testing.T, dir, ext string) string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*"+ext))
	if err != nil || len(files) == 0 {
		t.Fatalf("no %s sources in %s (%v)", ext, dir, err)
	}
	var b strings.Builder
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(src)
		b.WriteString("\n")
	}
	return b.String()
}

var (
	tsMember = regexp.MustCompile(`^  (?:readonly )?([A-Za-z_][A-Za-z0-9_]*)\??:`)
	pyMember = regexp.MustCompile(`^    ([a-z_][a-z0-9_]*): `)
	pyJSON   = regexp.MustCompile(`_m\("([^"]+)"`)
)

// tsInterface returns the members of `export interface NAME { ... }`.
func tsInterface(src, name string) ([]string, bool) {
	start := strings.Index(src, "export interface "+name+" {")
	if start < 0 {
		return nil, false
	}
	var out []string
	for _, line := range strings.Split(src[start:], "\n")[1:] {
		if strings.HasPrefix(line, "}") {
			break
		}
		if m := tsMember.FindStringSubmatch(line); m != nil {
			out = append(out, m[1])
		}
	}
	sort.Strings(out)
	return out, true
}

// pyClass returns the JSON names of the annotated fields of `class NAME:`:
// the name in the field's _m("...") metadata, else the camelCase field name.
func pyClass(src, name string) ([]string, bool) {
	start := strings.Index(src, "\nclass "+name+":")
	if start < 0 {
		start = strings.Index(src, "\nclass "+name+"(")
	}
	if start < 0 {
		return nil, false
	}
	var out []string
	for _, line := range strings.Split(src[start+1:], "\n")[1:] {
		if line != "" && !strings.HasPrefix(line, " ") {
			break
		}
		if strings.HasPrefix(strings.TrimSpace(line), "def ") || strings.HasPrefix(strings.TrimSpace(line), "@") {
			break
		}
		m := pyMember.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		if j := pyJSON.FindStringSubmatch(line); j != nil {
			out = append(out, j[1])
			continue
		}
		parts := strings.Split(m[1], "_")
		for i := 1; i < len(parts); i++ {
			if parts[i] == "sha256" {
				parts[i] = "SHA256"
				continue
			}
			parts[i] = strings.ToUpper(parts[i][:1]) + parts[i][1:]
		}
		out = append(out, strings.Replace(strings.Join(parts, ""), "SHA256", "Sha256", 1))
	}
	sort.Strings(out)
	return out, true
}

func diff(want, got []string) (missing, extra []string) {
	in := func(list []string, s string) bool {
		for _, x := range list {
			if x == s {
				return true
			}
		}
		return false
	}
	for _, w := range want {
		if !in(got, w) {
			missing = append(missing, w)
		}
	}
	for _, g := range got {
		if !in(want, g) {
			extra = append(extra, g)
		}
	}
	return
}

func TestSDKDeclarationsMatchWireTypes(t *testing.T) {
	ts := readAll(t, "../sdk-js/src", ".ts")
	py := readAll(t, "../sdk-python/src/celwasm", ".py")
	for _, s := range sdkShapes {
		want := jsonMembers(s.goType)
		for _, sdk := range []struct {
			lang, name string
			extra      []string
			members    func(string, string) ([]string, bool)
			src        string
		}{{"TypeScript", s.ts, s.tsExtra, tsInterface, ts}, {"Python", s.py, s.pyExtra, pyClass, py}} {
			if sdk.name == "" {
				continue
			}
			got, ok := sdk.members(sdk.src, sdk.name)
			if !ok {
				t.Errorf("%s: no declaration of %s (Go wire.%s)", sdk.lang, sdk.name, s.goType.Name())
				continue
			}
			missing, extra := diff(append(append([]string(nil), want...), sdk.extra...), got)
			if len(missing) > 0 || len(extra) > 0 {
				t.Errorf("%s %s vs Go wire.%s: missing %v, not in Go %v", sdk.lang, sdk.name, s.goType.Name(), missing, extra)
			}
		}
	}
}
