package main

// celwasm validate and celwasm cost: CustomResourceDefinition validation
// offline, through the module's celwasm_validate and celwasm_cost exports.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/celwasm/celwasm/wire"

	celwasm "github.com/celwasm/celwasm/host"
	cliinput "github.com/celwasm/celwasm/wasm/input"
)

const validateUsage = `Usage: celwasm validate --crd CRD.yaml [--old OLD.yaml] [flags] OBJECT.yaml...

Validates custom resources as kube-apiserver would on create (or, with --old,
on update): pruning, defaulting, object metadata, the OpenAPI schema and every
x-kubernetes-validations rule, with transition rules and cost budgets. Files
hold YAML (several documents, kind: List expanded) or JSON; "-" is stdin.
Each object is checked against the CRD of its group and kind (--crd may be
given several times, a file may hold several CRDs). With --old, an object
replaces the old object of the same kind, namespace and name (an update);
objects without one are creates.

Exit status: 0 if every object is valid, 1 if any is invalid (or the CRD
would be rejected), 2 on bad usage or unreadable input.

Flags:
`

const costUsage = `Usage: celwasm cost --crd CRD.yaml [--version V] [flags]

Reports the estimated cost of every x-kubernetes-validations rule and
messageExpression against kube-apiserver's limits (10,000,000 per rule,
100,000,000 per schema), where it comes from (the lists above the rule that
multiply how often it runs, the lists, maps and strings it reads, its
calls), and for rules over a limit the maxItems/maxLength/maxProperties
that would bring them under.

Exit status: 0 if the CRD's rules compile and fit the limits, 1 otherwise,
2 on bad usage or unreadable input.

Flags:
`

// crdDoc is a decoded CRD document with what objects are matched by.
type crdDoc struct {
	json  []byte
	name  string
	group string
	kind  string
	file  string
}

// object is a document of an object file with its identity.
type object struct {
	doc  []byte
	info cliinput.ObjectInfo
}

