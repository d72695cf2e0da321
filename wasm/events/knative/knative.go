// Package knative decodes CloudEvents as Knative Eventing's broker does,
// with the CloudEvents Go SDK (HTTP binding, event validation, CloudEvents
// SQL and its ANTLR parser), for package events' attrs and cesql variables.
// Its init installs it in package events (events.UseKnative); only the
// module that imports it, celwasm-full, links the SDK (RATIONALE.md, "Two
// modules").
package knative

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"io"
	nethttp "net/http"
	"sort"
	"strings"
	"sync"

	cesql "github.com/cloudevents/sdk-go/sql/v2"
	cesqlparser "github.com/cloudevents/sdk-go/sql/v2/parser"
	"github.com/cloudevents/sdk-go/v2/binding"
	"github.com/cloudevents/sdk-go/v2/event"
	cehttp "github.com/cloudevents/sdk-go/v2/protocol/http"
	"github.com/tidwall/gjson"

	"github.com/celwasm/celwasm/wasm/events"
)

func init() {
	events.UseKnative(decode, func(expr string) error { _, err := ParseCESQL(expr); return err })
}

// sdk is one event as the SDK decoded it (events.KnativeEvent).
type sdk struct{ e *event.Event }

func decode(ev gjson.Result) (events.KnativeEvent, error) {
	e, err := sdkEvent(ev)
	if err != nil {
		return nil, err
	}
	return sdk{e}, nil
}

func (s sdk) Lookup(name string) (any, bool) { return lookupOne(s.e, name) }
func (s sdk) Attributes() map[string]any     { return lookupAttributes(s.e) }
func (s sdk) Passes(expr string) bool        { return passes(s.e, expr) }

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

var parsedCESQL sync.Map // expression text → cesql.Expression

// ParseCESQL parses a CESQL expression as Knative's webhook does, once per
// process for each text.
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
func passes(e *event.Event, expr string) (ok bool) {
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
