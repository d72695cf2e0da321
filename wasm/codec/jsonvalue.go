package codec

import (
	"encoding/base64"
	"math"
	"reflect"
	"regexp"
	"strconv"
	"strings"

	"github.com/celwasm/celwasm/wire"

	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"
	"github.com/tidwall/gjson"
)

// Converter turns JSON (gjson results over the raw activation bytes) into CEL
// values of a declared type, lazily: objects and arrays become Map and
// jsonList values that index their members only when the expression looks.
// The rules are written down in docs/value-encoding.md.
type Converter struct {
	Adapter types.Adapter
	// NumericStrings: strings that are integer or decimal literals read as
	// numbers (Tekton when expressions).
	NumericStrings bool
	// maps lends the objects the converter makes, when it belongs to an
	// activation reused with Reset: the activation takes them back at its
	// next Reset or Drop, so that a call over a reused activation allocates
	// no Map (in the module each allocation costs a collection's share).
	maps *mapPool
}

// mapPool holds the Maps a reused activation lends its converter.
type mapPool struct {
	maps []*Map
	used int
	// entries and vals back the indexes of objects past inlineEntries
	// members and the elements of lists read in one call: each takes a
	// run at the end, its capacity clipped, and release empties them for
	// the next call, so a call over an activation of the same shape
	// allocates neither (RATIONALE.md, "Indexes and lists from the call's pool").
	entries []mapEntry
	vals    []ref.Val
}

// maxPooledRun bounds the entries and elements a pool keeps between calls.
const maxPooledRun = 4096

// maxPooledMaps bounds the Maps a pool keeps between calls (a Map with
// its inline index is 416 bytes); objects past it are allocated.
const maxPooledMaps = 128

// take returns a zero Map (new, or zeroed by release), or nil when the
// pool is at its bound.
func (p *mapPool) take() *Map {
	if p.used == len(p.maps) {
		if len(p.maps) == maxPooledMaps {
			return nil
		}
		p.maps = append(p.maps, new(Map))
	}
	m := p.maps[p.used]
	p.used++
	return m
}

// lent reports whether the pool lent anything since the last release.
func (p *mapPool) lent() bool { return p.used > 0 || len(p.entries) > 0 || len(p.vals) > 0 }

// release takes back every Map lent since the last release, zeroing them
// so that none keeps a reference to the JSON or the values it held.
func (p *mapPool) release() {
	for _, m := range p.maps[:p.used] {
		*m = Map{}
	}
	p.used = 0
	clear(p.entries)
	clear(p.vals)
	p.entries, p.vals = p.entries[:0], p.vals[:0]
	if cap(p.entries) > maxPooledRun || cap(p.vals) > maxPooledRun {
		p.entries, p.vals = nil, nil
	}
}

// newMap is a Map of the object whose JSON text is raw, from the pool
// when the converter has one. Not inlined: its three callers
// would each hold a copy.
//
//go:noinline
func (c *Converter) newMap(raw string, keyT, valT *types.Type) *Map {
	if c.maps != nil {
		if m := c.maps.take(); m != nil {
			m.conv, m.raw, m.keyT, m.valT = c, raw, keyT, valT
			return m
		}
	}
	return &Map{conv: c, raw: raw, keyT: keyT, valT: valT}
}

