package admissionref

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apiextensions-apiserver/pkg/controller/openapi/builder"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/openapi"
	"k8s.io/client-go/restmapper"
	"k8s.io/kube-openapi/pkg/spec3"
)

// kube-apiserver's own discovery and OpenAPI documents, as k8s.io/kubernetes
// v1.37.2 checks them in (api/discovery: what /api and /apis serve, and
// api/openapi-spec/v3: what /openapi/v3 serves). They give request.resource's plural and scope of
// every built-in kind, and the schemas the MutatingAdmissionPolicy plugin
// fetches through discovery for its type converter.
const kubernetesModule = "k8s.io/kubernetes"

var (
	kubeDirOnce sync.Once
	kubeDir     string
	kubeDirErr  error
)

// kubernetesDir is the module cache directory of k8s.io/kubernetes (the
// version go.mod requires), found with `go list -m`.
func kubernetesDir() (string, error) {
	kubeDirOnce.Do(func() {
		if d := os.Getenv("ADMREF_KUBERNETES_DIR"); d != "" {
			kubeDir = d
			return
		}
		out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", kubernetesModule).Output()
		if err != nil {
			kubeDirErr = fmt.Errorf("admissionref: go list -m %s: %w", kubernetesModule, err)
			return
		}
		kubeDir = strings.TrimSpace(string(out))
		if kubeDir == "" {
			kubeDirErr = fmt.Errorf("admissionref: %s is not in the module cache (go mod download %s)", kubernetesModule, kubernetesModule)
		}
	})
	return kubeDir, kubeDirErr
}

var (
	builtinOnce      sync.Once
	builtinGroups    []*restmapper.APIGroupResources
	builtinOpenAPI   map[string][]byte // "apis/apps/v1" -> /openapi/v3 document
	builtinLoadError error
)

func loadBuiltin() error {
	builtinOnce.Do(func() {
		dir, err := kubernetesDir()
		if err != nil {
			builtinLoadError = err
			return
		}
		discoveryDir := filepath.Join(dir, "api", "discovery")
		readJSON := func(name string, v any) error {
			raw, err := os.ReadFile(filepath.Join(discoveryDir, name))
			if err != nil {
				return err
			}
			if err := json.Unmarshal(raw, v); err != nil {
				return fmt.Errorf("%s: %w", name, err)
			}
			return nil
		}
		var groups metav1.APIGroupList
		if err := readJSON("apis.json", &groups); err != nil {
			builtinLoadError = err
			return
		}
		core := metav1.APIGroup{Versions: []metav1.GroupVersionForDiscovery{{GroupVersion: "v1", Version: "v1"}}}
		core.PreferredVersion = core.Versions[0]
		for _, g := range append([]metav1.APIGroup{core}, groups.Groups...) {
			gr := &restmapper.APIGroupResources{Group: g, VersionedResources: map[string][]metav1.APIResource{}}
			for _, v := range g.Versions {
				name := "apis__" + g.Name + "__" + v.Version + ".json"
				if g.Name == "" {
					name = "api__" + v.Version + ".json"
				}
				var l metav1.APIResourceList
				if err := readJSON(name, &l); err != nil {
					builtinLoadError = err
					return
				}
				gr.VersionedResources[v.Version] = l.APIResources
			}
			builtinGroups = append(builtinGroups, gr)
		}
		builtinOpenAPI = map[string][]byte{}
		specDir := filepath.Join(dir, "api", "openapi-spec", "v3")
		entries, err := os.ReadDir(specDir)
		if err != nil {
			builtinLoadError = err
			return
		}
		for _, e := range entries {
			name, ok := strings.CutSuffix(e.Name(), "_openapi.json")
			if !ok || !(strings.HasPrefix(name, "api__") || strings.HasPrefix(name, "apis__")) {
				continue
			}
			b, err := os.ReadFile(filepath.Join(specDir, e.Name()))
			if err != nil {
				builtinLoadError = err
				return
			}
			builtinOpenAPI[strings.ReplaceAll(name, "__", "/")] = b
		}
	})
	return builtinLoadError
}

