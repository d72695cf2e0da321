package codec

import (
	"math/bits"
	"strings"
	"unsafe"

	"github.com/tidwall/gjson"
)

// Member is one member of a JSON object, as text: the quoted key and the
// value.
type Member struct{ Key, Value string }

// Members lists the top-level members of a JSON object that
// CheckJSONMembers checked, so that reading them (ForEach) does not scan
// the object a second time: inside WebAssembly that scan, skipping every
// nested value, cost as much as the check.
type Members struct {
	list []Member
	of   *byte // where the object's text starts
}

// listMin is the shortest text CheckJSONMembers lists the members of: a
// shorter object is read again for less than listing costs (measured on
// the fixed cost of evaluating true over {}, RATIONALE.md).
const listMin = 256

// CheckJSONMembers is CheckJSON that, when s is an object of at least
// listMin bytes, also lists its members in m (reusing m's memory) for
// ForEach.
func CheckJSONMembers(s string, m *Members) error {
	if len(s) < listMin { // small enough to inline: the short path is a plain CheckJSON
		m.of = nil
		return validateJSON(s, MaxDepth)
	}
	return m.check(s)
}

func (m *Members) check(s string) error {
	m.list, m.of = m.list[:0], nil
	if err := checkJSON(s, MaxDepth, m); err != nil {
		clear(m.list)
		m.list = m.list[:0]
		return err
	}
	if i := skipSpace(s, 0); s[i] == '{' { // valid JSON: s[i] exists
		m.of = unsafe.StringData(s[i:])
	}
	return nil
}

// Drop forgets the listed members (references into the checked text),
// keeping the list's memory.
func (m *Members) Drop() {
	if len(m.list) > 0 {
		clear(m.list)
		m.list = m.list[:0]
	}
	m.of = nil
}

// lists reports whether m lists the members of the object whose JSON text
// is obj: obj is the text m checked, not a copy of it.
func (m *Members) lists(obj string) bool {
	return m != nil && m.of != nil && len(obj) != 0 && unsafe.StringData(obj) == m.of
}

// ForEach calls fn for each member of obj in document order, repeated keys
// included, with what gjson's Result.ForEach passes: the key (its Str
// unescaped) and the value. When obj is the object m lists (the same text,
// not a copy) the list is used; otherwise, and for a nil m, obj is read.
func (m *Members) ForEach(obj gjson.Result, fn func(key, value gjson.Result) bool) {
	if !m.lists(obj.Raw) {
		obj.ForEach(fn)
		return
	}
	for _, mb := range m.list {
		if !fn(memberValue(mb.Key), memberValue(mb.Value)) {
			return
		}
	}
}

// forEachRaw is ForEach of the object whose JSON text is obj ("": none),
// with each key unescaped and each value as its JSON text, what an index
// keeps (a value is parsed again, by jsonValue, only when it is read).
func (m *Members) forEachRaw(obj string, fn func(key, value string) bool) {
	if !m.lists(obj) {
		if len(obj) > 0 && obj[0] == '{' {
			eachMember(obj, fn)
			return
		}
		if obj != "" {
			gjson.Result{Type: gjson.JSON, Raw: obj}.ForEach(func(k, v gjson.Result) bool { return fn(k.Str, v.Raw) })
		}
		return
	}
	for _, mb := range m.list {
		if !fn(memberValue(mb.Key).Str, mb.Value) {
			return
		}
	}
}

// jsonValue is the gjson.Result of a value's JSON text ("": none), as
// gjson's ForEach would have given it.
func jsonValue(raw string) gjson.Result {
	if raw == "" {
		return gjson.Result{}
	}
	return memberValue(raw)
}

// eachMember calls fn with each member of the object s (text CheckJSON
// accepted), in document order: the key unescaped and the value's JSON
// text, what gjson's ForEach gives as k.Str and v.Raw. ForEach also parses
// every value (a number to float64, a string with escapes unescaped into a
// new string), work an index does only for the values read. Text that is
// not valid JSON ends the walk where it stops making sense.
func eachMember(s string, fn func(key, value string) bool) {
	i := skipSpace(s, 1) // s[0] is '{'
	for i < len(s) && s[i] == '"' {
		ke, escaped := skipString(s, i)
		if ke == i {
			return
		}
		key := s[i+1 : ke-1]
		if escaped {
			key = gjson.Parse(s[i:ke]).Str
		}
		if i = skipSpace(s, ke); i >= len(s) || s[i] != ':' {
			return
		}
		i = skipSpace(s, i+1)
		end := skipValue(s, i)
		if end <= i || !fn(key, s[i:end]) {
			return
		}
		if i = skipSpace(s, end); i >= len(s) || s[i] != ',' {
			return
		}
		i = skipSpace(s, i+1)
	}
}

// skipValue returns where the JSON value starting at i ends (i itself when
// none starts there), for text CheckJSON accepted.
func skipValue(s string, i int) int {
	if i >= len(s) {
		return i
	}
	switch s[i] {
	case '"':
		end, _ := skipString(s, i)
		return end
	case '{', '[':
		depth := 0
		for j := i; j < len(s); {
			switch s[j] {
			case '"':
				end, _ := skipString(s, j)
				if end == j {
					return i
				}
				j = end
				continue
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return j + 1
				}
			}
			j++
		}
		return i
	}
	j := i // a number or a literal: up to the next delimiter
	for j < len(s) && s[j] != ',' && s[j] != '}' && s[j] != ']' && s[j] != ' ' && s[j] != '\t' && s[j] != '\n' && s[j] != '\r' {
		j++
	}
	return j
}

// convertible is jsonValue for the Converter, which reads a number's text
// and never its float64: a number's Num is left zero instead of parsed.
func convertible(raw string) gjson.Result {
	if raw != "" && (raw[0] == '-' || (raw[0] >= '0' && raw[0] <= '9')) {
		return gjson.Result{Type: gjson.Number, Raw: raw}
	}
	return jsonValue(raw)
}

// memberValue is gjson.Parse of a checked key or value, without its scan
// for the two kinds a CloudEvent's members mostly are: an object or array
// (the raw text) and a string without escapes (the text inside the quotes).
func memberValue(v string) gjson.Result {
	switch v[0] {
	case '{', '[':
		return gjson.Result{Type: gjson.JSON, Raw: v}
	case '"':
		if strings.IndexByte(v, '\\') < 0 {
			return gjson.Result{Type: gjson.String, Raw: v, Str: v[1 : len(v)-1]}
		}
	}
	return gjson.Parse(v)
}

// skipString returns where the string whose opening quote is at i ends,
// and whether it holds an escape, for text CheckJSON accepted (i itself
// when it does not end). Unlike scanString it checks nothing: it looks
// only for the closing quote and backslashes, eight bytes at a time.
func skipString(s string, i int) (end int, escaped bool) {
	j := i + 1
	for {
		for j+8 <= len(s) {
			w := word8(s, j)
			q, b := w^(ones*'"'), w^(ones*'\\')
			// A byte of q or b is zero where w has a quote or a backslash;
			// the lowest flag is exact (a borrow only flags bytes above it).
			if m := ((q-ones)&^q | (b-ones)&^b) & highs; m != 0 {
				j += bits.TrailingZeros64(m) / 8
				break
			}
			j += 8
		}
		for j < len(s) && s[j] != '"' && s[j] != '\\' {
			j++
		}
		if j >= len(s) {
			return i, escaped
		}
		if s[j] == '"' {
			return j + 1, escaped
		}
		escaped = true
		j += 2
	}
}
