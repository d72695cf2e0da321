// Package admission answers admission requests offline as kube-apiserver's
// admission chain would: MutatingAdmissionPolicy, then
// ValidatingAdmissionPolicy, each with k8s.io/apiserver's own dispatchers,
// validators, patchers and matchers (pkg/admission/plugin/policy), the
// policies' CEL from pkg/admission/plugin/cel, kube-apiserver's RBAC
// authorizer behind the system:masters short-cut, and namespaces and params
// served from the objects given instead of informers. Shapes:
// wire.AdmitRequest and wire.AdmitResponse (docs/abi.md, "admit").
package admission

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	corev1 "k8s.io/api/core/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/admission"
	"k8s.io/apiserver/pkg/admission/plugin/policy/generic"
	"k8s.io/apiserver/pkg/admission/plugin/policy/matching"
	"k8s.io/apiserver/pkg/admission/plugin/policy/mutating"
	"k8s.io/apiserver/pkg/admission/plugin/policy/validating"
	auditinternal "k8s.io/apiserver/pkg/apis/audit"
	"k8s.io/apiserver/pkg/authentication/user"
	"k8s.io/apiserver/pkg/authorization/authorizer"
	"k8s.io/apiserver/pkg/cel/environment"
	"k8s.io/apiserver/pkg/warning"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"

	"github.com/celwasm/celwasm/wasm/engine"
	"github.com/celwasm/celwasm/wire"
)

// Admit answers an admit request. An invalid policy or binding is an
// invalid_policy error; a document or object that is not a Kubernetes object,
// or of a kind the cluster does not serve, is an invalid_object error, and a
// request of the wrong shape (an UPDATE without oldObject, ...) a bad_request
// error, each naming the item.
func Admit(ctx context.Context, req *wire.AdmitRequest) (*wire.AdmitResponse, error) {
	envs, err := envSet(req.CompatibilityVersion)
	if err != nil {
		return nil, err
	}
	c, err := loadCluster(req.Documents)
	if err != nil {
		return nil, err
	}
	if err := c.defaultAndValidate(envs); err != nil {
		return nil, err
	}
	authz, err := newAuthorizer(c.rbac)
	if err != nil {
		return nil, &wire.Error{Code: wire.CodeBadRequest, Message: "RBAC objects: " + err.Error()}
	}
	u := userInfo(req)
	out := &wire.AdmitResponse{Results: make([]wire.AdmitResult, 0, len(req.Requests)), Warnings: c.typeCheck()}
	h := c.hooks(envs)
	for i, item := range req.Requests {
		res, err := c.admit(ctx, h, authz, u, item)
		if err != nil {
			var we *wire.Error
			if errors.As(err, &we) {
				we.Message = fmt.Sprintf("requests[%d]: %s", i, we.Message)
				return nil, we
			}
			return nil, &wire.Error{Code: wire.CodeInternal, Message: fmt.Sprintf("requests[%d]: %v", i, err)}
		}
		out.Results = append(out.Results, *res)
	}
	return out, nil
}

// envSet is the CEL environment policies compile in: kube-apiserver 1.37's
// default compatibility version unless the request names one.
func envSet(v string) (*environment.EnvSet, error) {
	if v == "" {
		return environment.MustBaseEnvSet(environment.DefaultCompatibilityVersion()), nil
	}
	ver, err := engine.ParseCompatibilityVersion(v)
	if err != nil {
		return nil, err
	}
	return environment.MustBaseEnvSet(ver), nil
}

func userInfo(req *wire.AdmitRequest) user.Info {
	if req.User == "" && len(req.Groups) == 0 {
		return &user.DefaultInfo{Name: "kubernetes-admin", Groups: []string{user.SystemPrivilegedGroup, user.AllAuthenticated}}
	}
	return &user.DefaultInfo{Name: req.User, Groups: append([]string(nil), req.Groups...)}
}

// recordingAttributes keeps the audit annotations admission adds.
type recordingAttributes struct {
	admission.Attributes
	mu          sync.Mutex
	annotations map[string]string
}

func (r *recordingAttributes) AddAnnotation(key, value string) error {
	return r.AddAnnotationWithLevel(key, value, auditinternal.LevelMetadata)
}

