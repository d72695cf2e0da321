package validate

import (
	"encoding/json"
	"reflect"
	"sort"
	"strings"
	"testing"

	"k8s.io/kube-openapi/pkg/validation/spec"
	"k8s.io/kube-openapi/pkg/validation/strfmt"
)

// The celwasm patches of this package (PATCHES.md, "validate: ..."): the
// same results, errors and paths, with fewer allocations.

const reuseSchema = `{
  "type": "object",
  "required": ["items"],
  "properties": {
    "name": {"type": "string", "maxLength": 3},
    "items": {
      "type": "array",
      "items": {
        "type": "object",
        "required": ["name"],
        "properties": {
          "name": {"type": "string", "pattern": "^[a-z]+$"},
          "port": {"type": "integer", "minimum": 1, "maximum": 65535},
          "mode": {"type": "string", "enum": ["a", "b"]},
          "when": {"type": "string", "format": "date-time"},
          "either": {"anyOf": [{"type": "string", "maxLength": 2}, {"type": "integer"}]},
          "tags": {"type": "array", "maxItems": 2, "items": {"type": "string", "minLength": 2}},
          "sub": {"type": "object", "properties": {"x": {"type": "integer", "maximum": 5}}}
        }
      }
    }
  }
}`

const reuseData = `{
  "name": "toolong",
  "items": [
    {"name": "ok", "port": 80, "mode": "a", "when": "2024-01-01T00:00:00Z", "either": 3, "tags": ["aa"], "sub": {"x": 1}},
    {"name": "Bad1", "port": 0, "mode": "c", "when": "yesterday", "either": "long", "tags": ["a", "bb", "cc"], "sub": {"x": 9}},
    {"port": 70000},
    {"name": "ok", "tags": ["x"], "sub": {"x": "y"}},
    {"name": "fine", "either": true},
    {"name": "Z", "port": 1.5, "sub": {"x": 6}}
  ]
}`

// upstreamOptions makes every child validator as upstream does (its
// defaults, but set, so that nothing is reused).
func upstreamOptions(o *SchemaValidatorOptions) {
	o.NewValidatorForIndex = func(index int, schema *spec.Schema, rootSchema interface{}, root string, formats strfmt.Registry, opts ...Option) ValueValidator {
		return NewSchemaValidator(schema, rootSchema, root, formats, append(opts, upstreamOptions)...)
	}
	o.NewValidatorForField = func(field string, schema *spec.Schema, rootSchema interface{}, root string, formats strfmt.Registry, opts ...Option) ValueValidator {
		return NewSchemaValidator(schema, rootSchema, root, formats, append(opts, upstreamOptions)...)
	}
}

func errorTexts(r *Result) []string {
	var out []string
	for _, e := range r.Errors {
		out = append(out, e.Error())
	}
	sort.Strings(out)
	return out
}

func reuseInputs(t *testing.T) (*spec.Schema, interface{}) {
	t.Helper()
	var sch spec.Schema
	if err := json.Unmarshal([]byte(reuseSchema), &sch); err != nil {
		t.Fatal(err)
	}
	var data interface{}
	if err := json.Unmarshal([]byte(reuseData), &data); err != nil {
		t.Fatal(err)
	}
	return &sch, data
}

// TestReusePatchSameResults: validators reused across list items and
// properties (Options.reuseChildren) give upstream's errors, with the paths
// of each item, and the same match count.
func TestReusePatchSameResults(t *testing.T) {
	sch, data := reuseInputs(t)
	got := NewSchemaValidator(sch, nil, "", strfmt.Default).Validate(data)
	want := NewSchemaValidator(sch, nil, "", strfmt.Default, upstreamOptions).Validate(data)
	if !reflect.DeepEqual(errorTexts(got), errorTexts(want)) {
		t.Errorf("errors with reuse:\n%s\nupstream's:\n%s", strings.Join(errorTexts(got), "\n"), strings.Join(errorTexts(want), "\n"))
	}
	if got.MatchCount != want.MatchCount || got.IsValid() != want.IsValid() {
		t.Errorf("match count %d, valid %t; upstream's %d, %t", got.MatchCount, got.IsValid(), want.MatchCount, want.IsValid())
	}
	// The errors name the items they are in: a reused validator moved.
	all := strings.Join(errorTexts(got), "\n")
	for _, p := range []string{"items[1].name", "items[1].port", "items[1].mode", "items[1].when", "items[1].tags",
		"items[1].tags[0]", "items[1].sub.x", "items[2].name", "items[2].port", "items[3].tags[0]",
		"items[3].sub.x", "items[4].either", "items[5].sub.x", "items[5].port"} {
		if !strings.Contains(all, p+" ") {
			t.Errorf("no error at %s in:\n%s", p, all)
		}
	}
	if len(got.Errors) < 15 {
		t.Errorf("only %d errors: the test data lost its point", len(got.Errors))
	}
	// Validating again with the same validator gives the same answer.
	v := NewSchemaValidator(sch, nil, "", strfmt.Default)
	first, second := errorTexts(v.Validate(data)), errorTexts(v.Validate(data))
	if !reflect.DeepEqual(first, second) || !reflect.DeepEqual(first, errorTexts(want)) {
		t.Errorf("a second validation differs")
	}
}

