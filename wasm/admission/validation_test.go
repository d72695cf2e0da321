package admission

// The proof of validation.go: every policy and binding of the table is
// created through kube-apiserver's own code (k8s.io/kubernetes v1.37.2's
// registry strategies and validation, k8s.io/apiserver's rest.BeforeCreate,
// the defaults and conversion of pkg/apis/admissionregistration/v1) and
// through the adapted copy, and the errors must be the same. The module does
// not link k8s.io/kubernetes's validation; this native test does.

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/apiserver/pkg/registry/rest"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	internal "k8s.io/kubernetes/pkg/apis/admissionregistration"
	_ "k8s.io/kubernetes/pkg/apis/admissionregistration/install"
	upstream "k8s.io/kubernetes/pkg/apis/admissionregistration/validation"
	mapregistry "k8s.io/kubernetes/pkg/registry/admissionregistration/mutatingadmissionpolicy"
	mapbindingregistry "k8s.io/kubernetes/pkg/registry/admissionregistration/mutatingadmissionpolicybinding"
	"k8s.io/kubernetes/pkg/registry/admissionregistration/resolver"
	vapregistry "k8s.io/kubernetes/pkg/registry/admissionregistration/validatingadmissionpolicy"
	vapbindingregistry "k8s.io/kubernetes/pkg/registry/admissionregistration/validatingadmissionpolicybinding"

	"github.com/celwasm/celwasm/wire"
)

// validationCase is one object; want is "" for a valid one, else a text the
// reference's Status message must contain (so that each case proves the
// kind of error it is named for).
type validationCase struct {
	name string
	doc  string
	want string
}

const rules = `
  matchConstraints:
    resourceRules:
    - apiGroups: ["apps"]
      apiVersions: ["v1"]
      operations: ["CREATE", "UPDATE"]
      resources: ["deployments"]`

func vap(name, spec string) string {
	return "apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicy\nmetadata:\n  name: " + name + "\nspec:" + spec
}

func vapb(name, spec string) string {
	return "apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicyBinding\nmetadata:\n  name: " + name + "\nspec:" + spec
}

func mapol(name, spec string) string {
	return "apiVersion: admissionregistration.k8s.io/v1\nkind: MutatingAdmissionPolicy\nmetadata:\n  name: " + name + "\nspec:" + spec
}

func mapb(name, spec string) string {
	return "apiVersion: admissionregistration.k8s.io/v1\nkind: MutatingAdmissionPolicyBinding\nmetadata:\n  name: " + name + "\nspec:" + spec
}

const applyMutation = `
  reinvocationPolicy: Never
  mutations:
  - patchType: ApplyConfiguration
    applyConfiguration:
      expression: 'Object{metadata: Object.metadata{labels: {"a": "b"}}}'`

func manyAuditAnnotations(n int) string {
	var b strings.Builder
	b.WriteString("\n  auditAnnotations:")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "\n  - key: k%d\n    valueExpression: \"'v'\"", i)
	}
	return b.String()
}

func manyMatchConditions(n int) string {
	var b strings.Builder
	b.WriteString("\n  matchConditions:")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "\n  - name: c%d\n    expression: \"true\"", i)
	}
	return b.String()
}

