package admission

// Validation of policies and bindings as kube-apiserver applies it when they
// are created: an adapted copy of k8s.io/kubernetes v1.37.2
// pkg/apis/admissionregistration/validation/validation.go (the parts for
// ValidatingAdmissionPolicy, ValidatingAdmissionPolicyBinding,
// MutatingAdmissionPolicy and MutatingAdmissionPolicyBinding; the webhook
// configuration parts are left out) and static_suffix.go, wrapped as the
// registry strategies' Validate (pkg/registry/admissionregistration/*/
// strategy.go) and k8s.io/apiserver v0.37.2 rest.ValidateCreate wrap them.
// k8s.io/kubernetes's validation is not linked into the module: it works on
// internal types and imports pkg/apis/core/validation. Changes from upstream:
//   - it works on the k8s.io/api/admissionregistration/v1 types the module
//     decodes, not on internal types; the one bad value rendered as a struct
//     (auditAnnotations beyond the limit) is rendered with the internal
//     type's field names, as upstream prints it;
//   - core/validation's ValidateQualifiedName is replaced by its body over
//     k8s.io/apimachinery's IsQualifiedName (with the same origin);
//   - only creation is validated, so there are no pre-existing expressions:
//     every expression compiles in the NewExpressions environment, and match
//     conditions are always validated;
//   - the CEL compilers (the strict-cost stateless compiler, or the
//     composited one when variables are used, as upstream chooses) are built
//     from the request's environment set, which is upstream's
//     MustBaseEnvSet(DefaultCompatibilityVersion()) unless the request names
//     a compatibility version;
//   - the declarative validation rest.ValidateCreate runs afterwards
//     (pkg/apis/admissionregistration/v1/zz_generated.validations.go) is
//     reduced to what it checks on these kinds at creation with its Beta
//     rules enforced, as 1.37 does by default: a binding's spec.policyName
//     and spec.validationActions are required; apimachinery's validate
//     package filters the handwritten errors it covers, as upstream;
//   - the paramKind/paramRef authorization check of the strategies is left
//     out: policies are taken as created by a cluster administrator, for
//     whom kube-apiserver skips it.
// validation_test.go runs the originals through kube-apiserver's registry
// strategies on the same objects and requires equal errors.

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/operation"
	"k8s.io/apimachinery/pkg/api/validate"
	"k8s.io/apimachinery/pkg/api/validate/content"
	genericvalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/sets"
	utilvalidation "k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
	plugincel "k8s.io/apiserver/pkg/admission/plugin/cel"
	"k8s.io/apiserver/pkg/admission/plugin/policy/mutating/patch"
	validatingadmissionpolicy "k8s.io/apiserver/pkg/admission/plugin/policy/validating"
	"k8s.io/apiserver/pkg/admission/plugin/webhook/matchconditions"
	"k8s.io/apiserver/pkg/cel"
	"k8s.io/apiserver/pkg/cel/environment"

	"github.com/celwasm/celwasm/wire"
)

// The group kinds kube-apiserver names in the Status message of an invalid
// object.
var (
	vapKind        = schema.GroupKind{Group: admissionregistrationv1.GroupName, Kind: "ValidatingAdmissionPolicy"}
	vapBindingKind = schema.GroupKind{Group: admissionregistrationv1.GroupName, Kind: "ValidatingAdmissionPolicyBinding"}
	mapKind        = schema.GroupKind{Group: admissionregistrationv1.GroupName, Kind: "MutatingAdmissionPolicy"}
	mapBindingKind = schema.GroupKind{Group: admissionregistrationv1.GroupName, Kind: "MutatingAdmissionPolicyBinding"}
)

// invalidPolicyError is kube-apiserver's answer to the creation of an
// invalid object, apierrors.NewInvalid's Status, as the invalid_policy
// error. Its causes, statusCauses(st), are the fieldErrors docs/abi.md
// promises; wire.Error has no member for them yet.
func invalidPolicyError(gk schema.GroupKind, name string, errs field.ErrorList) *wire.Error {
	st := apierrors.NewInvalid(gk, name, errs).Status()
	return &wire.Error{Code: wire.CodeInvalidPolicy, Message: st.Message, FieldErrors: statusCauses(st)}
}

// statusCauses are the field errors of an Invalid Status.
func statusCauses(st metav1.Status) []wire.FieldError {
	out := make([]wire.FieldError, 0, len(st.Details.Causes))
	for _, c := range st.Details.Causes {
		out = append(out, wire.FieldError{Field: c.Field, Type: string(c.Type), Message: c.Message})
	}
	return out
}

// policyValidator validates the policies and bindings of one request, with
// CEL compilers of the request's environment set.
type policyValidator struct {
	envs *environment.EnvSet
	// stateless is upstream's strict stateless compiler (a global there),
	// built on first use.
	stateless plugincel.Compiler
}

func newPolicyValidator(envs *environment.EnvSet) *policyValidator {
	return &policyValidator{envs: envs}
}

// Creation: what rest.ValidateCreate returns for the strategies of the four
// kinds (strategy.Validate, then ObjectMeta's path-segment name check when
// that passed, then the declarative validation), on the object as
// PrepareForCreate and the create handler leave it: status cleared,
// generation 1, no namespace (the kinds are cluster-scoped).

func createMeta(m metav1.ObjectMeta) metav1.ObjectMeta {
	m.Namespace = metav1.NamespaceNone
	m.Generation = 1
	return m
}

func (v *policyValidator) createVAP(p *admissionregistrationv1.ValidatingAdmissionPolicy) field.ErrorList {
	c := *p
	c.ObjectMeta = createMeta(p.ObjectMeta)
	c.Status = admissionregistrationv1.ValidatingAdmissionPolicyStatus{}
	errs := v.validateValidatingAdmissionPolicy(&c)
	errs = append(errs, validateStaticSuffix(c.Name, field.NewPath("metadata", "name"))...)
	return afterStrategy(&c.ObjectMeta, errs, nil)
}

func (v *policyValidator) createVAPBinding(b *admissionregistrationv1.ValidatingAdmissionPolicyBinding) field.ErrorList {
	c := *b
	c.ObjectMeta = createMeta(b.ObjectMeta)
	errs := validateValidatingAdmissionPolicyBinding(&c)
	errs = append(errs, validateStaticSuffix(c.Name, field.NewPath("metadata", "name"))...)
	return afterStrategy(&c.ObjectMeta, errs, declarativeVAPBinding(&c.Spec))
}

func (v *policyValidator) createMAP(p *admissionregistrationv1.MutatingAdmissionPolicy) field.ErrorList {
	c := *p
	c.ObjectMeta = createMeta(p.ObjectMeta)
	errs := v.validateMutatingAdmissionPolicy(&c)
	errs = append(errs, validateStaticSuffix(c.Name, field.NewPath("metadata", "name"))...)
	return afterStrategy(&c.ObjectMeta, errs, nil)
}