// convertRaw is Convert(convertible(raw), t) for a member's JSON text. The
// kinds most members are (an integer, an object, a string without escapes),
// to a type that takes them as they are (t nil or dyn, or a map or string
// type), are converted from the text itself, without a gjson.Result: in the
// module a Result (80 bytes) is made with memory.fill and passed with
// memory.copy, which wasmtime runs as calls out of the guest (RATIONALE.md,
// "Member values without a gjson.Result"). Everything else goes to Convert.
func (c *Converter) convertRaw(raw string, t *types.Type) ref.Val {
	natural := t == nil
	if !natural {
		switch t.Kind() {
		case types.DynKind, types.AnyKind, types.TypeParamKind:
			natural = true
		}
	}
	if raw != "" {
		switch ch := raw[0]; {
		case natural && (ch == '-' || (ch >= '0' && ch <= '9')):
			if i, _, ok := integer(raw); ok {
				return types.Int(i)
			}
		case ch == '{':
			if natural {
				return c.newMap(raw, types.StringType, types.DynType)
			}
			if t.Kind() == types.MapKind {
				return c.newMap(raw, t.Parameters()[0], t.Parameters()[1])
			}
		case ch == '"' && !c.NumericStrings && (natural || t.Kind() == types.StringKind) && strings.IndexByte(raw, '\\') < 0:
			return types.String(raw[1 : len(raw)-1])
		}
	}
	return c.Convert(convertible(raw), t)
}

func (c *Converter) Convert(r gjson.Result, t *types.Type) ref.Val {
	if t == nil {
		return c.Natural(r)
	}
	if r.Type == gjson.Null && t.IsAssignableType(types.NullType) && t.Kind() != types.DynKind && t.Kind() != types.AnyKind {
		// null for a nullable (wrapper) type, or a declared null_type.
		return types.NullValue
	}
	switch t.Kind() {
	case types.DynKind, types.AnyKind, types.TypeParamKind:
		return c.Natural(r)
	case types.BoolKind:
		if r.Type == gjson.True || r.Type == gjson.False {
			return types.Bool(r.Type == gjson.True)
		}
	case types.IntKind:
		switch r.Type {
		case gjson.Number:
			if i, ok := jsonInt(r.Raw); ok {
				return types.Int(i)
			}
			return types.NewErr("activation: %s does not convert to int", r.Raw)
		case gjson.String:
			if i, err := strconv.ParseInt(r.Str, 10, 64); err == nil {
				return types.Int(i)
			}
			return types.NewErr("activation: string %q does not convert to int", r.Str)
		}
	case types.UintKind:
		switch r.Type {
		case gjson.Number, gjson.String:
			s := r.Raw
			if r.Type == gjson.String {
				s = r.Str
			}
			if u, err := strconv.ParseUint(s, 10, 64); err == nil {
				return types.Uint(u)
			}
			if f, err := strconv.ParseFloat(s, 64); err == nil && r.Type == gjson.Number && f >= 0 && f < 18446744073709551616.0 && f == math.Trunc(f) {
				return types.Uint(uint64(f))
			}
			return types.NewErr("activation: %s does not convert to uint", r.Raw)
		}
	case types.DoubleKind:
		switch r.Type {
		case gjson.Number:
			f, _ := strconv.ParseFloat(r.Raw, 64)
			return types.Double(f)
		case gjson.String:
			switch r.Str {
			case "NaN":
				return types.Double(math.NaN())
			case "Infinity", "+Infinity":
				return types.Double(math.Inf(1))
			case "-Infinity":
				return types.Double(math.Inf(-1))
			}
			if f, err := strconv.ParseFloat(r.Str, 64); err == nil {
				return types.Double(f)
			}
			return types.NewErr("activation: string %q does not convert to double", r.Str)
		}
	case types.StringKind:
		if r.Type == gjson.String {
			return types.String(r.Str)
		}
	case types.BytesKind:
		if r.Type == gjson.String {
			if b, err := decodeBase64(r.Str); err == nil {
				return types.Bytes(b)
			}
			return types.NewErr("activation: string %q is not base64 for bytes", truncate(r.Str))
		}
	case types.TimestampKind:
		if r.Type == gjson.String {
			return types.String(r.Str).ConvertToType(types.TimestampType)
		}
	case types.DurationKind:
		if r.Type == gjson.String {
			return types.String(r.Str).ConvertToType(types.DurationType)
		}
	case types.NullTypeKind:
		if r.Type == gjson.Null {
			return types.NullValue
		}
	case types.ListKind:
		if r.IsArray() {
			return &jsonList{conv: c, raw: r, elem: t.Parameters()[0]}
		}
	case types.MapKind:
		if r.IsObject() {
			return c.newMap(r.Raw, t.Parameters()[0], t.Parameters()[1])
		}
	case types.OpaqueKind:
		if t.TypeName() == "optional_type" {
			if r.Type == gjson.Null {
				return types.OptionalNone
			}
			v := c.Convert(r, t.Parameters()[0])
			if types.IsError(v) {
				return v
			}
			return types.OptionalOf(v)
		}
		return types.NewErr("activation: values of type %s cannot be given as plain JSON", t.TypeName())
	default:
		return types.NewErr("activation: values of type %s cannot be given as plain JSON", t.TypeName())
	}
	return types.NewErr("activation: JSON %s does not convert to %s", JSONKind(r), t.String())
}