var validationCases = []validationCase{
	// ValidatingAdmissionPolicy
	{"vap valid", vap("demo", rules+`
  validations:
  - expression: "object.spec.replicas <= 5"`), ""},
	{"vap valid everything", vap("demo", `
  failurePolicy: Ignore
  paramKind: {apiVersion: v1, kind: ConfigMap}`+rules+`
    excludeResourceRules:
    - apiGroups: [""]
      apiVersions: ["v1"]
      operations: ["*"]
      resources: ["pods/*"]
      resourceNames: ["a", "b"]
      scope: Namespaced
    namespaceSelector: {matchExpressions: [{key: env, operator: In, values: [prod]}]}
    matchPolicy: Exact
  matchConditions:
  - name: not-kube-system
    expression: "request.namespace != 'kube-system' && params.data.size() >= 0"
  variables:
  - name: replicas
    expression: "object.spec.replicas"
  - name: tooMany
    expression: "variables.replicas > int(params.data.max)"
  validations:
  - expression: "!variables.tooMany"
    messageExpression: "'too many: ' + string(variables.replicas)"
    reason: RequestEntityTooLarge
  - expression: "authorizer.group('apps').resource('deployments').check('get').allowed()"
    message: "cannot get"
  auditAnnotations:
  - key: replicas
    valueExpression: "string(object.spec.replicas)"`), ""},
	{"vap syntax error", vap("demo", rules+`
  validations:
  - expression: "object.x <"`), "Syntax error"},
	{"vap undeclared params", vap("demo", rules+`
  validations:
  - expression: "params.max > 1"`), "undeclared reference to 'params'"},
	{"vap variables without composition", vap("demo", rules+`
  validations:
  - expression: "variables.x"`), "undeclared reference to 'variables'"},
	{"vap expression not bool", vap("demo", rules+`
  validations:
  - expression: "object.metadata.name"`), "must evaluate to bool"},
	{"vap no validations", vap("demo", rules), "validations or auditAnnotations must contain at least one item"},
	{"vap no matchConstraints", vap("demo", `
  validations:
  - expression: "true"`), "spec.matchConstraints: Required value"},
	{"vap no resourceRules", vap("demo", `
  matchConstraints:
    namespaceSelector: {}
  validations:
  - expression: "true"`), "spec.matchConstraints.resourceRules: Required value"},
	{"vap bad failurePolicy", vap("demo", `
  failurePolicy: Sometimes`+rules+`
  validations:
  - expression: "true"`), `Unsupported value: "Sometimes"`},
	{"vap bad reason", vap("demo", rules+`
  validations:
  - expression: "true"
    reason: Teapot`), `spec.validations[0].reason: Unsupported value: "Teapot"`},
	{"vap messageExpression errors", vap("demo", rules+`
  validations:
  - expression: "true"
    messageExpression: "object.x +"
  - expression: "true"
    messageExpression: "  "
  - expression: "true"
    messageExpression: "1"
  - expression: "true"
    messageExpression: "authorizer.path('/x').check('get').reason()"`), "messageExpression"},
	{"vap message with line break", vap("demo", rules+`
  validations:
  - expression: "true"
    message: "two\nlines"
  - expression: "true"
    message: "   "`), "must not contain line breaks"},
	{"vap empty expression", vap("demo", rules+`
  validations:
  - expression: "  "`), "expression is not specified"},
	{"vap audit annotation keys", vap("demo", rules+`
  auditAnnotations:
  - key: "bad key!"
    valueExpression: "'x'"
  - key: same
    valueExpression: "'x'"
  - key: same
    valueExpression: "1"
  - key: empty
    valueExpression: " "
  - key: long
    valueExpression: "'`+strings.Repeat("x", 5200)+`'"`), "auditAnnotations[0].key"},
	{"vap too many audit annotations", vap("demo", rules+manyAuditAnnotations(21)), "must not have more than 20 auditAnnotations"},
	{"vap variables", vap("demo", rules+`
  variables:
  - name: "1x"
    expression: "1"
  - name: "in"
    expression: "2"
  - name: ok
    expression: "object.x +"
  - name: ""
    expression: ""
  - name: later
    expression: "variables.notYet"
  validations:
  - expression: "variables.ok == 1"`), "must be a valid CEL identifier"},
	{"vap matchConditions", vap("demo", rules+`
  matchConditions:
  - name: a
    expression: "true"
  - name: a
    expression: "true"
  - name: "Bad Name"
    expression: "1"
  - name: ""
    expression: "params.x"
  - name: b
    expression: ""
  validations:
  - expression: "true"`), "matchConditions[1].name: Duplicate value"},
	{"vap too many matchConditions", vap("demo", rules+manyMatchConditions(65)+`
  validations:
  - expression: "true"`), "Too many: 65"},
	{"vap paramKind", vap("demo", `
  paramKind: {apiVersion: "a/b/c", kind: "Bad_Kind"}`+rules+`
  validations:
  - expression: "true"`), "spec.paramKind"},
	{"vap paramKind missing", vap("demo", `
  paramKind: {}`+rules+`
  validations:
  - expression: "true"`), "spec.paramKind.apiVersion: Required value"},
	{"vap paramKind group", vap("demo", `
  paramKind: {apiVersion: "Bad_Group/v1", kind: Foo}`+rules+`
  validations:
  - expression: "true"`), "spec.paramKind.apiVersion"},
	{"vap resource rules", vap("demo", `
  matchConstraints:
    matchPolicy: Sometimes
    namespaceSelector: {matchExpressions: [{key: env, operator: Near}]}
    objectSelector: {matchLabels: {"bad key!": x}}
    resourceRules:
    - apiGroups: ["*", "apps"]
      apiVersions: ["*", ""]
      operations: ["PATCH", "*"]
      resources: ["*/*", "pods"]
      resourceNames: ["a", "a", "x/y"]
      scope: Everywhere
    - apiGroups: []
      apiVersions: []
      operations: []
      resources: []
    - apiGroups: [""]
      apiVersions: ["v1"]
      operations: ["CREATE"]
      resources: ["pods/*", "pods/status", "*/scale", "deployments/scale", "*", "nodes", ""]
  validations:
  - expression: "true"`), "spec.matchConstraints.resourceRules[0].operations[0]: Unsupported value"},
	// kube-apiserver does not check the estimated cost of admission policy
	// expressions when they are created (only the runtime cost limit
	// applies): nested comprehensions over unbounded lists are accepted.
	{"vap nested comprehensions", vap("demo", rules+`
  validations:
  - expression: "object.spec.template.spec.containers.all(a, object.spec.template.spec.containers.all(b, object.spec.template.spec.containers.all(c, object.spec.template.spec.containers.all(d, a.name != b.name + c.name + d.name))))"
    messageExpression: "object.spec.template.spec.containers.map(a, object.spec.template.spec.containers.map(b, a.name + b.name).join(',')).join(';')"`), ""},
	{"vap static suffix", vap("demo.static.k8s.io", rules+`
  validations:
  - expression: "true"`), "reserved for static manifest-based configurations"},
	{"vap bad name", vap("Demo_Policy", rules+`
  validations:
  - expression: "true"`), "metadata.name: Invalid value"},
	{"vap bad labels", `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: demo
  namespace: default
  labels: {"bad key!": "x"}
spec:` + rules + `
  validations:
  - expression: "true"`, "metadata.labels"},

	{"vap no name", `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {}
spec:` + rules + `
  auditAnnotations:
  - key: k
    valueExpression: "'v'"`, "name or generateName is required"},

	// ValidatingAdmissionPolicyBinding
	{"vapb valid", vapb("demo-binding", `
  policyName: demo
  validationActions: [Deny, Audit]
  paramRef: {name: limits, namespace: default, parameterNotFoundAction: Deny}
  matchResources:
    namespaceSelector: {matchLabels: {env: prod}}`), ""},
	{"vapb valid selector", vapb("demo-binding", `
  policyName: demo
  validationActions: [Warn]
  paramRef: {selector: {matchLabels: {a: b}}, parameterNotFoundAction: Allow}`), ""},
	{"vapb empty spec", vapb("demo-binding", " {}"), "spec.validationActions: Required value"},
	{"vapb no policyName", vapb("demo-binding", `
  validationActions: [Deny]`), "spec.policyName: Required value"},
	{"vapb no validationActions", vapb("demo-binding", `
  policyName: demo`), "spec.validationActions: Required value"},
	{"vapb declarative order", vapb("demo-binding", `
  paramRef: {name: "x/y"}
  matchResources:
    matchPolicy: Sometimes`), "spec.policyName: Required value"},
	{"vapb bad actions", vapb("demo-binding", `
  policyName: demo
  validationActions: [Block, Deny, Deny, Warn]`), `Unsupported value: "Block"`},
	{"vapb paramRef without parameterNotFoundAction", vapb("demo-binding", `
  policyName: demo
  validationActions: [Deny]
  paramRef: {name: limits}`), "spec.paramRef.parameterNotFoundAction: Required value"},
	{"vapb paramRef name and selector", vapb("demo-binding", `
  policyName: demo
  validationActions: [Deny]
  paramRef: {name: limits, selector: {matchLabels: {a: b}}, parameterNotFoundAction: Deny}`), "name and selector are mutually exclusive"},
	{"vapb paramRef neither", vapb("demo-binding", `
  policyName: demo
  validationActions: [Deny]
  paramRef: {parameterNotFoundAction: Ignore}`), "one of name or selector must be specified"},
	{"vapb paramRef bad selector", vapb("demo-binding", `
  policyName: demo
  validationActions: [Deny]
  paramRef: {selector: {matchExpressions: [{key: a, operator: In}]}, parameterNotFoundAction: Deny}`), "spec.paramRef.selector"},
	{"vapb bad policyName", vapb("demo-binding", `
  policyName: Bad_Name
  validationActions: [Deny]`), "spec.policyName: Invalid value"},
	{"vapb matchResources", vapb("demo-binding", `
  policyName: demo
  validationActions: [Audit]
  matchResources:
    excludeResourceRules:
    - apiGroups: ["apps"]
      apiVersions: ["v1"]
      operations: ["CREATE"]
      resources: ["deployments/*", "deployments/scale"]`), "if 'deployments/*' is present"},
	{"vapb static suffix", vapb("b.static.k8s.io", `
  policyName: demo
  validationActions: [Deny]`), "reserved for static"},

	// MutatingAdmissionPolicy
	{"map valid apply", mapol("add-label", rules+applyMutation), ""},
	{"map valid jsonpatch params variables", mapol("add-label", `
  paramKind: {apiVersion: v1, kind: ConfigMap}`+rules+`
  matchConditions:
  - name: has-params
    expression: "params.data.size() > 0"
  variables:
  - name: label
    expression: "params.data.label"
  reinvocationPolicy: IfNeeded
  mutations:
  - patchType: JSONPatch
    jsonPatch:
      expression: '[JSONPatch{op: "add", path: "/metadata/labels/x", value: variables.label}]'`), ""},
	{"map bad patchType", mapol("m", rules+`
  reinvocationPolicy: Never
  mutations:
  - patchType: Merge
  - patchType: ""`), `Unsupported value: "Merge"`},
	{"map patch members", mapol("m", rules+`
  reinvocationPolicy: Never
  mutations:
  - patchType: JSONPatch
  - patchType: ApplyConfiguration
  - patchType: JSONPatch
    jsonPatch: {expression: "[]"}
    applyConfiguration: {expression: "Object{}"}
  - patchType: ApplyConfiguration
    jsonPatch: {expression: "[]"}
    applyConfiguration: {expression: "Object{}"}`), "must be specified when patchType is JSONPatch"},
	{"map expressions", mapol("m", rules+`
  reinvocationPolicy: Never
  variables:
  - name: v
    expression: "object.x +"
  mutations:
  - patchType: ApplyConfiguration
    applyConfiguration: {expression: "object.x +"}
  - patchType: ApplyConfiguration
    applyConfiguration: {expression: " "}
  - patchType: JSONPatch
    jsonPatch: {expression: "'not a list'"}
  - patchType: JSONPatch
    jsonPatch: {expression: ""}
  - patchType: ApplyConfiguration
    applyConfiguration: {expression: "params.x"}`), "Syntax error"},
	{"map DELETE", mapol("m", `
  matchConstraints:
    resourceRules:
    - apiGroups: ["apps"]
      apiVersions: ["v1"]
      operations: ["CREATE", "DELETE"]
      resources: ["deployments"]`+applyMutation), `Unsupported value: "DELETE"`},
	{"map reinvocationPolicy", mapol("m", rules+`
  mutations:
  - patchType: ApplyConfiguration
    applyConfiguration: {expression: "Object{}"}`), "spec.reinvocationPolicy: Required value"},
	{"map bad reinvocationPolicy", mapol("m", rules+`
  reinvocationPolicy: Always
  failurePolicy: Never
  mutations:
  - patchType: ApplyConfiguration
    applyConfiguration: {expression: "Object{}"}`), `Unsupported value: "Always"`},
	{"map no mutations", mapol("m", rules+`
  reinvocationPolicy: Never`), "mutations must contain at least one item"},
	{"map nested comprehensions", mapol("m", rules+`
  reinvocationPolicy: Never
  mutations:
  - patchType: JSONPatch
    jsonPatch:
      expression: "object.spec.template.spec.containers.map(a, object.spec.template.spec.containers.map(b, JSONPatch{op: 'test', path: '/x', value: a.name + b.name})).flatten()"`), ""},
	{"map list depth", mapol("m", rules+`
  reinvocationPolicy: Never
  mutations:
  - patchType: JSONPatch
    jsonPatch:
      expression: "object.spec.template.spec.containers.map(a, object.spec.template.spec.containers.map(b, object.spec.template.spec.containers.map(c, JSONPatch{op: 'test', path: '/x', value: a.name + b.name + c.name}))).flatten()"`), "must evaluate to list(JSONPatch) but got list(list(JSONPatch))"},
	{"map no matchConstraints", mapol("m", applyMutation), "spec.matchConstraints: Required value"},

	// MutatingAdmissionPolicyBinding
	{"mapb valid", mapb("mb", `
  policyName: add-label
  paramRef: {name: p, parameterNotFoundAction: Allow}`), ""},
	{"mapb no policyName", mapb("mb", `
  paramRef: {name: p}`), "spec.policyName: Required value"},
	{"mapb DELETE", mapb("mb", `
  policyName: add-label
  matchResources:
    resourceRules:
    - apiGroups: ["apps"]
      apiVersions: ["v1"]
      operations: ["DELETE"]
      resources: ["deployments"]`), `Unsupported value: "DELETE"`},
	{"mapb paramRef", mapb("mb", `
  policyName: add-label
  paramRef: {name: "a/b", selector: {}, parameterNotFoundAction: Maybe}`), `Unsupported value: "Maybe"`},
}