func (v *policyValidator) createMAPBinding(b *admissionregistrationv1.MutatingAdmissionPolicyBinding) field.ErrorList {
	c := *b
	c.ObjectMeta = createMeta(b.ObjectMeta)
	errs := validateMutatingAdmissionPolicyBinding(&c)
	errs = append(errs, validateStaticSuffix(c.Name, field.NewPath("metadata", "name"))...)
	return afterStrategy(&c.ObjectMeta, errs, nil)
}

// afterStrategy is the rest of rest.ValidateCreate after strategy.Validate
// returned errs: the common ObjectMeta validation when errs is empty, then
// rest.ValidateDeclarativelyWithMigrationChecks with the declarative errors
// (all Beta, enforced as the DeclarativeValidationBeta gate is by default).
func afterStrategy(meta *metav1.ObjectMeta, errs, declarative field.ErrorList) field.ErrorList {
	if len(errs) == 0 {
		errs = append(errs, genericvalidation.ValidateObjectMetaAccessor(meta, false, validatePathSegment, field.NewPath("metadata"))...)
	}
	errs = errs.MarkFromImperative()
	ctx := context.Background()
	enforced := validate.FilterEnforcedDeclarativeErrors(ctx, declarative, true)
	errs = validate.FilterCoveredHandwrittenErrors(ctx, errs, enforced, true)
	return append(errs, enforced...)
}

// validatePathSegment is rest's name check for ObjectMeta (pkg/registry/rest/create.go).
func validatePathSegment(name string, prefix bool) []string {
	if prefix {
		return content.IsPathSegmentPrefix(name)
	}
	return content.IsPathSegmentName(name)
}

// declarativeVAPBinding is Validate_ValidatingAdmissionPolicyBindingSpec of
// pkg/apis/admissionregistration/v1/zz_generated.validations.go at creation
// (the ObjectMeta rules there are Alpha, never enforced; the other three
// kinds have no other rules).
func declarativeVAPBinding(spec *admissionregistrationv1.ValidatingAdmissionPolicyBindingSpec) field.ErrorList {
	ctx, op, fldPath := context.Background(), operation.Operation{Type: operation.Create}, field.NewPath("spec")
	var errs field.ErrorList
	errs = append(errs, validate.RequiredValue(ctx, op, fldPath.Child("policyName"), &spec.PolicyName, nil).MarkBeta().MarkShortCircuit()...)
	errs = append(errs, validate.RequiredSlice(ctx, op, fldPath.Child("validationActions"), spec.ValidationActions, nil).MarkBeta().MarkShortCircuit()...)
	return errs
}

// staticConfigSuffix is validation.StaticConfigSuffix (static_suffix.go);
// the ManifestBasedAdmissionControlConfig gate that enables the check is on
// by default in 1.37.
const staticConfigSuffix = ".static.k8s.io"

func validateStaticSuffix(name string, fldPath *field.Path) field.ErrorList {
	var allErrors field.ErrorList
	if strings.HasSuffix(name, staticConfigSuffix) {
		allErrors = append(allErrors, field.Invalid(fldPath, name,
			fmt.Sprintf("names ending with %q are reserved for static manifest-based configurations and cannot be managed via the API", staticConfigSuffix)))
	}
	return allErrors
}

// What follows is the adapted copy of validation.go.

func hasWildcard(slice []string) bool {
	for _, s := range slice {
		if s == "*" {
			return true
		}
	}
	return false
}

func validateResources(resources []string, fldPath *field.Path) field.ErrorList {
	var allErrors field.ErrorList
	if len(resources) == 0 {
		allErrors = append(allErrors, field.Required(fldPath, ""))
	}

	// x/*
	resourcesWithWildcardSubresoures := sets.String{}
	// */x
	subResourcesWithWildcardResource := sets.String{}
	// */*
	hasDoubleWildcard := false
	// *
	hasSingleWildcard := false
	// x
	hasResourceWithoutSubresource := false

	for i, resSub := range resources {
		if resSub == "" {
			allErrors = append(allErrors, field.Required(fldPath.Index(i), ""))
			continue
		}
		if resSub == "*/*" {
			hasDoubleWildcard = true
		}
		if resSub == "*" {
			hasSingleWildcard = true
		}
		parts := strings.SplitN(resSub, "/", 2)
		if len(parts) == 1 {
			hasResourceWithoutSubresource = resSub != "*"
			continue
		}
		res, sub := parts[0], parts[1]
		if _, ok := resourcesWithWildcardSubresoures[res]; ok {
			allErrors = append(allErrors, field.Invalid(fldPath.Index(i), resSub, fmt.Sprintf("if '%s/*' is present, must not specify %s", res, resSub)))
		}
		if _, ok := subResourcesWithWildcardResource[sub]; ok {
			allErrors = append(allErrors, field.Invalid(fldPath.Index(i), resSub, fmt.Sprintf("if '*/%s' is present, must not specify %s", sub, resSub)))
		}
		if sub == "*" {
			resourcesWithWildcardSubresoures[res] = struct{}{}
		}
		if res == "*" {
			subResourcesWithWildcardResource[sub] = struct{}{}
		}
	}
	if len(resources) > 1 && hasDoubleWildcard {
		allErrors = append(allErrors, field.Invalid(fldPath, resources, "if '*/*' is present, must not specify other resources"))
	}
	if hasSingleWildcard && hasResourceWithoutSubresource {
		allErrors = append(allErrors, field.Invalid(fldPath, resources, "if '*' is present, must not specify other resources without subresources"))
	}
	return allErrors
}

func validateResourcesNoSubResources(resources []string, fldPath *field.Path) field.ErrorList {
	var allErrors field.ErrorList
	if len(resources) == 0 {
		allErrors = append(allErrors, field.Required(fldPath, ""))
	}
	for i, resource := range resources {
		if resource == "" {
			allErrors = append(allErrors, field.Required(fldPath.Index(i), ""))
		}
		if strings.Contains(resource, "/") {
			allErrors = append(allErrors, field.Invalid(fldPath.Index(i), resource, "must not specify subresources"))
		}
	}
	if len(resources) > 1 && hasWildcard(resources) {
		allErrors = append(allErrors, field.Invalid(fldPath, resources, "if '*' is present, must not specify other resources"))
	}
	return allErrors
}

var validScopes = sets.NewString(
	string(admissionregistrationv1.ClusterScope),
	string(admissionregistrationv1.NamespacedScope),
	string(admissionregistrationv1.AllScopes),
)

