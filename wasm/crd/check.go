package crd

// The CRD's own x-kubernetes-validations checks, as kube-apiserver makes them
// when the CRD is created: rules that do not compile, messageExpressions that
// are not strings, oldSelf where old and new values cannot be correlated, and
// cost estimates against StaticEstimatedCostLimit (per rule, times the number
// of times the rule can run) and StaticEstimatedCRDCostLimit (per schema).
//
// Ported from k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/validation
// (cel_validation.go and the x-kubernetes-validations part of
// ValidateCustomResourceDefinitionOpenAPISchema in validation.go, v0.37.2,
// Apache-2.0): that package also validates webhooks and conversion and pulls
// the client, etcd and gRPC into the module (34 MB). Compilation, the schema →
// CEL type mapping and the cost estimates are kube-apiserver's own
// (schema/cel.Compile, model.SchemaDeclType); the differential test compares
// these errors with the upstream package's on every corpus CRD.

import (
	"context"
	"fmt"
	"math"
	"regexp"
	"sort"
	"strings"

	"github.com/celwasm/celwasm/wire"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel/model"
	structuraldefaulting "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apimachinery/pkg/util/validation/field"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
	apiservercel "k8s.io/apiserver/pkg/cel"
	"k8s.io/apiserver/pkg/cel/environment"
)

// CRDCheck is what kube-apiserver reports about a CRD's schemas and
// x-kubernetes-validations when the CRD is created, with every rule's cost.
type CRDCheck struct {
	// Errors are the CRD's field errors (paths like
	// "spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule"),
	// sorted by field path. A CRD with errors would be rejected.
	Errors []wire.FieldError `json:"errors,omitempty"`
	// Message is kube-apiserver's Status message for them, e.g.
	// `CustomResourceDefinition.apiextensions.k8s.io "webapps.example.com" is invalid: [...]`.
	Message string `json:"message,omitempty"`
	// Schemas lists each distinct schema (one, at spec.validation, when all
	// versions share it; else one per version with a schema).
	Schemas []*SchemaCost `json:"schemas"`
}

// SchemaCost is one schema's cost accounting (wire.SchemaCost) with the
// rules' compiled state; Wire returns the response shape.
type SchemaCost struct {
	wire.SchemaCost
	Rules []*RuleCost

	structural *structuralschema.Structural
}

// Wire returns the schema's cost accounting as the cost export reports it.
func (s *SchemaCost) Wire() *wire.SchemaCost {
	out := s.SchemaCost
	for _, r := range s.Rules {
		out.Rules = append(out.Rules, r.RuleCost)
	}
	return &out
}

// RuleCost is one rule's (or messageExpression's) estimated cost
// (wire.RuleCost) with what its explanation needs.
type RuleCost struct {
	wire.RuleCost

	ctx      *celSchemaContext
	node     *structuralschema.Structural
	declType *apiservercel.DeclType
	rule     string
	optional bool // optionalOldSelf
	bounds   []ancestorBound
}

// Check returns the CRD's check, computed on first use.
func (c *CRD) Check() *CRDCheck {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.check == nil {
		c.check = c.runCheck()
	}
	return c.check
}

// CostReport returns the check with every rule's Explanation, computed on
// first use.
func (c *CRD) CostReport() *CRDCheck {
	chk := c.Check()
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.explained {
		chk.Explain()
		c.explained = true
	}
	return chk
}

var celEnvSet = func() *environment.EnvSet {
	return environment.MustBaseEnvSet(environment.DefaultCompatibilityVersion())
}

