// Package admissionref is the native reference for celwasm's admission
// engine (issue 21): it runs kube-apiserver's own MutatingAdmissionPolicy and
// ValidatingAdmissionPolicy admission plugins (k8s.io/apiserver v0.37.2)
// natively, wired as kube-apiserver wires them, over fake clients that hold
// the request's documents. The differential test compares the engine's
// answers with this package's (README.md beside conformance/admission/cases).
package admissionref

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"time"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	corev1 "k8s.io/api/core/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	utilnet "k8s.io/apimachinery/pkg/util/net"
	"k8s.io/apiserver/pkg/admission"
	"k8s.io/apiserver/pkg/admission/initializer"
	"k8s.io/apiserver/pkg/admission/plugin/policy/mutating"
	"k8s.io/apiserver/pkg/admission/plugin/policy/validating"
	auditinternal "k8s.io/apiserver/pkg/apis/audit"
	"k8s.io/apiserver/pkg/audit"
	"k8s.io/apiserver/pkg/authentication/user"
	"k8s.io/apiserver/pkg/authorization/authorizerfactory"
	"k8s.io/apiserver/pkg/authorization/union"
	"k8s.io/apiserver/pkg/cel/environment"
	"k8s.io/apiserver/pkg/endpoints/filters"
	"k8s.io/apiserver/pkg/endpoints/handlers/responsewriters"
	"k8s.io/apiserver/pkg/features"
	"k8s.io/apiserver/pkg/util/compatibility"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/client-go/discovery"
	fakediscovery "k8s.io/client-go/discovery/fake"
	dynamicfake "k8s.io/client-go/dynamic/fake"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/kubernetes/fake"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/openapi"
	"k8s.io/kubernetes/plugin/pkg/auth/authorizer/rbac"

	"github.com/celwasm/celwasm/wire"
)

// Defaults of the admit request (wire.AdmitRequest).
const (
	DefaultUser      = "kubernetes-admin"
	DefaultNamespace = "default"
	// namespaceNameLabel is the label kube-apiserver puts on every Namespace.
	namespaceNameLabel = "kubernetes.io/metadata.name"
)

// DefaultGroups are the default user's groups.
var DefaultGroups = []string{user.SystemPrivilegedGroup, user.AllAuthenticated}

// InvalidPolicyError is Admit's error for a policy or binding kube-apiserver
// refuses to create: Err has the code wire.CodeInvalidPolicy and
// kube-apiserver's Status message; FieldErrors are the Status causes.
type InvalidPolicyError struct {
	Err         *wire.Error
	FieldErrors []wire.FieldError
}

func (e *InvalidPolicyError) Error() string { return e.Err.Error() }
func (e *InvalidPolicyError) Unwrap() error { return e.Err }

func badRequest(format string, args ...any) error {
	return &wire.Error{Code: wire.CodeBadRequest, Message: fmt.Sprintf(format, args...)}
}

func invalidObject(format string, args ...any) error {
	return &wire.Error{Code: wire.CodeInvalidObject, Message: fmt.Sprintf(format, args...)}
}

// CompatibilityVersion is the compatibility version of the CEL environment
// the plugins use: environment.DefaultCompatibilityVersion(), fixed for the
// process (kube-apiserver derives it from its effective version at start).
func CompatibilityVersion() string {
	v := environment.DefaultCompatibilityVersion()
	return fmt.Sprintf("%d.%d", v.Major(), v.Minor())
}

// Admit runs the request's objects through kube-apiserver's admission chain
// (MutatingAdmissionPolicy with reinvocation, then ValidatingAdmissionPolicy)
// over a fake cluster holding req.Documents. Errors are *wire.Error, or
// *InvalidPolicyError (which unwraps to a *wire.Error).
func Admit(ctx context.Context, req *wire.AdmitRequest) (*wire.AdmitResponse, error) {
	return AdmitWithOptions(ctx, req, Options{})
}