// reference is kube-apiserver's create of one object: decoded as the module
// decodes it, defaulted and converted to the internal type by the legacy
// scheme, then rest.BeforeCreate with the kind's registry strategy (no
// authorizer: the creator is taken as a cluster administrator). It returns
// the create's error (nil when created) and the handwritten validation's
// own errors.
func reference(t *testing.T, doc []byte) (error, field.ErrorList) {
	t.Helper()
	u, err := decodeObject(doc)
	if err != nil {
		t.Fatal(err)
	}
	var versioned, in runtime.Object
	var strategy rest.RESTCreateStrategy
	var validate func() field.ErrorList
	resolve := resolver.ResourceResolverFunc(func(gvk schema.GroupVersionKind) (schema.GroupVersionResource, error) {
		return schema.GroupVersionResource{}, errors.New("no resolver")
	})
	switch u.GetKind() {
	case "ValidatingAdmissionPolicy":
		o := &internal.ValidatingAdmissionPolicy{}
		versioned, in, strategy = &admissionregistrationv1.ValidatingAdmissionPolicy{}, o, vapregistry.NewStrategy(nil, resolve)
		validate = func() field.ErrorList { return upstream.ValidateValidatingAdmissionPolicy(o) }
	case "ValidatingAdmissionPolicyBinding":
		o := &internal.ValidatingAdmissionPolicyBinding{}
		versioned, in, strategy = &admissionregistrationv1.ValidatingAdmissionPolicyBinding{}, o, vapbindingregistry.NewStrategy(nil, nil, resolve)
		validate = func() field.ErrorList { return upstream.ValidateValidatingAdmissionPolicyBinding(o) }
	case "MutatingAdmissionPolicy":
		o := &internal.MutatingAdmissionPolicy{}
		versioned, in, strategy = &admissionregistrationv1.MutatingAdmissionPolicy{}, o, mapregistry.NewStrategy(nil, resolve)
		validate = func() field.ErrorList { return upstream.ValidateMutatingAdmissionPolicy(o) }
	case "MutatingAdmissionPolicyBinding":
		o := &internal.MutatingAdmissionPolicyBinding{}
		versioned, in, strategy = &admissionregistrationv1.MutatingAdmissionPolicyBinding{}, o, mapbindingregistry.NewStrategy(nil, nil, resolve)
		validate = func() field.ErrorList { return upstream.ValidateMutatingAdmissionPolicyBinding(o) }
	default:
		t.Fatalf("kind %s", u.GetKind())
	}
	if err := decodeInto(doc, versioned); err != nil {
		t.Fatal(err)
	}
	legacyscheme.Scheme.Default(versioned)
	if err := legacyscheme.Scheme.Convert(versioned, in, nil); err != nil {
		t.Fatal(err)
	}
	ctx := genericapirequest.WithNamespace(context.Background(), "")
	ctx = genericapirequest.WithRequestInfo(ctx, &genericapirequest.RequestInfo{
		IsResourceRequest: true, Verb: "create", APIGroup: admissionregistrationv1.GroupName, APIVersion: "v1",
	})
	m, err := meta.Accessor(in)
	if err != nil {
		t.Fatal(err)
	}
	rest.FillObjectMetaSystemFields(m)
	createErr := rest.BeforeCreate(strategy, ctx, in)
	return createErr, validate()
}

