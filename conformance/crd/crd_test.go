// Package crd is the differential test of celwasm's CRD validation: every CRD,
// object and update of conformance/testdata/crd/corpus.yaml goes through
// kube-apiserver's own code natively (conformance/crdref: the apiextensions
// scheme, ValidateCustomResourceDefinition, the custom resource strategy with
// rest.BeforeCreate/BeforeUpdate, schema/cel) and through the celwasm module
// (the Go host on wazero), and the answers must be the same: the CRD's errors,
// every rule's estimated cost and cardinality, each object's validity, status,
// field errors, warnings and actual cost.
package crd

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/celwasm/celwasm/conformance/crdref"
	celwasm "github.com/celwasm/celwasm/host"
)

var rt *celwasm.Runtime

func TestMain(m *testing.M) {
	ctx := context.Background()
	var err error
	rt, err = celwasm.New(ctx, celwasm.WithInstances(1))
	if err != nil {
		fmt.Fprintln(os.Stderr, "celwasm:", err)
		os.Exit(1)
	}
	code := m.Run()
	rt.Close(ctx)
	os.Exit(code)
}

// coverage counts what was compared.
type coverage struct {
	crds, schemas, rules, creates, updates, ruleErrors, attributed, warnings, budget int
}

func (c coverage) String() string {
	return fmt.Sprintf("%d CRDs, %d schemas, %d rule cost estimates, %d creates, %d updates, %d rule errors (%d attributed to their rule), %d warnings, %d out of budget",
		c.crds, c.schemas, c.rules, c.creates, c.updates, c.ruleErrors, c.attributed, c.warnings, c.budget)
}

func TestDifferential(t *testing.T) {
	cases, err := crdref.LoadCorpus("../testdata/crd")
	if err != nil {
		t.Fatal(err)
	}
	var total coverage
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			cov := runCase(t, c)
			t.Logf("%s: %s", c.Name, cov)
			total.crds += cov.crds
			total.schemas += cov.schemas
			total.rules += cov.rules
			total.creates += cov.creates
			total.updates += cov.updates
			total.ruleErrors += cov.ruleErrors
			total.attributed += cov.attributed
			total.warnings += cov.warnings
			total.budget += cov.budget
		})
	}
	t.Logf("total: %s", total)
	// The corpus must keep exercising what it was built for.
	if total.crds < 19 || total.rules < 290 || total.creates < 140 || total.updates < 32 || total.ruleErrors < 60 || total.warnings < 3 || total.budget < 2 {
		t.Errorf("the corpus shrank: %s", total)
	}
	if total.attributed != total.ruleErrors {
		t.Errorf("only %d of %d rule errors were attributed to their rule", total.attributed, total.ruleErrors)
	}
}

type crdEntry struct {
	doc crdref.Doc
	ref *crdref.CRD
	crd *celwasm.CRD
}

func runCase(t *testing.T, c *crdref.Case) coverage {
	ctx := context.Background()
	var cov coverage
	docs, err := c.Docs(c.CRDs)
	if err != nil {
		t.Fatal(err)
	}
	byKind := map[[2]string]*crdEntry{}
	for _, d := range docs {
		ref, err := crdref.Load(d.JSON)
		if err != nil {
			t.Fatalf("%s: reference: %v", d.Source, err)
		}
		e := &crdEntry{doc: d, ref: ref, crd: rt.NewCRD(d.JSON)}
		g, k := crdref.GroupKind(d.JSON)
		byKind[[2]string{g, k}] = e
		cov.crds++
		n, m := compareCRD(t, d, e, c.CRDErrors)
		cov.schemas += n
		cov.rules += m
	}
	if c.CRDErrors {
		return cov
	}
	// Creates.
	for _, group := range []struct {
		paths []string
		valid bool
	}{{c.Valid, true}, {c.Invalid, false}} {
		objs, err := c.Docs(group.paths)
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range objs {
			k := crdref.KeyOf(o.JSON)
			e := byKind[[2]string{k.Group, k.Kind}]
			if e == nil {
				continue // a kind without a CRD here (Namespace, Service)
			}
			compareObject(t, ctx, e, o, nil, group.valid, &cov)
			cov.creates++
		}
	}
	// Updates.
	if u := c.Updates; u != nil {
		olds, err := c.Docs([]string{u.Old})
		if err != nil {
			t.Fatal(err)
		}
		oldByKey := map[crdref.Key]crdref.Doc{}
		for _, o := range olds {
			oldByKey[crdref.KeyOf(o.JSON)] = o
		}
		for _, group := range []struct {
			paths []string
			valid bool
		}{{u.Valid, true}, {u.Invalid, false}} {
			objs, err := c.Docs(group.paths)
			if err != nil {
				t.Fatal(err)
			}
			for _, o := range objs {
				k := crdref.KeyOf(o.JSON)
				old, ok := oldByKey[k]
				if !ok {
					t.Fatalf("%s: no stored object %v", o.Source, k)
				}
				compareObject(t, ctx, byKind[[2]string{k.Group, k.Kind}], o, &old, group.valid, &cov)
				cov.updates++
			}
		}
	}
	return cov
}