func (c *CRD) runCheck() *CRDCheck {
	chk := &CRDCheck{}
	var errs field.ErrorList
	spec := &c.internal.Spec
	if spec.Validation != nil && spec.Validation.OpenAPIV3Schema != nil {
		sc, es := checkSchema(spec.Validation.OpenAPIV3Schema, field.NewPath("spec", "validation", "openAPIV3Schema"))
		sc.Versions = c.Versions()
		chk.Schemas = append(chk.Schemas, sc)
		errs = append(errs, es...)
	} else {
		for i, v := range spec.Versions {
			if v.Schema == nil || v.Schema.OpenAPIV3Schema == nil {
				continue
			}
			sc, es := checkSchema(v.Schema.OpenAPIV3Schema, field.NewPath("spec", "versions").Index(i).Child("schema", "openAPIV3Schema"))
			sc.Versions = []string{v.Name}
			chk.Schemas = append(chk.Schemas, sc)
			errs = append(errs, es...)
		}
	}
	sort.SliceStable(errs, func(i, j int) bool { return fieldPathLess(errs[i].Field, errs[j].Field) })
	for _, e := range errs {
		chk.Errors = append(chk.Errors, wire.FieldError{Field: e.Field, Type: string(e.Type), Message: normalizeTypeNames(e.ErrorBody())})
	}
	if len(errs) > 0 {
		chk.Message = normalizeTypeNames(fmt.Sprintf("CustomResourceDefinition.apiextensions.k8s.io %q is invalid: %v", c.Name(), errs.ToAggregate()))
	}
	return chk
}

// selfTypeName matches the type names kube-apiserver generates for self
// ("selfType" + the nanoseconds of the clock when the rule was compiled);
// they appear in compile errors.
var selfTypeName = regexp.MustCompile(`selfType[0-9]+`)

// normalizeTypeNames replaces generated self type names with "selfType", so
// that messages are the same on every run and host.
func normalizeTypeNames(s string) string { return selfTypeName.ReplaceAllString(s, "selfType") }

// checkSchema is validateCustomResourceDefinitionValidation for one schema,
// limited to what concerns x-kubernetes-validations: the structural schema
// checks (which gate the CEL checks), the rules' own fields, compilation,
// transition rules and cost limits.
func checkSchema(s *apiextensions.JSONSchemaProps, fldPath *field.Path) (*SchemaCost, field.ErrorList) {
	sc := &SchemaCost{SchemaCost: wire.SchemaCost{Path: fldPath.String(), TotalLimit: StaticEstimatedCRDCostLimit}}
	var allErrs field.ErrorList
	var celContext *celSchemaContext
	var structuralInitErrs field.ErrorList
	if ss, err := structuralschema.NewStructural(s); err != nil {
		structuralInitErrs = append(structuralInitErrs, field.Invalid(fldPath, "", err.Error()))
	} else if validationErrors := structuralschema.ValidateStructural(fldPath, ss); len(validationErrors) > 0 {
		allErrs = append(allErrs, validationErrors...)
	} else if validationErrors, err := structuraldefaulting.ValidateDefaults(context.Background(), fldPath, ss, true, true); err != nil {
		allErrs = append(allErrs, field.Invalid(fldPath, "", err.Error()))
	} else if len(validationErrors) > 0 {
		allErrs = append(allErrs, validationErrors...)
	} else {
		celContext = rootCELContext(s)
		sc.structural = ss
	}
	w := &schemaWalk{sc: sc}
	schemaErrs, celErrs := w.walk(s, fldPath, "", nil, celContext, nil)
	allErrs = append(allErrs, schemaErrs...)
	allErrs = append(allErrs, celErrs...)
	if len(allErrs) == 0 && len(structuralInitErrs) > 0 {
		allErrs = append(allErrs, structuralInitErrs...)
	}
	sort.SliceStable(sc.Rules, func(i, j int) bool { return ruleOrderLess(sc.Rules[i], sc.Rules[j]) })
	if celContext != nil && celContext.TotalCost != nil {
		sc.TotalCost = celContext.TotalCost.Total
		if celContext.TotalCost.Total > StaticEstimatedCRDCostLimit {
			for _, expensive := range celContext.TotalCost.MostExpensive {
				allErrs = append(allErrs, field.Forbidden(expensive.Path, "contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema"))
			}
			allErrs = append(allErrs, field.Forbidden(fldPath, getCostErrorMessage("x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema", celContext.TotalCost.Total, StaticEstimatedCRDCostLimit)))
		}
	}
	return sc, allErrs
}

var supportedValidationReason = sets.NewString(
	string(apiextensions.FieldValueRequired),
	string(apiextensions.FieldValueForbidden),
	string(apiextensions.FieldValueInvalid),
	string(apiextensions.FieldValueDuplicate),
)