func (r *recordingAttributes) AddAnnotationWithLevel(key, value string, level auditinternal.Level) error {
	if err := r.Attributes.AddAnnotationWithLevel(key, value, level); err != nil {
		return err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.annotations[key] = value
	return nil
}

type warnings struct {
	mu    sync.Mutex
	texts []string
}

func (w *warnings) AddWarning(_, text string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.texts = append(w.texts, text)
}

func (c *cluster) admit(ctx context.Context, h hooks, authz authorizer.Authorizer, u user.Info, item wire.AdmitItem) (*wire.AdmitResult, error) {
	op := admission.Operation(strings.ToUpper(item.Operation))
	if op == "" {
		op = admission.Create
		if present(item.OldObject) {
			op = admission.Update
		}
	}
	switch op {
	case admission.Create, admission.Connect:
		if present(item.OldObject) {
			return nil, badRequest("%s takes no oldObject", op)
		}
	case admission.Update:
		if !present(item.OldObject) {
			return nil, badRequest("UPDATE needs oldObject")
		}
	case admission.Delete:
		if present(item.Object) || !present(item.OldObject) {
			return nil, badRequest("DELETE takes the deleted object as oldObject and no object")
		}
	default:
		return nil, badRequest("operation %q: want CREATE, UPDATE, DELETE or CONNECT", item.Operation)
	}
	if op != admission.Delete && !present(item.Object) {
		return nil, badRequest("missing object")
	}
	var obj, old *unstructured.Unstructured
	var err error
	if present(item.Object) {
		if obj, err = decodeObject(item.Object); err != nil {
			return nil, invalidObject("object: %v", err)
		}
	}
	if present(item.OldObject) {
		if old, err = decodeObject(item.OldObject); err != nil {
			return nil, invalidObject("oldObject: %v", err)
		}
	}
	if obj != nil && old != nil && obj.GroupVersionKind() != old.GroupVersionKind() {
		return nil, invalidObject("oldObject is a %s, object a %s", old.GroupVersionKind(), obj.GroupVersionKind())
	}
	subject := obj
	if subject == nil {
		subject = old
	}
	gvk := subject.GroupVersionKind()
	info, ok := c.resources.lookup(gvk)
	if !ok {
		return nil, invalidObject("no resource serves kind %q in %q (give its CustomResourceDefinition with -f)", gvk.Kind, gvk.GroupVersion())
	}
	namespace := ""
	if info.namespaced {
		namespace = subject.GetNamespace()
		if namespace == "" {
			namespace = item.Namespace
		}
		if namespace == "" {
			namespace = metav1.NamespaceDefault
		}
	}
	if gvk.Group == "" && gvk.Kind == "Namespace" && op != admission.Create {
		namespace = subject.GetName()
	}
	var objRT, oldRT runtime.Object
	if obj != nil {
		objRT = obj
	}
	if old != nil {
		oldRT = old
	}
	attrs := &recordingAttributes{
		Attributes:  admission.NewAttributesRecord(objRT, oldRT, gvk, namespace, subject.GetName(), info.resource, "", op, nil, false, u),
		annotations: map[string]string{},
	}
	w := &warnings{}
	ctx = warning.WithWarningRecorder(ctx, w)

	nsLister := c.namespaceLister(namespace)
	matcher := matching.NewMatcher(nsLister, nil)
	o := c.defaulter.objectInterfaces()

	var original runtime.Object
	if obj != nil {
		original = obj.DeepCopy()
	}
	err = c.mutate(ctx, h.mutating, authz, matcher, attrs, o)
	if err == nil {
		err = c.validate(ctx, h.validating, authz, matcher, attrs, o)
	}
	res := &wire.AdmitResult{Allowed: true, Warnings: w.texts, AuditAnnotations: attrs.annotations, PatchedObject: json.RawMessage("null")}
	if res.Warnings == nil {
		res.Warnings = []string{}
	}
	if err != nil {
		res.Allowed = false
		var se *apierrors.StatusError
		if errors.As(err, &se) {
			res.Message, res.Reason, res.Code = se.ErrStatus.Message, string(se.ErrStatus.Reason), se.ErrStatus.Code
		} else {
			res.Message = err.Error()
		}
	}
	if now := attrs.GetObject(); original != nil && now != nil && !apiequality.Semantic.DeepEqual(original, now) {
		b, err := json.Marshal(now)
		if err != nil {
			return nil, err
		}
		res.PatchedObject = b
	}
	return res, nil
}

func badRequest(format string, args ...any) *wire.Error {
	return &wire.Error{Code: wire.CodeBadRequest, Message: fmt.Sprintf(format, args...)}
}

func invalidObject(format string, args ...any) *wire.Error {
	return &wire.Error{Code: wire.CodeInvalidObject, Message: fmt.Sprintf(format, args...)}
}

func present(raw json.RawMessage) bool {
	s := strings.TrimSpace(string(raw))
	return s != "" && s != "null"
}

// namespaceLister serves the namespaces given, and the request's own
// namespace as kube-apiserver's namespace controller labels it when it was
// not given (the matcher would otherwise ask the API server).
func (c *cluster) namespaceLister(namespace string) corelisters.NamespaceLister {
	idx := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{})
	for _, ns := range c.namespaces {
		_ = idx.Add(ns)
	}
	if _, ok := c.namespaces[namespace]; namespace != "" && !ok {
		_ = idx.Add(&corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: namespace, Labels: map[string]string{corev1.LabelMetadataName: namespace}}})
	}
	return corelisters.NewNamespaceLister(idx)
}

// paramSource serves a paramKind's objects to the dispatchers in place of
// kube-apiserver's informer for that kind (generic.PolicyHook.ParamInformer).
type paramSource struct{ lister cache.GenericLister }

