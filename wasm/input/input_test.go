package input

import (
	"reflect"
	"strings"
	"testing"
)

func TestHandle(t *testing.T) {
	cases := []struct{ name, req, want string }{
		{"yaml documents", "{\"op\":\"documents\"}\na: 1\nb: yes\n---\n# only a comment\n---\nc: [x, 1.50]\n",
			"{\"count\":2}\n{\"a\":1,\"b\":true}\n{\"c\":[\"x\",1.5]}"},
		{"json compacted, literals kept", "{\"op\":\"documents\"}\n {\n  \"a\": 1.50e0,\n  \"s\": \"\\u00e9 <\"\n}\n",
			"{\"count\":1}\n{\"a\":1.50e0,\"s\":\"\\u00e9 <\"}"},
		{"empty input", "{\"op\":\"documents\"}\n", "{\"count\":0}"},
		{"no newline after the header", "{\"op\":\"events\"}", "{\"count\":0}"},
		{"list expanded", "{\"op\":\"objects\"}\nkind: List\nitems:\n- {apiVersion: g/v1, kind: K, metadata: {name: a}}\n- 5\n",
			"{\"count\":2,\"objects\":[{\"group\":\"g\",\"kind\":\"K\",\"namespace\":\"\",\"name\":\"a\",\"keyOk\":true,\"crdError\":\"a document is not a CustomResourceDefinition (kind \\\"K\\\")\"}," +
				"{\"group\":\"\",\"kind\":\"\",\"namespace\":\"\",\"name\":\"\",\"keyOk\":false,\"crdError\":\"a document is not a CustomResourceDefinition (kind \\\"\\\")\",\"notObject\":\"5\"}]}\n" +
				"{\"apiVersion\":\"g/v1\",\"kind\":\"K\",\"metadata\":{\"name\":\"a\"}}\n5"},
		{"ndjson events, a bad line kept", "{\"op\":\"events\"}\n{\"id\":\"1\"}\r\n\n not json \n{\"id\":\"2\"}", "{\"count\":3}\n{\"id\":\"1\"}\nnot json\n{\"id\":\"2\"}"},
		{"event array", "{\"op\":\"events\"}\n[{\"id\": \"1\"},\n {\"id\": \"2\"}]", "{\"count\":2}\n{\"id\":\"1\"}\n{\"id\":\"2\"}"},
		{"select", "{\"op\":\"select\",\"path\":\"spec.n\"}\n{\"spec\":{\"n\":10000000000000000000000}}", "{\"count\":1}\n1e+22"},
		{"keys sorted", "{\"op\":\"keys\"}\n{\"b\":1,\"a\":2,\"<\":3}", "{\"count\":3}\n\"<\"\n\"a\"\n\"b\""},
		{"text", "{\"op\":\"text\"}\n[{\"uint\":\"2\"},{\"bytes\":\"/w==\"},\"a\\nb\"]", "{\"count\":1}\n\"[2u, b\\\"\\\\xff\\\", \\\"a\\\\nb\\\"]\""},
		{"bad header", "{\"op\":\"documents\",\"x\":1}\n", `{"error":{"code":"bad_request","message":"input header: json: unknown field \"x\""}}`},
		{"unknown op", "{\"op\":\"nope\"}\n", `{"error":{"code":"bad_request","message":"input header: unknown op \"nope\""}}`},
		{"select without path", "{\"op\":\"select\"}\n{}", `{"error":{"code":"bad_request","message":"input header: select needs a path"}}`},
		{"invalid yaml", "{\"op\":\"documents\"}\na: [\n", `{"error":{"code":"invalid_input","message":"yaml: line 1: did not find expected node content"}}`},
		{"select on a non-object", "{\"op\":\"select\",\"path\":\"a.b\"}\n{\"a\":[1]}", `{"error":{"code":"invalid_input","message":"\"b\": not an object"}}`},
		{"keys of a list", "{\"op\":\"keys\"}\n[1]", `{"error":{"code":"invalid_input","message":"json: cannot unmarshal array into Go value of type map[string]json.RawMessage"}}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := string(Handle([]byte(c.req))); got != c.want {
				t.Errorf("Handle(%q)\n got %s\nwant %s", c.req, got, c.want)
			}
		})
	}
}

// Items never contain a line break, whatever the input's layout.
func TestItemsAreLines(t *testing.T) {
	resp := string(Handle([]byte("{\"op\":\"objects\"}\n{\n\"kind\": \"List\",\n\"items\": [\n{\"a\": [1,\n2]},\n\"x\\ny\"\n]\n}\n")))
	lines := strings.Split(resp, "\n")
	if len(lines) != 3 || lines[1] != `{"a":[1,2]}` || lines[2] != `"x\ny"` {
		t.Fatalf("got %q", resp)
	}
}

func TestIndent(t *testing.T) {
	got, err := Indent([]byte(` [{"b":1e16,"a":[],"c":{},"s":"<\u2028é\u0001","p":99.90,"n":18446744073709551615,"z":null,"t":true}, 0.0000001]`))
	want := "[\n  {\n    \"b\": 10000000000000000,\n    \"a\": [],\n    \"c\": {},\n    \"s\": \"<\\u2028é\\u0001\",\n    \"p\": 99.9,\n    \"n\": 18446744073709551615,\n    \"z\": null,\n    \"t\": true\n  },\n  1e-7\n]\n"
	if err != nil || string(got) != want {
		t.Fatalf("Indent: %v\n got %q\nwant %q", err, got, want)
	}
	if _, err := Indent([]byte(`{"a":1} 2`)); err == nil {
		t.Fatal("Indent accepted data after the value")
	}
}

// TestDocumentsJSONAsKubectl: text starting with { is JSON, as kubectl reads
// -f: a stream of objects, and an error (not YAML's reading) when it is not JSON.
func TestDocumentsJSONAsKubectl(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
		err  string
	}{
		{`{"a": 1}`, []string{`{"a":1}`}, ""},
		{" {\"a\":1}\n{\"b\":2}\n", []string{`{"a":1}`, `{"b":2}`}, ""},
		{`{"a":NaN}`, nil, "invalid JSON at byte 6"},
		{`{"a":1} x`, nil, "invalid JSON at byte 9"},
		{`{a: 1}`, nil, "invalid JSON at byte 2"},
		{"{\"a\":\"\xff\"}", nil, "JSON document 1 is not UTF-8"},
		{"[1, \"\xff\"]", nil, "JSON that is not UTF-8"},
		{"[1, 2]", []string{`[1,2]`}, ""},
		{"a: 1\n---\nb: [1, 2]\n", []string{`{"a":1}`, `{"b":[1,2]}`}, ""},
	} {
		docs, err := Documents([]byte(c.in))
		var got []string
		for _, d := range docs {
			got = append(got, string(d))
		}
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%q: got %q, %v; want an error with %q", c.in, got, err, c.err)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("%q: got %q, %v; want %q", c.in, got, err, c.want)
		}
	}
}
