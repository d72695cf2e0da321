package crd

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/celwasm/celwasm/wasm/codec"
	"github.com/celwasm/celwasm/wire"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel"
	structuraldefaulting "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting"
	schemaobjectmeta "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/objectmeta"
	structuralpruning "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/pruning"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	"k8s.io/apimachinery/pkg/util/validation/field"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/apiserver/pkg/registry/rest"
	"k8s.io/apiserver/pkg/warning"
)

// Validate validates object (JSON) as kube-apiserver validates a create
// request, or, with oldObject, an update of oldObject to object. Errors are
// for input that never reaches validation (invalid_object: not a JSON object,
// apiVersion/kind not of this CRD, malformed metadata).
func (c *CRD) Validate(version string, object, oldObject []byte) (*wire.ObjectResult, error) {
	obj, err := decodeObject(object, "object")
	if err != nil {
		return nil, err
	}
	var old *unstructured.Unstructured
	if oldObject != nil {
		if old, err = decodeObject(oldObject, "oldObject"); err != nil {
			return nil, err
		}
	}
	gv, err := schema.ParseGroupVersion(obj.GetAPIVersion())
	if err != nil {
		return nil, &wire.Error{Code: wire.CodeInvalidObject, Message: fmt.Sprintf("object: apiVersion %q: %v", obj.GetAPIVersion(), err)}
	}
	if gv.Group != c.Group() || obj.GetKind() != c.Kind() {
		return nil, &wire.Error{Code: wire.CodeInvalidObject, Message: fmt.Sprintf("object: %s %s is not a %s (%s, CRD %s)", obj.GetAPIVersion(), obj.GetKind(), c.Kind(), c.Group(), c.Name())}
	}
	if version == "" {
		version = gv.Version
	}
	if _, ver := c.v1Version(version); ver == nil {
		return nil, &wire.Error{Code: wire.CodeInvalidObject, Message: fmt.Sprintf("object: CRD %s has no version %q (versions: %s)", c.Name(), version, strings.Join(c.Versions(), ", "))}
	}
	v, err := c.Version(version)
	if err != nil {
		return nil, err
	}
	if !v.Served() {
		return nil, &wire.Error{Code: wire.CodeInvalidObject, Message: fmt.Sprintf("object: version %s of %s is not served", version, c.Name())}
	}
	// An object of another version is converted to the requested one as
	// kube-apiserver converts without a conversion webhook: its apiVersion
	// changes, nothing else.
	convert := func(u *unstructured.Unstructured, what string) error {
		ugv, err := schema.ParseGroupVersion(u.GetAPIVersion())
		if err != nil || ugv.Group != c.Group() || u.GetKind() != c.Kind() {
			return &wire.Error{Code: wire.CodeInvalidObject, Message: fmt.Sprintf("%s: %s %s, want a %s of %s", what, u.GetAPIVersion(), u.GetKind(), c.Kind(), c.Group())}
		}
		if ugv.Version == version {
			return nil
		}
		if conv := c.v1.Spec.Conversion; conv != nil && conv.Strategy != apiextensionsv1.NoneConverter {
			return &wire.Error{Code: wire.CodeInvalidObject, Message: fmt.Sprintf("%s: converting %s to %s needs the CRD's conversion webhook", what, u.GetAPIVersion(), version)}
		}
		u.SetAPIVersion(c.Group() + "/" + version)
		return nil
	}
	if err := convert(obj, "object"); err != nil {
		return nil, err
	}
	if old != nil {
		if err := convert(old, "oldObject"); err != nil {
			return nil, err
		}
		return v.validateUpdate(obj, old)
	}
	return v.validateCreate(obj)
}

