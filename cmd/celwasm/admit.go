package main

// celwasm admit: ValidatingAdmissionPolicy and MutatingAdmissionPolicy
// offline, through the admission module's celwasm_admit export.

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"sort"
	"strings"

	"sigs.k8s.io/yaml"

	celwasm "github.com/celwasm/celwasm/host"
)

const admitUsage = `Usage: celwasm admit -f FILE [-f FILE]... [--old OLD.yaml] [--operation CREATE|UPDATE|DELETE|CONNECT]
                    [--user NAME] [--group G]... [--namespace-name NS] [-o text|json] OBJECT.yaml...

Admits objects as kube-apiserver's admission chain would: every
MutatingAdmissionPolicy, then every ValidatingAdmissionPolicy, with their
bindings, params, match constraints and conditions, variables, messages,
audit annotations and validation actions (k8s.io/apiserver's admission
plugins). The -f files hold policies, bindings, params (ConfigMaps, custom
resources), Namespaces, CRDs (the kinds they serve) and RBAC objects (what
the authorizer variable answers), as multi-document YAML, kind: List, or
JSON, as kubectl apply -f takes them. Policies are defaulted and validated as
when they are created.

The operation is CREATE, or UPDATE for objects with an old object of the same
kind, namespace and name in --old. For DELETE, OBJECT.yaml is the object
being deleted. The user (default kubernetes-admin in system:masters) is
given with all their groups.

-o json prints one object per input object: {"allowed", "message",
"warnings", "auditAnnotations", "patchedObject"} (plus "reason" and "code"
when denied).

Exit status: 0 if every object is admitted, 1 if any is denied or a policy is
invalid (what kube-apiserver would refuse to create), 2 on bad usage or
unreadable input.

Flags:
`