// AdmitWithOptions is Admit with Options.
func AdmitWithOptions(ctx context.Context, req *wire.AdmitRequest, opts Options) (*wire.AdmitResponse, error) {
	if err := loadBuiltin(); err != nil {
		return nil, err
	}
	if !utilfeature.DefaultFeatureGate.Enabled(features.MutatingAdmissionPolicy) {
		return nil, errors.New("admissionref: the MutatingAdmissionPolicy feature gate is off")
	}
	if cv := req.CompatibilityVersion; cv != "" && cv != CompatibilityVersion() {
		return nil, &wire.Error{Code: wire.CodeInvalidEnv, Message: fmt.Sprintf("admissionref: compatibility version %q: the reference runs kube-apiserver's plugins only at their process-wide compatibility version %s", cv, CompatibilityVersion())}
	}
	c, err := newCluster(req.Documents)
	if err != nil {
		return nil, err
	}
	c.opts = opts
	items := make([]*item, len(req.Requests))
	for i := range req.Requests {
		it, err := c.newItem(i, &req.Requests[i])
		if err != nil {
			return nil, err
		}
		items[i] = it
	}
	c.addNamespaces(items)

	userInfo := &user.DefaultInfo{Name: req.User, Groups: req.Groups}
	if userInfo.Name == "" && len(userInfo.Groups) == 0 {
		userInfo.Groups = DefaultGroups
	}
	if userInfo.Name == "" {
		userInfo.Name = DefaultUser
	}

	stop := make(chan struct{})
	defer close(stop)
	chain, err := c.start(ctx, stop)
	if err != nil {
		return nil, err
	}
	resp := &wire.AdmitResponse{Results: make([]wire.AdmitResult, len(items)), Warnings: typeCheck(c.vaps, c.mapper, c.openapi)}
	for i, it := range items {
		res, err := c.admitWhenReady(ctx, chain, it, userInfo)
		if err != nil {
			return nil, err
		}
		resp.Results[i] = *res
	}
	return resp, nil
}

// cluster is what the fake API server holds.
type cluster struct {
	typed      []runtime.Object             // client-go kinds
	custom     []*unstructured.Unstructured // custom resources
	namespaces map[string]*corev1.Namespace // given or synthesized
	nsOrder    []string
	crds       []*apiextensionsv1.CustomResourceDefinition
	vaps       []*admissionregistrationv1.ValidatingAdmissionPolicy
	opts       Options
	mapper     meta.RESTMapper
	openapi    *openAPIClient
	defaulter  *crdDefaulter
	objects    admission.ObjectInterfaces
}

func decodeObject(raw json.RawMessage, what string) (*unstructured.Unstructured, error) {
	// kube-apiserver's JSON decoding of unstructured objects: integers
	// become int64, other numbers float64.
	var v any
	if err := utiljson.Unmarshal(raw, &v); err != nil {
		return nil, invalidObject("%s: %v", what, err)
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, invalidObject("%s: not a Kubernetes object: want a JSON object", what)
	}
	u := &unstructured.Unstructured{Object: m}
	gvk := u.GroupVersionKind()
	if gvk.Kind == "" || gvk.Version == "" {
		return nil, invalidObject("%s: not a Kubernetes object: apiVersion and kind are required", what)
	}
	if _, err := meta.Accessor(u); err != nil {
		return nil, invalidObject("%s: metadata: %v", what, err)
	}
	if md, ok := m["metadata"]; ok {
		if _, ok := md.(map[string]any); !ok {
			return nil, invalidObject("%s: metadata: want a JSON object", what)
		}
		// ObjectMeta as kube-apiserver decodes it (labels and annotations
		// are string maps, and so on).
		var om metav1.ObjectMeta
		if err := runtime.DefaultUnstructuredConverter.FromUnstructured(md.(map[string]any), &om); err != nil {
			return nil, invalidObject("%s: metadata: %v", what, err)
		}
	}
	return u, nil
}