// natural maps JSON to CEL without a declared type: integral numbers that
// fit int64 become int, other numbers double.
func (c *Converter) Natural(r gjson.Result) ref.Val {
	switch r.Type {
	case gjson.Null:
		return types.NullValue
	case gjson.True:
		return types.True
	case gjson.False:
		return types.False
	case gjson.String:
		if c.NumericStrings {
			if v, ok := numericLiteral(r.Str); ok {
				return v
			}
		}
		return types.String(r.Str)
	case gjson.Number:
		if i, _, ok := integer(r.Raw); ok {
			return types.Int(i)
		}
		f, _ := strconv.ParseFloat(r.Raw, 64)
		return types.Double(f)
	}
	if r.IsObject() {
		return c.newMap(r.Raw, types.StringType, types.DynType)
	}
	if r.IsArray() {
		return &jsonList{conv: c, raw: r, elem: types.DynType}
	}
	return types.NewErr("activation: unexpected JSON %q", truncate(r.Raw))
}

var numericRE = regexp.MustCompile(`^-?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$`)

// numericLiteral reads an integer (int) or decimal (double) literal.
func numericLiteral(s string) (ref.Val, bool) {
	if !numericRE.MatchString(s) {
		return nil, false
	}
	if i, _, ok := integer(s); ok {
		return types.Int(i), true
	}
	f, err := strconv.ParseFloat(s, 64)
	return types.Double(f), err == nil
}

// shortInt reads an integer of at most 18 digits, optionally after '-'
// (so it cannot overflow), as strconv.ParseInt does; ok is false for any
// other text. Most numbers of an activation are such; ParseInt's general
// path, after a scan for '.', 'e' and 'E', cost several times more.
func shortInt(s string) (n int64, ok bool) {
	d := s
	if len(d) > 0 && d[0] == '-' {
		d = d[1:]
	}
	if len(d) == 0 || len(d) > 18 {
		return 0, false
	}
	for i := 0; i < len(d); i++ {
		c := d[i] - '0'
		if c > 9 {
			return 0, false
		}
		n = n*10 + int64(c)
	}
	if len(d) < len(s) {
		n = -n
	}
	return n, true
}

// integer reads a number token that has no '.', 'e' or 'E' (isInt) as an
// int64 (ok: it is in range), what every reader of JSON numbers here
// does first: short ones with shortInt, the rest with strconv.
func integer(s string) (n int64, isInt, ok bool) {
	if n, ok := shortInt(s); ok {
		return n, true, true
	}
	if strings.ContainsAny(s, ".eE") {
		return 0, false, false
	}
	n, err := strconv.ParseInt(s, 10, 64)
	return n, true, err == nil
}

