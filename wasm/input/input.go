// Package input reads what the CLIs are given, the same way for every host:
// the Go CLI (cmd/celwasm) calls it natively, the module exports it as
// celwasm_input (docs/abi.md, "input") for the other SDKs' CLIs, so that all
// of them evaluate the same bytes.
//
//   - Documents: JSON (one document) or multi-document YAML, each document as
//     JSON (k8s.io/apimachinery's YAMLReader splits, sigs.k8s.io/yaml converts).
//   - Objects: Documents with kind: List expanded into its items, and each
//     object's identity (ObjectInfo: group, kind, namespace, name; as a
//     CustomResourceDefinition, its name, group and kind).
//   - Events: NDJSON, a JSON array of events, or one JSON event.
//   - Select: the value at a dotted field path of a document (--at).
//   - Keys: the top-level member names of a document (--activation).
//   - celtext.Format (package celtext): canonical typed JSON as CEL literal text (-o text).
//   - Indent: JSON as the CLI's -o json output writes it (Go's indenting Encoder).
//
// Every document, object and event is returned as JSON without line breaks
// (JSON input is compacted: the white space between tokens goes, literals stay
// as they are), so that the export can answer one per line.
package input

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"unicode/utf8"

	"k8s.io/apimachinery/pkg/util/yaml"
	sigsyaml "sigs.k8s.io/yaml"
)

// Documents reads JSON or (multi-document) YAML and returns each document as
// JSON. Text whose first byte after white space is { is JSON, as kubectl
// reads -f (k8s.io/apimachinery's YAMLOrJSONDecoder): one object or several
// in a row, each a document, and text that is not JSON is an error, never
// YAML's reading of it (where NaN is a string). Text starting with [ that is
// valid JSON is one document. Anything else is YAML; empty and null YAML
// documents are skipped. Every document must be UTF-8.
func Documents(data []byte) ([][]byte, error) {
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) > 0 && trimmed[0] == '{' {
		return jsonStream(trimmed)
	}
	if len(trimmed) > 0 && trimmed[0] == '[' && json.Valid(trimmed) {
		if !utf8.Valid(trimmed) {
			return nil, errors.New("JSON that is not UTF-8")
		}
		return [][]byte{compact(trimmed)}, nil
	}
	var docs [][]byte
	rd := yaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(data)))
	for {
		doc, err := rd.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		if len(bytes.TrimSpace(stripComments(doc))) == 0 {
			continue
		}
		j, err := sigsyaml.YAMLToJSON(doc)
		if err != nil {
			return nil, err
		}
		if string(j) == "null" {
			continue
		}
		docs = append(docs, j)
	}
	return docs, nil
}

// jsonStream reads JSON values one after another (white space between them),
// each a document; an error names what is wrong and where.
func jsonStream(data []byte) ([][]byte, error) {
	var docs [][]byte
	dec := json.NewDecoder(bytes.NewReader(data))
	for {
		start := dec.InputOffset()
		var raw json.RawMessage
		err := dec.Decode(&raw)
		if err == io.EOF {
			return docs, nil
		}
		if err != nil {
			var se *json.SyntaxError
			if errors.As(err, &se) {
				return nil, fmt.Errorf("invalid JSON at byte %d: %v", se.Offset, err)
			}
			return nil, fmt.Errorf("invalid JSON after byte %d: %v", start, err)
		}
		if !utf8.Valid(raw) {
			return nil, fmt.Errorf("JSON document %d is not UTF-8", len(docs)+1)
		}
		docs = append(docs, compact(raw))
	}
}

func stripComments(doc []byte) []byte {
	var out []string
	for _, line := range strings.Split(string(doc), "\n") {
		t := strings.TrimSpace(line)
		if t == "---" || strings.HasPrefix(t, "#") {
			continue
		}
		out = append(out, line)
	}
	return []byte(strings.Join(out, "\n"))
}

// Objects returns the documents of a file (Documents) with each kind: List
// document replaced by its items.
func Objects(data []byte) ([][]byte, error) {
	docs, err := Documents(data)
	if err != nil {
		return nil, err
	}
	var out [][]byte
	for _, d := range docs {
		var list struct {
			Kind  string            `json:"kind"`
			Items []json.RawMessage `json:"items"`
		}
		if json.Unmarshal(d, &list) == nil && list.Kind == "List" {
			for _, it := range list.Items {
				out = append(out, []byte(it))
			}
			continue
		}
		out = append(out, d)
	}
	return out, nil
}

