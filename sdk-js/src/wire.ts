/**
 * Shapes of the module's answers that more than one part of the package uses (a field error is
 * both part of a CRD result and of an `invalid_crd` error). This file imports nothing, so that
 * errors.ts and crd.ts can both depend on it without depending on each other.
 *
 * @module
 */

/** An x-kubernetes-validations rule: where it sits in the version's schema and its fields. */
export interface RuleRef {
  /** E.g. `openAPIV3Schema.properties[spec].x-kubernetes-validations[0]`. */
  schemaPath: string;
  rule: string;
  message?: string;
  messageExpression?: string;
  reason?: string;
  fieldPath?: string;
}

/** One field error as kube-apiserver reports it (a Status cause). kubectl prints it as
 * `${field}: ${message}`. */
export interface FieldError {
  /** The field path, e.g. `spec.replicas`, `spec.items[0]`, `<nil>` for the root. */
  field: string;
  /** `FieldValueInvalid`, `FieldValueRequired`, `FieldValueForbidden`, `FieldValueDuplicate`,
   * `FieldValueTypeInvalid`, `FieldValueNotSupported`, … */
  type: string;
  /** The error without its path, e.g. `Invalid value: 5: must be at most 3`. */
  message: string;
  /** The rule that produced it, for errors of x-kubernetes-validations rules. kube-apiserver
   * does not say which rule failed; the module finds it (absent when none matches, e.g. for
   * "running out of cost budget"). */
  rule?: RuleRef;
}
