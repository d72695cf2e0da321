/**
 * Shapes of the module's requests and answers that more than one part of the package uses (a
 * field error is part of a CRD result, of an `invalid_crd` and of an `invalid_policy` error; the
 * admission shapes serve the main-thread and the Worker runtime). This file imports nothing, so
 * that errors.ts, crd.ts and admission.ts can all depend on it without depending on each other.
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

/**
 * A Kubernetes object as plain JSON data (`apiVersion`, `kind`, `metadata`, `spec`, …), or its
 * JSON text. Text is sent as the Go host sends it (compacted, `<`, `>`, `&` escaped as
 * `encoding/json` does), so the module sees the same bytes; an object is sent as its
 * `JSON.stringify` text. YAML is the caller's business: convert it first (e.g. with the `yaml`
 * package).
 */
export type KubeObject = Readonly<Record<string, unknown>> | string;

/**
 * An admission request to {@link Runtime.admit}: the cluster's objects the policies read, and
 * the objects to admit. Go host: `AdmitRequest` (wire/admit.go; docs/abi.md, "admit").
 */
export interface AdmitRequest {
  /**
   * The cluster's objects, in any order: ValidatingAdmissionPolicy,
   * ValidatingAdmissionPolicyBinding, MutatingAdmissionPolicy, MutatingAdmissionPolicyBinding
   * (admissionregistration.k8s.io/v1), param objects (ConfigMaps, custom resources — any object
   * can be a param), Namespaces (what `namespaceObject` and namespaceSelector read),
   * CustomResourceDefinitions (the plural, scope and schema of custom resources) and RBAC
   * objects (Role, ClusterRole, RoleBinding, ClusterRoleBinding: what the `authorizer` variable
   * answers). Policies and bindings are defaulted and validated as kube-apiserver does when they
   * are created.
   */
  readonly documents: readonly KubeObject[];
  /** The objects under admission, one admission request each; one result per request, in order. */
  readonly requests: readonly AdmitItem[];
  /** The requesting user; default `kubernetes-admin` in the groups `system:masters` and
   * `system:authenticated`. */
  readonly user?: string;
  /** The user's groups, all of them (kube-apiserver's authenticator adds
   * `system:authenticated`: give it too). */
  readonly groups?: readonly string[];
  /** The Kubernetes minor version (`'1.36'`) whose CEL environment compiles the policies;
   * default the newest the module has. */
  readonly compatibilityVersion?: string;
}

/** One admission request. Go host: `AdmitItem`. */
export interface AdmitItem {
  /** `CREATE`, `UPDATE`, `DELETE` or `CONNECT`; default `CREATE`, or `UPDATE` when `oldObject`
   * is given. */
  readonly operation?: 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT' | '';
  /** The object as admission receives it (no defaults applied); absent (or `null`) for DELETE. */
  readonly object?: KubeObject | null;
  /** The stored object, for UPDATE and DELETE (what `oldObject` reads). */
  readonly oldObject?: KubeObject | null;
  /** The request's namespace for a namespaced object without `metadata.namespace`; default
   * `default` (kubectl's). */
  readonly namespace?: string;
}

/** kube-apiserver's decision on one admission request. Go host: `AdmitResult`. */
export interface AdmitResult {
  /** False when a policy denied the request (validationActions Deny, or a failurePolicy Fail
   * error). */
  allowed: boolean;
  /** The Status message of the denial, exactly what kubectl prints after
   * `Error from server (…): `, e.g. `deployments.apps "nginx" is forbidden:
   * ValidatingAdmissionPolicy 'p' with binding 'b' denied request: failed expression: …`;
   * `''` when allowed. */
  message: string;
  /** The Status reason of the denial (`Invalid`, `Forbidden`, …); absent when allowed. */
  reason?: string;
  /** The HTTP status code of the denial (422, 403, …); absent when allowed. */
  code?: number;
  /** The Warning headers' texts, in order (validationActions Warn, type-checking warnings of
   * the request, …). */
  warnings: string[];
  /** What admission adds to the audit event: `auditAnnotations` (keyed `POLICY/KEY`) and
   * validationActions Audit (`validation.policy.admission.k8s.io/validation_failure`). */
  auditAnnotations: Record<string, string>;
  /** The object after every MutatingAdmissionPolicy, or `null` when none changed it. Parsed with
   * `JSON.parse` (an integer above 2^53 loses precision). */
  patchedObject: Record<string, unknown> | null;
}

/** The answer of {@link Runtime.admit}. Go host: `AdmitResponse`. */
export interface AdmitResponse {
  /** One result per request, in order. */
  results: AdmitResult[];
  /** The policies' type-checking warnings (kube-apiserver writes them to the policy's
   * `status.typeChecking`); absent when none. */
  warnings?: string[];
}