func newCluster(documents []json.RawMessage) (*cluster, error) {
	c := &cluster{namespaces: map[string]*corev1.Namespace{}}
	var docs []*unstructured.Unstructured
	for i, raw := range documents {
		u, err := decodeObject(raw, fmt.Sprintf("documents[%d]", i))
		if err != nil {
			return nil, err
		}
		if u.GetKind() == "List" && u.GetAPIVersion() == "v1" {
			l, err := u.ToList()
			if err != nil {
				return nil, invalidObject("documents[%d]: %v", i, err)
			}
			for j := range l.Items {
				docs = append(docs, &l.Items[j])
			}
			continue
		}
		docs = append(docs, u)
	}
	// CRDs first: they give the kinds of the custom resources.
	for _, u := range docs {
		if u.GroupVersionKind() != apiextensionsv1.SchemeGroupVersion.WithKind("CustomResourceDefinition") {
			continue
		}
		crd := &apiextensionsv1.CustomResourceDefinition{}
		if err := runtime.DefaultUnstructuredConverter.FromUnstructured(u.Object, crd); err != nil {
			return nil, invalidObject("CustomResourceDefinition %q: %v", u.GetName(), err)
		}
		apiextensionsv1.SetObjectDefaults_CustomResourceDefinition(crd)
		c.crds = append(c.crds, crd)
	}
	c.mapper = restMapperFor(c.crds)
	var err error
	if c.openapi, err = newOpenAPIClient(c.crds); err != nil {
		return nil, invalidObject("%v", err)
	}
	if c.defaulter, err = newCRDDefaulter(c.crds); err != nil {
		return nil, invalidObject("%v", err)
	}
	c.objects = &objectInterfaces{
		RuntimeObjectInterfaces: admission.NewObjectInterfacesFromScheme(runtime.NewScheme()).(*admission.RuntimeObjectInterfaces),
		defaulter:               c.defaulter,
	}

	for _, u := range docs {
		gvk := u.GroupVersionKind()
		if gvk.Group == admissionregistrationv1.GroupName && gvk.Version == "v1" {
			obj, err := checkPolicy(u)
			if err != nil {
				return nil, err
			}
			if obj != nil {
				if vap, ok := obj.(*admissionregistrationv1.ValidatingAdmissionPolicy); ok {
					c.vaps = append(c.vaps, vap)
				}
				c.typed = append(c.typed, obj)
				continue
			}
		}
		if gvk == apiextensionsv1.SchemeGroupVersion.WithKind("CustomResourceDefinition") {
			continue
		}
		mapping, err := c.mapper.RESTMapping(gvk.GroupKind(), gvk.Version)
		if err != nil {
			return nil, invalidObject("%s %q: %v", gvk.Kind, u.GetName(), err)
		}
		if mapping.Scope.Name() == meta.RESTScopeNameNamespace {
			if u.GetNamespace() == "" {
				u.SetNamespace(DefaultNamespace) // kubectl apply's default
			}
		} else {
			u.SetNamespace("")
		}
		if gvk == corev1.SchemeGroupVersion.WithKind("Namespace") {
			ns := &corev1.Namespace{}
			if err := runtime.DefaultUnstructuredConverter.FromUnstructured(u.Object, ns); err != nil {
				return nil, invalidObject("Namespace %q: %v", u.GetName(), err)
			}
			c.addNamespace(ns)
			continue
		}
		if clientgoscheme.Scheme.Recognizes(gvk) {
			obj, err := clientgoscheme.Scheme.New(gvk)
			if err != nil {
				return nil, err
			}
			if err := runtime.DefaultUnstructuredConverter.FromUnstructured(u.Object, obj); err != nil {
				return nil, invalidObject("%s %q: %v", gvk.Kind, u.GetName(), err)
			}
			c.typed = append(c.typed, obj)
			continue
		}
		c.custom = append(c.custom, u)
	}
	return c, nil
}

// addNamespace stores a Namespace with the label kube-apiserver's namespace
// strategy always sets.
func (c *cluster) addNamespace(ns *corev1.Namespace) {
	if ns.Labels == nil {
		ns.Labels = map[string]string{}
	}
	ns.Labels[namespaceNameLabel] = ns.Name
	if _, ok := c.namespaces[ns.Name]; !ok {
		c.nsOrder = append(c.nsOrder, ns.Name)
	}
	c.namespaces[ns.Name] = ns
}

// addNamespaces synthesizes the namespaces the requests and documents use
// but the documents do not give.
func (c *cluster) addNamespaces(items []*item) {
	need := func(name string) {
		if name == "" {
			return
		}
		if _, ok := c.namespaces[name]; !ok {
			c.addNamespace(&corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name}})
		}
	}
	for _, it := range items {
		if it.gvk != corev1.SchemeGroupVersion.WithKind("Namespace") {
			need(it.namespace)
		}
	}
	for _, o := range c.typed {
		if m, err := meta.Accessor(o); err == nil {
			need(m.GetNamespace())
		}
	}
	for _, u := range c.custom {
		need(u.GetNamespace())
	}
}

