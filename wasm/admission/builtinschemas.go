package admission

import (
	"bytes"
	"compress/gzip"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/cel/openapi/resolver"
	"k8s.io/kube-openapi/pkg/common"
	"k8s.io/kube-openapi/pkg/validation/spec"
)

//go:generate go test -run TestBuiltinSchemasCurrent . -args -update

// builtinSchemasGz holds kube's generated OpenAPI definitions
// (k8s.io/kubernetes/pkg/generated/openapi) for the built-in kinds of the
// builtin table and every definition they reference, written by
// internal/schemagen (see builtinschemas_test.go).
//
//go:embed builtinschemas.json.gz
var builtinSchemasGz []byte

// builtinDefinitions is the file's index: kind → definition name, and the
// definitions by name, still encoded. Read once, when a policy is first type
// checked; each definition is decoded when a schema first reaches it.
var builtinDefinitions = sync.OnceValues(decodeBuiltinDefinitions)

func decodeBuiltinDefinitions() (*builtinDefs, error) {
	zr, err := gzip.NewReader(bytes.NewReader(builtinSchemasGz))
	if err != nil {
		return nil, err
	}
	raw, err := io.ReadAll(zr)
	if err != nil {
		return nil, err
	}
	d := &builtinDefs{decoded: map[string]*spec.Schema{}}
	if err := json.Unmarshal(raw, d); err != nil {
		return nil, err
	}
	return d, nil
}

// builtinDefs is the shape internal/schemagen writes.
type builtinDefs struct {
	Kinds []struct {
		Group, Version, Kind, Ref string
	}
	Definitions map[string]json.RawMessage

	mu      sync.Mutex
	decoded map[string]*spec.Schema
}

// definition decodes the definition name once. Kube's definitions hold a
// schema (not a JSON object) in the x-kubernetes-v2-schema extension
// (Quantity, IntOrString): it is decoded as one, so the schemas encode as
// kube-apiserver's do. (Defaults stay as JSON decodes them: float64 and
// string, where kube's Go code has int and typed strings; the type checker
// does not read defaults.)
func (d *builtinDefs) definition(name string) (*spec.Schema, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if s, ok := d.decoded[name]; ok {
		return s, nil
	}
	raw, ok := d.Definitions[name]
	if !ok {
		return nil, nil
	}
	s := new(spec.Schema)
	if err := json.Unmarshal(raw, s); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if v, ok := s.Extensions[common.ExtensionV2Schema]; ok {
		b, err := json.Marshal(v)
		if err != nil {
			return nil, err
		}
		var v2 spec.Schema
		if err := json.Unmarshal(b, &v2); err != nil {
			return nil, fmt.Errorf("%s: %s: %w", name, common.ExtensionV2Schema, err)
		}
		s.Extensions[common.ExtensionV2Schema] = v2
	}
	d.decoded[name] = s
	return s, nil
}

// builtinSchemas resolves built-in kinds as kube-apiserver's
// resolver.DefinitionsSchemaResolver does, and other kinds with next (as its
// Combine does).
type builtinSchemas struct {
	next resolver.SchemaResolver
}

func (b builtinSchemas) ResolveSchema(gvk schema.GroupVersionKind) (*spec.Schema, error) {
	d, err := builtinDefinitions()
	if err != nil {
		return nil, fmt.Errorf("built-in schemas: %w", err)
	}
	if s, ok, err := d.resolve(gvk); ok {
		return s, err
	}
	return b.next.ResolveSchema(gvk)
}

// resolve returns gvk's schema with its refs populated; ok is false for a
// kind without a definition.
func (d *builtinDefs) resolve(gvk schema.GroupVersionKind) (s *spec.Schema, ok bool, err error) {
	for _, k := range d.Kinds {
		if k.Group != gvk.Group || k.Version != gvk.Version || k.Kind != gvk.Kind {
			continue
		}
		var decodeErr error
		s, err := resolver.PopulateRefs(func(ref string) (*spec.Schema, bool) {
			def, err := d.definition(ref)
			if err != nil || def == nil {
				decodeErr = errors.Join(decodeErr, err)
				return nil, false
			}
			c := *def
			return &c, true
		}, k.Ref)
		if decodeErr != nil {
			return nil, true, fmt.Errorf("built-in schemas: %w", decodeErr)
		}
		return s, true, err
	}
	return nil, false, nil
}
