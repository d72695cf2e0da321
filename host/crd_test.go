package celwasm_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	celwasm "github.com/celwasm/celwasm/host"
)

// gridCRD has a rule on each row of a grid: 20 rows of 250 cells pass
// kube-apiserver's cost estimate, and each row's evaluation stays under the
// per-call limit (about 440,000 cost units), so a full grid costs about
// 8,800,000 of the 10,000,000 budget: over 10 s in the module.
const gridCRD = `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
 "metadata":{"name":"grids.example.com"},
 "spec":{"group":"example.com","scope":"Namespaced","names":{"plural":"grids","singular":"grid","kind":"Grid","listKind":"GridList"},
  "versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object","properties":{
   "spec":{"type":"object","properties":{"rows":{"type":"array","maxItems":20,"items":{"type":"object",
    "x-kubernetes-validations":[{"rule":"self.cells.all(i, self.cells.all(j, i + j >= 0))","message":"negative sum"}],
    "properties":{"cells":{"type":"array","maxItems":250,"items":{"type":"integer"}}}}}}}}}}}]}}`

func gridObject(rows, cells int) json.RawMessage {
	c := make([]string, cells)
	for i := range c {
		c[i] = fmt.Sprint(i)
	}
	row := `{"cells":[` + strings.Join(c, ",") + `]}`
	r := make([]string, rows)
	for i := range r {
		r[i] = row
	}
	return json.RawMessage(`{"apiVersion":"example.com/v1","kind":"Grid","metadata":{"name":"g","namespace":"default"},"spec":{"rows":[` + strings.Join(r, ",") + `]}}`)
}

