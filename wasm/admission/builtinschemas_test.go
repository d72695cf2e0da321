//go:build !wasip1

package admission

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"flag"
	"io"
	"os"
	"strings"
	"testing"

	apiextensionsscheme "k8s.io/apiextensions-apiserver/pkg/client/clientset/clientset/scheme"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/cel/openapi/resolver"
	k8sscheme "k8s.io/client-go/kubernetes/scheme"
	kubeopenapi "k8s.io/kubernetes/pkg/generated/openapi"

	"github.com/celwasm/celwasm/wasm/admission/internal/schemagen"
)

var update = flag.Bool("update", false, "rewrite builtinschemas.json.gz from kube's generated OpenAPI definitions")

func builtinKinds() []schema.GroupVersionKind {
	var out []schema.GroupVersionKind
	for _, b := range builtin {
		for _, v := range strings.Split(b.versions, ",") {
			out = append(out, schema.GroupVersionKind{Group: b.group, Version: v, Kind: b.kind})
		}
	}
	return out
}

// TestBuiltinSchemasCurrent checks the embedded file holds what the
// generator writes now (go generate rewrites it).
func TestBuiltinSchemasCurrent(t *testing.T) {
	d, err := schemagen.Generate(builtinKinds())
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		gz, err := schemagen.Gzip(d)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile("builtinschemas.json.gz", gz, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote builtinschemas.json.gz: %d bytes, %d kinds, %d definitions", len(gz), len(d.Kinds), len(d.Definitions))
		return
	}
	want, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(builtinSchemasGz))
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("builtinschemas.json.gz is stale (%d bytes of JSON, the generator writes %d): run go generate ./wasm/admission", len(got), len(want))
	}
}

// TestBuiltinSchemasAsKube checks every kind of the builtin table resolves
// to the schema kube-apiserver's resolver gives, in JSON (defaults differ in
// Go type only, see builtinDefinitions) (the reference's setup in
// conformance/admissionref/typecheck.go), and that the table's kinds all
// have one.
func TestBuiltinSchemasAsKube(t *testing.T) {
	kube := resolver.NewDefinitionsSchemaResolver(kubeopenapi.GetOpenAPIDefinitions, k8sscheme.Scheme, apiextensionsscheme.Scheme)
	ours := builtinSchemas{next: crdSchemas{}}
	for _, gvk := range builtinKinds() {
		want, err := kube.ResolveSchema(gvk)
		if err != nil {
			t.Errorf("%v: kube: %v", gvk, err)
			continue
		}
		got, err := ours.ResolveSchema(gvk)
		if err != nil {
			t.Errorf("%v: %v", gvk, err)
			continue
		}
		gj, err := json.Marshal(got)
		if err != nil {
			t.Fatal(err)
		}
		wj, err := json.Marshal(want)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(gj, wj) {
			t.Errorf("%v: schema differs from kube's:\n%s\n%s", gvk, gj, wj)
		}
	}
}

// BenchmarkBuiltinSchemasFirstDeployment measures what the first type check
// over Deployments pays: reading the embedded file's index and decoding the
// definitions a Deployment reaches.
func BenchmarkBuiltinSchemasFirstDeployment(b *testing.B) {
	gvk := schema.GroupVersionKind{Group: "apps", Version: "v1", Kind: "Deployment"}
	for b.Loop() {
		d, err := decodeBuiltinDefinitions()
		if err != nil {
			b.Fatal(err)
		}
		if _, ok, err := d.resolve(gvk); !ok || err != nil {
			b.Fatal(ok, err)
		}
	}
}