// compareCRD compares the CRD's errors and every rule's cost estimate.
func compareCRD(t *testing.T, d crdref.Doc, e *crdEntry, wantErrors bool) (schemas, rules int) {
	// For a CRD with errors, kube-apiserver does not compile the rules of a
	// node whose rule fields are invalid; the reference's cost walk does, so
	// only the rules celwasm estimates are compared.
	t.Helper()
	ctx := context.Background()
	rep, err := e.crd.Cost(ctx, "")
	if err != nil {
		t.Fatalf("%s: celwasm cost: %v", d.Source, err)
	}
	// Errors: every celwasm error is one kube-apiserver reports; every error
	// kube-apiserver reports about x-kubernetes-validations is celwasm's.
	native := e.ref.CheckErrors()
	nativeSet := map[string]bool{}
	for _, n := range native {
		nativeSet[n.String()] = true
	}
	var mine []crdref.Cause
	mineSet := map[string]bool{}
	for _, fe := range rep.Errors {
		c := crdref.Cause{Field: fe.Field, Type: fe.Type, Message: fe.Message}
		mine = append(mine, c)
		mineSet[c.String()] = true
		if !nativeSet[c.String()] {
			t.Errorf("%s: celwasm reports a CRD error kube-apiserver does not:\n  %s", d.Source, c)
		}
	}
	for _, n := range native {
		if crdref.IsCELCause(n) && !mineSet[n.String()] {
			t.Errorf("%s: kube-apiserver reports a CRD error celwasm does not:\n  %s", d.Source, n)
		}
	}
	if wantErrors != (len(mine) > 0) || rep.Valid == wantErrors {
		t.Errorf("%s: want CRD errors %v, got valid=%v errors %v", d.Source, wantErrors, rep.Valid, mine)
	}
	if wantErrors {
		// Validation refuses such a CRD, with its field errors.
		_, err := e.crd.Validate(ctx, []celwasm.CRDObject{{Object: []byte(`{"apiVersion":"x/v1","kind":"X"}`)}})
		var ce *celwasm.Error
		var fe *celwasm.CRDFieldErrors
		if !errors.As(err, &ce) || ce.Code != celwasm.CodeInvalidCRD || !errors.As(err, &fe) || len(fe.Errors) != len(rep.Errors) {
			t.Errorf("%s: validate with a rejected CRD: %v", d.Source, err)
		}
	}
	// Costs: the same rules, estimates, cardinalities and totals.
	nativeCosts := e.ref.Costs()
	if len(nativeCosts) != len(rep.Schemas) {
		t.Fatalf("%s: %d schemas, kube-apiserver has %d", d.Source, len(rep.Schemas), len(nativeCosts))
	}
	for i, ns := range nativeCosts {
		ms := rep.Schemas[i]
		schemas++
		if ms.Path != ns.Path {
			t.Errorf("%s: schema %d at %s, kube-apiserver %s", d.Source, i, ms.Path, ns.Path)
			continue
		}
		// A schema kube-apiserver does not compile (not structural) has no costs.
		if !wantErrors && ms.TotalCost != ns.Total {
			t.Errorf("%s %s: total cost %d, kube-apiserver %d", d.Source, ms.Path, ms.TotalCost, ns.Total)
		}
		got := map[string]celwasm.RuleCost{}
		for _, r := range ms.Rules {
			if r.Error == "" {
				got[r.Path] = r
			}
			if r.Error == "" && r.Explanation == nil {
				t.Errorf("%s %s: no explanation", d.Source, r.Path)
			} else if r.Explanation != nil && strings.HasPrefix(r.Explanation.Summary, "cannot explain") {
				t.Errorf("%s %s: %s", d.Source, r.Path, r.Explanation.Summary)
			}
			if r.Exceeds && r.Explanation != nil && len(r.Explanation.Fixes) == 0 && len(r.Explanation.CombinedFix) == 0 && r.Explanation.NoFix == "" {
				t.Errorf("%s %s: over the limit without fixes or a reason why there are none", d.Source, r.Path)
			}
		}
		if !wantErrors && len(got) != len(ns.Rules) {
			t.Errorf("%s %s: %d rules with costs, kube-apiserver %d", d.Source, ms.Path, len(got), len(ns.Rules))
		}
		for path, n := range ns.Rules {
			m, ok := got[path]
			switch {
			case !ok && wantErrors:
			case !ok:
				t.Errorf("%s: no cost for %s", d.Source, path)
			case m.Cost != n.Cost || m.PerCall != n.PerCall || m.Cardinality != n.Cardinality:
				t.Errorf("%s %s: cost %d = %d × %d, kube-apiserver %d = %d × %d", d.Source, path, m.Cost, m.PerCall, m.Cardinality, n.Cost, n.PerCall, n.Cardinality)
			default:
				rules++
			}
		}
	}
	return schemas, rules
}