func validateRule(rule *admissionregistrationv1.Rule, fldPath *field.Path, allowSubResource bool) field.ErrorList {
	var allErrors field.ErrorList
	if len(rule.APIGroups) == 0 {
		allErrors = append(allErrors, field.Required(fldPath.Child("apiGroups"), ""))
	}
	if len(rule.APIGroups) > 1 && hasWildcard(rule.APIGroups) {
		allErrors = append(allErrors, field.Invalid(fldPath.Child("apiGroups"), rule.APIGroups, "if '*' is present, must not specify other API groups"))
	}
	// Note: group could be empty, e.g., the legacy "v1" API
	if len(rule.APIVersions) == 0 {
		allErrors = append(allErrors, field.Required(fldPath.Child("apiVersions"), ""))
	}
	if len(rule.APIVersions) > 1 && hasWildcard(rule.APIVersions) {
		allErrors = append(allErrors, field.Invalid(fldPath.Child("apiVersions"), rule.APIVersions, "if '*' is present, must not specify other API versions"))
	}
	for i, version := range rule.APIVersions {
		if version == "" {
			allErrors = append(allErrors, field.Required(fldPath.Child("apiVersions").Index(i), ""))
		}
	}
	if allowSubResource {
		allErrors = append(allErrors, validateResources(rule.Resources, fldPath.Child("resources"))...)
	} else {
		allErrors = append(allErrors, validateResourcesNoSubResources(rule.Resources, fldPath.Child("resources"))...)
	}
	if rule.Scope != nil && !validScopes.Has(string(*rule.Scope)) {
		allErrors = append(allErrors, field.NotSupported(fldPath.Child("scope"), *rule.Scope, validScopes.List()))
	}
	return allErrors
}

type validationOptions struct {
	allowParamsInMatchConditions bool
}

var supportedFailurePolicies = sets.NewString(
	string(admissionregistrationv1.Ignore),
	string(admissionregistrationv1.Fail),
)

var supportedMatchPolicies = sets.NewString(
	string(admissionregistrationv1.Exact),
	string(admissionregistrationv1.Equivalent),
)

var supportedOperations = sets.NewString(
	string(admissionregistrationv1.OperationAll),
	string(admissionregistrationv1.Create),
	string(admissionregistrationv1.Update),
	string(admissionregistrationv1.Delete),
	string(admissionregistrationv1.Connect),
)

var supportedReinvocationPolicies = sets.NewString(
	string(admissionregistrationv1.NeverReinvocationPolicy),
	string(admissionregistrationv1.IfNeededReinvocationPolicy),
)

var supportedValidationPolicyReason = sets.NewString(
	string(metav1.StatusReasonForbidden),
	string(metav1.StatusReasonInvalid),
	string(metav1.StatusReasonRequestEntityTooLarge),
)

var supportedPatchType = sets.NewString(
	string(admissionregistrationv1.PatchTypeApplyConfiguration),
	string(admissionregistrationv1.PatchTypeJSONPatch),
)

// MutatatingAdmissionPolicy does not support DELETE
var supportedMutatingOperations = sets.NewString(
	string(admissionregistrationv1.OperationAll),
	string(admissionregistrationv1.Create),
	string(admissionregistrationv1.Update),
	string(admissionregistrationv1.Connect),
)

func hasWildcardOperation(operations []admissionregistrationv1.OperationType) bool {
	for _, o := range operations {
		if o == admissionregistrationv1.OperationAll {
			return true
		}
	}
	return false
}

func validateRuleWithOperations(ruleWithOperations *admissionregistrationv1.RuleWithOperations, fldPath *field.Path) field.ErrorList {
	var allErrors field.ErrorList
	if len(ruleWithOperations.Operations) == 0 {
		allErrors = append(allErrors, field.Required(fldPath.Child("operations"), ""))
	}
	if len(ruleWithOperations.Operations) > 1 && hasWildcardOperation(ruleWithOperations.Operations) {
		allErrors = append(allErrors, field.Invalid(fldPath.Child("operations"), ruleWithOperations.Operations, "if '*' is present, must not specify other operations"))
	}
	for i, operation := range ruleWithOperations.Operations {
		if !supportedOperations.Has(string(operation)) {
			allErrors = append(allErrors, field.NotSupported(fldPath.Child("operations").Index(i), operation, supportedOperations.List()))
		}
	}
	allowSubResource := true
	allErrors = append(allErrors, validateRule(&ruleWithOperations.Rule, fldPath, allowSubResource)...)
	return allErrors
}

const (
	maxAuditAnnotations = 20
	// use a 5kb limit the CEL expression, note that this is less than the length limit
	// for the audit annotation value limit (10kb) since an expressions that concatenates
	// strings will often produce a longer value than the expression
	maxAuditAnnotationValueExpressionLength = 5 * 1024
)

func (v *policyValidator) validateValidatingAdmissionPolicy(p *admissionregistrationv1.ValidatingAdmissionPolicy) field.ErrorList {
	allErrors := genericvalidation.ValidateObjectMeta(&p.ObjectMeta, false, genericvalidation.NameIsDNSSubdomain, field.NewPath("metadata"))
	allErrors = append(allErrors, v.validateValidatingAdmissionPolicySpec(p.ObjectMeta, &p.Spec, validationOptions{}, field.NewPath("spec"))...)
	return allErrors
}

func (v *policyValidator) validateValidatingAdmissionPolicySpec(meta metav1.ObjectMeta, spec *admissionregistrationv1.ValidatingAdmissionPolicySpec, opts validationOptions, fldPath *field.Path) field.ErrorList {
	var allErrors field.ErrorList
	var compiler plugincel.Compiler // composition compiler is stateful, create one lazily per policy
	getCompiler := func() plugincel.Compiler {
		if compiler == nil {
			needsComposition := len(spec.Variables) > 0
			compiler = v.createCompiler(needsComposition)
		}
		return compiler
	}
	if spec.FailurePolicy == nil {
		allErrors = append(allErrors, field.Required(fldPath.Child("failurePolicy"), ""))
	} else if !supportedFailurePolicies.Has(string(*spec.FailurePolicy)) {
		allErrors = append(allErrors, field.NotSupported(fldPath.Child("failurePolicy"), *spec.FailurePolicy, supportedFailurePolicies.List()))
	}
	if spec.ParamKind != nil {
		opts.allowParamsInMatchConditions = true
		allErrors = append(allErrors, validateParamKind(*spec.ParamKind, fldPath.Child("paramKind"))...)
	}
	if spec.MatchConstraints == nil {
		allErrors = append(allErrors, field.Required(fldPath.Child("matchConstraints"), ""))
	} else {
		allErrors = append(allErrors, validateMatchResources(spec.MatchConstraints, fldPath.Child("matchConstraints"))...)
		// at least one resourceRule must be defined to provide type information
		if len(spec.MatchConstraints.ResourceRules) == 0 {
			allErrors = append(allErrors, field.Required(fldPath.Child("matchConstraints", "resourceRules"), ""))
		}
	}
	allErrors = append(allErrors, v.validateMatchConditions(spec.MatchConditions, opts, fldPath.Child("matchConditions"))...)
	if len(spec.Variables) > 0 {
		for i, variable := range spec.Variables {
			allErrors = append(allErrors, validateVariable(getCompiler(), &variable, spec.ParamKind, opts, fldPath.Child("variables").Index(i))...)
		}
	}
	if len(spec.Validations) == 0 && len(spec.AuditAnnotations) == 0 {
		allErrors = append(allErrors, field.Required(fldPath.Child("validations"), "validations or auditAnnotations must contain at least one item"))
		allErrors = append(allErrors, field.Required(fldPath.Child("auditAnnotations"), "validations or auditAnnotations must contain at least one item"))
	} else {
		for i, validation := range spec.Validations {
			allErrors = append(allErrors, validateValidation(getCompiler(), &validation, spec.ParamKind, opts, fldPath.Child("validations").Index(i))...)
		}
		if spec.AuditAnnotations != nil {
			keys := sets.NewString()
			if len(spec.AuditAnnotations) > maxAuditAnnotations {
				allErrors = append(allErrors, field.Invalid(fldPath.Child("auditAnnotations"), internalAuditAnnotations(spec.AuditAnnotations), fmt.Sprintf("must not have more than %d auditAnnotations", maxAuditAnnotations)))
			}
			for i, auditAnnotation := range spec.AuditAnnotations {
				allErrors = append(allErrors, validateAuditAnnotation(getCompiler(), meta, &auditAnnotation, spec.ParamKind, opts, fldPath.Child("auditAnnotations").Index(i))...)
				if keys.Has(auditAnnotation.Key) {
					allErrors = append(allErrors, field.Duplicate(fldPath.Child("auditAnnotations").Index(i).Child("key"), auditAnnotation.Key))
				}
				keys.Insert(auditAnnotation.Key)
			}
		}
	}
	return allErrors
}

