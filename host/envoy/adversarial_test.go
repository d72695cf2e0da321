package envoy_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/celwasm/celwasm/conformance/adversarial"
	"github.com/celwasm/celwasm/host/envoy"
)

// The adversarial corpus (conformance/adversarial) through Envoy: every case
// that fits a filter rule becomes one, guarded by the x-case header so that
// a request runs that case alone. A rule reading the corpus' self reads the
// x-self header (cases whose document cannot be a header value, or that set
// their own cost limit, are left to the other hosts). Outcomes: a true
// result denies with 418, false reaches the backend, an evaluation error or
// the cost limit fails closed with 503. Cases that do not compile are pushed
// as configurations Envoy must refuse, the running listeners unharmed.
type envoyCase struct {
	id, self string
	status   int
}

// adversarialPolicy is the listener's plugin configuration, the requests
// that run its cases and the cases whose configuration Envoy must refuse.
func adversarialPolicy() (policy string, cases []envoyCase, refused []adversarial.Case) {
	all, err := adversarial.Load()
	if err != nil {
		panic(err)
	}
	type rule struct {
		Name       string `json:"name"`
		Expression string `json:"expression"`
		Action     string `json:"action"`
		Status     int    `json:"status"`
		Body       string `json:"body"`
	}
	var rules []rule
	for _, c := range all[1:] {
		if c.CostLimit != 0 || len(c.Variables) > 1 || (len(c.Variables) == 1 && c.Variables["self"] != "dyn") {
			continue
		}
		var self string
		if len(c.Variables) == 1 {
			// A JSON string document becomes the header value.
			doc := strings.TrimSuffix(strings.TrimPrefix(string(c.Activation), `{"self":`), "}")
			if err := json.Unmarshal([]byte(doc), &self); err != nil || len(self) > 8<<10 || strings.ContainsAny(self, "\x00\r\n") {
				continue
			}
		}
		if c.Expect.Error == "invalid_activation" {
			continue // about reading a JSON document, which a header is not
		}
		if c.Expect.Error == "compile_error" {
			if len(c.Variables) == 0 {
				refused = append(refused, c)
			}
			continue
		}
		expr := strings.ReplaceAll(string(c.Expression), "self", "request.headers['x-self']")
		status := 0
		switch {
		case c.Expect.Error != "":
			expr = "dyn(" + expr + ") != null" // a bool, whatever the type
			status = 503
		case string(c.Expect.Value) == "true":
			status = 418
		case string(c.Expect.Value) == "false":
			status = 200
		default:
			var v struct{ Int string }
			if json.Unmarshal(c.Expect.Value, &v) != nil || v.Int == "" {
				continue
			}
			expr = "(" + expr + ") == " + v.Int
			status = 418
		}
		rules = append(rules, rule{Name: c.ID, Expression: fmt.Sprintf("'x-case' in request.headers && request.headers['x-case'] == %q && (%s)", c.ID, expr),
			Action: "deny", Status: 418, Body: c.ID})
		cases = append(cases, envoyCase{id: c.ID, self: self, status: status})
	}
	b, _ := json.Marshal(map[string]any{"rules": rules, "defaults": map[string]any{"action": "allow"},
		"onError": map[string]any{"action": "deny", "status": 503, "body": "policy error\n"}})
	return string(b), cases, refused
}

func TestEnvoyAdversarialCorpus(t *testing.T) {
	_, cases, refused := adversarialPolicy()
	if len(cases) < 6 || len(refused) < 5 {
		t.Fatalf("only %d cases and %d refused configurations fit the filter", len(cases), len(refused))
	}
	t.Logf("%d corpus cases as rules of one listener, %d as configurations Envoy must refuse", len(cases), len(refused))
	for _, c := range cases {
		h := map[string][]string{"X-Case": {c.id}}
		if c.self != "" {
			h["X-Self"] = []string{c.self}
		}
		r := do(t, "GET", shared.URL("adversarial")+"/x", h, "")
		if r.status != c.status {
			t.Errorf("%s: status %d %q, want %d", c.id, r.status, r.body, c.status)
		}
		// The filter still answers: a request no rule matches reaches the backend.
		if r := do(t, "GET", shared.URL("adversarial")+"/after", nil, ""); r.status != 200 || r.echo == nil {
			t.Fatalf("after %s: %d %q", c.id, r.status, r.body)
		}
	}
	for _, c := range refused {
		rule, _ := json.Marshal(map[string]any{"rules": []map[string]any{{"name": c.ID, "expression": string(c.Expression), "action": "deny"}}})
		err := shared.Update(append(append([]envoy.Listener{}, baseListeners...), envoy.Listener{Name: "refused", Plugin: string(rule)}))
		if err == nil {
			t.Errorf("%s: Envoy accepted the listener", c.ID)
		} else if want := `rule "` + c.ID + `": compile_error`; !shared.WaitLog("error", want) {
			t.Errorf("%s: %q is not in Envoy's log", c.ID, want)
		}
	}
	if err := shared.Update(baseListeners); err != nil {
		t.Fatal(err)
	}
	if r := do(t, "GET", shared.URL("adversarial")+"/after", nil, ""); r.status != 200 {
		t.Errorf("after the refused updates: %d %q", r.status, r.body)
	}
}