type schemaWalk struct {
	sc *SchemaCost
}

// walk follows ValidateCustomResourceDefinitionOpenAPISchema's recursion
// through properties, additionalProperties and items (allOf, anyOf, oneOf
// and not carry no CEL context there). node is the custom resource path;
// uncorrelatable is the highest schema path below which oldSelf is
// forbidden. It returns schema errors (which gate the CEL checks of this
// node and its ancestors) and CEL errors separately, as upstream does.
func (w *schemaWalk) walk(s *apiextensions.JSONSchemaProps, fldPath *field.Path, node string, uncorrelatable *field.Path, celContext *celSchemaContext, anc []ancestorBound) (schemaErrs, celErrs field.ErrorList) {
	if s == nil {
		return nil, nil
	}
	add := func(se, ce field.ErrorList) {
		schemaErrs = append(schemaErrs, se...)
		celErrs = append(celErrs, ce...)
	}
	below := append(anc[:len(anc):len(anc)], ancestorBound{path: node, schema: s})
	if s.AdditionalProperties != nil {
		add(w.walk(s.AdditionalProperties.Schema, fldPath.Child("additionalProperties"), node+"[*]", uncorrelatable, celContext.childAdditionalPropertiesContext(s.AdditionalProperties.Schema), below))
	}
	for _, property := range sortedKeys(s.Properties) {
		sub := uncorrelatable
		if !cel.MapIsCorrelatable(s.XMapType) && sub == nil {
			sub = fldPath
		}
		propertySchema := s.Properties[property]
		add(w.walk(&propertySchema, fldPath.Child("properties").Key(property), joinField(node, property), sub, celContext.childPropertyContext(&propertySchema, property), anc))
	}
	if s.Items != nil {
		sub := uncorrelatable
		if (s.XListType == nil || *s.XListType != "map") && sub == nil {
			sub = fldPath
		}
		add(w.walk(s.Items.Schema, fldPath.Child("items"), node+"[*]", sub, celContext.childItemsContext(s.Items.Schema), below))
		for i := range s.Items.JSONSchemas {
			itemsSchema := s.Items.JSONSchemas[i]
			add(w.walk(&itemsSchema, fldPath.Child("items").Index(i), node+"[*]", sub, celContext.childItemsContext(&itemsSchema), below))
		}
	}
	if len(s.XValidations) == 0 {
		return schemaErrs, celErrs
	}
	for i, rule := range s.XValidations {
		rulePath := fldPath.Child("x-kubernetes-validations").Index(i)
		trimmedRule := strings.TrimSpace(rule.Rule)
		trimmedMsg := strings.TrimSpace(rule.Message)
		trimmedMsgExpr := strings.TrimSpace(rule.MessageExpression)
		if len(trimmedRule) == 0 {
			schemaErrs = append(schemaErrs, field.Required(rulePath.Child("rule"), "rule is not specified"))
		} else if len(rule.Message) > 0 && len(trimmedMsg) == 0 {
			schemaErrs = append(schemaErrs, field.Invalid(rulePath.Child("message"), rule.Message, "must be non-empty if specified"))
		} else if hasNewlines(trimmedMsg) {
			schemaErrs = append(schemaErrs, field.Invalid(rulePath.Child("message"), rule.Message, "must not contain line breaks"))
		} else if hasNewlines(trimmedRule) && len(trimmedMsg) == 0 {
			schemaErrs = append(schemaErrs, field.Required(rulePath.Child("message"), "message must be specified if rule contains line breaks"))
		}
		if len(rule.MessageExpression) > 0 && len(trimmedMsgExpr) == 0 {
			schemaErrs = append(schemaErrs, field.Required(rulePath.Child("messageExpression"), "messageExpression must be non-empty if specified"))
		}
		if rule.Reason != nil && !supportedValidationReason.Has(string(*rule.Reason)) {
			schemaErrs = append(schemaErrs, field.NotSupported(rulePath.Child("reason"), *rule.Reason, supportedValidationReason.List()))
		}
		trimmedFieldPath := strings.TrimSpace(rule.FieldPath)
		if len(rule.FieldPath) > 0 && len(trimmedFieldPath) == 0 {
			schemaErrs = append(schemaErrs, field.Invalid(rulePath.Child("fieldPath"), rule.FieldPath, "must be non-empty if specified"))
		}
		if hasNewlines(rule.FieldPath) {
			schemaErrs = append(schemaErrs, field.Invalid(rulePath.Child("fieldPath"), rule.FieldPath, "must not contain line breaks"))
		}
		if len(rule.FieldPath) > 0 && !pathValid(s, rule.FieldPath) {
			schemaErrs = append(schemaErrs, field.Invalid(rulePath.Child("fieldPath"), rule.FieldPath, "must be a valid path"))
		}
	}
	// If any schema related validation errors have been found at this level
	// or deeper, skip CEL expression validation.
	if len(schemaErrs) > 0 || celContext == nil {
		return schemaErrs, celErrs
	}
	typeInfo, err := celContext.typeInfoOf()
	if err != nil {
		celErrs = append(celErrs, field.InternalError(fldPath.Child("x-kubernetes-validations"), fmt.Errorf("internal error: failed to construct type information for x-kubernetes-validations rules: %s", err)))
		return schemaErrs, celErrs
	}
	if typeInfo == nil {
		celErrs = append(celErrs, field.InternalError(fldPath.Child("x-kubernetes-validations"), fmt.Errorf("internal error: failed to retrieve type information for x-kubernetes-validations")))
		return schemaErrs, celErrs
	}
	compResults, err := cel.Compile(typeInfo.Schema, typeInfo.DeclType, celconfig.PerCallLimit, celEnvSet(), cel.NewExpressionsEnvLoader())
	if err != nil {
		celErrs = append(celErrs, field.InternalError(fldPath.Child("x-kubernetes-validations"), err))
		return schemaErrs, celErrs
	}
	for i, cr := range compResults {
		rule := s.XValidations[i]
		rulePath := fldPath.Child("x-kubernetes-validations").Index(i)
		expressionCost := getExpressionCost(cr, celContext)
		rc := &RuleCost{
			RuleCost: wire.RuleCost{Path: rulePath.Child("rule").String(), Node: node, Expression: rule.Rule, Kind: "rule",
				Cost: expressionCost, Limit: StaticEstimatedCostLimit, Exceeds: expressionCost > StaticEstimatedCostLimit,
				PerCall: cr.MaxCost, Cardinality: cardinalityOf(cr, celContext),
			},
			ctx: celContext, node: typeInfo.Schema, declType: typeInfo.DeclType, rule: rule.Rule,
			optional: rule.OptionalOldSelf != nil && *rule.OptionalOldSelf, bounds: anc,
		}
		w.sc.Rules = append(w.sc.Rules, rc)
		if expressionCost > StaticEstimatedCostLimit {
			celErrs = append(celErrs, field.Forbidden(rulePath.Child("rule"), getCostErrorMessage("estimated rule cost", expressionCost, StaticEstimatedCostLimit)))
		}
		if celContext.TotalCost != nil {
			celContext.TotalCost.observeExpressionCost(rulePath.Child("rule"), expressionCost)
		}
		if cr.Error != nil {
			rc.Error = normalizeTypeNames(cr.Error.Detail)
			if cr.Error.Type == apiservercel.ErrorTypeRequired {
				celErrs = append(celErrs, field.Required(rulePath.Child("rule"), cr.Error.Detail))
			} else {
				celErrs = append(celErrs, field.Invalid(rulePath.Child("rule"), rule, cr.Error.Detail))
			}
		}
		if cr.MessageExpressionError != nil {
			celErrs = append(celErrs, field.Invalid(rulePath.Child("messageExpression"), rule, cr.MessageExpressionError.Detail))
			if rule.MessageExpression != "" {
				w.sc.Rules = append(w.sc.Rules, &RuleCost{
					RuleCost: wire.RuleCost{Path: rulePath.Child("messageExpression").String(), Node: node, Expression: rule.MessageExpression, Kind: "messageExpression",
						Limit: StaticEstimatedCostLimit, Error: normalizeTypeNames(cr.MessageExpressionError.Detail),
					},
				})
			}
		} else if cr.MessageExpression != nil {
			// messageExpression costs are not multiplied by the cardinality
			w.sc.Rules = append(w.sc.Rules, &RuleCost{
				RuleCost: wire.RuleCost{Path: rulePath.Child("messageExpression").String(), Node: node, Expression: rule.MessageExpression, Kind: "messageExpression",
					Cost: cr.MessageExpressionMaxCost, Limit: StaticEstimatedCostLimit, Exceeds: cr.MessageExpressionMaxCost > StaticEstimatedCostLimit,
					PerCall: cr.MessageExpressionMaxCost, Cardinality: 1,
				},
				ctx: celContext, node: typeInfo.Schema, declType: typeInfo.DeclType, rule: rule.MessageExpression,
				optional: rule.OptionalOldSelf != nil && *rule.OptionalOldSelf,
			})
			if cr.MessageExpressionMaxCost > StaticEstimatedCostLimit {
				celErrs = append(celErrs, field.Forbidden(rulePath.Child("messageExpression"), getCostErrorMessage("estimated messageExpression cost", cr.MessageExpressionMaxCost, StaticEstimatedCostLimit)))
			}
			if celContext.TotalCost != nil {
				celContext.TotalCost.observeExpressionCost(rulePath.Child("messageExpression"), cr.MessageExpressionMaxCost)
			}
		}
		if cr.UsesOldSelf {
			if uncorrelatable != nil {
				celErrs = append(celErrs, field.Invalid(rulePath.Child("rule"), rule.Rule, fmt.Sprintf("oldSelf cannot be used on the uncorrelatable portion of the schema within %v", uncorrelatable)))
			}
		} else if rule.OptionalOldSelf != nil {
			celErrs = append(celErrs, field.Invalid(rulePath.Child("optionalOldSelf"), *rule.OptionalOldSelf, "may not be set if oldSelf is not used in rule"))
		}
	}
	return schemaErrs, celErrs
}

