package admission

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/celwasm/celwasm/wire"
)

func docs(t *testing.T, y string) []json.RawMessage {
	t.Helper()
	var out []json.RawMessage
	for _, d := range strings.Split(y, "\n---\n") {
		if strings.TrimSpace(d) == "" {
			continue
		}
		j, err := yaml.YAMLToJSON([]byte(d))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, j)
	}
	return out
}

const demoPolicy = `
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: demo-policy.example.com
spec:
  failurePolicy: Fail
  matchConstraints:
    resourceRules:
    - apiGroups:   ["apps"]
      apiVersions: ["v1"]
      operations:  ["CREATE", "UPDATE"]
      resources:   ["deployments"]
  validations:
    - expression: "object.spec.replicas <= 5"
  auditAnnotations:
    - key: replicas
      valueExpression: "'replicas: ' + string(object.spec.replicas)"
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata:
  name: demo-binding-test.example.com
spec:
  policyName: demo-policy.example.com
  validationActions: [Deny]
---
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingAdmissionPolicy
metadata:
  name: add-label
spec:
  matchConstraints:
    resourceRules:
    - apiGroups:   ["apps"]
      apiVersions: ["v1"]
      operations:  ["CREATE"]
      resources:   ["deployments"]
  failurePolicy: Fail
  reinvocationPolicy: Never
  mutations:
  - patchType: ApplyConfiguration
    applyConfiguration:
      expression: >
        Object{metadata: Object.metadata{labels: {"team": "web"}}}
---
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingAdmissionPolicyBinding
metadata:
  name: add-label
spec:
  policyName: add-label
`

func deployment(replicas int) json.RawMessage {
	return json.RawMessage(`{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"nginx","namespace":"default"},"spec":{"replicas":` + string(rune('0'+replicas)) + `}}`)
}

func TestDemoPolicy(t *testing.T) {
	resp, err := Admit(context.Background(), &wire.AdmitRequest{
		Documents: docs(t, demoPolicy),
		Requests:  []wire.AdmitItem{{Object: deployment(3)}, {Object: deployment(7)}},
	})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.MarshalIndent(resp, "", "  ")
	t.Logf("%s", b)
	if !resp.Results[0].Allowed || resp.Results[1].Allowed {
		t.Fatalf("want allowed, denied")
	}
	want := `deployments.apps "nginx" is forbidden: ValidatingAdmissionPolicy 'demo-policy.example.com' with binding 'demo-binding-test.example.com' denied request: failed expression: object.spec.replicas <= 5`
	if got := resp.Results[1].Message; got != want {
		t.Errorf("message\n got %s\nwant %s", got, want)
	}
	if !strings.Contains(string(resp.Results[0].PatchedObject), `"team":"web"`) {
		t.Errorf("patched object: %s", resp.Results[0].PatchedObject)
	}
}

const sidecarPolicy = `
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingAdmissionPolicy
metadata:
  name: sidecar-policy.example.com
spec:
  paramKind:
    kind: ConfigMap
    apiVersion: v1
  matchConstraints:
    resourceRules:
    - apiGroups:   [""]
      apiVersions: ["v1"]
      operations:  ["CREATE"]
      resources:   ["pods"]
  matchConditions:
    - name: does-not-already-have-sidecar
      expression: "!object.spec.initContainers.exists(ic, ic.name == \"mesh-proxy\")"
  failurePolicy: Fail
  reinvocationPolicy: IfNeeded
  mutations:
    - patchType: "ApplyConfiguration"
      applyConfiguration:
        expression: >
          Object{
            spec: Object.spec{
              initContainers: [
                Object.spec.initContainers{
                  name: "mesh-proxy",
                  image: params.data.image,
                  restartPolicy: "Always"
                }
              ]
            }
          }
---
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingAdmissionPolicyBinding
metadata:
  name: sidecar-binding-test.example.com
spec:
  policyName: sidecar-policy.example.com
  paramRef:
    name: mesh-config
    namespace: default
    parameterNotFoundAction: Deny
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: mesh-config
  namespace: default
data:
  image: mesh/proxy:v1.0.0
`

func TestSidecarMerge(t *testing.T) {
	pod := json.RawMessage(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"web"},"spec":{"initContainers":[{"name":"setup","image":"busybox"}],"containers":[{"name":"web","image":"nginx"}]}}`)
	resp, err := Admit(context.Background(), &wire.AdmitRequest{Documents: docs(t, sidecarPolicy), Requests: []wire.AdmitItem{{Object: pod}}})
	if err != nil {
		t.Fatal(err)
	}
	r := resp.Results[0]
	t.Logf("%+v %s", r, r.PatchedObject)
	if !r.Allowed || !strings.Contains(string(r.PatchedObject), `"name":"setup"`) || !strings.Contains(string(r.PatchedObject), `"image":"mesh/proxy:v1.0.0"`) {
		t.Fatalf("want the sidecar merged beside setup by name")
	}
}

const crdPolicy = `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: webapps.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {plural: webapps, singular: webapp, kind: WebApp, listKind: WebAppList}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              replicas: {type: integer}
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: webapp-replicas}
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: [example.com], apiVersions: [v1], operations: [CREATE], resources: [webapps]}
  validations:
  - expression: "object.spec.replicsa <= 5"
  - expression: "object.spec.replicas <= 5 && object.metadata.name != ''"
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: webapp-replicas}
spec: {policyName: webapp-replicas, validationActions: [Deny]}
`

func TestTypeCheckingWarnings(t *testing.T) {
	obj := json.RawMessage(`{"apiVersion":"example.com/v1","kind":"WebApp","metadata":{"name":"a"},"spec":{"replicas":2}}`)
	resp, err := Admit(context.Background(), &wire.AdmitRequest{Documents: docs(t, crdPolicy), Requests: []wire.AdmitItem{{Object: obj}}})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%q %+v", resp.Warnings, resp.Results[0])
	if len(resp.Warnings) != 1 || !strings.Contains(resp.Warnings[0], "spec.validations[0].expression") || !strings.Contains(resp.Warnings[0], "replicsa") {
		t.Fatalf("warnings: %q", resp.Warnings)
	}
}
