package admission

import (
	"bytes"
	"compress/gzip"
	_ "embed"
	"encoding/json"
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

// builtinDefinitions is the decoded file: kind → definition name, and the
// definitions by name. Decoded once, when a policy is first type checked.
var builtinDefinitions = sync.OnceValues(func() (*builtinDefs, error) {
	zr, err := gzip.NewReader(bytes.NewReader(builtinSchemasGz))
	if err != nil {
		return nil, err
	}
	raw, err := io.ReadAll(zr)
	if err != nil {
		return nil, err
	}
	var d builtinDefs
	if err := json.Unmarshal(raw, &d); err != nil {
		return nil, err
	}
	// Kube's definitions hold a schema (not a JSON object) in this
	// extension (Quantity, IntOrString): decode it as one, so the schemas
	// encode as kube-apiserver's do. (Defaults stay as JSON decodes them:
	// float64 and string, where kube's Go code has int and typed strings;
	// the type checker does not read defaults.)
	for name, s := range d.Definitions {
		v, ok := s.Extensions[common.ExtensionV2Schema]
		if !ok {
			continue
		}
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
	return &d, nil
})

// builtinDefs is the shape internal/schemagen writes.
type builtinDefs struct {
	Kinds []struct {
		Group, Version, Kind, Ref string
	}
	Definitions map[string]spec.Schema
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
	for _, k := range d.Kinds {
		if k.Group == gvk.Group && k.Version == gvk.Version && k.Kind == gvk.Kind {
			return resolver.PopulateRefs(func(ref string) (*spec.Schema, bool) {
				s, ok := d.Definitions[ref]
				return &s, ok
			}, k.Ref)
		}
	}
	return b.next.ResolveSchema(gvk)
}