// restMapperFor is kube-apiserver's discovery RESTMapper (what its
// admission plugins get: a RESTMapper over its own discovery) with the
// CRDs' kinds added as the apiextensions-apiserver serves them.
func restMapperFor(crds []*apiextensionsv1.CustomResourceDefinition) meta.RESTMapper {
	groups := append([]*restmapper.APIGroupResources(nil), builtinGroups...)
	byGroup := map[string]*restmapper.APIGroupResources{}
	for _, crd := range crds {
		g := byGroup[crd.Spec.Group]
		if g == nil {
			g = &restmapper.APIGroupResources{VersionedResources: map[string][]metav1.APIResource{}}
			g.Group.Name = crd.Spec.Group
			byGroup[crd.Spec.Group] = g
			groups = append(groups, g)
		}
		for _, v := range crd.Spec.Versions {
			if !v.Served {
				continue
			}
			if _, ok := g.VersionedResources[v.Name]; !ok {
				g.Group.Versions = append(g.Group.Versions, metav1.GroupVersionForDiscovery{GroupVersion: crd.Spec.Group + "/" + v.Name, Version: v.Name})
			}
			if v.Storage {
				g.Group.PreferredVersion = metav1.GroupVersionForDiscovery{GroupVersion: crd.Spec.Group + "/" + v.Name, Version: v.Name}
			}
			g.VersionedResources[v.Name] = append(g.VersionedResources[v.Name], metav1.APIResource{
				Name:         crd.Spec.Names.Plural,
				SingularName: crd.Spec.Names.Singular,
				Namespaced:   crd.Spec.Scope == apiextensionsv1.NamespaceScoped,
				Kind:         crd.Spec.Names.Kind,
				Verbs:        []string{"create", "delete", "get", "list", "patch", "update", "watch"},
			})
		}
	}
	return restmapper.NewDiscoveryRESTMapper(groups)
}

// openAPIClient serves /openapi/v3 as kube-apiserver does: the built-in
// group versions' documents, and for custom resources the documents the
// apiextensions-apiserver's OpenAPI v3 controller builds from the CRDs.
type openAPIClient struct {
	paths  map[string]openapi.GroupVersion
	served chan struct{}
	once   sync.Once
}

type openAPIGroupVersion struct {
	path string
	doc  []byte
}

func (g openAPIGroupVersion) Schema(contentType string) ([]byte, error) {
	if contentType != "application/json" {
		return nil, fmt.Errorf("openapi: content type %q not served", contentType)
	}
	return g.doc, nil
}

func (g openAPIGroupVersion) ServerRelativeURL() string {
	return "/openapi/v3/" + g.path + "?hash=static"
}

func (c *openAPIClient) Paths() (map[string]openapi.GroupVersion, error) {
	defer c.once.Do(func() { close(c.served) })
	return c.paths, nil
}

func newOpenAPIClient(crds []*apiextensionsv1.CustomResourceDefinition) (*openAPIClient, error) {
	c := &openAPIClient{paths: map[string]openapi.GroupVersion{}, served: make(chan struct{})}
	for p, doc := range builtinOpenAPI {
		c.paths[p] = openAPIGroupVersion{path: p, doc: doc}
	}
	byGV := map[string][]*spec3.OpenAPI{}
	var order []string
	for _, crd := range crds {
		for _, v := range crd.Spec.Versions {
			if !v.Served {
				continue
			}
			s, err := builder.BuildOpenAPIV3(crd, v.Name, builder.Options{V2: false, IncludeSelectableFields: true})
			if err != nil {
				return nil, fmt.Errorf("CustomResourceDefinition %q version %q: OpenAPI: %w", crd.Name, v.Name, err)
			}
			p := "apis/" + crd.Spec.Group + "/" + v.Name
			if _, ok := byGV[p]; !ok {
				order = append(order, p)
			}
			byGV[p] = append(byGV[p], s)
		}
	}
	for _, p := range order {
		merged, err := builder.MergeSpecsV3(byGV[p]...)
		if err != nil {
			return nil, fmt.Errorf("OpenAPI %s: %w", p, err)
		}
		var buf bytes.Buffer
		if err := json.NewEncoder(&buf).Encode(merged); err != nil {
			return nil, err
		}
		c.paths[p] = openAPIGroupVersion{path: p, doc: buf.Bytes()}
	}
	return c, nil
}

// waitServed waits until the type converter manager fetched the paths once.
func (c *openAPIClient) waitServed(ctx context.Context) error {
	select {
	case <-c.served:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