func pathValid(schema *apiextensions.JSONSchemaProps, path string) bool {
	// To avoid duplicated code and better maintain, using ValidaFieldPath func to check if the path is valid
	if ss, err := structuralschema.NewStructural(schema); err == nil {
		_, _, err := cel.ValidFieldPath(path, ss)
		return err == nil
	}
	return true
}

// multiplyWithOverflowGuard returns the product of baseCost and cardinality unless that product
// would exceed math.MaxUint, in which case math.MaxUint is returned.
func multiplyWithOverflowGuard(baseCost, cardinality uint64) uint64 {
	if baseCost == 0 {
		// an empty rule can return 0, so guard for that here
		return 0
	} else if math.MaxUint/baseCost < cardinality {
		return math.MaxUint
	}
	return baseCost * cardinality
}

func getExpressionCost(cr cel.CompilationResult, cardinalityCost *celSchemaContext) uint64 {
	return multiplyWithOverflowGuard(cr.MaxCost, cardinalityOf(cr, cardinalityCost))
}

func cardinalityOf(cr cel.CompilationResult, c *celSchemaContext) uint64 {
	if c.MaxCardinality != nil {
		return *c.MaxCardinality
	}
	return cr.MaxCardinality
}

func getCostErrorMessage(costName string, expressionCost, costLimit uint64) string {
	exceedFactor := float64(expressionCost) / float64(costLimit)
	var factor string
	if exceedFactor > 100.0 {
		// if exceedFactor is greater than 2 orders of magnitude, the rule is likely O(n^2) or worse
		// and will probably never validate without some set limits
		// also in such cases the cost estimation is generally large enough to not add any value
		factor = "more than 100x"
	} else if exceedFactor < 1.5 {
		factor = fmt.Sprintf("%fx", exceedFactor) // avoid reporting "exceeds budge by a factor of 1.0x"
	} else {
		factor = fmt.Sprintf("%.1fx", exceedFactor)
	}
	return fmt.Sprintf("%s exceeds budget by factor of %s (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)", costName, factor)
}