func cmdAdmit(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("celwasm admit", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, admitUsage); fs.PrintDefaults() }
	var files, oldFiles, groups multiFlag
	fs.Var(&files, "f", "a `file` with policies, bindings, params, namespaces, CRDs and RBAC objects; repeatable")
	fs.Var(&oldFiles, "old", "a `file` with the stored objects: an object with the same kind, namespace and name is admitted as an UPDATE of it; repeatable")
	operation := fs.String("operation", "", "CREATE, UPDATE, DELETE or CONNECT (default CREATE, UPDATE with an old object)")
	userName := fs.String("user", "", "the requesting user (default kubernetes-admin, groups system:masters and system:authenticated)")
	fs.Var(&groups, "group", "a `group` of the user; repeatable")
	namespace := fs.String("namespace-name", "", "the namespace of namespaced objects without metadata.namespace (default \"default\")")
	compat := fs.String("compatibility-version", "", "the Kubernetes compatibility `version` of the policies' CEL environment, e.g. 1.36 (default kube-apiserver 1.37's)")
	output := fs.String("o", "text", "output: text (kubectl's messages) or json")
	engine := fs.String("engine", defaultEngine, engineUsage)
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	op := strings.ToUpper(*operation)
	switch {
	case len(files) == 0 || fs.NArg() == 0:
		fmt.Fprintln(stderr, "celwasm admit: -f and at least one object file are required")
		return exitUsage
	case *output != "text" && *output != "json":
		fmt.Fprintln(stderr, "celwasm admit: -o is text or json")
		return exitUsage
	case op != "" && op != "CREATE" && op != "UPDATE" && op != "DELETE" && op != "CONNECT":
		fmt.Fprintf(stderr, "celwasm admit: --operation %q: want CREATE, UPDATE, DELETE or CONNECT\n", *operation)
		return exitUsage
	}
	if !checkEngine(stderr, "admit", *engine) {
		return exitUsage
	}
	req := &celwasm.AdmitRequest{User: *userName, Groups: groups, CompatibilityVersion: *compat}
	for _, f := range files {
		objs, err := readObjects(f, stdin)
		if err != nil {
			fmt.Fprintln(stderr, "celwasm admit:", err)
			return exitUsage
		}
		for _, o := range objs {
			req.Documents = append(req.Documents, o.doc)
		}
	}
	olds, err := readOlds(oldFiles, stdin)
	if err != nil {
		fmt.Fprintln(stderr, "celwasm admit:", err)
		return exitUsage
	}
	type item struct {
		object
		file string
	}
	var items []item
	for _, f := range fs.Args() {
		objs, err := readObjects(f, stdin)
		if err != nil {
			fmt.Fprintln(stderr, "celwasm admit:", err)
			return exitUsage
		}
		for _, o := range objs {
			it := celwasm.AdmitItem{Operation: op, Object: o.doc, Namespace: *namespace}
			k, _ := keyOf(o)
			if op == "" || op == "UPDATE" {
				it.OldObject = olds[k]
				if it.OldObject == nil && k.namespace == "" {
					k.namespace = *namespace
					if k.namespace == "" {
						k.namespace = "default"
					}
					it.OldObject = olds[k]
				}
			}
			if op == "DELETE" {
				it.Object, it.OldObject = nil, o.doc
			}
			req.Requests = append(req.Requests, it)
			items = append(items, item{o, f})
		}
	}
	rt, err := newRuntime(ctx, *engine, stderr)
	if err != nil {
		return report(stderr, err)
	}
	defer release(ctx, rt)
	resp, err := rt.Admit(ctx, req)
	if err != nil {
		var ce *celwasm.Error
		if errors.As(err, &ce) && (ce.Code == celwasm.CodeInvalidPolicy || ce.Code == celwasm.CodeBadRequest || ce.Code == celwasm.CodeInvalidObject) {
			fmt.Fprintln(stderr, "error:", ce.Message)
			var fe *celwasm.CRDFieldErrors
			if errors.As(err, &fe) {
				for _, e := range fe.Errors {
					fmt.Fprintf(stderr, "* %s: %s\n", e.Field, e.Message)
				}
			}
			if ce.Code != celwasm.CodeInvalidPolicy {
				return exitUsage
			}
			return exitError
		}
		return report(stderr, err)
	}
	for _, w := range resp.Warnings {
		fmt.Fprintln(stderr, "Warning:", w)
	}
	status := exitOK
	for _, r := range resp.Results {
		if !r.Allowed {
			status = exitError
		}
	}
	if *output == "json" {
		writeJSON(stdout, resp.Results)
		return status
	}
	for i, r := range resp.Results {
		it := items[i]
		verb := map[string]string{"": "created", "CREATE": "created", "UPDATE": "configured", "DELETE": "deleted", "CONNECT": "connected"}[op]
		if op == "" && req.Requests[i].OldObject != nil {
			verb = "configured"
		}
		for _, w := range r.Warnings {
			fmt.Fprintln(stderr, "Warning:", w)
		}
		if !r.Allowed {
			reason := r.Reason
			if reason == "" {
				reason = "Forbidden"
			}
			gerund := map[string]string{"created": "creating", "configured": "updating", "deleted": "deleting", "connected": "connecting"}[verb]
			fmt.Fprintf(stdout, "Error from server (%s): error when %s %q: %s\n", reason, gerund, it.file, r.Message)
			continue
		}
		fmt.Fprintf(stdout, "%s %s\n", resourceName(it.object), verb)
		for _, k := range sortedKeys(r.AuditAnnotations) {
			fmt.Fprintf(stdout, "  audit annotation %s: %s\n", k, r.AuditAnnotations[k])
		}
		if string(r.PatchedObject) != "null" && len(r.PatchedObject) > 0 {
			y, err := yaml.JSONToYAML(r.PatchedObject)
			if err == nil {
				fmt.Fprintln(stdout, "  mutated by admission to:")
				for _, l := range strings.Split(strings.TrimRight(string(y), "\n"), "\n") {
					fmt.Fprintln(stdout, "    "+l)
				}
			}
		}
	}
	return status
}

// resourceName is kubectl's name of an object: kind.group/name, lower case.
func resourceName(o object) string {
	kind := strings.ToLower(o.info.Kind)
	if g := o.info.Group; g != "" && strings.Contains(g, ".") || g == "apps" || g == "batch" || g == "policy" || g == "autoscaling" {
		kind += "." + strings.Split(g, "/")[0]
	}
	return kind + "/" + o.info.Name
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