// jsonInt reads a JSON number as int64: integer tokens, and other tokens
// whose value is integral and in range (1.0, 1e3).
func jsonInt(s string) (int64, bool) {
	if i, isInt, ok := integer(s); isInt {
		return i, ok
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || f != math.Trunc(f) || f < -9223372036854775808.0 || f >= 9223372036854775808.0 {
		return 0, false
	}
	return int64(f), true
}

func decodeBase64(s string) ([]byte, error) {
	if b, err := base64.StdEncoding.DecodeString(s); err == nil {
		return b, nil
	}
	if b, err := base64.RawStdEncoding.DecodeString(s); err == nil {
		return b, nil
	}
	if b, err := base64.URLEncoding.DecodeString(s); err == nil {
		return b, nil
	}
	return base64.RawURLEncoding.DecodeString(s)
}

// JSONKind names a JSON value's kind for error messages ("null", "bool",
// "number 1.5", "string \"x\"", "array", "object").
func JSONKind(r gjson.Result) string {
	switch r.Type {
	case gjson.Null:
		return "null"
	case gjson.True, gjson.False:
		return "bool"
	case gjson.Number:
		return "number " + truncate(r.Raw)
	case gjson.String:
		return "string " + strconv.Quote(truncate(r.Str))
	}
	if r.IsArray() {
		return "array"
	}
	return "object"
}

func truncate(s string) string {
	if len(s) > 64 {
		return s[:64] + "…"
	}
	return s
}

// jsonList is a CEL list over a JSON array. Elements are indexed and
// converted on first use; cel-go's list implementation does the rest.
type jsonList struct {
	conv *Converter
	raw  gjson.Result
	elem *types.Type
	list traits.Lister
}

func (l *jsonList) get() traits.Lister {
	if l.list == nil {
		var vals []ref.Val
		start, p := 0, l.conv.maps
		if p != nil {
			// Taken while elements convert: a list read meanwhile
			// allocates its own.
			vals, p.vals, start = p.vals, nil, len(p.vals)
		}
		l.raw.ForEach(func(_, v gjson.Result) bool {
			vals = append(vals, l.conv.Convert(v, l.elem))
			return true
		})
		if p != nil {
			p.vals, vals = vals, vals[start:len(vals):len(vals)]
		}
		if vals == nil {
			vals = []ref.Val{}
		}
		l.list = types.NewRefValList(l.conv.Adapter, vals)
	}
	return l.list
}

func (l *jsonList) ConvertToNative(t reflect.Type) (any, error) { return l.get().ConvertToNative(t) }
func (l *jsonList) ConvertToType(t ref.Type) ref.Val {
	switch t {
	case types.ListType:
		return l
	case types.TypeType:
		return types.ListType
	}
	return l.get().ConvertToType(t)
}
func (l *jsonList) Equal(o ref.Val) ref.Val    { return l.get().Equal(o) }
func (l *jsonList) Type() ref.Type             { return types.ListType }
func (l *jsonList) Value() any                 { return l.get().Value() }
func (l *jsonList) Add(o ref.Val) ref.Val      { return l.get().Add(o) }
func (l *jsonList) Contains(v ref.Val) ref.Val { return l.get().Contains(v) }
func (l *jsonList) Get(i ref.Val) ref.Val      { return l.get().Get(i) }
func (l *jsonList) Iterator() traits.Iterator  { return l.get().Iterator() }
func (l *jsonList) Size() ref.Val              { return l.get().Size() }
func (l *jsonList) IsZeroValue() bool          { return l.get().Size() == types.IntZero }
func (l *jsonList) String() string             { return l.get().(interface{ String() string }).String() }
func (l *jsonList) Fold(f traits.Folder)       { types.ToFoldableList(l.get()).Fold(f) }

// Map is a CEL map over a JSON object. Members are indexed on first use
// (duplicate keys: the last wins, as with encoding/json), values converted
// on first access, and iteration follows document order.
type Map struct {
	conv   *Converter
	raw    string // the object's JSON text
	keyT   *types.Type
	valT   *types.Type
	index  *objIndex // &own once built
	keys   []ref.Val // typed keys (int, uint, bool maps), by entry
	keyErr ref.Val
	// own is the index, in the map's allocation: almost every map reached
	// is indexed (a member read, has(), iteration), so one allocation
	// instead of two per object.
	own objIndex
}

type mapEntry struct {
	key string
	raw string      // the value's JSON text ("" when val is given)
	val ref.Val     // the converted value, on first access
	typ *types.Type // what raw converts to; nil: the map's value type
}

// objIndex lists an object's members. Objects of up to inlineEntries
// members keep them inline; up to linearLimit they are searched linearly
// (for the one or few reads of an activation's object, building a map
// cost more than it saved); larger ones get a map.
type objIndex struct {
	inline  [inlineEntries]mapEntry
	entries []mapEntry
	byKey   map[string]int
}

const (
	inlineEntries = 4
	linearLimit   = 32
)

// build fills an empty index with the members of raw, from ms when it
// lists them (Members.forEachRaw); past inlineEntries, in a run of p's
// entries when p is not nil.
func (idx *objIndex) build(raw string, ms *Members, p *mapPool) {
	idx.entries = idx.inline[:0]
	start := -1
	ms.forEachRaw(raw, func(key, v string) bool {
		if i, ok := idx.find(key); ok {
			idx.entries[i].raw = v
			return true
		}
		if p != nil && start < 0 && len(idx.entries) == inlineEntries {
			start = len(p.entries)
			p.entries = append(p.entries, idx.entries...)
		}
		if start < 0 {
			idx.entries = append(idx.entries, mapEntry{key: key, raw: v})
		} else {
			p.entries = append(p.entries, mapEntry{key: key, raw: v})
			idx.entries = p.entries[start:len(p.entries):len(p.entries)]
		}
		idx.appended()
		return true
	})
}

// reset empties the index for reuse, dropping references to values of the
// previous object (the inline entries stay allocated).
func (idx *objIndex) reset() {
	// Only the entries in use: clearing all of inline (pointers, so with
	// write barriers during a GC) was a tenth of a `true` call in the module.
	clear(idx.inline[:min(len(idx.entries), inlineEntries)])
	idx.entries = nil
	idx.byKey = nil
}

func (idx *objIndex) find(key string) (int, bool) {
	if idx.byKey != nil {
		i, ok := idx.byKey[key]
		return i, ok
	}
	for i := range idx.entries {
		if idx.entries[i].key == key {
			return i, true
		}
	}
	return 0, false
}

func (m *Map) stringKeys() bool {
	k := m.keyT.Kind()
	return k == types.StringKind || k == types.DynKind
}

func (m *Map) idx() *objIndex {
	if m.index == nil {
		m.own.build(m.raw, nil, m.conv.maps)
		m.index = &m.own
		if !m.stringKeys() {
			m.keys = make([]ref.Val, len(m.index.entries))
			for i := range m.index.entries {
				m.keys[i] = m.keyValue(m.index.entries[i].key)
				if types.IsError(m.keys[i]) && m.keyErr == nil {
					m.keyErr = m.keys[i]
				}
			}
		}
	}
	return m.index
}

// keyAt returns entry i's key as a CEL value.
func (m *Map) keyAt(idx *objIndex, i int) ref.Val {
	if m.keys != nil {
		return m.keys[i]
	}
	return types.String(idx.entries[i].key)
}

func (m *Map) keyValue(k string) ref.Val {
	switch m.keyT.Kind() {
	case types.IntKind:
		if i, err := strconv.ParseInt(k, 10, 64); err == nil {
			return types.Int(i)
		}
		return types.NewErr("activation: map key %q does not convert to int", truncate(k))
	case types.UintKind:
		if u, err := strconv.ParseUint(k, 10, 64); err == nil {
			return types.Uint(u)
		}
		return types.NewErr("activation: map key %q does not convert to uint", truncate(k))
	case types.BoolKind:
		if b, err := strconv.ParseBool(k); err == nil && (k == "true" || k == "false") {
			return types.Bool(b)
		}
		return types.NewErr("activation: map key %q does not convert to bool", truncate(k))
	}
	return types.String(k)
}

func (m *Map) value(e *mapEntry) ref.Val {
	if e.val == nil {
		t := e.typ
		if t == nil {
			t = m.valT
		}
		e.val = m.conv.convertRaw(e.raw, t)
	}
	return e.val
}

// Find implements traits.Mapper.
func (m *Map) Find(key ref.Val) (ref.Val, bool) {
	idx := m.idx()
	if m.keyErr != nil {
		return m.keyErr, false
	}
	switch k := key.(type) {
	case types.String:
		if m.stringKeys() {
			if i, ok := idx.find(string(k)); ok {
				return m.value(&idx.entries[i]), true
			}
		}
		return nil, false
	case *types.Err, *types.Unknown:
		return k, false
	}
	if m.stringKeys() {
		return nil, false
	}
	for i := range idx.entries {
		if types.Equal(m.keys[i], key) == types.True {
			return m.value(&idx.entries[i]), true
		}
	}
	return nil, false
}

func (m *Map) Get(key ref.Val) ref.Val {
	v, found := m.Find(key)
	if !found {
		return types.ValOrErr(v, "no such key: %v", key)
	}
	return v
}

func (m *Map) Contains(key ref.Val) ref.Val {
	v, found := m.Find(key)
	if !found && v != nil && types.IsUnknownOrError(v) {
		return v
	}
	return types.Bool(found)
}

func (m *Map) Size() ref.Val { return types.Int(len(m.idx().entries)) }

func (m *Map) IsZeroValue() bool { return len(m.idx().entries) == 0 }

func (m *Map) Type() ref.Type { return types.MapType }

func (m *Map) Iterator() traits.Iterator {
	return &mapKeyIterator{m: m, idx: m.idx()}
}

func (m *Map) Fold(f traits.Folder) {
	idx := m.idx()
	for i := range idx.entries {
		if !f.FoldEntry(m.keyAt(idx, i), m.value(&idx.entries[i])) {
			return
		}
	}
}

func (m *Map) materialize() traits.Mapper {
	idx := m.idx()
	vals := make(map[ref.Val]ref.Val, len(idx.entries))
	for i := range idx.entries {
		vals[m.keyAt(idx, i)] = m.value(&idx.entries[i])
	}
	return types.NewRefValMap(m.conv.Adapter, vals)
}

func (m *Map) ConvertToNative(t reflect.Type) (any, error) {
	if m.keyErr != nil {
		return nil, m.keyErr.(*types.Err)
	}
	return m.materialize().ConvertToNative(t)
}

func (m *Map) ConvertToType(t ref.Type) ref.Val {
	switch t {
	case types.MapType:
		return m
	case types.TypeType:
		return types.MapType
	}
	return types.NewErr("type conversion error from '%s' to '%s'", types.MapType, t)
}

// Equal follows cel-go's map equality: same size, and every key of this map
// found in the other with an equal value.
func (m *Map) Equal(other ref.Val) ref.Val {
	o, ok := other.(traits.Mapper)
	if !ok {
		return types.False
	}
	idx := m.idx()
	if types.Int(len(idx.entries)) != o.Size() {
		return types.False
	}
	for i := range idx.entries {
		ov, found := o.Find(m.keyAt(idx, i))
		if !found {
			return types.False
		}
		if types.Equal(m.value(&idx.entries[i]), ov) == types.False {
			return types.False
		}
	}
	return types.True
}

func (m *Map) Value() any { return m.materialize().Value() }

func (m *Map) String() string { return m.materialize().(interface{ String() string }).String() }

type mapKeyIterator struct {
	m   *Map
	idx *objIndex
	i   int
}

func (it *mapKeyIterator) HasNext() ref.Val { return types.Bool(it.i < len(it.idx.entries)) }
func (it *mapKeyIterator) Next() ref.Val {
	if it.i >= len(it.idx.entries) {
		return nil
	}
	k := it.m.keyAt(it.idx, it.i)
	it.i++
	return k
}
func (it *mapKeyIterator) ConvertToNative(reflect.Type) (any, error) {
	return nil, errIterator
}
func (it *mapKeyIterator) ConvertToType(ref.Type) ref.Val {
	return types.NewErr("type conversion on iterators not supported")
}
func (it *mapKeyIterator) Equal(ref.Val) ref.Val {
	return types.NewErr("equality on iterators not supported")
}
func (it *mapKeyIterator) Type() ref.Type { return types.IteratorType }
func (it *mapKeyIterator) Value() any     { return nil }

var errIterator = &wire.Error{Code: wire.CodeInternal, Message: "type conversion on iterators not supported"}

var (
	_ traits.Mapper   = (*Map)(nil)
	_ traits.Foldable = (*Map)(nil)
	_ traits.Lister   = (*jsonList)(nil)
	_ traits.Zeroer   = (*Map)(nil)
)

// add appends an entry, keeping the index's lookup map current.
func (idx *objIndex) add(en mapEntry) {
	if i, ok := idx.find(en.key); ok {
		idx.entries[i] = en
		return
	}
	idx.entries = append(idx.entries, en)
	idx.appended()
}

// appended keeps the lookup map current after an entry was appended: the
// index gets one when it passes linearLimit entries.
func (idx *objIndex) appended() {
	n := len(idx.entries)
	if idx.byKey != nil {
		idx.byKey[idx.entries[n-1].key] = n - 1
	} else if n > linearLimit {
		idx.byKey = make(map[string]int, n*2)
		for i := range idx.entries {
			idx.byKey[idx.entries[i].key] = i
		}
	}
}

// NewObject returns an empty map(string, dyn) to fill with Put: an object
// built member by member (a CloudEvent's attributes).
func NewObject(c *Converter) *Map {
	m := &Map{conv: c, keyT: types.StringType, valT: types.DynType}
	m.own.entries = m.own.inline[:0]
	m.index = &m.own
	return m
}

// ResetObject makes m an empty object like NewObject(c), reusing its
// memory (a zero Map too): members added before must no longer be in use.
func (m *Map) ResetObject(c *Converter) {
	if cap(m.own.entries) > inlineEntries {
		clear(m.own.entries) // a grown slice, kept for the next object
		m.own.entries = m.own.entries[:0]
	} else {
		m.own.reset()
		m.own.entries = m.own.inline[:0]
	}
	m.own.byKey = nil
	m.conv, m.raw, m.keyT, m.valT, m.keys, m.keyErr = c, "", types.StringType, types.DynType, nil, nil
	m.index = &m.own
}

// Put sets a member to val or, when val is nil, to raw converted on first
// access. A key already present is replaced in place.
func (m *Map) Put(key string, raw gjson.Result, val ref.Val) {
	m.idx().add(mapEntry{key: key, raw: raw.Raw, val: val})
}

// PutAs sets a member to raw converted to t on first access (Converter.Convert).
// A key already present is replaced in place.
func (m *Map) PutAs(key string, raw gjson.Result, t *types.Type) {
	m.idx().add(mapEntry{key: key, raw: raw.Raw, typ: t})
}

// Has reports whether the map has a member named key.
func (m *Map) Has(key string) bool {
	_, ok := m.idx().find(key)
	return ok
}

// Len returns the number of members.
func (m *Map) Len() int { return len(m.idx().entries) }

// Member returns member i's key and JSON, in document order.
func (m *Map) Member(i int) (string, gjson.Result) {
	e := &m.idx().entries[i]
	return e.key, jsonValue(e.raw)
}

// SetMember replaces member i's value.
func (m *Map) SetMember(i int, v ref.Val) { m.idx().entries[i].val = v }