// decodeObject decodes a request body as the API server's unstructured JSON
// decoding does (integers as int64, other numbers as float64).
func decodeObject(doc []byte, what string) (*unstructured.Unstructured, error) {
	if err := codec.CheckJSON(string(doc)); err != nil {
		return nil, &wire.Error{Code: wire.CodeInvalidObject, Message: what + ": " + err.Error()}
	}
	var v any
	if err := utiljson.Unmarshal(doc, &v); err != nil {
		return nil, &wire.Error{Code: wire.CodeInvalidObject, Message: what + ": " + err.Error()}
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, &wire.Error{Code: wire.CodeInvalidObject, Message: fmt.Sprintf("%s: want a JSON object, got %s", what, crdJSONKind(v))}
	}
	u := &unstructured.Unstructured{Object: m}
	if u.GetKind() == "" {
		return nil, &wire.Error{Code: wire.CodeInvalidObject, Message: what + ": Object 'Kind' is missing"}
	}
	if u.GetAPIVersion() == "" {
		return nil, &wire.Error{Code: wire.CodeInvalidObject, Message: what + ": Object 'apiVersion' is missing"}
	}
	return u, nil
}

func crdJSONKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case []any:
		return "an array"
	case string:
		return "a string"
	case bool:
		return "a boolean"
	default:
		return "a number"
	}
}

// coerce is unstructuredSchemaCoercer.apply
// (k8s.io/apiextensions-apiserver/pkg/apiserver/customresource_handler.go):
// object meta coercion, pruning of unknown fields (returned as paths) and of
// nulls in non-nullable fields. A request decodes with dropInvalidMetadata
// false, a stored object with true and repairGeneration.
func (v *CRDVersion) coerce(u *unstructured.Unstructured, stored bool) (unknownFieldPaths []string, err error) {
	// save implicit meta fields that don't have to be specified in the validation spec
	kind, foundKind, err := unstructured.NestedString(u.UnstructuredContent(), "kind")
	if err != nil {
		return nil, err
	}
	apiVersion, foundAPIVersion, err := unstructured.NestedString(u.UnstructuredContent(), "apiVersion")
	if err != nil {
		return nil, err
	}
	objectMeta, foundObjectMeta, metaUnknownFields, err := schemaobjectmeta.GetObjectMetaWithOptions(u.Object, schemaobjectmeta.ObjectMetaOptions{
		DropMalformedFields:     stored,
		ReturnUnknownFieldPaths: !stored,
	})
	if err != nil {
		return nil, err
	}
	unknownFieldPaths = append(unknownFieldPaths, metaUnknownFields...)
	gv, err := schema.ParseGroupVersion(apiVersion)
	if err != nil {
		return nil, err
	}
	if gv.Group == v.gvk.Group && kind == v.gvk.Kind {
		pruneOpts := structuralschema.UnknownFieldPathOptions{TrackUnknownFieldPaths: !stored}
		unknownFieldPaths = append(unknownFieldPaths, structuralpruning.PruneWithOptions(u.Object, v.structural, true, pruneOpts)...)
		structuraldefaulting.PruneNonNullableNullsWithoutDefaults(u.Object, v.structural)
		err, paths := schemaobjectmeta.CoerceWithOptions(nil, u.Object, v.structural, false, schemaobjectmeta.CoerceOptions{
			DropInvalidFields:       stored,
			ReturnUnknownFieldPaths: !stored,
		})
		if err != nil {
			return nil, err
		}
		unknownFieldPaths = append(unknownFieldPaths, paths...)
		// fixup missing generation in very old CRs
		if stored && objectMeta.Generation == 0 {
			objectMeta.Generation = 1
		}
	}
	// restore meta fields, starting clean
	if foundKind {
		u.SetKind(kind)
	}
	if foundAPIVersion {
		u.SetAPIVersion(apiVersion)
	}
	if foundObjectMeta {
		if err := schemaobjectmeta.SetObjectMeta(u.Object, objectMeta); err != nil {
			return nil, err
		}
	}
	return unknownFieldPaths, nil
}