var newlineMatcher = regexp.MustCompile(`[\n\r]+`) // valid newline chars in CEL grammar

func hasNewlines(s string) bool { return newlineMatcher.MatchString(s) }

// celSchemaContext is CELSchemaContext (cel_validation.go): the type
// information and the maximum cardinality of one schema node, and the
// schema's running total cost.
type celSchemaContext struct {
	withinValidationRuleScope bool
	typeInfo                  *celTypeInfo
	typeInfoErr               error
	parent                    *celSchemaContext
	typeInfoAccessor          typeInfoAccessor
	jsonSchema                *apiextensions.JSONSchemaProps
	// MaxCardinality is the product of the maxItems/maxProperties of the
	// lists and maps above this node, nil when one of them has none.
	MaxCardinality *uint64
	TotalCost      *totalCost
}

type celTypeInfo struct {
	Schema   *structuralschema.Structural
	DeclType *apiservercel.DeclType
}

func (c *celSchemaContext) typeInfoOf() (*celTypeInfo, error) {
	if c == nil || !c.withinValidationRuleScope {
		return nil, nil
	}
	if c.typeInfo != nil || c.typeInfoErr != nil {
		return c.typeInfo, c.typeInfoErr
	}
	if c.parent != nil {
		parentTypeInfo, parentErr := c.parent.typeInfoOf()
		if parentErr != nil {
			c.typeInfoErr = parentErr
			return nil, parentErr
		}
		if parentTypeInfo != nil && c.typeInfoAccessor != nil {
			c.typeInfo = c.typeInfoAccessor.accessTypeInfo(parentTypeInfo)
			if c.typeInfo != nil {
				return c.typeInfo, nil
			}
		}
	}
	c.typeInfo, c.typeInfoErr = defaultConverter(c.jsonSchema, c.parent == nil || c.jsonSchema.XEmbeddedResource)
	return c.typeInfo, c.typeInfoErr
}

