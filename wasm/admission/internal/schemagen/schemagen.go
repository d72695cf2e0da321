// Package schemagen writes the OpenAPI definitions kube-apiserver's
// ValidatingAdmissionPolicy type checker resolves built-in kinds with, for
// the admission engine to embed (wasm/admission/builtinschemas.json.gz). It
// runs natively: it links k8s.io/kubernetes/pkg/generated/openapi, which the
// module must not.
package schemagen

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	apiextensionsscheme "k8s.io/apiextensions-apiserver/pkg/client/clientset/clientset/scheme"
	"k8s.io/apimachinery/pkg/runtime/schema"
	endpointsopenapi "k8s.io/apiserver/pkg/endpoints/openapi"
	k8sscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/kube-openapi/pkg/validation/spec"
	kubeopenapi "k8s.io/kubernetes/pkg/generated/openapi"
)

// Definitions is the embedded file's content: which definition each kind
// resolves to, and every definition those reach through $ref.
type Definitions struct {
	Kinds       []Kind                 `json:"kinds"`
	Definitions map[string]spec.Schema `json:"definitions"`
}

// Kind maps a group, version and kind to its definition's name.
type Kind struct {
	Group   string `json:"group"`
	Version string `json:"version"`
	Kind    string `json:"kind"`
	Ref     string `json:"ref"`
}

// Generate returns the definitions for kinds, as
// resolver.NewDefinitionsSchemaResolver(kubeopenapi.GetOpenAPIDefinitions,
// client-go's scheme, apiextensions' scheme) maps and reads them (what
// kube-controller-manager's policy status controller and the reference in
// conformance/admissionref use). Kinds without a definition are left out.
func Generate(kinds []schema.GroupVersionKind) (*Definitions, error) {
	defs := kubeopenapi.GetOpenAPIDefinitions(spec.MustCreateRef)
	namer := endpointsopenapi.NewDefinitionNamer(k8sscheme.Scheme, apiextensionsscheme.Scheme)
	gvkToRef := map[schema.GroupVersionKind]string{}
	for name := range defs {
		_, ext := namer.GetDefinitionName(name)
		var gvks []schema.GroupVersionKind
		if err := ext.GetObject("x-kubernetes-group-version-kind", &gvks); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		for _, gvk := range gvks {
			gvkToRef[gvk] = name
		}
	}
	out := &Definitions{Definitions: map[string]spec.Schema{}}
	var walk func(name string) error
	walk = func(name string) error {
		if _, ok := out.Definitions[name]; ok {
			return nil
		}
		def, ok := defs[name]
		if !ok {
			return fmt.Errorf("definition %q not found", name)
		}
		out.Definitions[name] = def.Schema
		raw, err := json.Marshal(def.Schema)
		if err != nil {
			return err
		}
		var v any
		if err := json.Unmarshal(raw, &v); err != nil {
			return err
		}
		for _, r := range refs(v, nil) {
			if err := walk(r); err != nil {
				return err
			}
		}
		return nil
	}
	for _, gvk := range kinds {
		name, ok := gvkToRef[gvk]
		if !ok {
			continue
		}
		out.Kinds = append(out.Kinds, Kind{Group: gvk.Group, Version: gvk.Version, Kind: gvk.Kind, Ref: name})
		if err := walk(name); err != nil {
			return nil, err
		}
	}
	sort.Slice(out.Kinds, func(i, j int) bool {
		a, b := out.Kinds[i], out.Kinds[j]
		return strings.Join([]string{a.Group, a.Version, a.Kind}, "/") < strings.Join([]string{b.Group, b.Version, b.Kind}, "/")
	})
	return out, nil
}

// refs collects every "$ref" in a decoded JSON value.
func refs(v any, acc []string) []string {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			if s, ok := e.(string); ok && k == "$ref" {
				acc = append(acc, s)
				continue
			}
			acc = refs(e, acc)
		}
	case []any:
		for _, e := range v {
			acc = refs(e, acc)
		}
	}
	return acc
}

// Gzip encodes d as JSON (map keys sorted, so the output is stable) and
// compresses it at the best compression, without name or time in the header.
func Gzip(d *Definitions) ([]byte, error) {
	raw, err := json.Marshal(d)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	w, err := gzip.NewWriterLevel(&b, gzip.BestCompression)
	if err != nil {
		return nil, err
	}
	if _, err := w.Write(raw); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