// handwritten is the adapted copy's own validation of the object as
// created (validation.go's validateX on the object PrepareForCreate leaves).
func handwritten(v *policyValidator, c *cluster) field.ErrorList {
	switch {
	case len(c.vaps) == 1:
		p := *c.vaps[0]
		p.ObjectMeta = createMeta(p.ObjectMeta)
		p.Status = admissionregistrationv1.ValidatingAdmissionPolicyStatus{}
		return v.validateValidatingAdmissionPolicy(&p)
	case len(c.vapBindings) == 1:
		b := *c.vapBindings[0]
		b.ObjectMeta = createMeta(b.ObjectMeta)
		return validateValidatingAdmissionPolicyBinding(&b)
	case len(c.maps) == 1:
		p := *c.maps[0]
		p.ObjectMeta = createMeta(p.ObjectMeta)
		return v.validateMutatingAdmissionPolicy(&p)
	default:
		b := *c.mapBindings[0]
		b.ObjectMeta = createMeta(b.ObjectMeta)
		return validateMutatingAdmissionPolicyBinding(&b)
	}
}

// errorLines renders field errors as kube-apiserver's Status causes carry
// them: type, field, message.
func errorLines(errs field.ErrorList) []string {
	out := make([]string, len(errs))
	for i, e := range errs {
		out[i] = fmt.Sprintf("%s | %s | %s", e.Type, e.Field, e.ErrorBody())
	}
	return out
}

