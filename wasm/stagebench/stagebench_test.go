package stagebench

import (
	"encoding/json"
	"testing"
)

// TestCaseEval: a case evaluates to true over its activation, again and
// again over the same activation; a case that does not is refused rather
// than timed.
func TestCaseEval(t *testing.T) {
	c := Case{Name: "(b)", Expression: `self.minReplicas <= self.replicas && self.replicas <= self.maxReplicas`, Variable: "self",
		Activation: json.RawMessage(`{"self":{"minReplicas":1,"replicas":3,"maxReplicas":5}}`)}
	eval, err := caseEval(c)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3; i++ {
		if v := eval(); v == nil || v.(interface{ Value() any }).Value() != true {
			t.Fatalf("evaluation %d: %v", i, v)
		}
	}
	c.Activation = json.RawMessage(`{"self":{"minReplicas":4,"replicas":3,"maxReplicas":5}}`)
	if _, err := caseEval(c); err == nil {
		t.Errorf("a case that evaluates to false was accepted")
	}
}