// internalAuditAnnotations has the shape of the internal
// []admissionregistration.AuditAnnotation (no JSON tags), which upstream
// renders as the bad value.
func internalAuditAnnotations(in []admissionregistrationv1.AuditAnnotation) any {
	type AuditAnnotation struct {
		Key             string
		ValueExpression string
	}
	out := make([]AuditAnnotation, len(in))
	for i, a := range in {
		out[i] = AuditAnnotation(a)
	}
	return out
}

func validateParamKind(gvk admissionregistrationv1.ParamKind, fldPath *field.Path) field.ErrorList {
	var allErrors field.ErrorList
	if len(gvk.APIVersion) == 0 {
		allErrors = append(allErrors, field.Required(fldPath.Child("apiVersion"), ""))
	} else if gv, err := parseGroupVersion(gvk.APIVersion); err != nil {
		allErrors = append(allErrors, field.Invalid(fldPath.Child("apiVersion"), gvk.APIVersion, err.Error()))
	} else {
		// this matches the APIService group field validation
		if len(gv.Group) > 0 {
			if errs := utilvalidation.IsDNS1123Subdomain(gv.Group); len(errs) > 0 {
				allErrors = append(allErrors, field.Invalid(fldPath.Child("apiVersion"), gv.Group, strings.Join(errs, ",")))
			}
		}
		// this matches the APIService version field validation
		if len(gv.Version) == 0 {
			allErrors = append(allErrors, field.Invalid(fldPath.Child("apiVersion"), gvk.APIVersion, "version must be specified"))
		} else {
			if errs := utilvalidation.IsDNS1035Label(gv.Version); len(errs) > 0 {
				allErrors = append(allErrors, field.Invalid(fldPath.Child("apiVersion"), gv.Version, strings.Join(errs, ",")))
			}
		}
	}
	if len(gvk.Kind) == 0 {
		allErrors = append(allErrors, field.Required(fldPath.Child("kind"), ""))
	} else if errs := utilvalidation.IsDNS1035Label(strings.ToLower(gvk.Kind)); len(errs) > 0 {
		allErrors = append(allErrors, field.Invalid(fldPath.Child("kind"), gvk.Kind, "may have mixed case, but should otherwise match: "+strings.Join(errs, ",")))
	}

	return allErrors
}

type groupVersion struct {
	Group   string
	Version string
}

// parseGroupVersion turns "group/version" string into a groupVersion struct. It reports error
// if it cannot parse the string.
func parseGroupVersion(gv string) (groupVersion, error) {
	if (len(gv) == 0) || (gv == "/") {
		return groupVersion{}, nil
	}

	switch strings.Count(gv, "/") {
	case 0:
		return groupVersion{"", gv}, nil
	case 1:
		i := strings.Index(gv, "/")
		return groupVersion{gv[:i], gv[i+1:]}, nil
	default:
		return groupVersion{}, fmt.Errorf("unexpected GroupVersion string: %v", gv)
	}
}

func validateMatchResources(mc *admissionregistrationv1.MatchResources, fldPath *field.Path) field.ErrorList {
	var allErrors field.ErrorList
	if mc == nil {
		return allErrors
	}
	if mc.MatchPolicy == nil {
		allErrors = append(allErrors, field.Required(fldPath.Child("matchPolicy"), ""))
	} else if !supportedMatchPolicies.Has(string(*mc.MatchPolicy)) {
		allErrors = append(allErrors, field.NotSupported(fldPath.Child("matchPolicy"), *mc.MatchPolicy, supportedMatchPolicies.List()))
	}
	if mc.NamespaceSelector == nil {
		allErrors = append(allErrors, field.Required(fldPath.Child("namespaceSelector"), ""))
	} else {
		// validate selector strictly, this type was released after issue #99139 was resolved
		allErrors = append(allErrors, metav1validation.ValidateLabelSelector(mc.NamespaceSelector, metav1validation.LabelSelectorValidationOptions{}, fldPath.Child("namespaceSelector"))...)
	}

	if mc.ObjectSelector == nil {
		allErrors = append(allErrors, field.Required(fldPath.Child("objectSelector"), ""))
	} else {
		// validate selector strictly, this type was released after issue #99139 was resolved
		allErrors = append(allErrors, metav1validation.ValidateLabelSelector(mc.ObjectSelector, metav1validation.LabelSelectorValidationOptions{}, fldPath.Child("objectSelector"))...)
	}

	for i, namedRuleWithOperations := range mc.ResourceRules {
		allErrors = append(allErrors, validateNamedRuleWithOperations(&namedRuleWithOperations, fldPath.Child("resourceRules").Index(i))...)
	}

	for i, namedRuleWithOperations := range mc.ExcludeResourceRules {
		allErrors = append(allErrors, validateNamedRuleWithOperations(&namedRuleWithOperations, fldPath.Child("excludeResourceRules").Index(i))...)
	}
	return allErrors
}

var validValidationActions = sets.NewString(
	string(admissionregistrationv1.Deny),
	string(admissionregistrationv1.Warn),
	string(admissionregistrationv1.Audit),
)

func validateValidationActions(va []admissionregistrationv1.ValidationAction, fldPath *field.Path) field.ErrorList {
	var allErrors field.ErrorList
	actions := sets.NewString()
	for i, action := range va {
		if !validValidationActions.Has(string(action)) {
			allErrors = append(allErrors, field.NotSupported(fldPath.Index(i), action, validValidationActions.List()))
		}
		if actions.Has(string(action)) {
			allErrors = append(allErrors, field.Duplicate(fldPath.Index(i), action))
		}
		actions.Insert(string(action))
	}
	if actions.Has(string(admissionregistrationv1.Deny)) && actions.Has(string(admissionregistrationv1.Warn)) {
		allErrors = append(allErrors, field.Invalid(fldPath, va, "must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)"))
	}
	if len(actions) == 0 {
		allErrors = append(allErrors, field.Required(fldPath, "at least one validation action is required").MarkCoveredByDeclarative())
	}
	return allErrors
}