func causeLines(fes []wire.FieldError) []string {
	out := make([]string, len(fes))
	for i, e := range fes {
		out[i] = fmt.Sprintf("%s | %s | %s", e.Type, e.Field, e.Message)
	}
	return out
}

func diffLines(t *testing.T, what string, got, want []string) {
	t.Helper()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("%s differ:\n  celwasm:\n    %s\n  kube-apiserver:\n    %s", what, strings.Join(got, "\n    "), strings.Join(want, "\n    "))
	}
}

func TestPolicyValidationAsKubeAPIServer(t *testing.T) {
	envs, err := envSet("")
	if err != nil {
		t.Fatal(err)
	}
	var valid, invalid, causes int
	for _, tc := range validationCases {
		t.Run(tc.name, func(t *testing.T) {
			d := docs(t, tc.doc)
			refErr, refHandwritten := reference(t, d[0])

			c, err := loadCluster(d)
			if err != nil {
				t.Fatal(err)
			}
			got := c.defaultAndValidate(envs)
			diffLines(t, "handwritten validation errors", errorLines(handwritten(newPolicyValidator(envs), c)), errorLines(refHandwritten))
			if refErr == nil {
				valid++
				if got != nil {
					t.Fatalf("kube-apiserver creates it; celwasm: %v", got)
				}
				if tc.want != "" {
					t.Fatalf("case wants an error containing %q; kube-apiserver creates the object", tc.want)
				}
				return
			}
			var status *apierrors.StatusError
			if !errors.As(refErr, &status) || status.Status().Reason != "Invalid" {
				t.Fatalf("kube-apiserver: %v (not Invalid)", refErr)
			}
			invalid++
			st := status.Status()
			if tc.want == "" || !strings.Contains(st.Message, tc.want) {
				t.Errorf("kube-apiserver's message %q does not contain %q", st.Message, tc.want)
			}
			var we *wire.Error
			if !errors.As(got, &we) {
				t.Fatalf("kube-apiserver: %v; celwasm: %v", refErr, got)
			}
			if we.Code != wire.CodeInvalidPolicy || we.Message != st.Message {
				t.Errorf("error differs:\n  celwasm:        %s: %s\n  kube-apiserver: %s", we.Code, we.Message, st.Message)
			}
			gk, name, errs := c.firstInvalid(envs)
			want := make([]wire.FieldError, len(st.Details.Causes))
			for i, cs := range st.Details.Causes {
				want[i] = wire.FieldError{Field: cs.Field, Type: string(cs.Type), Message: cs.Message}
			}
			causes += len(want)
			diffLines(t, "Status causes", causeLines(statusCauses(apierrors.NewInvalid(gk, name, errs).Status())), causeLines(want))
		})
	}
	t.Logf("%d cases: %d valid, %d invalid with %d field errors, all as kube-apiserver", len(validationCases), valid, invalid, causes)
	if valid < 8 || invalid < 40 {
		t.Errorf("the table should hold at least 8 valid and 40 invalid objects: %d, %d", valid, invalid)
	}
}

