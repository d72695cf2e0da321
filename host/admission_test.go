package celwasm_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	celwasm "github.com/celwasm/celwasm/host"
)

// replicaPolicy is the Kubernetes documentation's demo policy with a
// ConfigMap param (paramRef by name) and an audit annotation.
const replicaPolicy = `
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: replica-limit.example.com
spec:
  failurePolicy: Fail
  paramKind: {apiVersion: v1, kind: ConfigMap}
  matchConstraints:
    resourceRules:
    - apiGroups: ["apps"]
      apiVersions: ["v1"]
      operations: ["CREATE", "UPDATE"]
      resources: ["deployments"]
  validations:
  - expression: "object.spec.replicas <= int(params.data.maxReplicas)"
    messageExpression: "'replicas must be at most ' + params.data.maxReplicas"
    reason: Forbidden
  auditAnnotations:
  - key: replicas
    valueExpression: "string(object.spec.replicas)"
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata:
  name: replica-limit-binding.example.com
spec:
  policyName: replica-limit.example.com
  validationActions: [Deny]
  paramRef: {name: replica-limit, namespace: default, parameterNotFoundAction: Deny}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: replica-limit, namespace: default}
data: {maxReplicas: "5"}
`

func yamlDocs(t *testing.T, y string) []json.RawMessage {
	t.Helper()
	var out []json.RawMessage
	for _, d := range strings.Split(y, "\n---\n") {
		j, err := yaml.YAMLToJSON([]byte(d))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, j)
	}
	return out
}

func deploymentJSON(name string, replicas int) json.RawMessage {
	b, _ := json.Marshal(map[string]any{"apiVersion": "apps/v1", "kind": "Deployment",
		"metadata": map[string]any{"name": name, "namespace": "default"}, "spec": map[string]any{"replicas": replicas}})
	return b
}

// TestAdmit: the admission module, loaded on first use, denies with
// kube-apiserver's Status message and reason, and allows with the audit
// annotation, in both runtimes.
func TestAdmit(t *testing.T) {
	forEachEngine(t, func(t *testing.T, newRT func(...celwasm.Option) *celwasm.Runtime) {
		rt := newRT()
		resp, err := rt.Admit(context.Background(), &celwasm.AdmitRequest{
			Documents: yamlDocs(t, replicaPolicy),
			Requests:  []celwasm.AdmitItem{{Object: deploymentJSON("web", 3)}, {Object: deploymentJSON("big", 9)}},
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(resp.Results) != 2 {
			t.Fatalf("results: %+v", resp.Results)
		}
		ok, denied := resp.Results[0], resp.Results[1]
		if !ok.Allowed || ok.AuditAnnotations["replica-limit.example.com/replicas"] != "3" || string(ok.PatchedObject) != "null" {
			t.Errorf("allowed: %+v", ok)
		}
		want := `deployments.apps "big" is forbidden: ValidatingAdmissionPolicy 'replica-limit.example.com' with binding 'replica-limit-binding.example.com' denied request: replicas must be at most 5`
		if denied.Allowed || denied.Message != want || denied.Reason != "Forbidden" || denied.Code != 403 {
			t.Errorf("denied: %+v\nwant message %s", denied, want)
		}
	})
}

// TestAdmitBadInput: documents and objects that are not Kubernetes objects,
// kinds nobody serves and unknown policy fields are invalid_object errors,
// requests of the wrong shape bad_request errors, each naming the item; the
// runtime goes on.
func TestAdmitBadInput(t *testing.T) {
	forEachEngine(t, func(t *testing.T, newRT func(...celwasm.Option) *celwasm.Runtime) {
		rt := newRT(celwasm.WithInstances(1))
		policy := yamlDocs(t, replicaPolicy)
		for _, c := range []struct {
			name string
			req  celwasm.AdmitRequest
			code string
			want string
		}{
			{"document not an object", celwasm.AdmitRequest{Documents: []json.RawMessage{json.RawMessage(`[1]`)}}, celwasm.CodeInvalidObject, "documents[0]: not a Kubernetes object"},
			{"document without kind", celwasm.AdmitRequest{Documents: []json.RawMessage{json.RawMessage(`{"apiVersion":"v1"}`)}}, celwasm.CodeInvalidObject, "documents[0]: not a Kubernetes object: apiVersion and kind are required"},
			{"unknown policy field", celwasm.AdmitRequest{Documents: []json.RawMessage{json.RawMessage(`{"apiVersion":"admissionregistration.k8s.io/v1","kind":"ValidatingAdmissionPolicy","metadata":{"name":"p"},"spec":{"validashuns":[]}}`)}}, celwasm.CodeInvalidObject, `documents[0]: ValidatingAdmissionPolicy "p": unknown field "spec.validashuns"`},
			{"unknown kind", celwasm.AdmitRequest{Documents: policy, Requests: []celwasm.AdmitItem{{Object: json.RawMessage(`{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w"}}`)}}}, celwasm.CodeInvalidObject, `requests[0]: no resource serves kind "Widget" in "example.com/v1"`},
			{"object not an object", celwasm.AdmitRequest{Documents: policy, Requests: []celwasm.AdmitItem{{Object: json.RawMessage(`"text"`)}}}, celwasm.CodeInvalidObject, "requests[0]: object: not a Kubernetes object"},
			{"update without old object", celwasm.AdmitRequest{Documents: policy, Requests: []celwasm.AdmitItem{{Operation: "UPDATE", Object: deploymentJSON("web", 1)}}}, celwasm.CodeBadRequest, "requests[0]: UPDATE needs oldObject"},
			{"bad operation", celwasm.AdmitRequest{Documents: policy, Requests: []celwasm.AdmitItem{{Operation: "PATCH", Object: deploymentJSON("web", 1)}}}, celwasm.CodeBadRequest, `requests[0]: operation "PATCH": want CREATE, UPDATE, DELETE or CONNECT`},
		} {
			_, err := rt.Admit(context.Background(), &c.req)
			if code(err) != c.code || !strings.Contains(err.Error(), c.want) {
				t.Errorf("%s: got %v, want %s containing %q", c.name, err, c.code, c.want)
			}
		}
		if resp, err := rt.Admit(context.Background(), &celwasm.AdmitRequest{Documents: policy, Requests: []celwasm.AdmitItem{{Object: deploymentJSON("web", 1)}}}); err != nil || !resp.Results[0].Allowed {
			t.Fatalf("after bad input: %+v %v", resp, err)
		}
	})
}