func validateNamedRuleWithOperations(n *admissionregistrationv1.NamedRuleWithOperations, fldPath *field.Path) field.ErrorList {
	var allErrors field.ErrorList
	resourceNames := sets.NewString()
	for i, rName := range n.ResourceNames {
		for _, msg := range content.IsPathSegmentName(rName) {
			allErrors = append(allErrors, field.Invalid(fldPath.Child("resourceNames").Index(i), rName, msg))
		}
		if resourceNames.Has(rName) {
			allErrors = append(allErrors, field.Duplicate(fldPath.Child("resourceNames").Index(i), rName))
		} else {
			resourceNames.Insert(rName)
		}
	}
	allErrors = append(allErrors, validateRuleWithOperations(&n.RuleWithOperations, fldPath)...)
	return allErrors
}

func (v *policyValidator) validateMatchConditions(m []admissionregistrationv1.MatchCondition, opts validationOptions, fldPath *field.Path) field.ErrorList {
	var allErrors field.ErrorList
	conditionNames := sets.NewString()
	if len(m) > 64 {
		allErrors = append(allErrors, field.TooMany(fldPath, len(m), 64))
	}
	for i, matchCondition := range m {
		allErrors = append(allErrors, v.validateMatchCondition(&matchCondition, opts, fldPath.Index(i))...)
		if len(matchCondition.Name) > 0 {
			if conditionNames.Has(matchCondition.Name) {
				allErrors = append(allErrors, field.Duplicate(fldPath.Index(i).Child("name"), matchCondition.Name))
			} else {
				conditionNames.Insert(matchCondition.Name)
			}
		}
	}
	return allErrors
}

func (v *policyValidator) validateMatchCondition(mc *admissionregistrationv1.MatchCondition, opts validationOptions, fldPath *field.Path) field.ErrorList {
	var allErrors field.ErrorList
	trimmedExpression := strings.TrimSpace(mc.Expression)
	if len(trimmedExpression) == 0 {
		allErrors = append(allErrors, field.Required(fldPath.Child("expression"), ""))
	} else {
		allErrors = append(allErrors, v.validateMatchConditionsExpression(trimmedExpression, opts, fldPath.Child("expression"))...)
	}
	if len(mc.Name) == 0 {
		allErrors = append(allErrors, field.Required(fldPath.Child("name"), ""))
	} else {
		allErrors = append(allErrors, validateQualifiedName(mc.Name, fldPath.Child("name"))...)
	}
	return allErrors
}

// validateQualifiedName is pkg/apis/core/validation's ValidateQualifiedName.
func validateQualifiedName(value string, fldPath *field.Path) field.ErrorList {
	allErrs := field.ErrorList{}
	for _, msg := range utilvalidation.IsQualifiedName(value) {
		allErrs = append(allErrs, field.Invalid(fldPath, value, msg).WithOrigin("format=qualified-name"))
	}
	return allErrs
}

func validateVariable(compiler plugincel.Compiler, v *admissionregistrationv1.Variable, paramKind *admissionregistrationv1.ParamKind, opts validationOptions, fldPath *field.Path) field.ErrorList {
	var allErrors field.ErrorList
	if len(v.Name) == 0 || strings.TrimSpace(v.Name) == "" {
		allErrors = append(allErrors, field.Required(fldPath.Child("name"), "name is not specified"))
	} else {
		if !isCELIdentifier(v.Name) {
			allErrors = append(allErrors, field.Invalid(fldPath.Child("name"), v.Name, "must be a valid CEL identifier"))
		}
	}
	if len(v.Expression) == 0 || strings.TrimSpace(v.Expression) == "" {
		allErrors = append(allErrors, field.Required(fldPath.Child("expression"), "expression is not specified"))
	} else {
		if compiler, ok := compiler.(*plugincel.CompositedCompiler); ok {
			envType := environment.NewExpressions
			variable := &validatingadmissionpolicy.Variable{
				Name:       v.Name,
				Expression: v.Expression,
			}
			result := compiler.CompileAndStoreVariable(variable, plugincel.OptionalVariableDeclarations{
				HasParams:     paramKind != nil,
				HasAuthorizer: true,
			}, envType)
			if result.Error != nil {
				allErrors = append(allErrors, convertCELErrorToValidationError(fldPath.Child("expression"), variable, result.Error))
			}
		} else {
			allErrors = append(allErrors, field.InternalError(fldPath, fmt.Errorf("variable composition is not allowed")))
		}
	}
	return allErrors
}

func validateValidation(compiler plugincel.Compiler, v *admissionregistrationv1.Validation, paramKind *admissionregistrationv1.ParamKind, opts validationOptions, fldPath *field.Path) field.ErrorList {
	var allErrors field.ErrorList
	trimmedExpression := strings.TrimSpace(v.Expression)
	trimmedMsg := strings.TrimSpace(v.Message)
	trimmedMessageExpression := strings.TrimSpace(v.MessageExpression)
	if len(trimmedExpression) == 0 {
		allErrors = append(allErrors, field.Required(fldPath.Child("expression"), "expression is not specified"))
	} else {
		allErrors = append(allErrors, validateValidationExpression(compiler, v.Expression, paramKind != nil, opts, fldPath.Child("expression"))...)
	}
	if len(v.MessageExpression) > 0 && len(trimmedMessageExpression) == 0 {
		allErrors = append(allErrors, field.Invalid(fldPath.Child("messageExpression"), v.MessageExpression, "must be non-empty if specified"))
	} else if len(trimmedMessageExpression) != 0 {
		// use v.MessageExpression instead of trimmedMessageExpression so that
		// the compiler output shows the correct column.
		allErrors = append(allErrors, validateMessageExpression(compiler, v.MessageExpression, opts, fldPath.Child("messageExpression"))...)
	}
	if len(v.Message) > 0 && len(trimmedMsg) == 0 {
		allErrors = append(allErrors, field.Invalid(fldPath.Child("message"), v.Message, "must be non-empty if specified"))
	} else if hasNewlines(trimmedMsg) {
		allErrors = append(allErrors, field.Invalid(fldPath.Child("message"), v.Message, "must not contain line breaks"))
	} else if hasNewlines(trimmedMsg) && trimmedMsg == "" {
		allErrors = append(allErrors, field.Required(fldPath.Child("message"), "message must be specified if expression contains line breaks"))
	}
	if v.Reason != nil && !supportedValidationPolicyReason.Has(string(*v.Reason)) {
		allErrors = append(allErrors, field.NotSupported(fldPath.Child("reason"), *v.Reason, supportedValidationPolicyReason.List()))
	}
	return allErrors
}

func validateCELCondition(compiler plugincel.Compiler, expression plugincel.ExpressionAccessor, variables plugincel.OptionalVariableDeclarations, envType environment.Type, fldPath *field.Path) field.ErrorList {
	var allErrors field.ErrorList
	result := compiler.CompileCELExpression(expression, variables, envType)
	if result.Error != nil {
		allErrors = append(allErrors, convertCELErrorToValidationError(fldPath, expression, result.Error))
	}
	return allErrors
}