// TestReusePatchSetPathReachesAnyOf: SetPath moves the anyOf validators a
// schema holds, not copies of them.
func TestReusePatchSetPathReachesAnyOf(t *testing.T) {
	sch := &spec.Schema{SchemaProps: spec.SchemaProps{AnyOf: []spec.Schema{*spec.StringProperty(), *spec.Int64Property()}}}
	v := NewSchemaValidator(sch, nil, "a", strfmt.Default)
	v.SetPath("b")
	props := v.validators[1].(*schemaPropsValidator)
	if props.Path != "b" || props.anyOfValidators[0].Path != "b" || props.anyOfValidators[1].Path != "b" {
		t.Errorf("paths after SetPath: %q, %q, %q", props.Path, props.anyOfValidators[0].Path, props.anyOfValidators[1].Path)
	}
}

// TestReusePatchAllocations: a schema validator is one allocation (and its
// schemaPropsValidator's options), a debug line nothing when Debug is off,
// and a list of objects does not make a validator per item.
func TestReusePatchAllocations(t *testing.T) {
	if Debug {
		t.Skip("SWAGGER_DEBUG is set")
	}
	sch, data := reuseInputs(t)
	if n := testing.AllocsPerRun(100, func() { NewSchemaValidator(sch, nil, "", strfmt.Default) }); n > 2 {
		t.Errorf("NewSchemaValidator: %v allocations, want at most 2", n)
	}
	sv := &stringValidator{Path: "some.path"}
	if n := testing.AllocsPerRun(100, func() { sv.Applies(sch, reflect.String) }); n != 0 {
		t.Errorf("stringValidator.Applies: %v allocations, want 0", n)
	}
	tv := &typeValidator{Path: "some.path", Type: spec.StringOrArray{"string"}}
	if n := testing.AllocsPerRun(100, func() { tv.Validate("text") }); n > 1 {
		t.Errorf("typeValidator.Validate: %v allocations, want 1 (its Result)", n)
	}
	reused := testing.AllocsPerRun(20, func() { NewSchemaValidator(sch, nil, "", strfmt.Default).Validate(data) })
	upstream := testing.AllocsPerRun(20, func() { NewSchemaValidator(sch, nil, "", strfmt.Default, upstreamOptions).Validate(data) })
	if reused >= upstream {
		t.Errorf("validation with reuse: %v allocations, upstream's way %v", reused, upstream)
	}
	t.Logf("allocations per validation: %v (upstream's way %v)", reused, upstream)
}

// FuzzReusePatch: for any JSON document, validation with reuse gives
// upstream's errors and match count (the schema of TestReusePatchSameResults).
func FuzzReusePatch(f *testing.F) {
	f.Add(reuseData)
	f.Add(`{"items":[{"name":"a"},{"name":1,"sub":{"x":[]}},{"tags":[1,"aa",null]},null,{"either":{}}]}`)
	f.Add(`{"items":[[],{"name":"b","port":"80"},{"mode":"b","when":"2024-02-30T00:00:00Z"}],"name":null}`)
	f.Add(`[{"items":{}}]`)
	var sch spec.Schema
	if err := json.Unmarshal([]byte(reuseSchema), &sch); err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, doc string) {
		var data interface{}
		if json.Unmarshal([]byte(doc), &data) != nil {
			return
		}
		got := NewSchemaValidator(&sch, nil, "", strfmt.Default).Validate(data)
		want := NewSchemaValidator(&sch, nil, "", strfmt.Default, upstreamOptions).Validate(data)
		if !reflect.DeepEqual(errorTexts(got), errorTexts(want)) || got.MatchCount != want.MatchCount {
			t.Fatalf("%s:\nwith reuse (%d):\n%s\nupstream's (%d):\n%s", doc, got.MatchCount, strings.Join(errorTexts(got), "\n"), want.MatchCount, strings.Join(errorTexts(want), "\n"))
		}
	})
}
