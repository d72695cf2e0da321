// Command admission-probe is a measuring tool, not a module anyone loads: the
// expression module's exports plus a call of every upstream admission API the
// admission engine (wasm/admission) uses, so that the linker keeps what they
// cost. make build/admission-probe.wasm builds it like the admission module,
// against the patched copies (wasm/third_party/modfile.sh OUT.mod admission);
// go build without -modfile gives upstream's size (RATIONALE.md, "Admission
// module size").
package main

import (
	"context"
	"os"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/managedfields"
	"k8s.io/apiserver/pkg/admission"
	"k8s.io/apiserver/pkg/admission/plugin/cel"
	"k8s.io/apiserver/pkg/admission/plugin/policy/generic"
	"k8s.io/apiserver/pkg/admission/plugin/policy/matching"
	"k8s.io/apiserver/pkg/admission/plugin/policy/mutating"
	"k8s.io/apiserver/pkg/admission/plugin/policy/mutating/patch"
	"k8s.io/apiserver/pkg/admission/plugin/policy/validating"
	"k8s.io/apiserver/pkg/admission/plugin/webhook/matchconditions"
	"k8s.io/apiserver/pkg/authentication/user"
	"k8s.io/apiserver/pkg/authorization/authorizer"
	"k8s.io/apiserver/pkg/cel/environment"
	"k8s.io/apiserver/pkg/warning"
	corev1listers "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"

	"github.com/celwasm/celwasm/wasm/abi"
	"github.com/celwasm/celwasm/wasm/input"
	"github.com/celwasm/celwasm/wasm/module"
)

// paramInformer is what the engine puts in PolicyHook.ParamInformer.
type paramInformer struct {
	informer cache.SharedIndexInformer
	lister   cache.GenericLister
}

func (p paramInformer) Informer() cache.SharedIndexInformer { return p.informer }
func (p paramInformer) Lister() cache.GenericLister         { return p.lister }

type allow struct{}

func (allow) Authorize(context.Context, authorizer.Attributes) (authorizer.Decision, string, error) {
	return authorizer.DecisionAllow, "", nil
}

type staticTCM struct{ tc managedfields.TypeConverter }

func (s staticTCM) GetTypeConverter(schema.GroupVersionKind) managedfields.TypeConverter { return s.tc }
func (staticTCM) Run(context.Context)                                                    {}

type warnings struct{ w []string }

func (w *warnings) AddWarning(agent, text string) { w.w = append(w.w, text) }

func probe() error {
	scheme := runtime.NewScheme()
	_ = admissionregistrationv1.AddToScheme(scheme)
	_ = corev1.AddToScheme(scheme)
	_ = rbacv1.AddToScheme(scheme)
	o := admission.NewObjectInterfacesFromScheme(scheme)

	indexer := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})
	nsLister := corev1listers.NewNamespaceLister(indexer)
	m := matching.NewMatcher(nsLister, nil)
	var authz authorizer.UnconditionalAuthorizer = allow{}

	compiler, err := cel.NewCompositedCompiler(environment.MustBaseEnvSet(environment.DefaultCompatibilityVersion()))
	if err != nil {
		return err
	}
	vars := cel.OptionalVariableDeclarations{HasParams: true, HasAuthorizer: true}
	compiler.CompileAndStoreVariables([]cel.NamedExpressionAccessor{&validating.Variable{Name: "v", Expression: "1"}}, vars, environment.StoredExpressions)
	fp := admissionregistrationv1.Fail
	mc := matchconditions.NewMatcher(compiler.CompileCondition([]cel.ExpressionAccessor{&matchconditions.MatchCondition{Name: "m", Expression: "true"}}, vars, environment.StoredExpressions), &fp, "policy", "validate", "p")
	v := validating.NewValidator(
		compiler.CompileCondition([]cel.ExpressionAccessor{&validating.ValidationCondition{Expression: "true"}}, vars, environment.StoredExpressions),
		mc,
		compiler.CompileCondition([]cel.ExpressionAccessor{&validating.AuditAnnotationCondition{Key: "k", ValueExpression: "'v'"}}, vars, environment.StoredExpressions),
		compiler.CompileCondition([]cel.ExpressionAccessor{&validating.MessageExpressionCondition{MessageExpression: "'m'"}}, vars, environment.StoredExpressions),
		&fp, nil)
	_ = validating.NewValidatingAdmissionPolicyAccessor(&validating.Policy{})
	_ = validating.NewValidatingAdmissionPolicyBindingAccessor(&validating.PolicyBinding{})
	tc := &validating.TypeChecker{}
	_ = tc.Check(&validating.Policy{})

	vhook := validating.PolicyHook{
		Policy: &validating.Policy{}, Bindings: []*validating.PolicyBinding{{}}, Evaluator: v,
		ParamInformer: paramInformer{}, ParamScope: meta.RESTScopeNamespace,
	}
	vd := validating.NewDispatcher(authz, generic.NewPolicyMatcher(m))

	mcompiler, err := cel.NewCompositedCompiler(environment.MustBaseEnvSet(environment.DefaultCompatibilityVersion()))
	if err != nil {
		return err
	}
	jp := patch.NewJSONPatcher(mcompiler.CompileMutatingEvaluator(&patch.JSONPatchCondition{Expression: "[]"}, vars, environment.StoredExpressions))
	ap := patch.NewApplyConfigurationPatcher(mcompiler.CompileMutatingEvaluator(&patch.ApplyConfigurationCondition{Expression: "Object{}"}, vars, environment.StoredExpressions))
	_ = mutating.NewMutatingAdmissionPolicyAccessor(&mutating.Policy{})
	_ = mutating.NewMutatingAdmissionPolicyBindingAccessor(&mutating.PolicyBinding{})
	mhook := mutating.PolicyHook{
		Policy: &mutating.Policy{}, Bindings: []*mutating.PolicyBinding{{}},
		Evaluator: mutating.PolicyEvaluator{Matcher: mc, Mutators: []patch.Patcher{jp, ap}, CompositedCompiler: mcompiler},
	}
	tcm := staticTCM{managedfields.NewDeducedTypeConverter()}
	md := mutating.NewDispatcher(authz, m, tcm)

	w := &warnings{}
	ctx := warning.WithWarningRecorder(context.Background(), w)
	attr := admission.NewAttributesRecord(&corev1.ConfigMap{}, nil, corev1.SchemeGroupVersion.WithKind("ConfigMap"),
		"default", "cm", corev1.SchemeGroupVersion.WithResource("configmaps"), "", admission.Create,
		nil, false, &user.DefaultInfo{Name: "u"})
	if err := md.Dispatch(ctx, attr, o, []mutating.PolicyHook{mhook}); err != nil {
		return err
	}
	return vd.Dispatch(ctx, attr, o, []validating.PolicyHook{vhook})
}

func init() {
	h := abi.NewHandler()
	module.Serve(module.Table{
		Compile: h.Compile, Eval: h.Eval, EvalBatch: h.EvalBatch,
		Version: h.Version, Input: input.Handle, Free: h.Free, EvalActivation: h.EvalActivation,
	})
	if os.Getenv("CELWASM_ADMISSION_PROBE") != "" {
		if err := probe(); err != nil {
			os.Stderr.WriteString(err.Error() + "\n")
		}
	}
}

func main() {}
