package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const admDemo = td + "/admission/demo"

// TestAdmitDemo: kubectl's lines for an admitted (and mutated) object and a
// denied one, the Warn binding's warning on stderr, exit 1; -o json has one
// result per object with the shape the contract names.
func TestAdmitDemo(t *testing.T) {
	out, errOut, code := cli(t, "", "admit", "-f", admDemo+"/policies.yaml", admDemo+"/deployments.yaml")
	if code != exitError {
		t.Fatalf("exit %d, want 1\n%s%s", code, out, errOut)
	}
	for _, want := range []string{
		"deployment.apps/web created\n",
		"    revisionHistoryLimit: 3\n",
		`Error from server (Invalid): error when creating "` + admDemo + `/deployments.yaml": deployments.apps "nginx" is forbidden: ValidatingAdmissionPolicy 'replica-limit.example.com' with binding 'replica-limit-test.example.com' denied request: object.spec.replicas must be no greater than 3` + "\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("stdout lacks %q:\n%s", want, out)
		}
	}
	if want := "Warning: Validation failed for ValidatingAdmissionPolicy 'require-team-label.example.com' with binding 'require-team-label-warn.example.com': every Deployment needs a team label\n"; !strings.Contains(errOut, want) {
		t.Errorf("stderr lacks %q:\n%s", want, errOut)
	}

	out, _, code = cli(t, "", "admit", "-o", "json", "-f", admDemo+"/policies.yaml", admDemo+"/deployments.yaml")
	var results []map[string]json.RawMessage
	if err := json.Unmarshal([]byte(out), &results); err != nil || code != exitError || len(results) != 2 {
		t.Fatalf("-o json: exit %d, %v\n%s", code, err, out)
	}
	for _, r := range results {
		for _, k := range []string{"allowed", "message", "warnings", "auditAnnotations", "patchedObject"} {
			if _, ok := r[k]; !ok {
				t.Errorf("result lacks %q: %v", k, r)
			}
		}
	}
	if string(results[0]["allowed"]) != "true" || string(results[1]["allowed"]) != "false" || string(results[1]["patchedObject"]) != "null" {
		t.Errorf("-o json: %s", out)
	}
	if !strings.Contains(string(results[1]["auditAnnotations"]), "validation.policy.admission.k8s.io/validation_failure") {
		t.Errorf("the Audit action's annotation is missing: %s", results[1]["auditAnnotations"])
	}
}

// TestAdmitOperations: --old makes an UPDATE, --operation DELETE admits a
// deletion (object null), and a non-admin user without RBAC objects is
// denied by a policy that asks the authorizer.
func TestAdmitOperations(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	policy := write("policy.yaml", `
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: guard}
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: [""], apiVersions: [v1], operations: ["*"], resources: [configmaps]}
  validations:
  - expression: "request.operation != 'DELETE' || oldObject.metadata.name != 'keep'"
    message: "keep stays"
  - expression: "request.operation != 'UPDATE' || object.data.v >= oldObject.data.v"
    message: "v only grows"
  - expression: "authorizer.group('').resource('configmaps').namespace('default').check('update').allowed()"
    message: "not allowed to update configmaps"
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: guard}
spec: {policyName: guard, validationActions: [Deny]}
`)
	cm := func(name, v string) string {
		return "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: " + name + ", namespace: default}\ndata: {v: \"" + v + "\"}\n"
	}
	old := write("old.yaml", cm("app", "2"))
	newer := write("new.yaml", cm("app", "3"))
	older := write("older.yaml", cm("app", "1"))
	keep := write("keep.yaml", cm("keep", "1"))
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--old", old, newer}, exitOK, "configmap/app configured"},
		{[]string{"--old", old, older}, exitError, "denied request: v only grows"},
		{[]string{"--operation", "DELETE", keep}, exitError, `error when deleting`},
		{[]string{"--operation", "DELETE", newer}, exitOK, "configmap/app deleted"},
		{[]string{"--user", "jane", "--group", "dev", newer}, exitError, "not allowed to update configmaps"},
		{[]string{"--operation", "PATCH", newer}, exitUsage, ""},
	} {
		out, errOut, code := cli(t, "", append([]string{"admit", "-f", policy}, c.args...)...)
		if code != c.code || !strings.Contains(out+errOut, c.want) {
			t.Errorf("%v: exit %d (want %d)\n%s%s\nwant %q", c.args, code, c.code, out, errOut, c.want)
		}
	}
}

// TestAdmitBadInput: bad usage and input that is not Kubernetes objects
// exit 2 with the cause.
func TestAdmitBadInput(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"admit", admDemo + "/deployments.yaml"}, "-f and at least one object file are required"},
		{[]string{"admit", "-f", admDemo + "/policies.yaml", "-o", "yaml", admDemo + "/deployments.yaml"}, "-o is text or json"},
		{[]string{"admit", "-f", "/nonexistent.yaml", admDemo + "/deployments.yaml"}, "no such file"},
		{[]string{"admit", "-f", admDemo + "/policies.yaml", td + "/knative/events.ndjson"}, "requests[0]"},
	} {
		out, errOut, code := cli(t, "", c.args...)
		if code != exitUsage || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d, want 2 and %q\n%s%s", c.args, code, c.want, out, errOut)
		}
	}
}
