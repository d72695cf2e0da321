package events

import (
	"reflect"

	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"
	"github.com/tidwall/gjson"

	"github.com/celwasm/celwasm/wire"
)

const (
	// AttributesVariable holds the context attributes as Knative's
	// attributes, exact, prefix and suffix filters read them
	// (LookupAttribute in knative.dev/eventing/pkg/eventfilter/attributes):
	// every standard attribute as text ("" when unset, time as RFC 3339 text,
	// "0001-01-01T00:00:00Z" when unset; schemaurl and the derived
	// datamediatype included), extensions with the type the CloudEvents Go
	// SDK gives them (string, int, bool).
	AttributesVariable = "attrs"
	// CESQLVariable maps a CESQL expression's text to whether the event
	// passes it, as Knative's cesql filter decides: true when the expression
	// evaluates to true, false when it evaluates to anything else or fails.
	CESQLVariable = "cesql"
)

// A KnativeEvent is one CloudEvent as Knative's broker decodes it: the
// CloudEvents Go SDK's decoding of the HTTP request (structured mode for a
// JSON event, binary mode for a {"headers", "body"} envelope), validated as
// the broker's ingress validates it (package wasm/events/knative).
type KnativeEvent interface {
	// Lookup is LookupAttribute for one name.
	Lookup(name string) (any, bool)
	// Attributes is LookupAttribute's view of the event as a map.
	Attributes() map[string]any
	// Passes is Knative's ceSQLFilter.Filter for a parsed CESQL expression.
	Passes(cesql string) bool
}

// knative decodes events for attrs and cesql and parses CESQL; nil in a
// module that does not link the CloudEvents SDK (UseKnative).
var knative struct {
	decode func(gjson.Result) (KnativeEvent, error)
	parse  func(cesql string) error
}

// UseKnative installs Knative's decoding and CESQL parser; package
// wasm/events/knative does it from init, so whatever imports that package
// accepts every filter dialect.
func UseKnative(decode func(gjson.Result) (KnativeEvent, error), parseCESQL func(string) error) {
	knative.decode, knative.parse = decode, parseCESQL
}

// needsKnative is the error of a module without the CloudEvents SDK: the
// request goes to the module that has it.
func needsKnative(what string) *wire.Error {
	return &wire.Error{Code: wire.CodeNeedsModule, Module: wire.ModuleFull,
		Message: what + " needs the module " + wire.ModuleFull + " (Knative's event decoding links the CloudEvents Go SDK, which the expression module leaves out)"}
}

// ParseCESQL checks a CESQL expression as Knative's webhook does.
func ParseCESQL(expr string) error {
	if knative.parse == nil {
		return needsKnative("a cesql filter")
	}
	return knative.parse(expr)
}

// attrsMap answers attrs.NAME with lookupOne; iteration builds the whole map.
type attrsMap struct {
	lazyMap
	view *knativeView
}

func (a *attrsMap) Find(key ref.Val) (ref.Val, bool) {
	k, ok := key.(types.String)
	if !ok {
		return nil, false
	}
	e, err := a.view.get()
	if err != nil {
		return types.NewErr("cloud event: Knative's broker would refuse this event: %v", err), true
	}
	v, found := e.Lookup(string(k))
	if !found {
		return nil, false
	}
	return types.DefaultTypeAdapter.NativeToValue(v), true
}

func (a *attrsMap) Get(key ref.Val) ref.Val {
	if v, ok := a.Find(key); ok {
		return v
	}
	return types.NewErr("no such key: %v", key)
}

func (a *attrsMap) Contains(key ref.Val) ref.Val {
	v, ok := a.Find(key)
	if types.IsError(v) {
		return v
	}
	return types.Bool(ok)
}

// knativeView decodes, on first use, one CloudEvent as Knative does, for
// the two maps read from it.
type knativeView struct {
	raw   gjson.Result
	once  bool
	event KnativeEvent
	err   error
}