func convertCELErrorToValidationError(fldPath *field.Path, expression plugincel.ExpressionAccessor, err error) *field.Error {
	if celErr, ok := err.(*cel.Error); ok {
		switch celErr.Type {
		case cel.ErrorTypeRequired:
			return field.Required(fldPath, celErr.Detail)
		case cel.ErrorTypeInvalid:
			return field.Invalid(fldPath, expression.GetExpression(), celErr.Detail)
		case cel.ErrorTypeInternal:
			return field.InternalError(fldPath, celErr)
		}
	}
	return field.InternalError(fldPath, fmt.Errorf("unsupported error type: %w", err))
}

func validateValidationExpression(compiler plugincel.Compiler, expression string, hasParams bool, opts validationOptions, fldPath *field.Path) field.ErrorList {
	envType := environment.NewExpressions
	return validateCELCondition(compiler, &validatingadmissionpolicy.ValidationCondition{
		Expression: expression,
	}, plugincel.OptionalVariableDeclarations{
		HasParams:     hasParams,
		HasAuthorizer: true,
	}, envType, fldPath)
}

func (v *policyValidator) validateMatchConditionsExpression(expression string, opts validationOptions, fldPath *field.Path) field.ErrorList {
	envType := environment.NewExpressions
	var compiler plugincel.Compiler
	compiler = v.getStrictStatelessCELCompiler()
	return validateCELCondition(compiler, &matchconditions.MatchCondition{
		Expression: expression,
	}, plugincel.OptionalVariableDeclarations{
		HasParams:     opts.allowParamsInMatchConditions,
		HasAuthorizer: true,
	}, envType, fldPath)
}

func validateMessageExpression(compiler plugincel.Compiler, expression string, opts validationOptions, fldPath *field.Path) field.ErrorList {
	envType := environment.NewExpressions
	return validateCELCondition(compiler, &validatingadmissionpolicy.MessageExpressionCondition{
		MessageExpression: expression,
	}, plugincel.OptionalVariableDeclarations{
		HasParams:     opts.allowParamsInMatchConditions,
		HasAuthorizer: false,
	}, envType, fldPath)
}

func validateAuditAnnotation(compiler plugincel.Compiler, meta metav1.ObjectMeta, v *admissionregistrationv1.AuditAnnotation, paramKind *admissionregistrationv1.ParamKind, opts validationOptions, fldPath *field.Path) field.ErrorList {
	var allErrors field.ErrorList
	if len(meta.GetName()) != 0 {
		name := meta.GetName()
		allErrors = append(allErrors, validateQualifiedName(name+"/"+v.Key, fldPath.Child("key"))...)
	} else {
		allErrors = append(allErrors, field.Invalid(fldPath.Child("key"), v.Key, "requires metadata.name be non-empty"))
	}

	trimmedValueExpression := strings.TrimSpace(v.ValueExpression)
	if len(trimmedValueExpression) == 0 {
		allErrors = append(allErrors, field.Required(fldPath.Child("valueExpression"), "valueExpression is not specified"))
	} else if len(trimmedValueExpression) > maxAuditAnnotationValueExpressionLength {
		allErrors = append(allErrors, field.Required(fldPath.Child("valueExpression"), fmt.Sprintf("must not exceed %d bytes in length", maxAuditAnnotationValueExpressionLength)))
	} else {
		envType := environment.NewExpressions
		result := compiler.CompileCELExpression(&validatingadmissionpolicy.AuditAnnotationCondition{
			ValueExpression: trimmedValueExpression,
		}, plugincel.OptionalVariableDeclarations{HasParams: paramKind != nil, HasAuthorizer: true}, envType)
		if result.Error != nil {
			switch result.Error.Type {
			case cel.ErrorTypeRequired:
				allErrors = append(allErrors, field.Required(fldPath.Child("valueExpression"), result.Error.Detail))
			case cel.ErrorTypeInvalid:
				allErrors = append(allErrors, field.Invalid(fldPath.Child("valueExpression"), v.ValueExpression, result.Error.Detail))
			default:
				allErrors = append(allErrors, field.InternalError(fldPath.Child("valueExpression"), result.Error))
			}
		}
	}
	return allErrors
}

var newlineMatcher = regexp.MustCompile(`[\n\r]+`) // valid newline chars in CEL grammar
func hasNewlines(s string) bool {
	return newlineMatcher.MatchString(s)
}

func validateValidatingAdmissionPolicyBinding(pb *admissionregistrationv1.ValidatingAdmissionPolicyBinding) field.ErrorList {
	allErrors := genericvalidation.ValidateObjectMeta(&pb.ObjectMeta, false, genericvalidation.NameIsDNSSubdomain, field.NewPath("metadata"))
	allErrors = append(allErrors, validateValidatingAdmissionPolicyBindingSpec(&pb.Spec, field.NewPath("spec"))...)

	return allErrors
}

func validateValidatingAdmissionPolicyBindingSpec(spec *admissionregistrationv1.ValidatingAdmissionPolicyBindingSpec, fldPath *field.Path) field.ErrorList {
	var allErrors field.ErrorList

	if len(spec.PolicyName) == 0 {
		allErrors = append(allErrors, field.Required(fldPath.Child("policyName"), "").MarkCoveredByDeclarative())
	} else {
		for _, msg := range genericvalidation.NameIsDNSSubdomain(spec.PolicyName, false) {
			allErrors = append(allErrors, field.Invalid(fldPath.Child("policyName"), spec.PolicyName, msg))
		}
	}
	allErrors = append(allErrors, validateParamRef(spec.ParamRef, fldPath.Child("paramRef"))...)
	allErrors = append(allErrors, validateMatchResources(spec.MatchResources, fldPath.Child("matchResources"))...)
	allErrors = append(allErrors, validateValidationActions(spec.ValidationActions, fldPath.Child("validationActions"))...)

	return allErrors
}

func validateParamRef(pr *admissionregistrationv1.ParamRef, fldPath *field.Path) field.ErrorList {
	var allErrors field.ErrorList
	if pr == nil {
		return allErrors
	}

	if len(pr.Name) > 0 {
		for _, msg := range content.IsPathSegmentName(pr.Name) {
			allErrors = append(allErrors, field.Invalid(fldPath.Child("name"), pr.Name, msg))
		}

		if pr.Selector != nil {
			allErrors = append(allErrors, field.Forbidden(fldPath.Child("name"), `name and selector are mutually exclusive`))
		}
	}

	if pr.Selector != nil {
		labelSelectorValidationOpts := metav1validation.LabelSelectorValidationOptions{}
		allErrors = append(allErrors, metav1validation.ValidateLabelSelector(pr.Selector, labelSelectorValidationOpts, fldPath.Child("selector"))...)

		if len(pr.Name) > 0 {
			allErrors = append(allErrors, field.Forbidden(fldPath.Child("selector"), `name and selector are mutually exclusive`))
		}
	}

	if len(pr.Name) == 0 && pr.Selector == nil {
		allErrors = append(allErrors, field.Required(fldPath, `one of name or selector must be specified`))
	}

	if pr.ParameterNotFoundAction == nil || len(*pr.ParameterNotFoundAction) == 0 {
		allErrors = append(allErrors, field.Required(fldPath.Child("parameterNotFoundAction"), ""))
	} else {
		if *pr.ParameterNotFoundAction != admissionregistrationv1.DenyAction && *pr.ParameterNotFoundAction != admissionregistrationv1.AllowAction {
			allErrors = append(allErrors, field.NotSupported(fldPath.Child("parameterNotFoundAction"), pr.ParameterNotFoundAction, []string{string(admissionregistrationv1.DenyAction), string(admissionregistrationv1.AllowAction)}))
		}
	}

	return allErrors
}