// objectInterfaces are the scheme's, with kube-apiserver's defaulting of
// custom resources (structural schema defaults) after a mutation.
type objectInterfaces struct {
	*admission.RuntimeObjectInterfaces
	defaulter runtime.ObjectDefaulter
}

func (o *objectInterfaces) GetObjectDefaulter() runtime.ObjectDefaulter { return o.defaulter }

// clientset is the fake clientset whose discovery serves /openapi/v3.
type clientset struct {
	*fake.Clientset
	disc discovery.DiscoveryInterfaces
}

func (c *clientset) Discovery() discovery.DiscoveryInterfaces { return c.disc }

type fakeDiscovery struct {
	*fakediscovery.FakeDiscovery
	openapi openapi.Client
}

func (d *fakeDiscovery) OpenAPIV3() openapi.Client { return d.openapi }

type noConfig struct{}

func (noConfig) ConfigFor(string) (io.Reader, error) { return nil, nil }

// start builds the admission chain as kube-apiserver does: the plugins
// registered, initialized with the clients, informers, authorizer, feature
// gates and RESTMapper, chained (with reinvocation) and audited.
func (c *cluster) start(ctx context.Context, stop chan struct{}) (admission.Interface, error) {
	objs := append([]runtime.Object(nil), c.typed...)
	for _, name := range c.nsOrder {
		objs = append(objs, c.namespaces[name])
	}
	fc := fake.NewClientset(objs...)
	client := &clientset{Clientset: fc, disc: &fakeDiscovery{FakeDiscovery: fc.Discovery().(*fakediscovery.FakeDiscovery), openapi: c.openapi}}
	dyn := dynamicfake.NewSimpleDynamicClientWithCustomListKinds(runtime.NewScheme(), c.listKinds())
	for _, u := range c.custom {
		mapping, err := c.mapper.RESTMapping(u.GroupVersionKind().GroupKind(), u.GroupVersionKind().Version)
		if err != nil {
			return nil, err
		}
		if err := dyn.Tracker().Create(mapping.Resource, u.DeepCopy(), u.GetNamespace()); err != nil {
			return nil, invalidObject("%s %q: %v", u.GetKind(), u.GetName(), err)
		}
	}
	factory := informers.NewSharedInformerFactory(client, 0)

	rbacV1 := factory.Rbac().V1()
	rbacAuthz := rbac.New(
		&rbac.RoleGetter{Lister: rbacV1.Roles().Lister()},
		&rbac.RoleBindingLister{Lister: rbacV1.RoleBindings().Lister()},
		&rbac.ClusterRoleGetter{Lister: rbacV1.ClusterRoles().Lister()},
		&rbac.ClusterRoleBindingLister{Lister: rbacV1.ClusterRoleBindings().Lister()},
	)
	authz, err := union.New(
		union.NamedAuthorizer{AuthorizerName: "kubernetes.io/system-privileged-group", Authorizer: authorizerfactory.NewPrivilegedGroups(user.SystemPrivilegedGroup)},
		union.NamedAuthorizer{AuthorizerName: "rbac", Authorizer: rbacAuthz},
	)
	if err != nil {
		return nil, err
	}

	plugins := admission.NewPlugins()
	mutating.Register(plugins)
	validating.Register(plugins)
	init := initializer.New(client, dyn, factory, authz, utilfeature.DefaultFeatureGate, compatibility.DefaultBuildEffectiveVersion(), stop, c.mapper)
	chain, err := plugins.NewFromPlugins([]string{mutating.PluginName, validating.PluginName}, noConfig{}, init, nil)
	if err != nil {
		return nil, fmt.Errorf("admissionref: admission plugins: %w", err)
	}
	factory.Start(stop)
	for typ, ok := range factory.WaitForCacheSync(stop) {
		if !ok {
			return nil, fmt.Errorf("admissionref: informer %v did not sync", typ)
		}
	}
	wctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := c.openapi.waitServed(wctx); err != nil {
		return nil, fmt.Errorf("admissionref: the type converter manager did not fetch /openapi/v3: %w", err)
	}
	return admission.WithAudit(chain), nil
}

