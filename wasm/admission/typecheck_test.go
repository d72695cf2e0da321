package admission

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/celwasm/celwasm/wire"
)

const deploymentTypoPolicy = `
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: replicas-typo}
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: [apps], apiVersions: [v1], operations: [CREATE], resources: [deployments]}
  validations:
  - expression: "object.spec.replica <= 5"
  - expression: "object.spec.replicas <= 5"
`

// TestTypeCheckingBuiltinKind checks a policy over a built-in kind is type
// checked against kube's schema of that kind, and the warning's format.
func TestTypeCheckingBuiltinKind(t *testing.T) {
	obj := json.RawMessage(`{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"a","namespace":"default"},"spec":{"replicas":2}}`)
	resp, err := Admit(context.Background(), &wire.AdmitRequest{Documents: docs(t, deploymentTypoPolicy), Requests: []wire.AdmitItem{{Object: obj}}})
	if err != nil {
		t.Fatal(err)
	}
	want := "replicas-typo: spec.validations[0].expression: apps/v1, Kind=Deployment: ERROR: <input>:1:12: undefined field 'replica'\n"
	if len(resp.Warnings) != 1 || !strings.HasPrefix(resp.Warnings[0], want) {
		t.Fatalf("warnings: %q, want one starting %q", resp.Warnings, want)
	}
}