func (p paramSource) Informer() cache.SharedIndexInformer { return syncedInformer{} }
func (p paramSource) Lister() cache.GenericLister         { return p.lister }

// syncedInformer is an informer whose cache holds every object from the
// start; the dispatchers only ask it whether it has synced.
type syncedInformer struct{ cache.SharedIndexInformer }

func (syncedInformer) HasSynced() bool { return true }

// params returns the param source and scope of a paramKind, or the
// configuration error kube-apiserver reports for a kind it does not serve.
func (c *cluster) params(pk *admissionregistrationv1.ParamKind) (*paramSource, meta.RESTScope, error) {
	if pk == nil {
		return nil, nil, nil
	}
	gv, err := schema.ParseGroupVersion(pk.APIVersion)
	if err != nil {
		return nil, nil, fmt.Errorf("failed to parse paramKind APIVersion: %w", err)
	}
	gvk := gv.WithKind(pk.Kind)
	info, ok := c.resources.lookup(gvk)
	if !ok {
		return nil, nil, fmt.Errorf("failed to find resource referenced by paramKind: '%v'", gvk)
	}
	idx := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})
	for _, o := range c.objects {
		if o.GroupVersionKind() == gvk {
			_ = idx.Add(o.DeepCopy())
		}
	}
	scope := meta.RESTScopeRoot
	if info.namespaced {
		scope = meta.RESTScopeNamespace
	}
	return &paramSource{lister: cache.NewGenericLister(idx, info.resource.GroupResource())}, scope, nil
}

// hooks are the policies with their bindings, compiled, as kube-apiserver's
// policy sources hand them to the dispatchers: a policy without bindings is
// left out, a paramKind the cluster does not serve is the hook's
// configuration error.
type hooks struct {
	validating []validating.PolicyHook
	mutating   []mutating.PolicyHook
}

func (c *cluster) hooks(envs *environment.EnvSet) hooks {
	return hooks{
		validating: policyHooks(c, c.vaps, c.vapBindings, validating.NewValidatingAdmissionPolicyAccessor,
			validating.NewValidatingAdmissionPolicyBindingAccessor, func(p *admissionregistrationv1.ValidatingAdmissionPolicy) validating.Validator {
				return compileVAP(envs, p)
			}),
		mutating: policyHooks(c, c.maps, c.mapBindings, mutating.NewMutatingAdmissionPolicyAccessor,
			mutating.NewMutatingAdmissionPolicyBindingAccessor, func(p *admissionregistrationv1.MutatingAdmissionPolicy) mutating.PolicyEvaluator {
				return compileMAP(envs, p)
			}),
	}
}

// policyHooks pairs each policy with its bindings and compiles it.
func policyHooks[P, B runtime.Object, E generic.Evaluator](c *cluster, policies []P, bindings []B,
	policyAccessor func(P) generic.PolicyAccessor, bindingAccessor func(B) generic.BindingAccessor, compile func(P) E) []generic.PolicyHook[P, B, E] {
	var out []generic.PolicyHook[P, B, E]
	for _, p := range policies {
		pa := policyAccessor(p)
		var bs []B
		for _, b := range bindings {
			if bindingAccessor(b).GetPolicyName().Name == pa.GetName() {
				bs = append(bs, b)
			}
		}
		if len(bs) == 0 {
			continue
		}
		hook := generic.PolicyHook[P, B, E]{Policy: p, Bindings: bs, Evaluator: compile(p)}
		ps, scope, err := c.params(pa.GetParamKind())
		if ps != nil {
			hook.ParamInformer, hook.ParamScope = ps, scope
		}
		hook.ConfigurationError = err
		out = append(out, hook)
	}
	return out
}

func (c *cluster) validate(ctx context.Context, hooks []validating.PolicyHook, authz authorizer.Authorizer, m *matching.Matcher, a admission.Attributes, o admission.ObjectInterfaces) error {
	if len(hooks) == 0 {
		return nil
	}
	return validating.NewDispatcher(authz, generic.NewPolicyMatcher(m)).Dispatch(ctx, a, o, hooks)
}

func (c *cluster) mutate(ctx context.Context, hooks []mutating.PolicyHook, authz authorizer.Authorizer, m *matching.Matcher, a admission.Attributes, o admission.ObjectInterfaces) error {
	if len(hooks) == 0 || a.GetObject() == nil {
		return nil
	}
	d := mutating.NewDispatcher(authz, m, typeConverters{c.resources})
	// kube-apiserver's admission chain runs the mutating plugins once more
	// when one asks for it (k8s.io/apiserver pkg/admission/reinvocation.go).
	if err := d.Dispatch(ctx, a, o, hooks); err != nil {
		return err
	}
	if rc := a.GetReinvocationContext(); rc.ShouldReinvoke() {
		rc.SetIsReinvoke()
		return d.Dispatch(ctx, a, o, hooks)
	}
	return nil
}