func defaultConverter(schema *apiextensions.JSONSchemaProps, isRoot bool) (*celTypeInfo, error) {
	structural, err := structuralschema.NewStructural(schema)
	if err != nil {
		return nil, err
	}
	declType := model.SchemaDeclType(structural, isRoot)
	if declType == nil {
		return nil, fmt.Errorf("unable to convert structural schema to CEL declarations")
	}
	return &celTypeInfo{structural, declType}, nil
}

func rootCELContext(schema *apiextensions.JSONSchemaProps) *celSchemaContext {
	rootCardinality := uint64(1)
	return &celSchemaContext{
		jsonSchema:                schema,
		withinValidationRuleScope: len(schema.XValidations) > 0,
		MaxCardinality:            &rootCardinality,
		TotalCost:                 &totalCost{},
	}
}

func (c *celSchemaContext) childPropertyContext(propSchema *apiextensions.JSONSchemaProps, propertyName string) *celSchemaContext {
	if c == nil {
		return nil
	}
	return c.childContext(propSchema, propertyTypeInfoAccessor{propertyName: propertyName})
}

func (c *celSchemaContext) childAdditionalPropertiesContext(propsSchema *apiextensions.JSONSchemaProps) *celSchemaContext {
	if c == nil {
		return nil
	}
	return c.childContext(propsSchema, additionalItemsTypeInfoAccessor{})
}

func (c *celSchemaContext) childItemsContext(itemsSchema *apiextensions.JSONSchemaProps) *celSchemaContext {
	if c == nil {
		return nil
	}
	return c.childContext(itemsSchema, itemsTypeInfoAccessor{})
}

func (c *celSchemaContext) childContext(child *apiextensions.JSONSchemaProps, accessor typeInfoAccessor) *celSchemaContext {
	result := &celSchemaContext{
		parent:                    c,
		typeInfoAccessor:          accessor,
		withinValidationRuleScope: c.withinValidationRuleScope,
		TotalCost:                 c.TotalCost,
	}
	if child != nil {
		result.jsonSchema = child
		if len(child.XValidations) > 0 {
			result.withinValidationRuleScope = true
		}
	}
	if c.jsonSchema == nil || c.MaxCardinality == nil {
		return result
	}
	maxElements := extractMaxElements(c.jsonSchema)
	if maxElements == nil {
		return result
	}
	m := multiplyWithOverflowGuard(*c.MaxCardinality, *maxElements)
	result.MaxCardinality = &m
	return result
}

type typeInfoAccessor interface {
	accessTypeInfo(parentTypeInfo *celTypeInfo) *celTypeInfo
}