func (c *cluster) listKinds() map[schema.GroupVersionResource]string {
	m := map[schema.GroupVersionResource]string{}
	for _, crd := range c.crds {
		for _, v := range crd.Spec.Versions {
			m[schema.GroupVersionResource{Group: crd.Spec.Group, Version: v.Name, Resource: crd.Spec.Names.Plural}] = crd.Spec.Names.ListKind
		}
	}
	return m
}

// item is one admission request, decoded.
type item struct {
	index     int
	op        admission.Operation
	object    *unstructured.Unstructured
	oldObject *unstructured.Unstructured
	original  map[string]any
	gvk       schema.GroupVersionKind
	gvr       schema.GroupVersionResource
	namespace string
	name      string
}

func present(raw json.RawMessage) bool {
	t := bytes.TrimSpace(raw)
	return len(t) > 0 && !bytes.Equal(t, []byte("null"))
}

func (c *cluster) newItem(i int, r *wire.AdmitItem) (*item, error) {
	it := &item{index: i}
	what := fmt.Sprintf("requests[%d]", i)
	op := strings.ToUpper(r.Operation)
	if op == "" {
		op = "CREATE"
		if present(r.OldObject) {
			op = "UPDATE"
		}
	}
	it.op = admission.Operation(op)
	switch it.op {
	case admission.Create, admission.Connect:
		if present(r.OldObject) {
			return nil, badRequest("%s: %s takes no oldObject", what, op)
		}
	case admission.Update:
		if !present(r.OldObject) {
			return nil, badRequest("%s: UPDATE needs oldObject", what)
		}
	case admission.Delete:
		if present(r.Object) || !present(r.OldObject) {
			return nil, badRequest("%s: DELETE takes the deleted object as oldObject and no object", what)
		}
	default:
		return nil, badRequest("%s: operation %q: want CREATE, UPDATE, DELETE or CONNECT", what, r.Operation)
	}
	if it.op != admission.Delete && !present(r.Object) {
		return nil, badRequest("%s: missing object", what)
	}
	var err error
	if present(r.Object) {
		if it.object, err = decodeObject(r.Object, what+".object"); err != nil {
			return nil, err
		}
		it.original = it.object.DeepCopy().Object
	}
	if present(r.OldObject) {
		if it.oldObject, err = decodeObject(r.OldObject, what+".oldObject"); err != nil {
			return nil, err
		}
	}
	ref := it.object
	if ref == nil {
		ref = it.oldObject
	}
	it.gvk = ref.GroupVersionKind()
	if it.object != nil && it.oldObject != nil && it.oldObject.GroupVersionKind() != it.gvk {
		return nil, invalidObject("%s: oldObject is a %s, object a %s", what, it.oldObject.GroupVersionKind(), it.gvk)
	}
	mapping, err := c.mapper.RESTMapping(it.gvk.GroupKind(), it.gvk.Version)
	if err != nil {
		return nil, invalidObject("%s: %v", what, err)
	}
	it.gvr = mapping.Resource
	it.name = ref.GetName()
	if mapping.Scope.Name() == meta.RESTScopeNameNamespace {
		it.namespace = ref.GetNamespace()
		if it.namespace == "" {
			it.namespace = r.Namespace
		}
		if it.namespace == "" {
			it.namespace = DefaultNamespace
		}
	} else if it.gvk == corev1.SchemeGroupVersion.WithKind("Namespace") && it.op != admission.Create {
		it.namespace = it.name
	}
	return it, nil
}

// notYetServed is the mutating dispatcher's message while its type
// converter manager has not stored the /openapi/v3 paths it fetched.
const notYetServed = "There can be a delay between when CustomResourceDefinitions are created and when they are available."

// admitWhenReady runs the chain, again while the mutating dispatcher says
// it has no schema yet (its first /openapi/v3 fetch runs in a goroutine;
// every kind the reference maps has a schema).
func (c *cluster) admitWhenReady(ctx context.Context, chain admission.Interface, it *item, userInfo user.Info) (*wire.AdmitResult, error) {
	for attempt := 0; ; attempt++ {
		res, err := c.admit(ctx, chain, it, userInfo)
		if err != nil || res.Code != http.StatusServiceUnavailable || !strings.Contains(res.Message, notYetServed) || attempt == 50 {
			return res, err
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(20 * time.Millisecond):
		}
	}
}

