package events

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/celwasm/celwasm/wasm/codec"
	"github.com/celwasm/celwasm/wasm/engine"
	"github.com/celwasm/celwasm/wire"

	"github.com/tidwall/gjson"
)

// FilterToCEL transforms a trigger filter into one equivalent CEL
// expression, so that CEL is the only code path that filters (Knative's
// advanced filtering proposal), with the results Knative Eventing's broker
// filter (knative.dev/eventing/pkg/eventfilter) gives. Forms, as JSON:
//
//	{"attributes": {"type": "x", "source": ""}}   Trigger spec.filter: every attribute equal ("" = any value, set)
//	{"exact": {"type": "x", "source": "s"}}        Subscriptions API dialects, entries AND-ed
//	{"prefix": {...}}  {"suffix": {...}}
//	{"all": [F, ...]}  {"any": [F, ...]}  {"not": F}
//	{"cesql": "type LIKE 'dev.%' AND subject = 'x'"}   CloudEvents SQL, evaluated by sdk-go/sql/v2
//	{"expression": "ce.type == 'x'"}              celwasm: CEL as written, over ce and data
//	{"sourceAndType": {"source": "s", "type": "t"}}  the deprecated v1beta1 form; as attributes
//
// A filter may be wrapped as {"filter": F}, {"filters": [F, ...]} (all of
// them), or be a Trigger ({"spec": {"filter": F}} / {"spec": {"filters":
// [...]}}; spec.filters wins when both are set, as in the broker). Knative
// filters have three results: pass, fail and "no filter" (an empty all/any,
// a dialect with an empty value, a not over those); only fail drops the
// event, and not keeps "no filter". Attribute names must be lowercase
// alphanumeric (Knative's webhook, same error text); attributes are read as
// Knative's LookupAttribute reads them (the attrs variable).
//
// In a module without Knative's decoding (UseKnative), a filter whose CEL
// reads attrs or cesql is an error with code needs_module: the module that
// has it compiles and evaluates it. (A false alarm, such as "attrs" inside
// a string literal, costs loading that module, never a different result.)
func FilterToCEL(filter gjson.Result) (string, error) {
	expr, err := filterToCEL(filter)
	if err == nil && knative.decode == nil &&
		(strings.Contains(expr, AttributesVariable) || strings.Contains(expr, CESQLVariable)) {
		return "", needsKnative("a filter reading attrs or cesql (Knative's attributes, exact, prefix, suffix, sourceAndType and cesql dialects)")
	}
	return expr, err
}

func filterToCEL(filter gjson.Result) (string, error) {
	r, err := topFilter(filter)
	if err != nil {
		return "", err
	}
	switch r.kind {
	case skipped, noFilter:
		return "true", nil
	case twoValued:
		return r.pass, nil
	}
	return "!(" + r.fail + ")", nil
}

// resultKind: what a filter can return.
type resultKind int

const (
	twoValued resultKind = iota // pass or fail; fail is !pass
	mixed                       // pass, fail or no filter
	noFilter                    // always "no filter"
	skipped                     // materializes to nothing (dropped from lists)
)

// filterResult holds a filter's CEL: pass (true when it passes) and, for
// mixed, fail (true when it fails).
type filterResult struct {
	kind       resultKind
	pass, fail string
}

func (r filterResult) passCEL() string {
	if r.kind == noFilter || r.kind == skipped {
		return "false"
	}
	return r.pass
}

func (r filterResult) failCEL() string {
	switch r.kind {
	case noFilter, skipped:
		return "false"
	case twoValued:
		return "!(" + r.pass + ")"
	}
	return r.fail
}

func topFilter(f gjson.Result) (filterResult, error) {
	if !f.IsObject() {
		return filterResult{}, filterErr("a filter is a JSON/YAML object, got %s", codec.JSONKind(f))
	}
	path := ""
	if spec := f.Get("spec"); spec.IsObject() {
		f, path = spec, "spec."
	}
	fs, ff := f.Get("filters"), f.Get("filter")
	if path != "" || (len(f.Map()) == 1 && (fs.Exists() || ff.Exists())) {
		if ff.Exists() {
			if !ff.IsObject() {
				return filterResult{}, filterErr("%sfilter must be an object", path)
			}
			if ff.Get("attributes").Exists() && len(ff.Map()) == 1 {
				if err := validateNames(ff.Get("attributes"), path+"filter.attributes"); err != nil {
					return filterResult{}, err
				}
			}
		}
		switch {
		case fs.Exists():
			return filterList("all", fs, path+"filters", 0)
		case ff.Exists():
			if len(ff.Map()) == 0 {
				return filterResult{kind: noFilter}, nil
			}
			return filterExpr(ff, path+"filter", 0)
		}
		return filterResult{kind: noFilter}, nil
	}
	return filterExpr(f, "", 0)
}

const maxFilterDepth = 64

