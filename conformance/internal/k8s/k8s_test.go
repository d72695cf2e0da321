package k8s

import (
	"strings"
	"testing"
)

// TestCoverageGateIsReal: without cases, the gate lists the libraries'
// overloads (so passing it means the cases call each one).
func TestCoverageGateIsReal(t *testing.T) {
	missing := uncovered(map[string]bool{})
	if len(missing) < 150 {
		t.Fatalf("only %d overloads required: %v", len(missing), missing)
	}
	for _, want := range []string{"quantity_add_int", "cidr_contains_ip_string", "string_jsonpatch_escapeKey_string", "authorizer_labelselector", "list_includes_dyn_dyn", "list_int_sort"} {
		found := false
		for _, m := range missing {
			found = found || strings.HasSuffix(m, "/"+want)
		}
		if !found {
			t.Errorf("overload %s is not required", want)
		}
	}
}

func TestSortedKeys(t *testing.T) {
	if err := sortedKeys(`{"a":{"x":1,"y":[{"b":1,"c":2}]},"b":2}`); err != nil {
		t.Error(err)
	}
	for _, bad := range []string{`{"b":1,"a":2}`, `{"a":[{"y":1,"x":2}]}`} {
		if sortedKeys(bad) == nil {
			t.Errorf("%s: unsorted keys accepted", bad)
		}
	}
}

func TestCaseIDs(t *testing.T) {
	c := Case{Lib: "regex", Expr: `'héllo'.find("x")`, Version: "1.30", Stored: true}
	if got, want := c.ID(), `k8s/regex/'h<U+00E9>llo'.find(<U+0022>x<U+0022>) @1.30 stored`; got != want {
		t.Errorf("ID = %s, want %s", got, want)
	}
}