// readCRDs reads the CustomResourceDefinitions in the files (other
// documents are an error).
func readCRDs(files []string, stdin io.Reader) ([]crdDoc, error) {
	var out []crdDoc
	for _, f := range files {
		objs, err := readObjects(f, stdin)
		if err != nil {
			return nil, err
		}
		for _, o := range objs {
			if o.info.CRD == nil {
				return nil, fmt.Errorf("%s: %s", f, o.info.CRDError)
			}
			out = append(out, crdDoc{json: o.doc, name: o.info.CRD.Name, group: o.info.CRD.Group, kind: o.info.CRD.Kind, file: f})
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no CustomResourceDefinition in %s", strings.Join(files, ", "))
	}
	return out, nil
}

// readObjects reads the JSON documents of a file ("-": stdin), expanding
// kind: List (wasm/input, shared with the other CLIs through the module).
func readObjects(file string, stdin io.Reader) ([]object, error) {
	var r io.Reader = stdin
	if file != "-" {
		f, err := os.Open(file)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		r = f
	}
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	docs, err := cliinput.Objects(data)
	if err != nil {
		return nil, errors.New(notJSONOrYAML(file, err))
	}
	out := make([]object, len(docs))
	for i, d := range docs {
		out[i] = object{doc: d, info: cliinput.Info(d)}
	}
	return out, nil
}

// objectKey identifies an object: group, kind, namespace, name.
type objectKey struct{ group, kind, namespace, name string }

// readOlds reads the stored objects of --old files by identity.
func readOlds(files []string, stdin io.Reader) (map[objectKey][]byte, error) {
	olds := map[objectKey][]byte{}
	for _, f := range files {
		objs, err := readObjects(f, stdin)
		if err != nil {
			return nil, err
		}
		for _, o := range objs {
			if k, ok := keyOf(o); ok {
				olds[k] = o.doc
			}
		}
	}
	return olds, nil
}

func keyOf(o object) (objectKey, bool) {
	return objectKey{o.info.Group, o.info.Kind, o.info.Namespace, o.info.Name}, o.info.KeyOK
}

func cmdValidate(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("celwasm validate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, validateUsage); fs.PrintDefaults() }
	var crdFiles, oldFiles multiFlag
	fs.Var(&crdFiles, "crd", "a `file` with CustomResourceDefinitions (YAML or JSON); repeatable")
	fs.Var(&oldFiles, "old", "a `file` with the stored objects: an object with the same kind, namespace and name is validated as an update of it; repeatable")
	version := fs.String("version", "", "validate against this `version` of the CRD: objects of other versions are converted as without a conversion webhook (default: each object's apiVersion)")
	output := fs.String("o", "text", "output: text (kubectl's messages) or json (the module's results)")
	showRules := fs.Bool("show-rules", false, "name the x-kubernetes-validations rule under each error it produced")
	engine := fs.String("engine", defaultEngine, engineUsage)
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	if len(crdFiles) == 0 || fs.NArg() == 0 || (*output != "text" && *output != "json") {
		fmt.Fprintln(stderr, "celwasm validate: --crd and at least one object file are required; -o is text or json")
		return exitUsage
	}
	if !checkEngine(stderr, "validate", *engine) {
		return exitUsage
	}
	crds, err := readCRDs(crdFiles, stdin)
	if err != nil {
		fmt.Fprintln(stderr, "celwasm validate:", err)
		return exitUsage
	}
	olds, err := readOlds(oldFiles, stdin)
	if err != nil {
		fmt.Fprintln(stderr, "celwasm validate:", err)
		return exitUsage
	}
	// Objects in input order, grouped per CRD for the module.
	type item struct {
		object
		old  []byte
		crd  int // index into crds, -1: none
		file string
	}
	var items []item
	for _, f := range fs.Args() {
		objs, err := readObjects(f, stdin)
		if err != nil {
			fmt.Fprintln(stderr, "celwasm validate:", err)
			return exitUsage
		}
		for _, o := range objs {
			it := item{object: o, crd: -1, file: f}
			k, _ := keyOf(o)
			for i, c := range crds {
				if c.group == k.group && c.kind == k.kind {
					it.crd = i
					break
				}
			}
			if it.crd >= 0 {
				it.old = lookupOld(olds, k, crds[it.crd])
			}
			items = append(items, it)
		}
	}
	rt, err := newRuntime(ctx, *engine, stderr)
	if err != nil {
		return report(stderr, err)
	}
	defer release(ctx, rt)
	results := make([]*celwasm.ObjectResult, len(items))
	var opts []celwasm.ValidateOption
	if *version != "" {
		opts = append(opts, celwasm.Version(*version))
	}
	status := exitOK
	for ci, c := range crds {
		var batch []celwasm.CRDObject
		var idx []int
		for i, it := range items {
			if it.crd == ci {
				batch = append(batch, celwasm.CRDObject{Object: it.doc, OldObject: it.old})
				idx = append(idx, i)
			}
		}
		// A CRD no object names is still checked: its errors are reported.
		v, err := rt.NewCRD(c.json).Validate(ctx, batch, opts...)
		if err != nil {
			status = exitError
			printCRDError(stderr, c, err)
			continue
		}
		for _, w := range v.CRD.Warnings {
			fmt.Fprintf(stderr, "Warning: %s: %s\n", c.name, w)
		}
		for j, r := range v.Results {
			r := r
			results[idx[j]] = &r
		}
	}
	var jsonOut []any
	for i, it := range items {
		r := results[i]
		if it.crd < 0 {
			k, _ := keyOf(it.object)
			msg := fmt.Sprintf("%s: no CustomResourceDefinition for kind %q in group %q", it.file, k.kind, k.group)
			if it.info.NotObject != "" || len(bytes.TrimSpace(it.doc)) == 0 {
				msg = fmt.Sprintf("%s: a document is not an object: %s", it.file, it.info.NotObject)
			}
			status = exitError
			if *output == "json" {
				jsonOut = append(jsonOut, map[string]any{"error": map[string]string{"code": celwasm.CodeInvalidObject, "message": msg}})
			} else {
				fmt.Fprintln(stdout, "error: "+msg)
			}
			continue
		}
		if r == nil {
			continue // the CRD failed; reported above
		}
		if r.Invalid() {
			status = exitError
		}
		if *output == "json" {
			jsonOut = append(jsonOut, r)
			continue
		}
		printResult(stdout, it.file, crds[it.crd], r, *showRules)
	}
	if *output == "json" {
		if jsonOut == nil {
			jsonOut = []any{}
		}
		writeJSON(stdout, jsonOut)
	}
	return status
}

// writeJSON writes v as -o json does on every CLI (wasm/input's Indent:
// Go's indenting json.Encoder without HTML escaping).
func writeJSON(w io.Writer, v any) {
	b, err := json.Marshal(v)
	if err == nil {
		b, err = cliinput.Indent(b)
	}
	if err != nil {
		fmt.Fprintln(w, "error:", err)
		return
	}
	w.Write(b)
}

// lookupOld finds the stored object an object replaces (a namespaced
// object without a namespace is in "default", as kubectl sends it).
func lookupOld(olds map[objectKey][]byte, k objectKey, c crdDoc) []byte {
	if old, ok := olds[k]; ok {
		return old
	}
	alt := k
	switch k.namespace {
	case "":
		alt.namespace = "default"
	case "default":
		alt.namespace = ""
	}
	return olds[alt]
}

func printCRDError(w io.Writer, c crdDoc, err error) {
	var ce *celwasm.Error
	var fe *celwasm.CRDFieldErrors
	if errors.As(err, &fe) {
		head := fmt.Sprintf("The CustomResourceDefinition %q is invalid: ", c.name)
		if len(fe.Errors) == 1 {
			fmt.Fprintln(w, head+fe.Errors[0].String())
			return
		}
		fmt.Fprintln(w, head)
		for _, e := range fe.Errors {
			fmt.Fprintln(w, "* "+e.String())
		}
		return
	}
	if errors.As(err, &ce) {
		fmt.Fprintf(w, "error: %s: %s: %s\n", c.file, ce.Code, ce.Message)
		return
	}
	fmt.Fprintf(w, "error: %s: %v\n", c.file, err)
}

func printResult(w io.Writer, file string, c crdDoc, r *celwasm.ObjectResult, showRules bool) {
	if r.Err != nil {
		fmt.Fprintf(w, "error: %s: %s\n", file, r.Err.Message)
		return
	}
	ref := strings.ToLower(r.Kind) + "." + r.Group + "/" + r.Name
	where := ""
	if r.Namespace != "" {
		where = " in " + r.Namespace
	}
	cost := fmt.Sprintf("rule cost %s", wire.GroupDigits(r.Cost))
	switch {
	case r.CostExceeded:
		cost = "rule cost limit exceeded"
	case r.CELSkipped:
		cost = "rules not run"
	}
	state := "valid"
	if !r.Valid {
		state = "invalid"
	}
	fmt.Fprintf(w, "%s%s: %s (%s, %s)\n", ref, where, state, r.Operation, cost)
	for _, warn := range r.Warnings {
		fmt.Fprintln(w, "Warning: "+warn)
	}
	if r.Valid {
		return
	}
	fmt.Fprintln(w, r.Describe())
	if showRules {
		for _, e := range r.Errors {
			if e.Rule != nil {
				fmt.Fprintf(w, "  %s: rule %q (%s)\n", e.Field, e.Rule.Rule, e.Rule.SchemaPath)
			}
		}
	}
}

func cmdCost(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("celwasm cost", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, costUsage); fs.PrintDefaults() }
	var crdFiles multiFlag
	fs.Var(&crdFiles, "crd", "a `file` with CustomResourceDefinitions (YAML or JSON); repeatable")
	version := fs.String("version", "", "report only this `version`'s schema (default: every version)")
	output := fs.String("o", "text", "output: text or json (the module's report)")
	verbose := fs.Bool("v", false, "explain every rule, not only those over a limit")
	engine := fs.String("engine", defaultEngine, engineUsage)
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	if len(crdFiles) == 0 || fs.NArg() > 0 || (*output != "text" && *output != "json") {
		fmt.Fprintln(stderr, "celwasm cost: --crd is required and takes no arguments; -o is text or json")
		return exitUsage
	}
	if !checkEngine(stderr, "cost", *engine) {
		return exitUsage
	}
	crds, err := readCRDs(crdFiles, stdin)
	if err != nil {
		fmt.Fprintln(stderr, "celwasm cost:", err)
		return exitUsage
	}
	rt, err := newRuntime(ctx, *engine, stderr)
	if err != nil {
		return report(stderr, err)
	}
	defer release(ctx, rt)
	status := exitOK
	var reports []*celwasm.CRDCostReport
	for _, c := range crds {
		rep, err := rt.NewCRD(c.json).Cost(ctx, *version)
		if err != nil {
			printCRDError(stderr, c, err)
			status = exitError
			continue
		}
		if !rep.Valid {
			status = exitError
		}
		if *output == "json" {
			reports = append(reports, rep)
			continue
		}
		printCost(stdout, rep, *verbose)
	}
	if *output == "json" {
		if reports == nil {
			reports = []*celwasm.CRDCostReport{}
		}
		writeJSON(stdout, reports)
	}
	return status
}

func printCost(w io.Writer, rep *celwasm.CRDCostReport, verbose bool) {
	fmt.Fprintf(w, "CustomResourceDefinition %s\n", rep.CRD.Name)
	for _, sc := range rep.Schemas {
		over := ""
		if sc.TotalCost > sc.TotalLimit {
			over = "  EXCEEDS"
		}
		fmt.Fprintf(w, "\n%s (versions %s): total estimated cost %s of %s%s\n", sc.Path, strings.Join(sc.Versions, ", "), wire.FormatCost(sc.TotalCost), wire.GroupDigits(sc.TotalLimit), over)
		if len(sc.Rules) == 0 {
			fmt.Fprintln(w, "  no x-kubernetes-validations")
			continue
		}
		prefix := sc.Path + "."
		for _, rc := range sc.Rules {
			where := rc.Node
			if where == "" {
				where = "(root)"
			}
			kind := ""
			if rc.Kind == "messageExpression" {
				kind = " messageExpression"
			}
			mark := ""
			if rc.Exceeds {
				mark = "  EXCEEDS " + wire.GroupDigits(rc.Limit)
			}
			path := strings.TrimPrefix(rc.Path, prefix)
			if rc.Error != "" {
				fmt.Fprintf(w, "  %14s  %s%s  %s\n      %s\n      does not compile: %s\n", "-", where, kind, path, rc.Expression, strings.ReplaceAll(rc.Error, "\n", "\n      "))
				continue
			}
			fmt.Fprintf(w, "  %14s  %s%s  %s%s\n      %s\n", wire.FormatCost(rc.Cost), where, kind, path, mark, rc.Expression)
			if rc.Explanation != nil && (verbose || rc.Exceeds || len(rc.Explanation.Fixes) > 0 || len(rc.Explanation.CombinedFix) > 0 || rc.Explanation.NoFix != "") {
				printExplanation(w, rc.Explanation)
			}
		}
	}
	if !rep.Valid {
		fmt.Fprintln(w)
		head := fmt.Sprintf("The CustomResourceDefinition %q is invalid: ", rep.CRD.Name)
		if len(rep.Errors) == 1 {
			fmt.Fprintln(w, head+rep.Errors[0].String())
		} else {
			fmt.Fprintln(w, head)
			for _, e := range rep.Errors {
				fmt.Fprintln(w, "* "+e.String())
			}
		}
	}
}

func printExplanation(w io.Writer, e *celwasm.CostExplanation) {
	fmt.Fprintf(w, "      %s\n", e.Summary)
	for _, r := range e.Runs {
		fmt.Fprintf(w, "      runs once per %s of %s: %s\n", element(r.Kind), r.Path, boundText(r, "times"))
	}
	for _, s := range e.Sizes {
		fmt.Fprintf(w, "      reads %s %s: %s\n", s.Kind, s.Path, boundText(s, unit(s.Kind)))
	}
	for _, u := range e.UnknownSizes {
		fmt.Fprintf(w, "      unbounded size: %s (passed to %s, at %d:%d)\n", u.Expression, u.Function, u.Line, u.Column)
	}
	calls := e.Calls
	if len(calls) > 5 {
		calls = calls[:5]
	}
	for _, c := range calls {
		fmt.Fprintf(w, "      %5.1f%%  %s  %s (at %d:%d)\n", c.Percent, c.Function, c.Expression, c.Line, c.Column)
	}
	for _, f := range e.Fixes {
		fmt.Fprintf(w, "      fix: %s ≤ %d on %s%s (estimated cost then %s)\n", f.Set, f.Value, f.Path, currentText(f.Current), wire.FormatCost(f.Cost))
	}
	if len(e.CombinedFix) > 0 {
		var parts []string
		for _, f := range e.CombinedFix {
			parts = append(parts, fmt.Sprintf("%s ≤ %d on %s", f.Set, f.Value, f.Path))
		}
		fmt.Fprintf(w, "      fix (together): %s (estimated cost then %s)\n", strings.Join(parts, ", "), wire.FormatCost(e.CombinedFix[len(e.CombinedFix)-1].Cost))
	}
	if e.NoFix != "" {
		fmt.Fprintf(w, "      %s\n", e.NoFix)
	}
}

func element(kind string) string {
	if kind == "map" {
		return "entry"
	}
	return "item"
}

func unit(kind string) string {
	switch kind {
	case "list":
		return "items"
	case "map":
		return "entries"
	}
	return "bytes"
}

func boundText(n celwasm.BoundNode, unit string) string {
	switch {
	case n.Bound != nil:
		return fmt.Sprintf("%s %d → up to %s %s", n.BoundName, *n.Bound, wire.GroupDigits(n.MaxSize), unit)
	case n.BoundName == "enum":
		return fmt.Sprintf("enum → up to %s %s", wire.GroupDigits(n.MaxSize), unit)
	case n.FromRequestSize && n.BoundName != "":
		return fmt.Sprintf("no %s → up to %s %s (what fits in a 3 MiB request)", n.BoundName, wire.GroupDigits(n.MaxSize), unit)
	case n.FromRequestSize:
		return fmt.Sprintf("up to %s %s (what fits in a 3 MiB request)", wire.GroupDigits(n.MaxSize), unit)
	}
	return fmt.Sprintf("up to %s %s", wire.GroupDigits(n.MaxSize), unit)
}

func currentText(cur *int64) string {
	if cur == nil {
		return ""
	}
	return fmt.Sprintf(" (now %d)", *cur)
}