var filterDialects = []string{"all", "any", "attributes", "cesql", "exact", "expression", "not", "prefix", "sourceAndType", "suffix"}

// validAttributeName is Knative's webhook rule for attribute names.
var validAttributeName = regexp.MustCompile(`^[a-z][a-z0-9]*$`)

// validateNames checks every key of an attribute map as Knative's
// ValidateAttributesNames does, with its error text.
func validateNames(m gjson.Result, path string) error {
	if !m.IsObject() {
		return filterErr("%s must map attribute names to values", path)
	}
	var errs []string
	m.ForEach(func(k, _ gjson.Result) bool {
		if !validAttributeName.MatchString(k.Str) {
			errs = append(errs, fmt.Sprintf("invalid key name %q: %s[%s]\nAttribute name must start with a letter and can only contain lowercase alphanumeric", k.Str, path, k.Str))
		}
		return true
	})
	if errs != nil {
		return filterErr("%s", strings.Join(errs, "\n"))
	}
	return nil
}

func via(path, field string) string {
	if path == "" {
		return field
	}
	return path + "." + field
}

func filterExpr(f gjson.Result, path string, depth int) (filterResult, error) {
	if depth > maxFilterDepth {
		return filterResult{}, filterErr("filters nest deeper than %d", maxFilterDepth)
	}
	if !f.IsObject() {
		return filterResult{}, filterErr("a filter is an object, got %s", codec.JSONKind(f))
	}
	keys := objectKeys(f)
	// Knative's ValidateOneOf: dialects count only when set (non-empty).
	set := 0
	for _, k := range keys {
		v := f.Get(gjson.Escape(k))
		if (v.IsObject() && len(v.Map()) > 0) || (v.IsArray() && len(v.Array()) > 0) || (v.Type == gjson.String && v.Str != "") || (k == "not" && v.Exists() && v.Type != gjson.Null) {
			set++
		}
	}
	if set > 1 {
		msg := "multiple dialects found, filters can have only one dialect set"
		if path != "" {
			msg += ": " + path
		}
		return filterResult{}, filterErr("%s", msg)
	}
	res := filterResult{kind: skipped}
	for _, kind := range keys {
		body := f.Get(gjson.Escape(kind))
		r, err := dialectExpr(kind, body, path, depth)
		if err != nil {
			return filterResult{}, err
		}
		if r.kind != skipped {
			res = r
		}
	}
	return res, nil
}

func dialectExpr(kind string, body gjson.Result, path string, depth int) (filterResult, error) {
	here := via(path, kind)
	switch kind {
	case "expression":
		if body.Type != gjson.String || strings.TrimSpace(body.Str) == "" {
			return filterResult{}, filterErr("expression must be a non-empty string")
		}
		return filterResult{kind: twoValued, pass: body.Str}, nil
	case "attributes", "sourceAndType":
		if err := validateNames(body, here); err != nil {
			return filterResult{}, err
		}
		var terms []string
		var err error
		body.ForEach(func(k, v gjson.Result) bool {
			if kind == "sourceAndType" && k.Str != "source" && k.Str != "type" {
				err = filterErr("sourceAndType has only source and type, got %q", k.Str)
				return false
			}
			var t string
			if t, err = attrMatch(k.Str, "attributes", v, here); err != nil {
				return false
			}
			terms = append(terms, t)
			return true
		})
		if err != nil {
			return filterResult{}, err
		}
		return filterResult{kind: twoValued, pass: join(terms, "&&", "true")}, nil
	case "exact", "prefix", "suffix":
		if err := validateNames(body, here); err != nil {
			return filterResult{}, err
		}
		var terms []string
		var err error
		empty := false
		body.ForEach(func(k, v gjson.Result) bool {
			if v.Type == gjson.String && v.Str == "" {
				empty = true // Knative: "attribute and value can't be empty"; the filter is dropped
			}
			var t string
			if t, err = attrMatch(k.Str, kind, v, here); err != nil {
				return false
			}
			terms = append(terms, t)
			return true
		})
		if err != nil {
			return filterResult{}, err
		}
		if empty || len(terms) == 0 {
			return filterResult{kind: skipped}, nil
		}
		return filterResult{kind: twoValued, pass: join(terms, "&&", "true")}, nil
	case "all", "any":
		return filterList(kind, body, here, depth)
	case "not":
		if body.Type == gjson.Null {
			return filterResult{kind: skipped}, nil
		}
		r, err := filterExpr(body, here, depth+1)
		if err != nil {
			return filterResult{}, err
		}
		switch r.kind {
		case skipped, noFilter:
			return filterResult{kind: noFilter}, nil
		case twoValued:
			return filterResult{kind: twoValued, pass: "!(" + r.pass + ")"}, nil
		}
		return filterResult{kind: mixed, pass: r.fail, fail: r.pass}, nil
	case "cesql":
		if body.Type != gjson.String {
			return filterResult{}, filterErr("cesql must be a string")
		}
		if body.Str == "" {
			return filterResult{kind: skipped}, nil
		}
		if err := ParseCESQL(body.Str); err != nil {
			if e, ok := err.(*wire.Error); ok {
				return filterResult{}, e // needs_module
			}
			return filterResult{}, filterErr("invalid value: %s: %s\n%v", body.Str, here, err)
		}
		return filterResult{kind: twoValued, pass: CESQLVariable + "[" + strconv.Quote(body.Str) + "]"}, nil
	}
	return filterResult{}, filterErr("unknown filter %q; forms: %s", kind, strings.Join(filterDialects, ", "))
}

