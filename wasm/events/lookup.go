package events

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"io"
	nethttp "net/http"
	"reflect"
	"sort"
	"strings"
	"sync"

	cesql "github.com/cloudevents/sdk-go/sql/v2"
	cesqlparser "github.com/cloudevents/sdk-go/sql/v2/parser"
	"github.com/cloudevents/sdk-go/v2/binding"
	"github.com/cloudevents/sdk-go/v2/event"
	cehttp "github.com/cloudevents/sdk-go/v2/protocol/http"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"
	"github.com/tidwall/gjson"
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

// sdkEvent is the event as Knative receives it: the CloudEvents Go SDK's
// decoding of the HTTP request (structured mode for a JSON event, binary
// mode for a {"headers", "body"} envelope), validated as the broker's
// ingress validates it.
func sdkEvent(ev gjson.Result) (*event.Event, error) {
	header := nethttp.Header{}
	var body []byte
	if ev.Get("specversion").Exists() {
		header.Set("Content-Type", "application/cloudevents+json")
		body = []byte(ev.Raw)
	} else {
		ev.Get("headers").ForEach(func(k, v gjson.Result) bool {
			if v.IsArray() {
				for _, p := range v.Array() {
					header.Add(k.Str, p.String())
				}
			} else {
				header.Add(k.Str, v.String())
			}
			return true
		})
		if b64 := ev.Get("bodyBase64"); b64.Exists() {
			b, err := base64.StdEncoding.DecodeString(b64.Str)
			if err != nil {
				return nil, err
			}
			body = b
		} else {
			body = []byte(ev.Get("body").Str)
		}
	}
	msg := cehttp.NewMessage(header, io.NopCloser(bytes.NewReader(body)))
	defer msg.Finish(nil)
	e, err := binding.ToEvent(context.Background(), msg)
	if err != nil {
		return nil, err
	}
	// Knative's broker ingress refuses (400) events that do not validate.
	if err := e.Validate(); err != nil {
		// A ValidationError is a map: one line per attribute, sorted here
		// so that the message is the same on every run.
		lines := strings.Split(strings.TrimSpace(err.Error()), "\n")
		sort.Strings(lines)
		return nil, errString(strings.Join(lines, "; "))
	}
	return e, nil
}

// lookupAttributes is LookupAttribute's view of the event as a map.
func lookupAttributes(e *event.Event) map[string]any {
	t, _ := e.Time().MarshalText()
	m := map[string]any{
		"specversion":         e.SpecVersion(),
		"type":                e.Type(),
		"source":              e.Source(),
		"subject":             e.Subject(),
		"id":                  e.ID(),
		"time":                string(t),
		"dataschema":          e.DataSchema(),
		"schemaurl":           e.DataSchema(),
		"datacontenttype":     e.DataContentType(),
		"datamediatype":       e.DataMediaType(),
		"datacontentencoding": e.DeprecatedDataContentEncoding(),
	}
	for k, v := range e.Extensions() {
		if _, std := m[k]; !std {
			switch x := v.(type) {
			case int32:
				m[k] = int64(x)
			case string, bool:
				m[k] = x
			default:
				m[k] = fmt.Sprint(v)
			}
		}
	}
	return m
}

// lookupOne is LookupAttribute for one name, without building the map.
func lookupOne(e *event.Event, name string) (any, bool) {
	switch name {
	case "specversion":
		return e.SpecVersion(), true
	case "type":
		return e.Type(), true
	case "source":
		return e.Source(), true
	case "subject":
		return e.Subject(), true
	case "id":
		return e.ID(), true
	case "time":
		t, _ := e.Time().MarshalText()
		return string(t), true
	case "dataschema", "schemaurl":
		return e.DataSchema(), true
	case "datacontenttype":
		return e.DataContentType(), true
	case "datamediatype":
		return e.DataMediaType(), true
	case "datacontentencoding":
		return e.DeprecatedDataContentEncoding(), true
	}
	v, ok := e.Extensions()[name]
	if !ok {
		return nil, false
	}
	switch x := v.(type) {
	case int32:
		return int64(x), true
	case string, bool:
		return x, true
	}
	return fmt.Sprint(v), true
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
	v, found := lookupOne(e, string(k))
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

// knativeView builds, on first use, the SDK event of one CloudEvent and
// the two maps read from it.
type knativeView struct {
	raw   gjson.Result
	once  bool
	event *event.Event
	err   error
}

func (k *knativeView) get() (*event.Event, error) {
	if !k.once {
		k.once = true
		k.event, k.err = sdkEvent(k.raw)
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
	if _, err := c.view.get(); err != nil {
		return types.NewErr("cloud event: Knative's broker would refuse this event: %v", err), true
	}
	return types.Bool(c.view.passes(string(s))), true
}
func (c *cesqlMap) Get(key ref.Val) ref.Val      { v, _ := c.Find(key); return v }
func (c *cesqlMap) Contains(key ref.Val) ref.Val { return types.Bool(true) }

var parsedCESQL sync.Map // expression text → cesql.Expression

// ParseCESQL parses a CESQL expression as Knative's webhook does.
func ParseCESQL(expr string) (cesql.Expression, error) {
	if p, ok := parsedCESQL.Load(expr); ok {
		return p.(cesql.Expression), nil
	}
	var parsed cesql.Expression
	var err error
	func() {
		defer func() {
			if r := recover(); r != nil {
				err = errString("the CESQL parser panicked")
			}
		}()
		parsed, err = cesqlparser.Parse(expr)
	}()
	if err != nil {
		return nil, err
	}
	parsedCESQL.Store(expr, parsed)
	return parsed, nil
}

// passes is Knative's ceSQLFilter.Filter: an evaluation error or a
// non-true result fails the filter.
func (k *knativeView) passes(expr string) (ok bool) {
	e, _ := k.get()
	parsed, err := ParseCESQL(expr)
	if err != nil {
		return false
	}
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	res, err := parsed.Evaluate(*e)
	if err != nil {
		return false
	}
	b, isBool := res.(bool)
	return isBool && b
}

type errString string

func (e errString) Error() string { return string(e) }

// bindKnative binds attrs and cesql, both computed on first read.
func bindKnative(bind func(string, ref.Val), ev gjson.Result) {
	view := &knativeView{raw: ev}
	bind(AttributesVariable, &attrsMap{view: view, lazyMap: lazyMap{build: func() (traits.Mapper, error) {
		e, err := view.get()
		if err != nil {
			return nil, err
		}
		return types.DefaultTypeAdapter.NativeToValue(lookupAttributes(e)).(traits.Mapper), nil
	}}})
	empty := func() (traits.Mapper, error) {
		return types.DefaultTypeAdapter.NativeToValue(map[string]bool{}).(traits.Mapper), nil
	}
	bind(CESQLVariable, &cesqlMap{lazyMap: lazyMap{build: empty}, view: view})
}