// TestCRDValidationCancellation: a context deadline stops a long CRD
// validation (the validator's rules check the interrupt flag too), the
// caller gets the context's error, and the instance goes on.
func TestCRDValidationCancellation(t *testing.T) {
	forEachEngine(t, func(t *testing.T, newRT func(...celwasm.Option) *celwasm.Runtime) {
		rt := newRT(celwasm.WithInstances(1))
		crd := rt.NewCRD([]byte(gridCRD))
		// Compile the CRD first, so that the deadline falls in evaluation.
		small, err := crd.Validate(context.Background(), []celwasm.CRDObject{{Object: gridObject(1, 3)}})
		if err != nil || len(small.Results) != 1 || small.Results[0].Invalid() {
			t.Fatalf("small object: %+v %v", small, err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		defer cancel()
		start := time.Now()
		res, err := crd.Validate(ctx, []celwasm.CRDObject{{Object: gridObject(20, 250)}})
		elapsed := time.Since(start)
		if code(err) != celwasm.CodeDeadlineExceeded || !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("got %+v, %v after %v; want deadline_exceeded", res, err, elapsed)
		}
		// Before the validator's rules checked the interrupt flag, this
		// request ran to the end (over 10 s) and returned a result.
		if elapsed > 3*time.Second {
			t.Fatalf("interrupt took %v", elapsed)
		}
		again, err := crd.Validate(context.Background(), []celwasm.CRDObject{{Object: gridObject(2, 5)}})
		if err != nil || again.Results[0].Invalid() {
			t.Fatalf("after the deadline: %+v %v", again, err)
		}
	})
}

// labelsCRD's rules show the order in which CEL walks a map: kube-apiserver
// walks it in Go's map order, the modules in key order (the apiserver
// copy's "cel/common: maps iterated in key order").
const labelsCRD = `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
 "metadata":{"name":"things.example.com"},
 "spec":{"group":"example.com","scope":"Namespaced","names":{"plural":"things","singular":"thing","kind":"Thing","listKind":"ThingList"},
  "versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object","properties":{
   "spec":{"type":"object","properties":{"labels":{"type":"object","maxProperties":10,
    "additionalProperties":{"type":"string","maxLength":10},
    "x-kubernetes-validations":[
     {"rule":"false","messageExpression":"'first key: ' + self.map(k, k)[0]"},
     {"rule":"self.exists(k, k == 'a')"}]}}}}}}}]}}`

// TestCRDRulesIterateMapsInKeyOrder: the same object validated again and
// again gives the same result, with the map's keys walked in sorted order.
func TestCRDRulesIterateMapsInKeyOrder(t *testing.T) {
	obj := json.RawMessage(`{"apiVersion":"example.com/v1","kind":"Thing","metadata":{"name":"t","namespace":"default"},
	 "spec":{"labels":{"q":"1","e":"2","x":"3","a":"4","m":"5","c":"6","z":"7","b":"8"}}}`)
	forEachEngine(t, func(t *testing.T, newRT func(...celwasm.Option) *celwasm.Runtime) {
		_, got := validateAlike(t, newRT(celwasm.WithInstances(1)).NewCRD([]byte(labelsCRD)), obj, 20)
		if !strings.Contains(string(got), "first key: a") {
			t.Fatalf("the map's first key is not its least: %s", got)
		}
	})
}

// validateAlike validates obj n times and fails unless every result has the
// same JSON; it returns the first result and its JSON.
func validateAlike(t *testing.T, crd *celwasm.CRD, obj json.RawMessage, n int) (celwasm.ObjectResult, []byte) {
	t.Helper()
	var first celwasm.ObjectResult
	var firstJSON []byte
	for i := 0; i < n; i++ {
		res, err := crd.Validate(context.Background(), []celwasm.CRDObject{{Object: obj}})
		if err != nil || len(res.Results) != 1 {
			t.Fatalf("validate: %+v %v", res, err)
		}
		got, _ := json.Marshal(res.Results[0])
		if i == 0 {
			first, firstJSON = res.Results[0], got
		} else if string(got) != string(firstJSON) {
			t.Fatalf("call %d:\n%s\nthen\n%s", i, firstJSON, got)
		}
	}
	return first, firstJSON
}

// budgetCRD: twenty strings whose rules each cost about a sixteenth of the
// object's runtime cost budget (a regular expression's cost grows with its
// length and the string's, its time much less: the long alternative fails
// at its first character), so the budget runs out part-way through spec.
func budgetCRD() []byte {
	props := make([]string, 0, 20)
	for c := 'a'; c < 'a'+20; c++ {
		props = append(props, fmt.Sprintf(`"%c":{"type":"string","maxLength":%d,
		 "x-kubernetes-validations":[{"rule":"self.matches('^(ab|%s)*$')"}]}`, c, budgetString, strings.Repeat("z", 1000)))
	}
	return []byte(`{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
	 "metadata":{"name":"budgets.example.com"},
	 "spec":{"group":"example.com","scope":"Namespaced","names":{"plural":"budgets","singular":"budget","kind":"Budget","listKind":"BudgetList"},
	  "versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object","properties":{
	   "spec":{"type":"object","properties":{` + strings.Join(props, ",") + `}}}}}}]}}`)
}

const budgetString = 24000

// TestCRDBudgetRunsOutInKeyOrder: when an object's rules spend the cost
// budget, the rules that ran are those of its first fields in key order (the
// apiextensions-apiserver copy's "schema/cel: fields validated in key
// order"), so the same object gives the same errors and cost every time.
func TestCRDBudgetRunsOutInKeyOrder(t *testing.T) {
	value := `"` + strings.Repeat("ab", budgetString/2) + `"`
	fields := make([]string, 0, 20)
	for c := 'a' + 19; c >= 'a'; c-- {
		fields = append(fields, fmt.Sprintf(`"%c":%s`, c, value))
	}
	obj := json.RawMessage(`{"apiVersion":"example.com/v1","kind":"Budget","metadata":{"name":"b","namespace":"default"},
	 "spec":{` + strings.Join(fields, ",") + `}}`)
	forEachEngine(t, func(t *testing.T, newRT func(...celwasm.Option) *celwasm.Runtime) {
		r, got := validateAlike(t, newRT(celwasm.WithInstances(1)).NewCRD(budgetCRD()), obj, 5)
		// Each rule costs 607,200 (2,400 for the string's length times 253
		// for the expression's): sixteen fit in the budget, so the seventeenth
		// field in key order, q, is where it runs out.
		if !r.CostExceeded || len(r.Errors) != 1 || r.Errors[0].Field != "spec.q" ||
			!strings.Contains(r.Errors[0].Message, "running out of cost budget") {
			t.Fatalf("want the budget to run out at spec.q: %s", got)
		}
		t.Logf("cost %d; %s: %s", r.Cost, r.Errors[0].Field, r.Errors[0].Message)
	})
}