// getStrictStatelessCELCompiler is upstream's shared strict-cost compiler
// without variable composition (for match conditions, and for policies
// without variables).
func (v *policyValidator) getStrictStatelessCELCompiler() plugincel.Compiler {
	if v.stateless == nil {
		v.stateless = plugincel.NewCompiler(v.envs)
	}
	return v.stateless
}

func (v *policyValidator) createCompiler(allowComposition bool) plugincel.Compiler {
	if !allowComposition {
		return v.getStrictStatelessCELCompiler()
	}
	compiler, err := plugincel.NewCompositedCompiler(v.envs)
	if err != nil {
		// should never happen, but cannot panic either.
		return plugincel.NewCompiler(v.envs)
	}
	return compiler
}

var celIdentRegex = regexp.MustCompile("^[_a-zA-Z][_a-zA-Z0-9]*$")
var celReserved = sets.NewString("true", "false", "null", "in",
	"as", "break", "const", "continue", "else",
	"for", "function", "if", "import", "let",
	"loop", "package", "namespace", "return",
	"var", "void", "while")

func isCELIdentifier(name string) bool {
	// IDENT          ::= [_a-zA-Z][_a-zA-Z0-9]* - RESERVED
	// BOOL_LIT       ::= "true" | "false"
	// NULL_LIT       ::= "null"
	// RESERVED       ::= BOOL_LIT | NULL_LIT | "in"
	// 	 | "as" | "break" | "const" | "continue" | "else"
	// 	 | "for" | "function" | "if" | "import" | "let"
	// 	 | "loop" | "package" | "namespace" | "return"
	// 	 | "var" | "void" | "while"
	return celIdentRegex.MatchString(name) && !celReserved.Has(name)
}

func (v *policyValidator) validateMutatingAdmissionPolicy(p *admissionregistrationv1.MutatingAdmissionPolicy) field.ErrorList {
	allErrors := genericvalidation.ValidateObjectMeta(&p.ObjectMeta, false, genericvalidation.NameIsDNSSubdomain, field.NewPath("metadata"))
	allErrors = append(allErrors, v.validateMutatingAdmissionPolicySpec(p.ObjectMeta, &p.Spec, validationOptions{}, field.NewPath("spec"))...)
	return allErrors
}

func (v *policyValidator) validateMutatingAdmissionPolicySpec(meta metav1.ObjectMeta, spec *admissionregistrationv1.MutatingAdmissionPolicySpec, opts validationOptions, fldPath *field.Path) field.ErrorList {
	var allErrors field.ErrorList

	compiler := v.createCompiler(true)

	if spec.FailurePolicy == nil {
		allErrors = append(allErrors, field.Required(fldPath.Child("failurePolicy"), ""))
	} else if !supportedFailurePolicies.Has(string(*spec.FailurePolicy)) {
		allErrors = append(allErrors, field.NotSupported(fldPath.Child("failurePolicy"), *spec.FailurePolicy, supportedFailurePolicies.List()))
	}
	if spec.ParamKind != nil {
		opts.allowParamsInMatchConditions = true
		allErrors = append(allErrors, validateParamKind(*spec.ParamKind, fldPath.Child("paramKind"))...)
	}
	if spec.MatchConstraints == nil {
		allErrors = append(allErrors, field.Required(fldPath.Child("matchConstraints"), ""))
	} else {
		allErrors = append(allErrors, validateMatchResources(spec.MatchConstraints, fldPath.Child("matchConstraints"))...)
		// at least one resourceRule must be defined to provide type information
		if len(spec.MatchConstraints.ResourceRules) == 0 {
			allErrors = append(allErrors, field.Required(fldPath.Child("matchConstraints", "resourceRules"), ""))
		}

		// It is only possible to mutate create and update requests
		for _, rule := range spec.MatchConstraints.ResourceRules {
			for _, op := range rule.RuleWithOperations.Operations {
				if !supportedMutatingOperations.Has(string(op)) {
					allErrors = append(allErrors, field.NotSupported(fldPath.Child("matchConstraints", "resourceRules", "operations"), op, supportedMutatingOperations.List()))
				}
			}
		}
	}
	allErrors = append(allErrors, v.validateMatchConditions(spec.MatchConditions, opts, fldPath.Child("matchConditions"))...)
	for i, variable := range spec.Variables {
		allErrors = append(allErrors, validateVariable(compiler, &variable, spec.ParamKind, opts, fldPath.Child("variables").Index(i))...)
	}
	if len(spec.Mutations) == 0 {
		allErrors = append(allErrors, field.Required(fldPath.Child("mutations"), "mutations must contain at least one item"))
	} else {
		for i, mutation := range spec.Mutations {
			allErrors = append(allErrors, validateMutation(compiler, &mutation, spec.ParamKind, opts, fldPath.Child("mutations").Index(i))...)
		}
	}
	if len(spec.ReinvocationPolicy) == 0 {
		allErrors = append(allErrors, field.Required(fldPath.Child("reinvocationPolicy"), ""))
	} else if !supportedReinvocationPolicies.Has(string(spec.ReinvocationPolicy)) {
		allErrors = append(allErrors, field.NotSupported(fldPath.Child("reinvocationPolicy"), spec.ReinvocationPolicy, supportedReinvocationPolicies.List()))
	}
	return allErrors
}