// filterList is Knative's all and any: the sub-filters that materialize
// (empty ones are dropped); none is "no filter", one is that filter. all
// fails when any fails, else returns the last one's result; any passes
// when any passes, else returns the last one's result.
func filterList(kind string, body gjson.Result, path string, depth int) (filterResult, error) {
	if !body.IsArray() {
		return filterResult{}, filterErr("%s must be a list of filters", path)
	}
	var subs []filterResult
	for i, sub := range body.Array() {
		r, err := filterExpr(sub, fmt.Sprintf("%s[%d]", path, i), depth+1)
		if err != nil {
			return filterResult{}, err
		}
		if r.kind != skipped {
			subs = append(subs, r)
		}
	}
	switch len(subs) {
	case 0:
		return filterResult{kind: noFilter}, nil
	case 1:
		return subs[0], nil
	}
	allTwo := true
	for _, r := range subs {
		allTwo = allTwo && r.kind == twoValued
	}
	if allTwo {
		var terms []string
		for _, r := range subs {
			terms = append(terms, "("+r.pass+")")
		}
		if kind == "all" {
			return filterResult{kind: twoValued, pass: join(terms, "&&", "true")}, nil
		}
		return filterResult{kind: twoValued, pass: join(terms, "||", "false")}, nil
	}
	last := subs[len(subs)-1]
	var terms []string
	if kind == "all" {
		for _, r := range subs {
			terms = append(terms, "("+r.failCEL()+")")
		}
		fail := join(terms, "||", "false")
		if last.kind == noFilter {
			return filterResult{kind: mixed, pass: "false", fail: fail}, nil
		}
		return filterResult{kind: mixed, fail: fail, pass: "!(" + fail + ") && (" + last.passCEL() + ")"}, nil
	}
	for _, r := range subs {
		terms = append(terms, "("+r.passCEL()+")")
	}
	pass := join(terms, "||", "false")
	return filterResult{kind: mixed, pass: pass, fail: "!(" + pass + ") && (" + last.failCEL() + ")"}, nil
}

func objectKeys(o gjson.Result) []string {
	var keys []string
	o.ForEach(func(k, _ gjson.Result) bool {
		keys = append(keys, k.Str)
		return true
	})
	return keys
}

func join(terms []string, op, empty string) string {
	if len(terms) == 0 {
		return empty
	}
	return strings.Join(terms, " "+op+" ")
}

// attrMatch is the CEL for one attribute test over attrs: op is exact,
// prefix or suffix (the value as text, as fmt's %v prints it), or
// attributes (equal as Knative's attributes filter compares: a string
// attribute equal to the value, or any value but "" when the value is "").
func attrMatch(name, op string, value gjson.Result, path string) (string, error) {
	var v string
	switch value.Type {
	case gjson.String:
		v = value.Str
	case gjson.Number, gjson.True, gjson.False:
		v = value.Raw // YAML may type "1" as a number; attribute values are strings
	default:
		return "", filterErr("%s[%s]: the value must be a string", path, name)
	}
	lit := strconv.Quote(v)
	access := AttributesVariable + "." + name
	present := "has(" + access + ") && "
	if !engine.Selectable(name) { // a CEL reserved word
		access = AttributesVariable + "[" + strconv.Quote(name) + "]"
		present = strconv.Quote(name) + " in " + AttributesVariable + " && "
	}
	if lookupStandard[name] {
		present = "" // LookupAttribute always finds these ("" when unset)
	}
	switch op {
	case "attributes":
		if v == "" {
			return present + access + ` != ""`, nil
		}
		return present + access + " == " + lit, nil
	case "prefix":
		return present + "string(" + access + ").startsWith(" + lit + ")", nil
	case "suffix":
		return present + "string(" + access + ").endsWith(" + lit + ")", nil
	}
	return present + "string(" + access + ") == " + lit, nil
}

// lookupStandard are the names LookupAttribute always answers.
var lookupStandard = map[string]bool{"specversion": true, "type": true, "source": true, "subject": true, "id": true,
	"time": true, "dataschema": true, "schemaurl": true, "datacontenttype": true, "datamediatype": true, "datacontentencoding": true}

func filterErr(format string, args ...any) *wire.Error {
	return &wire.Error{Code: wire.CodeCompile, Message: "filter: " + fmt.Sprintf(format, args...)}
}