// decode runs an object through the CR handler's decoding: coercion and
// pruning, then structural defaulting. Unknown fields become warnings, as
// with fieldValidation=Warn (kubectl --validate=warn).
func (v *CRDVersion) decode(u *unstructured.Unstructured, stored bool, res *wire.ObjectResult) error {
	unknown, err := v.coerce(u, stored)
	if err != nil {
		what := "object"
		if stored {
			what = "oldObject"
		}
		return &wire.Error{Code: wire.CodeInvalidObject, Message: what + ": " + err.Error()}
	}
	// Pruning walks maps in random order; sorted, the warnings are stable.
	sort.Strings(unknown)
	for _, f := range unknown {
		res.Warnings = append(res.Warnings, fmt.Sprintf("unknown field %q", f))
	}
	structuraldefaulting.Default(u.UnstructuredContent(), v.structural)
	return nil
}

func (v *CRDVersion) newResult(u *unstructured.Unstructured, op string) *wire.ObjectResult {
	return &wire.ObjectResult{Kind: v.gvk.Kind, Group: v.gvk.Group, Version: v.gvk.Version, Operation: op, CostBudget: RuntimeCELCostBudget}
}

// requestContext is the context of a request to the namespace the object
// names (kubectl's default namespace, "default", when it names none).
func (v *CRDVersion) requestContext(u *unstructured.Unstructured, run *crRun, rec *warningRecorder) context.Context {
	ctx := context.WithValue(context.Background(), crRunKey{}, run)
	ns := ""
	if v.strategy.namespaceScoped {
		if ns = u.GetNamespace(); ns == "" {
			ns = metav1.NamespaceDefault
		}
	}
	ctx = genericapirequest.WithNamespace(ctx, ns)
	return warning.WithWarningRecorder(ctx, rec)
}

// validateCreate is the create path of the generic registry store
// (Store.create up to rest.BeforeCreate).
func (v *CRDVersion) validateCreate(u *unstructured.Unstructured) (*wire.ObjectResult, error) {
	res := v.newResult(u, "create")
	if err := v.decode(u, false, res); err != nil {
		return nil, err
	}
	objectMeta, err := meta.Accessor(u)
	if err != nil {
		return nil, &wire.Error{Code: wire.CodeInvalidObject, Message: "object: " + err.Error()}
	}
	rest.FillObjectMetaSystemFields(objectMeta)
	if len(objectMeta.GetGenerateName()) > 0 && len(objectMeta.GetName()) == 0 {
		objectMeta.SetName(v.strategy.GenerateName(objectMeta.GetGenerateName()))
	}
	run, rec := &crRun{}, &warningRecorder{}
	err = rest.BeforeCreate(v.strategy, v.requestContext(u, run, rec), u)
	v.finish(res, u, run, rec, err)
	return res, nil
}

// validateUpdate is an update (kubectl apply of object over oldObject):
// the stored object is decoded as storage decodes it, the new object
// inherits the server-managed metadata a patch keeps (resourceVersion, uid,
// creationTimestamp), then rest.BeforeUpdate.
func (v *CRDVersion) validateUpdate(u, old *unstructured.Unstructured) (*wire.ObjectResult, error) {
	res := v.newResult(u, "update")
	if err := v.decode(old, true, res); err != nil {
		return nil, err
	}
	res.Warnings = nil // the stored object's pruned fields are not the request's
	if err := v.decode(u, false, res); err != nil {
		return nil, err
	}
	oldMeta, err := meta.Accessor(old)
	if err != nil {
		return nil, &wire.Error{Code: wire.CodeInvalidObject, Message: "oldObject: " + err.Error()}
	}
	newMeta, err := meta.Accessor(u)
	if err != nil {
		return nil, &wire.Error{Code: wire.CodeInvalidObject, Message: "object: " + err.Error()}
	}
	// A stored object has system fields and a resourceVersion.
	if oldMeta.GetUID() == "" {
		rest.FillObjectMetaSystemFields(oldMeta)
	}
	if oldMeta.GetResourceVersion() == "" {
		oldMeta.SetResourceVersion("1")
	}
	if oldMeta.GetGeneration() == 0 {
		oldMeta.SetGeneration(1)
	}
	if v.strategy.namespaceScoped && oldMeta.GetNamespace() == "" {
		oldMeta.SetNamespace(metav1.NamespaceDefault)
	}
	if !v.strategy.namespaceScoped {
		oldMeta.SetNamespace("")
	}
	if newMeta.GetResourceVersion() == "" {
		newMeta.SetResourceVersion(oldMeta.GetResourceVersion())
	}
	run, rec := &crRun{}, &warningRecorder{}
	err = rest.BeforeUpdate(v.strategy, v.requestContext(u, run, rec), u, old)
	v.finish(res, u, run, rec, err)
	return res, nil
}