func (c *cluster) admit(ctx context.Context, chain admission.Interface, it *item, userInfo user.Info) (*wire.AdmitResult, error) {
	var obj, old runtime.Object
	if it.object != nil {
		obj = it.object.DeepCopy()
	}
	if it.oldObject != nil {
		old = it.oldObject.DeepCopy()
	}
	objects := c.objects
	var typedObjs *typedObjects
	if c.opts.TypedBuiltins {
		var err error
		if typedObjs, err = typed(it); err != nil {
			return nil, err
		}
		if typedObjs != nil {
			obj, old, objects = typedObjs.object, typedObjs.oldObject, typedObjs.interfaces
		}
	}
	var options runtime.Object
	switch it.op {
	case admission.Create:
		options = &metav1.CreateOptions{TypeMeta: metav1.TypeMeta{APIVersion: "meta.k8s.io/v1", Kind: "CreateOptions"}}
	case admission.Update:
		options = &metav1.UpdateOptions{TypeMeta: metav1.TypeMeta{APIVersion: "meta.k8s.io/v1", Kind: "UpdateOptions"}}
	case admission.Delete:
		options = &metav1.DeleteOptions{TypeMeta: metav1.TypeMeta{APIVersion: "meta.k8s.io/v1", Kind: "DeleteOptions"}}
	}
	attrs := admission.NewAttributesRecord(obj, old, it.gvk, it.namespace, it.name, it.gvr, "", it.op, options, false, userInfo)

	res := &wire.AdmitResult{Allowed: true, Warnings: []string{}, AuditAnnotations: map[string]string{}}
	var admitErr error
	// kube-apiserver's warning recorder (WithWarningRecorder) and audit
	// context around the chain; the Warning headers are what clients see.
	handler := filters.WithWarningRecorder(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		actx := audit.WithAuditContext(r.Context())
		ac := audit.AuditContextFrom(actx)
		if err := ac.Init(audit.RequestAuditConfig{Level: auditinternal.LevelMetadata}, nil); err != nil {
			admitErr = err
			return
		}
		if m, ok := chain.(admission.MutationInterface); ok && chain.Handles(it.op) {
			admitErr = m.Admit(actx, attrs, objects)
		}
		if admitErr == nil {
			if v, ok := chain.(admission.ValidationInterface); ok && chain.Handles(it.op) {
				admitErr = v.Validate(actx, attrs, objects)
			}
		}
		for k, v := range ac.GetEventAnnotations() {
			res.AuditAnnotations[k] = v
		}
		w.WriteHeader(http.StatusOK)
	}))
	rec := httptest.NewRecorder()
	r := httptest.NewRequest(http.MethodPost, "/", nil).WithContext(ctx)
	handler.ServeHTTP(rec, r)
	headers, errs := utilnet.ParseWarningHeaders(rec.Result().Header["Warning"])
	if len(errs) > 0 {
		return nil, fmt.Errorf("admissionref: Warning headers: %v", errs)
	}
	for _, h := range headers {
		res.Warnings = append(res.Warnings, h.Text)
	}
	if admitErr != nil {
		st := responsewriters.ErrorToAPIStatus(admitErr)
		res.Allowed = false
		res.Message = st.Message
		res.Reason = string(st.Reason)
		res.Code = st.Code
	}
	if it.object != nil && typedObjs != nil {
		b, err := typedObjs.patched(it, attrs.GetObject())
		if err != nil {
			return nil, err
		}
		res.PatchedObject = b
	} else if it.object != nil {
		after, ok := attrs.GetObject().(*unstructured.Unstructured)
		if !ok {
			return nil, fmt.Errorf("admissionref: the chain left a %T", attrs.GetObject())
		}
		if !equality.Semantic.DeepEqual(after.Object, it.original) {
			b, err := json.Marshal(after.Object)
			if err != nil {
				return nil, err
			}
			res.PatchedObject = b
		}
	}
	if res.PatchedObject == nil {
		res.PatchedObject = json.RawMessage("null")
	}
	return res, nil
}

var _ kubernetes.Interface = &clientset{}
