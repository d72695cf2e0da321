package abi

import (
	"strings"

	"github.com/tidwall/gjson"

	"github.com/celwasm/celwasm/wasm/codec"
	"github.com/celwasm/celwasm/wasm/events"
	"github.com/celwasm/celwasm/wasm/tekton"
	"github.com/celwasm/celwasm/wire"
)

// A dialect is a use case the engine composes: a compile request member,
// other than "expression", that a library turns into one CEL expression,
// the variables that expression reads, and what each activation needs
// before evaluation.
type dialect struct {
	member    string
	given     func(*wire.CompileRequest) bool
	toCEL     func(*wire.CompileRequest) (string, error)
	variables map[string]string       // declared unless the environment declares them
	prepare   func(*codec.Activation) // nil: the activation as given
}

// dialects is every library on top of the engine.
var dialects = []*dialect{
	{
		// Knative trigger filters over CloudEvents (package events).
		member: "cloudEventFilter",
		given:  func(r *wire.CompileRequest) bool { return r.CloudEventFilter != nil },
		toCEL: func(r *wire.CompileRequest) (string, error) {
			return events.FilterToCEL(gjson.ParseBytes(r.CloudEventFilter))
		},
		variables: map[string]string{events.EventVariable: "map(string, dyn)", events.DataVariable: "dyn",
			events.AttributesVariable: "map(string, dyn)", events.CESQLVariable: "map(string, bool)"},
	},
	{
		// Tekton when expressions (package tekton).
		member:    "when",
		given:     func(r *wire.CompileRequest) bool { return r.When != nil },
		toCEL:     func(r *wire.CompileRequest) (string, error) { return tekton.WhenToCEL(r.When) },
		variables: tekton.VariableTypes(),
		prepare:   tekton.BindSubstituted,
	},
}

// members lists the compile request's alternatives for error messages.
func members() string {
	names := []string{`"expression"`}
	for _, d := range dialects {
		names = append(names, `"`+d.member+`"`)
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}