// compareObject validates one create (old nil) or update both ways.
func compareObject(t *testing.T, ctx context.Context, e *crdEntry, o crdref.Doc, old *crdref.Doc, wantValid bool, cov *coverage) {
	t.Helper()
	var oldJSON []byte
	req := celwasm.CRDObject{Object: o.JSON}
	if old != nil {
		oldJSON = old.JSON
		req.OldObject = old.JSON
	}
	ref, err := e.ref.Validate(o.JSON, oldJSON)
	if err != nil {
		t.Errorf("%s: reference: %v", o.Source, err)
		return
	}
	v, err := e.crd.Validate(ctx, []celwasm.CRDObject{req})
	if err != nil {
		t.Errorf("%s: celwasm: %v", o.Source, err)
		return
	}
	m := v.Results[0]
	if m.Err != nil {
		t.Errorf("%s: celwasm: %v", o.Source, m.Err)
		return
	}
	var causes []crdref.Cause
	for _, fe := range m.Errors {
		causes = append(causes, crdref.Cause{Field: fe.Field, Type: fe.Type, Message: fe.Message})
		if isRuleError(fe.Message) {
			cov.ruleErrors++
			if fe.Rule != nil {
				cov.attributed++
			}
		}
	}
	crdref.SortCauses(causes)
	mw, rw := sorted(m.Warnings), sorted(ref.Warnings)
	cov.warnings += len(mw)
	if m.CostExceeded {
		cov.budget++
	}
	diff := []string{}
	check := func(what string, got, want any) {
		if fmt.Sprint(got) != fmt.Sprint(want) {
			diff = append(diff, fmt.Sprintf("%s: celwasm %v, kube-apiserver %v", what, got, want))
		}
	}
	check("valid", m.Valid, ref.Valid)
	check("reason", m.Reason, ref.Reason)
	check("code", m.Code, ref.Code)
	check("name", m.Name, ref.Name)
	check("namespace", m.Namespace, ref.Namespace)
	check("cost", m.Cost, ref.Cost)
	check("costExceeded", m.CostExceeded, ref.CostExceeded)
	check("celSkipped", m.CELSkipped, ref.CELSkipped)
	check("warnings", mw, rw)
	check("causes", causes, ref.Causes)
	if len(diff) > 0 {
		t.Errorf("%s:\n  %s", o.Source, strings.Join(diff, "\n  "))
	}
	if m.Valid != wantValid {
		t.Errorf("%s: valid=%v, the corpus says %v: %s", o.Source, m.Valid, wantValid, m.Describe())
	}
	if !m.Valid && (m.Message == "" || m.Describe() == "") {
		t.Errorf("%s: invalid without a message", o.Source)
	}
}

// isRuleError reports whether a cause came from x-kubernetes-validations
// rather than the OpenAPI schema or object metadata: rule failures and
// evaluation errors (not the budget, which belongs to no single rule).
func isRuleError(msg string) bool {
	for _, s := range []string{"in body", "Required value", "Unsupported value", "Duplicate value", "Too long", "Too many", "metadata", "RFC 1123", "field is immutable", "some validation rules were not checked", "running out of cost budget", "call cost exceeds limit"} {
		if strings.Contains(msg, s) {
			return false
		}
	}
	return true
}

func sorted(s []string) []string {
	out := append([]string(nil), s...)
	sort.Strings(out)
	return out
}