func validateMutation(compiler plugincel.Compiler, m *admissionregistrationv1.Mutation, paramKind *admissionregistrationv1.ParamKind, opts validationOptions, fldPath *field.Path) (allErrors field.ErrorList) {
	if len(m.PatchType) == 0 {
		allErrors = append(allErrors, field.Required(fldPath.Child("patchType"), ""))
	} else {
		switch m.PatchType {
		case admissionregistrationv1.PatchTypeJSONPatch:
			if m.JSONPatch == nil {
				allErrors = append(allErrors, field.Required(fldPath.Child("jsonPatch"), "must be specified when patchType is JSONPatch"))
			} else {
				allErrors = append(allErrors, validateJSONPatch(compiler, m.JSONPatch, paramKind, opts, fldPath.Child("jsonPatch"))...)
			}
			if m.ApplyConfiguration != nil {
				allErrors = append(allErrors, field.Invalid(fldPath.Child("applyConfiguration"), "{applyConfiguration}", "must not be specified when patchType is JSONPatch"))
			}
		case admissionregistrationv1.PatchTypeApplyConfiguration:
			if m.ApplyConfiguration == nil {
				allErrors = append(allErrors, field.Required(fldPath.Child("applyConfiguration"), "must be specified when patchType is ApplyConfiguration"))
			} else {
				allErrors = append(allErrors, validateApplyConfiguration(compiler, m.ApplyConfiguration, paramKind, opts, fldPath.Child("applyConfiguration"))...)
			}
			if m.JSONPatch != nil {
				allErrors = append(allErrors, field.Invalid(fldPath.Child("jsonPatch"), "{jsonPatch}", "must not be specified when patchType is ApplyConfiguration"))
			}
		default:
			allErrors = append(allErrors, field.NotSupported(fldPath.Child("patchType"), m.PatchType, supportedPatchType.List()))
		}
	}
	return allErrors
}

func validateApplyConfiguration(compiler plugincel.Compiler, applyConfig *admissionregistrationv1.ApplyConfiguration, paramKind *admissionregistrationv1.ParamKind, opts validationOptions, fldPath *field.Path) (allErrors field.ErrorList) {
	trimmedExpression := strings.TrimSpace(applyConfig.Expression)
	if len(trimmedExpression) == 0 {
		allErrors = append(allErrors, field.Required(fldPath.Child("expression"), ""))
	} else {

		envType := environment.NewExpressions
		accessor := &patch.ApplyConfigurationCondition{
			Expression: trimmedExpression,
		}
		opts := plugincel.OptionalVariableDeclarations{HasParams: paramKind != nil, HasAuthorizer: true, HasPatchTypes: true}
		result := compiler.CompileCELExpression(accessor, opts, envType)

		if result.Error != nil {
			allErrors = append(allErrors, convertCELErrorToValidationError(fldPath.Child("expression"), accessor, result.Error))
		}
	}
	return allErrors
}

func validateJSONPatch(compiler plugincel.Compiler, jsonPatch *admissionregistrationv1.JSONPatch, paramKind *admissionregistrationv1.ParamKind, opts validationOptions, fldPath *field.Path) (allErrors field.ErrorList) {
	trimmedExpression := strings.TrimSpace(jsonPatch.Expression)
	if len(trimmedExpression) == 0 {
		allErrors = append(allErrors, field.Required(fldPath.Child("expression"), ""))
	} else {

		envType := environment.NewExpressions
		accessor := &patch.JSONPatchCondition{
			Expression: trimmedExpression,
		}
		opts := plugincel.OptionalVariableDeclarations{HasParams: paramKind != nil, HasAuthorizer: true, HasPatchTypes: true}
		result := compiler.CompileCELExpression(accessor, opts, envType)

		if result.Error != nil {
			allErrors = append(allErrors, convertCELErrorToValidationError(fldPath.Child("expression"), accessor, result.Error))
		}
	}
	return allErrors
}

func validateMutatingAdmissionPolicyBinding(pb *admissionregistrationv1.MutatingAdmissionPolicyBinding) field.ErrorList {
	allErrors := genericvalidation.ValidateObjectMeta(&pb.ObjectMeta, false, genericvalidation.NameIsDNSSubdomain, field.NewPath("metadata"))
	allErrors = append(allErrors, validateMutatingAdmissionPolicyBindingSpec(&pb.Spec, field.NewPath("spec"))...)

	return allErrors
}

func validateMutatingAdmissionPolicyBindingSpec(spec *admissionregistrationv1.MutatingAdmissionPolicyBindingSpec, fldPath *field.Path) field.ErrorList {
	var allErrors field.ErrorList

	if len(spec.PolicyName) == 0 {
		allErrors = append(allErrors, field.Required(fldPath.Child("policyName"), ""))
	} else {
		for _, msg := range genericvalidation.NameIsDNSSubdomain(spec.PolicyName, false) {
			allErrors = append(allErrors, field.Invalid(fldPath.Child("policyName"), spec.PolicyName, msg))
		}
	}
	allErrors = append(allErrors, validateParamRef(spec.ParamRef, fldPath.Child("paramRef"))...)
	allErrors = append(allErrors, validateMatchResources(spec.MatchResources, fldPath.Child("matchResources"))...)
	if spec.MatchResources != nil {
		// It is only possible to mutate create and update requests
		for _, rule := range spec.MatchResources.ResourceRules {
			for _, op := range rule.RuleWithOperations.Operations {
				if !supportedMutatingOperations.Has(string(op)) {
					allErrors = append(allErrors, field.NotSupported(fldPath.Child("matchResources", "resourceRules", "operations"), op, supportedMutatingOperations.List()))
				}
			}
		}
	}

	return allErrors
}

// firstInvalid validates the policies and bindings in document order and
// returns the first invalid one's group kind, name and errors.
func (c *cluster) firstInvalid(envs *environment.EnvSet) (schema.GroupKind, string, field.ErrorList) {
	// c.vaps and c.maps are sorted by name (stably); c.objects keeps the
	// document order, so the typed objects are taken back in that order.
	vaps, maps := byName(c.vaps), byName(c.maps)
	vapBindings, mapBindings := byName(c.vapBindings), byName(c.mapBindings)
	v := newPolicyValidator(envs)
	for _, u := range c.objects {
		if u.GetAPIVersion() != admissionregistration {
			continue
		}
		name := u.GetName()
		var gk schema.GroupKind
		var errs field.ErrorList
		switch u.GetKind() {
		case "ValidatingAdmissionPolicy":
			gk, errs = vapKind, v.createVAP(vaps.next(name))
		case "ValidatingAdmissionPolicyBinding":
			gk, errs = vapBindingKind, v.createVAPBinding(vapBindings.next(name))
		case "MutatingAdmissionPolicy":
			gk, errs = mapKind, v.createMAP(maps.next(name))
		case "MutatingAdmissionPolicyBinding":
			gk, errs = mapBindingKind, v.createMAPBinding(mapBindings.next(name))
		}
		if len(errs) > 0 {
			return gk, name, errs
		}
	}
	return schema.GroupKind{}, "", nil
}

type policyObject interface {
	*admissionregistrationv1.ValidatingAdmissionPolicy | *admissionregistrationv1.ValidatingAdmissionPolicyBinding |
		*admissionregistrationv1.MutatingAdmissionPolicy | *admissionregistrationv1.MutatingAdmissionPolicyBinding
	GetName() string
}

// namedQueue hands out the objects of each name in their order.
type namedQueue[T policyObject] map[string][]T

func byName[T policyObject](objs []T) namedQueue[T] {
	q := namedQueue[T]{}
	for _, o := range objs {
		q[o.GetName()] = append(q[o.GetName()], o)
	}
	return q
}

func (q namedQueue[T]) next(name string) T {
	o := q[name][0]
	q[name] = q[name][1:]
	return o
}
