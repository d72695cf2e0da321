package events

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/celwasm/celwasm/wasm/codec"
	"github.com/celwasm/celwasm/wasm/engine"
	"github.com/celwasm/celwasm/wire"

	"github.com/tidwall/gjson"
)

// FilterToCEL transforms a trigger filter into one equivalent CEL
// expression over ce (and data), so that CEL is the only code path that
// filters (Knative's advanced filtering proposal). Exactly one of these
// forms, as JSON:
//
//	{"expression": "ce.type == 'x'"}                         CEL as written
//	{"attributes": {"type": "x", "github.repository": "p"}}  exact match on every attribute (AND)
//	{"sourceAndType": {"source": "s", "type": "t"}}           deprecated; exact match on the two
//	{"exact": {"type": "x"}}  {"prefix": {...}}  {"suffix": {...}}   CloudEvents Subscriptions API dialects
//	{"all": [F, ...]}  {"any": [F, ...]}  {"not": F}
//
// A filter object may also be wrapped as {"filter": F}, as a Trigger's
// {"spec": {"filter": F}} or {"spec": {"filters": [F, ...]}} (all of them).
// Attribute values compare as strings (string(ce.time) for the timestamp);
// an absent attribute never matches. A dotted attribute name matches either
// the extension with that exact name or the nested path (ce.github.repository).
func FilterToCEL(filter gjson.Result) (string, error) {
	f, err := unwrapFilter(filter)
	if err != nil {
		return "", err
	}
	return filterExpr(f, 0)
}

func unwrapFilter(f gjson.Result) (gjson.Result, error) {
	if !f.IsObject() {
		return f, filterErr("a filter is a JSON/YAML object, got %s", codec.JSONKind(f))
	}
	if spec := f.Get("spec"); spec.IsObject() {
		if fs := spec.Get("filters"); fs.Exists() {
			if spec.Get("filter").Exists() {
				return f, filterErr("the trigger has both spec.filter and spec.filters; exactly one top-level filter is allowed")
			}
			return gjson.Parse(`{"all":` + fs.Raw + `}`), nil
		}
		if ff := spec.Get("filter"); ff.Exists() {
			return ff, nil
		}
		return f, filterErr("the trigger has no spec.filter or spec.filters")
	}
	if inner := f.Get("filter"); inner.Exists() && len(f.Map()) == 1 {
		return inner, nil
	}
	if inner := f.Get("filters"); inner.Exists() && len(f.Map()) == 1 {
		return gjson.Parse(`{"all":` + inner.Raw + `}`), nil
	}
	return f, nil
}

const maxFilterDepth = 64

var filterDialects = []string{"all", "any", "attributes", "exact", "expression", "not", "prefix", "sourceAndType", "suffix"}

