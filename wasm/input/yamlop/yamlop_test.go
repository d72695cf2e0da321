package yamlop

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/celwasm/celwasm/wasm/input"
)

// TestYAMLOp: the op answers JSONToYAML's text as one JSON string item, and
// JSON it cannot read as an invalid_input error.
func TestYAMLOp(t *testing.T) {
	resp := string(input.Handle([]byte(`{"op":"yaml"}` + "\n" + `{"b":[1,"x"],"a":{"c":null}}`)))
	lines := strings.Split(strings.TrimSuffix(resp, "\n"), "\n")
	var s string
	if len(lines) != 2 || lines[0] != `{"count":1}` || json.Unmarshal([]byte(lines[1]), &s) != nil || s != "a:\n  c: null\nb:\n- 1\n- x\n" {
		t.Fatalf("response %q", resp)
	}
	if resp := string(input.Handle([]byte(`{"op":"yaml"}` + "\n" + `{"a":`))); !strings.Contains(resp, `"invalid_input"`) {
		t.Fatalf("bad JSON: %q", resp)
	}
}