// finish fills res from the outcome of BeforeCreate/BeforeUpdate.
func (v *CRDVersion) finish(res *wire.ObjectResult, u *unstructured.Unstructured, run *crRun, rec *warningRecorder, err error) {
	res.Name = u.GetName()
	res.Namespace = u.GetNamespace()
	// Ratcheted errors come in the CEL validator's (random) map order.
	sort.Strings(rec.list)
	res.Warnings = append(res.Warnings, rec.list...)
	res.CELSkipped = run.celSkipped
	if run.celRan {
		if run.remaining < 0 {
			res.Cost, res.CostExceeded = RuntimeCELCostBudget, true
		} else {
			res.Cost = uint64(RuntimeCELCostBudget - run.remaining)
		}
	}
	if err == nil {
		res.Valid = true
		return
	}
	var status apierrors.APIStatus
	if !errors.As(err, &status) {
		res.Reason, res.Code, res.Message = string(metav1.StatusReasonInternalError), 500, err.Error()
		return
	}
	st := status.Status()
	res.Reason, res.Code, res.Message = string(st.Reason), st.Code, st.Message
	if st.Details == nil {
		return
	}
	rules := map[string]*wire.RuleRef{}
	for e := range run.celErrs {
		if r := v.attributeRule(e); r != nil {
			rules[e.Field+"\x00"+e.ErrorBody()] = r
		}
	}
	for _, c := range st.Details.Causes {
		res.Errors = append(res.Errors, wire.FieldError{Field: c.Field, Type: string(c.Type), Message: c.Message, Rule: rules[c.Field+"\x00"+c.Message]})
	}
}

// warningRecorder collects warning.AddWarning texts (ratcheted errors).
type warningRecorder struct {
	mu   sync.Mutex
	list []string
}

func (r *warningRecorder) AddWarning(agent, text string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, w := range r.list {
		if w == text {
			return
		}
	}
	r.list = append(r.list, text)
}