// TestModuleLinksNoKubernetesValidation: the WebAssembly build of this
// package does not pull k8s.io/kubernetes's core API packages nor the
// validation it copies.
func TestModuleLinksNoKubernetesValidation(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	cmd := exec.Command(goBin, "list", "-deps", ".")
	cmd.Env = append(os.Environ(), "GOOS=wasip1", "GOARCH=wasm")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	deps := strings.Fields(string(out))
	var sawCEL bool
	for _, d := range deps {
		if d == "k8s.io/apiserver/pkg/admission/plugin/cel" {
			sawCEL = true
		}
		if strings.HasPrefix(d, "k8s.io/kubernetes/pkg/apis/core") || strings.HasPrefix(d, "k8s.io/kubernetes/pkg/apis/admissionregistration") {
			t.Errorf("GOOS=wasip1 build of wasm/admission imports %s", d)
		}
	}
	if !sawCEL {
		t.Fatalf("go list -deps (%d packages) does not list k8s.io/apiserver/pkg/admission/plugin/cel", len(deps))
	}
}

// TestFirstInvalidInDocumentOrder: with several invalid objects, Admit
// reports the first in document order (the cluster keeps policies sorted by
// name), with kube-apiserver's message for it.
func TestFirstInvalidInDocumentOrder(t *testing.T) {
	valid := vap("a-valid", rules+`
  validations:
  - expression: "true"`)
	zFirst := vap("z-first", rules+`
  validations:
  - expression: "object.x <"`)
	aSecond := vap("a-second", rules)
	binding := vapb("b-binding", `
  policyName: z-first`)
	for _, tc := range []struct {
		docs []string
		want string
	}{
		{[]string{valid, zFirst, aSecond}, zFirst},
		{[]string{valid, aSecond, zFirst}, aSecond},
		{[]string{binding, zFirst}, binding},
		{[]string{valid, zFirst + "\n---\n" + binding}, zFirst},
	} {
		wantErr, _ := reference(t, docs(t, tc.want)[0])
		if wantErr == nil {
			t.Fatal("kube-apiserver creates the object meant to be invalid")
		}
		_, err := Admit(context.Background(), &wire.AdmitRequest{Documents: docs(t, strings.Join(tc.docs, "\n---\n"))})
		var we *wire.Error
		if !errors.As(err, &we) || we.Code != wire.CodeInvalidPolicy || we.Message != wantErr.Error() {
			t.Errorf("Admit: %v\n  want invalid_policy: %v", err, wantErr)
		}
	}
}

// TestValidationFollowsCompatibilityVersion: new expressions compile in the
// environment of the request's compatibility version, as in a kube-apiserver
// emulating that version: two-variable comprehensions (Kubernetes 1.32) are
// refused at 1.31 and accepted at the default version.
func TestValidationFollowsCompatibilityVersion(t *testing.T) {
	policy := docs(t, vap("labels", rules+`
  validations:
  - expression: "object.metadata.labels.all(k, v, v != '')"`))
	if _, err := Admit(context.Background(), &wire.AdmitRequest{Documents: policy}); err != nil {
		t.Fatalf("default compatibility version: %v", err)
	}
	_, err := Admit(context.Background(), &wire.AdmitRequest{Documents: policy, CompatibilityVersion: "1.31"})
	var we *wire.Error
	if !errors.As(err, &we) || we.Code != wire.CodeInvalidPolicy ||
		!strings.HasPrefix(we.Message, `ValidatingAdmissionPolicy.admissionregistration.k8s.io "labels" is invalid: spec.validations[0].expression: Invalid value: "object.metadata.labels.all(k, v, v != '')": compilation failed: `) {
		t.Fatalf("compatibility version 1.31: %v", err)
	}
}