// ObjectInfo is what the CLI's validate and cost match objects by.
type ObjectInfo struct {
	// Group (apiVersion up to its last /), Kind, Namespace and Name: json.Unmarshal
	// of the object; KeyOK is false when that failed (the fields hold what it filled in).
	Group     string `json:"group"`
	Kind      string `json:"kind"`
	Namespace string `json:"namespace"`
	Name      string `json:"name"`
	KeyOK     bool   `json:"keyOk"`
	// CRD is the object as a CustomResourceDefinition, nil when it is not one;
	// CRDError then says why ("a document is not a CustomResourceDefinition (kind "X")").
	CRD      *CRDIdentity `json:"crd,omitempty"`
	CRDError string       `json:"crdError,omitempty"`
	// NotObject is set when the document is not a JSON object: its first 40
	// characters (fmt's %.40s).
	NotObject string `json:"notObject,omitempty"`
}

// CRDIdentity names a CustomResourceDefinition and what it defines.
type CRDIdentity struct {
	Name  string `json:"name"`  // metadata.name
	Group string `json:"group"` // spec.group
	Kind  string `json:"kind"`  // spec.names.kind
}

// Info returns an object's ObjectInfo.
func Info(doc []byte) ObjectInfo {
	var m struct {
		APIVersion string `json:"apiVersion"`
		Kind       string `json:"kind"`
		Metadata   struct {
			Name      string `json:"name"`
			Namespace string `json:"namespace"`
		} `json:"metadata"`
	}
	info := ObjectInfo{KeyOK: json.Unmarshal(doc, &m) == nil}
	if i := strings.LastIndex(m.APIVersion, "/"); i >= 0 {
		info.Group = m.APIVersion[:i]
	}
	info.Kind, info.Namespace, info.Name = m.Kind, m.Metadata.Namespace, m.Metadata.Name
	if !info.KeyOK {
		info = ObjectInfo{}
	}
	var c struct {
		Kind     string `json:"kind"`
		Metadata struct {
			Name string `json:"name"`
		} `json:"metadata"`
		Spec struct {
			Group string `json:"group"`
			Names struct {
				Kind string `json:"kind"`
			} `json:"names"`
		} `json:"spec"`
	}
	if err := json.Unmarshal(doc, &c); err != nil || c.Kind != "CustomResourceDefinition" {
		info.CRDError = fmt.Sprintf("a document is not a CustomResourceDefinition (kind %q)", c.Kind)
	} else {
		info.CRD = &CRDIdentity{Name: c.Metadata.Name, Group: c.Spec.Group, Kind: c.Spec.Names.Kind}
	}
	if d := bytes.TrimSpace(doc); len(d) == 0 || d[0] != '{' {
		info.NotObject = fmt.Sprintf("%.40s", d)
	}
	return info
}

// Events reads NDJSON, a JSON array of events, or one JSON event, and
// returns each event as compact JSON (NDJSON lines as they are, trimmed;
// a line that is not JSON is returned as it is, for the evaluation to reject).
func Events(data []byte) ([][]byte, error) {
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) == 0 {
		return nil, nil
	}
	if json.Valid(trimmed) {
		if trimmed[0] == '[' {
			var arr []json.RawMessage
			if err := json.Unmarshal(trimmed, &arr); err != nil {
				return nil, err
			}
			out := make([][]byte, len(arr))
			for i, e := range arr {
				out[i] = compact(e)
			}
			return out, nil
		}
		if !bytes.Contains(trimmed, []byte("\n")) || !json.Valid(firstLine(trimmed)) {
			return [][]byte{compact(trimmed)}, nil
		}
	}
	var out [][]byte
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64<<10), 64<<20)
	for sc.Scan() {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		out = append(out, append([]byte(nil), line...))
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

func firstLine(b []byte) []byte {
	if i := bytes.IndexByte(b, '\n'); i >= 0 {
		return b[:i]
	}
	return b
}

func compact(b []byte) []byte {
	var c bytes.Buffer
	if err := json.Compact(&c, b); err != nil {
		return b
	}
	return c.Bytes()
}

// Select returns the JSON value at a dotted field path of a document, as
// json.Unmarshal into any and json.Marshal give it (numbers become float64).
func Select(doc []byte, path string) ([]byte, error) {
	var cur any
	if err := json.Unmarshal(doc, &cur); err != nil {
		return nil, err
	}
	for _, field := range strings.Split(path, ".") {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("%q: not an object", field)
		}
		if cur, ok = m[field]; !ok {
			return nil, fmt.Errorf("no field %q", field)
		}
	}
	return json.Marshal(cur)
}

// Keys returns the top-level member names of a JSON object document, sorted
// (none for null); an error when the document is not an object.
func Keys(doc []byte) ([]string, error) {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(doc, &top); err != nil {
		return nil, err
	}
	keys := make([]string, 0, len(top))
	for k := range top {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys, nil
}