// attributeRule finds the x-kubernetes-validations rule that produced a CEL
// validator error: a rule on a schema node along the error's field path
// (the node itself, or an ancestor whose rule names the field in fieldPath)
// whose message, or default message "failed rule: RULE", or runtime error
// text matches the error's detail; a rule with a messageExpression matches
// any detail. Errors that belong to no single rule (budget exhausted) get nil.
func (v *CRDVersion) attributeRule(e *field.Error) *wire.RuleRef {
	errField := e.Field
	if errField == "<nil>" { // the root (a nil field.Path)
		errField = ""
	}
	steps := splitFieldPath(errField)
	type node struct {
		s          *structuralschema.Structural
		path       string // field path of the node
		schemaPath string
	}
	nodes := []node{{s: v.structural, path: "", schemaPath: "openAPIV3Schema"}}
	cur := nodes[0]
	for _, st := range steps {
		var next node
		s := cur.s
		switch {
		case st.index && s.Items != nil:
			next = node{s: s.Items, path: cur.path + "[" + st.name + "]", schemaPath: cur.schemaPath + ".items"}
		case !st.index && s.Properties != nil:
			p, ok := s.Properties[st.name]
			if !ok {
				break
			}
			next = node{s: &p, path: joinField(cur.path, st.name), schemaPath: cur.schemaPath + ".properties[" + st.name + "]"}
		case st.index && s.AdditionalProperties != nil && s.AdditionalProperties.Structural != nil:
			next = node{s: s.AdditionalProperties.Structural, path: cur.path + "[" + st.name + "]", schemaPath: cur.schemaPath + ".additionalProperties"}
		}
		if next.s == nil {
			break
		}
		nodes = append(nodes, next)
		cur = next
	}
	var fallback *wire.RuleRef
	for i := len(nodes) - 1; i >= 0; i-- {
		n := nodes[i]
		for _, r := range allRules(n.s) {
			// A rule's failure is reported at its fieldPath, an evaluation
			// error at the node.
			target := n.path
			if r.rule.FieldPath != "" && !strings.Contains(e.Detail, "rule: ") {
				p, _, err := cel.ValidFieldPath(r.rule.FieldPath, n.s)
				if err != nil {
					continue
				}
				// kube-apiserver appends the normalized path as one child
				// (fldPath.Child), even when it starts with "[".
				if target == "" {
					target = p.String()
				} else {
					target += "." + p.String()
				}
			}
			if target != errField {
				continue
			}
			ref := &wire.RuleRef{
				SchemaPath:        n.schemaPath + r.prefix + ".x-kubernetes-validations[" + strconv.Itoa(r.index) + "]",
				Rule:              r.rule.Rule,
				Message:           r.rule.Message,
				MessageExpression: r.rule.MessageExpression,
				FieldPath:         r.rule.FieldPath,
			}
			if r.rule.Reason != nil {
				ref.Reason = string(*r.rule.Reason)
			}
			ruleString := strings.TrimSpace(r.rule.Rule)
			if m := strings.TrimSpace(r.rule.Message); m != "" {
				ruleString = m
			}
			switch {
			case e.Detail == strings.TrimSpace(r.rule.Message) && r.rule.Message != "",
				e.Detail == "failed rule: "+ruleString,
				strings.HasSuffix(e.Detail, "rule: "+ruleString):
				return ref
			case r.rule.MessageExpression != "" && fallback == nil:
				fallback = ref
			}
		}
	}
	return fallback
}

type indexedRule struct {
	rule   apiextensionsv1.ValidationRule
	index  int
	prefix string // ".allOf[i]" for rules of allOf entries
}

// allRules lists a node's rules and those of its allOf entries (which the
// CEL validator also runs).
func allRules(s *structuralschema.Structural) []indexedRule {
	var out []indexedRule
	for i, r := range s.XValidations {
		out = append(out, indexedRule{rule: r, index: i})
	}
	if s.ValueValidation != nil {
		for j, a := range s.ValueValidation.AllOf {
			for i, r := range a.XValidations {
				out = append(out, indexedRule{rule: r, index: i, prefix: ".allOf[" + strconv.Itoa(j) + "]"})
			}
		}
	}
	return out
}

type pathStep struct {
	name  string
	index bool // [name]: a list index or map key
}

// splitFieldPath splits a field.Path string ("spec.a[0].b[key]") into steps.
func splitFieldPath(p string) []pathStep {
	var out []pathStep
	for p != "" {
		tok, rest := nextPathToken(p)
		if strings.HasPrefix(tok, "[") && strings.HasSuffix(tok, "]") {
			out = append(out, pathStep{name: tok[1 : len(tok)-1], index: true})
		} else if tok != "" {
			out = append(out, pathStep{name: tok})
		}
		p = rest
	}
	return out
}

func joinField(base, child string) string {
	switch {
	case base == "":
		return child
	case child == "":
		return base
	case strings.HasPrefix(child, "["):
		return base + child
	}
	return base + "." + child
}