func (k *knativeView) get() (KnativeEvent, error) {
	if !k.once {
		k.once = true
		if knative.decode == nil {
			k.err = needsKnative("reading attrs or cesql")
		} else {
			k.event, k.err = knative.decode(k.raw)
		}
	}
	return k.event, k.err
}

// lazyMap is a map(string, dyn) value computed when first read, so that
// filters that never read attrs or cesql do not decode the event twice.
type lazyMap struct {
	build func() (traits.Mapper, error)
	m     traits.Mapper
	err   ref.Val
}

var _ traits.Mapper = (*lazyMap)(nil)

func (l *lazyMap) mapper() (traits.Mapper, ref.Val) {
	if l.m == nil && l.err == nil {
		m, err := l.build()
		if err != nil {
			l.err = types.NewErr("cloud event: Knative's broker would refuse this event: %v", err)
		} else {
			l.m = m
		}
	}
	return l.m, l.err
}

func (l *lazyMap) ConvertToNative(t reflect.Type) (any, error) {
	m, e := l.mapper()
	if e != nil {
		return nil, e.(*types.Err)
	}
	return m.ConvertToNative(t)
}
func (l *lazyMap) ConvertToType(t ref.Type) ref.Val {
	m, e := l.mapper()
	if e != nil {
		return e
	}
	return m.ConvertToType(t)
}
func (l *lazyMap) Equal(o ref.Val) ref.Val {
	m, e := l.mapper()
	if e != nil {
		return e
	}
	return m.Equal(o)
}
func (l *lazyMap) Type() ref.Type { return types.MapType }
func (l *lazyMap) Value() any {
	m, e := l.mapper()
	if e != nil {
		return e
	}
	return m.Value()
}
func (l *lazyMap) Contains(key ref.Val) ref.Val {
	m, e := l.mapper()
	if e != nil {
		return e
	}
	return m.Contains(key)
}
func (l *lazyMap) Get(key ref.Val) ref.Val {
	m, e := l.mapper()
	if e != nil {
		return e
	}
	return m.Get(key)
}
func (l *lazyMap) Find(key ref.Val) (ref.Val, bool) {
	m, e := l.mapper()
	if e != nil {
		return e, true
	}
	return m.Find(key)
}
func (l *lazyMap) Iterator() traits.Iterator {
	m, e := l.mapper()
	if e != nil {
		return types.NewStringList(types.DefaultTypeAdapter, nil).Iterator()
	}
	return m.Iterator()
}
func (l *lazyMap) Size() ref.Val {
	m, e := l.mapper()
	if e != nil {
		return e
	}
	return m.Size()
}

// cesqlMap answers cesql["EXPR"]: it parses (once per process) and
// evaluates the expression over the SDK event.
type cesqlMap struct {
	lazyMap
	view *knativeView
}

func (c *cesqlMap) Find(key ref.Val) (ref.Val, bool) {
	s, ok := key.(types.String)
	if !ok {
		return types.MaybeNoSuchOverloadErr(key), true
	}
	e, err := c.view.get()
	if err != nil {
		return types.NewErr("cloud event: Knative's broker would refuse this event: %v", err), true
	}
	return types.Bool(e.Passes(string(s))), true
}
func (c *cesqlMap) Get(key ref.Val) ref.Val      { v, _ := c.Find(key); return v }
func (c *cesqlMap) Contains(key ref.Val) ref.Val { return types.Bool(true) }

// bindKnative binds attrs and cesql, both computed on first read.
func bindKnative(bind func(string, ref.Val), ev gjson.Result) {
	view := &knativeView{raw: ev}
	bind(AttributesVariable, &attrsMap{view: view, lazyMap: lazyMap{build: func() (traits.Mapper, error) {
		e, err := view.get()
		if err != nil {
			return nil, err
		}
		return types.DefaultTypeAdapter.NativeToValue(e.Attributes()).(traits.Mapper), nil
	}}})
	empty := func() (traits.Mapper, error) {
		return types.DefaultTypeAdapter.NativeToValue(map[string]bool{}).(traits.Mapper), nil
	}
	bind(CESQLVariable, &cesqlMap{lazyMap: lazyMap{build: empty}, view: view})
}