type propertyTypeInfoAccessor struct{ propertyName string }

func (c propertyTypeInfoAccessor) accessTypeInfo(parentTypeInfo *celTypeInfo) *celTypeInfo {
	if parentTypeInfo.Schema.Properties != nil {
		propSchema := parentTypeInfo.Schema.Properties[c.propertyName]
		if escapedPropName, ok := apiservercel.Escape(c.propertyName); ok {
			if fieldDeclType, ok := parentTypeInfo.DeclType.Fields[escapedPropName]; ok {
				return &celTypeInfo{Schema: &propSchema, DeclType: fieldDeclType.Type}
			} // else fields with unknown types are omitted from CEL validation entirely
		} // fields with unescapable names are expected to be absent
	}
	return nil
}

type itemsTypeInfoAccessor struct{}

func (c itemsTypeInfoAccessor) accessTypeInfo(parentTypeInfo *celTypeInfo) *celTypeInfo {
	if parentTypeInfo.Schema.Items != nil {
		return &celTypeInfo{Schema: parentTypeInfo.Schema.Items, DeclType: parentTypeInfo.DeclType.ElemType}
	}
	return nil
}

type additionalItemsTypeInfoAccessor struct{}

func (c additionalItemsTypeInfoAccessor) accessTypeInfo(parentTypeInfo *celTypeInfo) *celTypeInfo {
	if parentTypeInfo.Schema.AdditionalProperties != nil {
		return &celTypeInfo{Schema: parentTypeInfo.Schema.AdditionalProperties.Structural, DeclType: parentTypeInfo.DeclType.ElemType}
	}
	return nil
}

// totalCost tracks the total cost of a schema's x-kubernetes-validations.
type totalCost struct {
	Total         uint64
	MostExpensive []ruleCostEntry
}

type ruleCostEntry struct {
	Path *field.Path
	Cost uint64
}

func (c *totalCost) observeExpressionCost(path *field.Path, cost uint64) {
	if math.MaxUint64-c.Total < cost {
		c.Total = math.MaxUint64
	} else {
		c.Total += cost
	}
	if cost < StaticEstimatedCRDCostLimit/100 { // ignore rules that contribute < 1% of total cost limit
		return
	}
	c.MostExpensive = append(c.MostExpensive, ruleCostEntry{Path: path, Cost: cost})
	sort.SliceStable(c.MostExpensive, func(i, j int) bool {
		// sort in descending order so the most expensive rule is first
		return c.MostExpensive[i].Cost > c.MostExpensive[j].Cost
	})
	if len(c.MostExpensive) > 4 {
		c.MostExpensive = c.MostExpensive[:4]
	}
}

// extractMaxElements is the factor by which a schema multiplies the
// cardinality of its children: maxProperties of a map, maxItems of a list
// (nil when unset), 1 otherwise.
func extractMaxElements(schema *apiextensions.JSONSchemaProps) *uint64 {
	one := uint64(1)
	switch schema.Type {
	case "object":
		if schema.AdditionalProperties != nil {
			if schema.MaxProperties != nil {
				maxProps := uint64(zeroIfNegative(*schema.MaxProperties))
				return &maxProps
			}
			return nil
		}
		return &one
	case "array":
		if schema.MaxItems != nil {
			maxItems := uint64(zeroIfNegative(*schema.MaxItems))
			return &maxItems
		}
		return nil
	default:
		return &one
	}
}

func zeroIfNegative(v int64) int64 {
	if v < 0 {
		return 0
	}
	return v
}

// ruleOrderLess orders rules by their place in the schema, a rule before
// its messageExpression.
func ruleOrderLess(a, b *RuleCost) bool {
	if a.Node != b.Node {
		return fieldPathLess(a.Node, b.Node)
	}
	pa, pb := strings.TrimSuffix(strings.TrimSuffix(a.Path, ".rule"), ".messageExpression"), strings.TrimSuffix(strings.TrimSuffix(b.Path, ".rule"), ".messageExpression")
	if pa != pb {
		return fieldPathLess(pa, pb)
	}
	return a.Kind == "rule" && b.Kind != "rule"
}