func filterExpr(f gjson.Result, depth int) (string, error) {
	if depth > maxFilterDepth {
		return "", filterErr("filters nest deeper than %d", maxFilterDepth)
	}
	if !f.IsObject() {
		return "", filterErr("a filter is an object, got %s", codec.JSONKind(f))
	}
	keys := objectKeys(f)
	if len(keys) != 1 {
		return "", filterErr("exactly one top-level filter is allowed, got %d (%s); forms: %s", len(keys), strings.Join(keys, ", "), strings.Join(filterDialects, ", "))
	}
	kind, body := keys[0], f.Get(gjson.Escape(keys[0]))
	switch kind {
	case "expression":
		if body.Type != gjson.String || strings.TrimSpace(body.Str) == "" {
			return "", filterErr("expression must be a non-empty string")
		}
		return body.Str, nil
	case "attributes", "sourceAndType":
		if !body.IsObject() {
			return "", filterErr("%s must map attribute names to values", kind)
		}
		var terms []string
		var err error
		body.ForEach(func(k, v gjson.Result) bool {
			if kind == "sourceAndType" && k.Str != "source" && k.Str != "type" {
				err = filterErr("sourceAndType has only source and type, got %q", k.Str)
				return false
			}
			var t string
			if t, err = attrMatch(k.Str, "exact", v); err != nil {
				return false
			}
			terms = append(terms, t)
			return true
		})
		if err != nil {
			return "", err
		}
		return join(terms, "&&", "true"), nil
	case "exact", "prefix", "suffix":
		if !body.IsObject() || len(objectKeys(body)) != 1 {
			return "", filterErr("%s must name exactly one attribute and its value", kind)
		}
		name := objectKeys(body)[0]
		return attrMatch(name, kind, body.Get(gjson.Escape(name)))
	case "all", "any":
		if !body.IsArray() {
			return "", filterErr("%s must be a list of filters", kind)
		}
		var terms []string
		for _, sub := range body.Array() {
			t, err := filterExpr(sub, depth+1)
			if err != nil {
				return "", err
			}
			terms = append(terms, "("+t+")")
		}
		if kind == "all" {
			return join(terms, "&&", "true"), nil
		}
		return join(terms, "||", "false"), nil
	case "not":
		t, err := filterExpr(body, depth+1)
		if err != nil {
			return "", err
		}
		return "!(" + t + ")", nil
	case "cesql":
		return "", filterErr("the cesql dialect (CloudEvents SQL) is not supported; use expression")
	}
	return "", filterErr("unknown filter %q; forms: %s", kind, strings.Join(filterDialects, ", "))
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

var (
	// stringAttributes are the CloudEvents context attributes that are strings.
	stringAttributes = map[string]bool{"id": true, "source": true, "specversion": true, "type": true, "subject": true, "datacontenttype": true, "dataschema": true}
)

// attrMatch is the CEL for one attribute test: op is exact, prefix or suffix.
func attrMatch(name, op string, value gjson.Result) (string, error) {
	if name == "" {
		return "", filterErr("empty attribute name")
	}
	var v string
	switch value.Type {
	case gjson.String:
		v = value.Str
	case gjson.Number, gjson.True, gjson.False:
		v = value.Raw // YAML may type "1" as a number; attribute values are strings
	default:
		return "", filterErr("attribute %q: the value must be a string", name)
	}
	lit := strconv.Quote(v)
	test := func(access string, isString bool) string {
		if !isString {
			access = "string(" + access + ")"
		}
		switch op {
		case "prefix":
			return access + ".startsWith(" + lit + ")"
		case "suffix":
			return access + ".endsWith(" + lit + ")"
		}
		return access + " == " + lit
	}
	// The attribute as one (possibly dotted) name.
	direct := presence([]string{name}) + " && " + test(access([]string{name}), stringAttributes[name])
	if !strings.Contains(name, ".") {
		return direct, nil
	}
	// Or the nested extension path.
	segs := strings.Split(name, ".")
	for _, s := range segs {
		if s == "" {
			return "", filterErr("attribute %q has an empty path segment", name)
		}
	}
	return "(" + direct + ") || (" + presence(segs) + " && " + test(access(segs), false) + ")", nil
}

// presence tests that every prefix of the path exists and, but for the
// last, is a map.
func presence(path []string) string {
	var terms []string
	for i := range path {
		parent := access(path[:i])
		seg := path[i]
		if engine.Selectable(seg) {
			terms = append(terms, "has("+parent+"."+seg+")")
		} else {
			terms = append(terms, strconv.Quote(seg)+" in "+parent)
		}
		if i < len(path)-1 {
			terms = append(terms, "type("+access(path[:i+1])+") == map")
		}
	}
	return strings.Join(terms, " && ")
}

func access(path []string) string {
	s := EventVariable
	for _, seg := range path {
		if engine.Selectable(seg) {
			s += "." + seg
		} else {
			s += "[" + strconv.Quote(seg) + "]"
		}
	}
	return s
}

func filterErr(format string, args ...any) *wire.Error {
	return &wire.Error{Code: wire.CodeCompile, Message: "filter: " + fmt.Sprintf(format, args...)}
}
