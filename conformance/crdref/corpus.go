package crdref

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"

	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/yaml"
)

// Case is one entry of conformance/testdata/crd/corpus.yaml.
type Case struct {
	Name      string   `json:"name"`
	Module    *Module  `json:"module"`
	CRDs      []string `json:"crds"`
	CRDErrors bool     `json:"crdErrors"`
	Valid     []string `json:"valid"`
	Invalid   []string `json:"invalid"`
	Updates   *Updates `json:"updates"`

	dir       string // the corpus directory
	moduleDir string // the module's directory in the module cache
}

// Module is a Go module the case reads CRDs and objects from.
type Module struct {
	Path    string `json:"path"`
	Version string `json:"version"`
	Sum     string `json:"sum"`
}

// Updates are stored objects and objects replacing them.
type Updates struct {
	Old     string   `json:"old"`
	Valid   []string `json:"valid"`
	Invalid []string `json:"invalid"`
}

// Doc is one document: its JSON and where it came from.
type Doc struct {
	JSON   []byte
	Source string // file and document index
}

// LoadCorpus reads corpus.yaml in dir and fetches the modules it names.
func LoadCorpus(dir string) ([]*Case, error) {
	data, err := os.ReadFile(filepath.Join(dir, "corpus.yaml"))
	if err != nil {
		return nil, err
	}
	var cases []*Case
	if err := yaml.UnmarshalStrict(data, &cases); err != nil {
		return nil, fmt.Errorf("corpus.yaml: %w", err)
	}
	for _, c := range cases {
		c.dir = dir
		if c.Module != nil {
			if c.moduleDir, err = Download(*c.Module); err != nil {
				return nil, fmt.Errorf("case %s: %w", c.Name, err)
			}
		}
	}
	return cases, nil
}

// Download fetches a module version into the module cache with `go mod
// download` and checks its hash against m.Sum.
func Download(m Module) (string, error) {
	goCmd := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := os.Stat(goCmd); err != nil {
		goCmd = "go"
	}
	tmp, err := os.MkdirTemp("", "crdref")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	cmd := exec.Command(goCmd, "mod", "download", "-json", m.Path+"@"+m.Version)
	cmd.Dir = tmp // outside any module: no go.mod is consulted or changed
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	var info struct{ Dir, Sum, Error string }
	if jerr := json.Unmarshal(out, &info); jerr != nil {
		return "", fmt.Errorf("go mod download %s@%s: %v %s", m.Path, m.Version, err, stderr.String())
	}
	switch {
	case info.Error != "":
		return "", fmt.Errorf("go mod download %s@%s: %s", m.Path, m.Version, info.Error)
	case info.Sum != m.Sum:
		return "", fmt.Errorf("%s@%s: sum %s, want %s", m.Path, m.Version, info.Sum, m.Sum)
	case info.Dir == "":
		return "", fmt.Errorf("go mod download %s@%s: no directory", m.Path, m.Version)
	}
	return info.Dir, nil
}

// Path resolves a corpus path ("module:" paths inside the module).
func (c *Case) Path(p string) string {
	if rest, ok := strings.CutPrefix(p, "module:"); ok {
		return filepath.Join(c.moduleDir, filepath.FromSlash(rest))
	}
	return filepath.Join(c.dir, filepath.FromSlash(p))
}

// Docs reads the documents of the files and directories (recursively, the
// .yaml/.yml/.json files in name order), expanding kind: List.
func (c *Case) Docs(paths []string) ([]Doc, error) {
	var out []Doc
	for _, p := range paths {
		full := c.Path(p)
		var files []string
		if st, err := os.Stat(full); err != nil {
			return nil, err
		} else if st.IsDir() {
			filepath.WalkDir(full, func(path string, d fs.DirEntry, err error) error {
				if err == nil && !d.IsDir() && (strings.HasSuffix(path, ".yaml") || strings.HasSuffix(path, ".yml") || strings.HasSuffix(path, ".json")) {
					files = append(files, path)
				}
				return nil
			})
			sort.Strings(files)
		} else {
			files = []string{full}
		}
		for _, f := range files {
			docs, err := ReadDocs(f)
			if err != nil {
				return nil, err
			}
			out = append(out, docs...)
		}
	}
	return out, nil
}

// ReadDocs reads a YAML (multi-document) or JSON file as JSON documents.
func ReadDocs(file string) ([]Doc, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	var out []Doc
	rd := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(data)))
	for i := 0; ; i++ {
		doc, err := rd.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", file, err)
		}
		j, err := yaml.YAMLToJSON(doc)
		if err != nil {
			return nil, fmt.Errorf("%s document %d: %w", file, i, err)
		}
		if string(j) == "null" {
			continue
		}
		var list struct {
			Kind  string            `json:"kind"`
			Items []json.RawMessage `json:"items"`
		}
		if json.Unmarshal(j, &list) == nil && list.Kind == "List" {
			for k, it := range list.Items {
				out = append(out, Doc{JSON: it, Source: fmt.Sprintf("%s#%d.items[%d]", file, i, k)})
			}
			continue
		}
		out = append(out, Doc{JSON: j, Source: fmt.Sprintf("%s#%d", file, i)})
	}
	return out, nil
}

// Key identifies an object: group, kind, namespace, name.
type Key struct{ Group, Kind, Namespace, Name string }

// KeyOf reads an object's key.
func KeyOf(doc []byte) Key {
	var m struct {
		APIVersion string `json:"apiVersion"`
		Kind       string `json:"kind"`
		Metadata   struct{ Name, Namespace string }
	}
	json.Unmarshal(doc, &m)
	g := ""
	if i := strings.LastIndex(m.APIVersion, "/"); i >= 0 {
		g = m.APIVersion[:i]
	}
	return Key{g, m.Kind, m.Metadata.Namespace, m.Metadata.Name}
}

// GroupKind of a CRD document (spec.group, spec.names.kind).
func GroupKind(crd []byte) (string, string) {
	var m struct {
		Spec struct {
			Group string
			Names struct{ Kind string }
		}
	}
	json.Unmarshal(crd, &m)
	return m.Spec.Group, m.Spec.Names.Kind
}
