/**
 * Typed errors. Every failure celwasm reports is a {@link CelError} (an `Error` subclass) with a
 * stable `code`; `message` is for people and not stable.
 *
 * Codes from the module (docs/abi.md): `bad_request`, `invalid_env`, `compile_error`,
 * `unknown_program`, `invalid_activation`, `eval_error`, `cost_limit_exceeded`, `canceled`,
 * `invalid_crd`, `invalid_object`, `invalid_policy`, `needs_module`, `internal`. Codes from the JavaScript host: `trap`, `canceled`, `deadline_exceeded`, `closed`,
 * `invalid_argument`, `load_failed`, `unavailable`.
 *
 * @module
 */

import type { FieldError } from './wire.js';

/** Error codes reported by the module (docs/abi.md, "Errors"). */
export type ModuleErrorCode =
  | 'bad_request'
  | 'invalid_env'
  | 'compile_error'
  | 'unknown_program'
  | 'invalid_activation'
  | 'eval_error'
  | 'cost_limit_exceeded'
  | 'canceled'
  /** CRD validation: the CRD is not an apiextensions.k8s.io/v1 CustomResourceDefinition (not
   * JSON, another kind or version, missing group/kind/versions, a field of the wrong type), has
   * no such version, has a schema that is not structural, or kube-apiserver would reject it
   * ({@link InvalidCRDError}). */
  | 'invalid_crd'
  /** CRD validation, per object: not a JSON object, no apiVersion/kind, not of the CRD's group
   * and kind, a version that is not served, metadata that does not decode. */
  | 'invalid_object'
  /** Admission: a policy or binding kube-apiserver would refuse when it is created (a compile
   * error, a missing or bad field) ({@link InvalidPolicyError}). */
  | 'invalid_policy'
  /** The module does not serve the request; `module` names the one that does (`celwasm-full`:
   * CRD validation and cost, filters reading Knative's `attrs` or `cesql`; `celwasm-admission`:
   * admission policies). A Runtime loads it itself, except on a browser main thread before
   * `await runtime.loadFull()` / `await runtime.loadAdmission()`. */
  | 'needs_module'
  | 'internal';

/** Error codes added by the JavaScript host for failures outside the module. */
export type HostErrorCode =
  /** The WebAssembly instance trapped or exited (out of memory, a Go runtime fatal error) or its
   * Worker died; it was discarded and is replaced on next use. */
  | 'trap'
  /** An AbortSignal aborted the call (Worker runtime: the Worker was terminated and is replaced). */
  | 'canceled'
  /** The call's timeout passed (Worker runtime: the Worker was terminated and is replaced). */
  | 'deadline_exceeded'
  /** The runtime or the program was closed/freed. */
  | 'closed'
  /** A JavaScript argument cannot be encoded (e.g. a bigint outside int64 for an `int`). */
  | 'invalid_argument'
  /** The .wasm module could not be fetched, read or compiled. */
  | 'load_failed'
  /** A browser main thread refused to instantiate synchronously after a trap; await `runtime.ready()`. */
  | 'unavailable';

/** Every error code. */
export type ErrorCode = ModuleErrorCode | HostErrorCode;

/**
 * One compile problem, from cel-go's issue list.
 */
export interface Issue {
  /** 1-based line of the problem in the expression. */
  readonly line: number;
  /** 1-based column, counted in Unicode code points. */
  readonly column: number;
  /** cel-go's message, e.g. `undeclared reference to 'y' (in container '')`. */
  readonly message: string;
  /** cel-go's display form (`common.Error.ToDisplayString`): a header, the source line and a
   * caret under the column, e.g. `"ERROR: <input>:1:6: ...\n | x + y\n | .....^"`. */
  readonly snippet: string;
}

/** The base class of every celwasm error. `instanceof CelError` and `code` identify it. */
export class CelError extends Error {
  /** The stable error code. */
  readonly code: ErrorCode;
  /** For evaluation failures (`eval_error`, `cost_limit_exceeded`, `canceled`): the actual cost
   * spent before evaluation stopped, in cost units. */
  declare readonly cost?: number;
  /** For `needs_module`: the module that serves the request. */
  declare readonly module?: string;

  constructor(code: ErrorCode, message: string, options?: { cost?: number; cause?: unknown; module?: string }) {
    super(message, options?.cause !== undefined ? { cause: options.cause } : undefined);
    this.name = 'CelError';
    this.code = code;
    if (options?.cost !== undefined) this.cost = options.cost;
    if (options?.module !== undefined) this.module = options.module;
  }
}

/**
 * The expression does not parse or type-check (`code === 'compile_error'`). `message` is every
 * issue's snippet joined by newlines (cel-go's `Issues.String()`).
 */
export class CompileError extends CelError {
  /** Every problem found, in cel-go's order. */
  readonly issues: readonly Issue[];
  constructor(message: string, issues: readonly Issue[]) {
    super('compile_error', message);
    this.name = 'CompileError';
    this.issues = issues;
  }
}

/**
 * Evaluation failed: a CEL error (`eval_error`: no such key, no matching overload, division by zero,
 * overflow, a value that does not convert to its declared type), the cost limit
 * (`cost_limit_exceeded`), or an interruption (`canceled`). `cost` is the actual cost spent.
 */
export class EvalError extends CelError {
  constructor(code: 'eval_error' | 'cost_limit_exceeded' | 'canceled', message: string, cost: number | undefined) {
    super(code, message, cost === undefined ? undefined : { cost });
    this.name = 'EvalError';
  }
}

/**
 * The CRD cannot be used (`code === 'invalid_crd'`): it is not an apiextensions.k8s.io/v1
 * CustomResourceDefinition, has no such version, or — `fieldErrors` then lists why —
 * kube-apiserver would reject it when it is created (a schema that is not structural, rules that
 * do not compile, rules over the cost limits, `oldSelf` where it cannot be used, …), as kubectl
 * prints them: `The CustomResourceDefinition "x" is invalid: ${field}: ${message}`.
 */
export class InvalidCRDError extends CelError {
  /** kube-apiserver's field errors for the CRD, sorted by field path; empty when the CRD is not
   * usable at all (not a CRD, no such version). */
  readonly fieldErrors: readonly FieldError[];
  constructor(message: string, fieldErrors: readonly FieldError[]) {
    super('invalid_crd', message);
    this.name = 'InvalidCRDError';
    this.fieldErrors = fieldErrors;
  }
}

/**
 * An admission policy or binding kube-apiserver would refuse when it is created
 * (`code === 'invalid_policy'`): an expression that does not compile, a missing or bad field, a
 * binding's validationActions, …; `fieldErrors` lists them as kube-apiserver's validation names
 * them, and `message` is what kubectl prints first, e.g.
 * `ValidatingAdmissionPolicy.admissionregistration.k8s.io "p" is invalid: …`.
 */
export class InvalidPolicyError extends CelError {
  /** kube-apiserver's field errors for the policy or binding (`spec.validations[0].expression`,
   * …); empty when the module gave none. */
  readonly fieldErrors: readonly FieldError[];
  constructor(message: string, fieldErrors: readonly FieldError[]) {
    super('invalid_policy', message);
    this.name = 'InvalidPolicyError';
    this.fieldErrors = fieldErrors;
  }
}

/** Builds the typed error for a module error object (`{"code","message","issues"?,"cost"?}`). */
export function errorFromModule(e: { code?: unknown; message?: unknown; issues?: unknown; cost?: unknown; fieldErrors?: unknown; module?: unknown }): CelError {
  const code = typeof e.code === 'string' ? (e.code as ErrorCode) : 'internal';
  const message = typeof e.message === 'string' ? e.message : 'unknown error';
  const cost = typeof e.cost === 'number' ? e.cost : undefined;
  if (code === 'compile_error') {
    const issues = Array.isArray(e.issues) ? (e.issues as Issue[]) : [];
    return new CompileError(message, issues);
  }
  if (code === 'invalid_crd') return new InvalidCRDError(message, Array.isArray(e.fieldErrors) ? (e.fieldErrors as FieldError[]) : []);
  if (code === 'invalid_policy') return new InvalidPolicyError(message, Array.isArray(e.fieldErrors) ? (e.fieldErrors as FieldError[]) : []);
  if (code === 'eval_error' || code === 'cost_limit_exceeded' || (code === 'canceled' && cost !== undefined)) {
    return new EvalError(code, message, cost);
  }
  if (code === 'needs_module' && typeof e.module === 'string') return new CelError(code, message, { module: e.module });
  return new CelError(code, message, cost === undefined ? undefined : { cost });
}

/** A plain, structured-cloneable form of an error (for posting between Worker and page). */
export interface SerializedError {
  code: ErrorCode;
  message: string;
  issues?: Issue[];
  cost?: number;
  fieldErrors?: FieldError[];
  module?: string;
}

export function serializeError(err: unknown): SerializedError {
  if (err instanceof CelError) {
    const out: SerializedError = { code: err.code, message: err.message };
    if (err instanceof CompileError) out.issues = [...err.issues];
    if (err instanceof InvalidCRDError || err instanceof InvalidPolicyError) out.fieldErrors = [...err.fieldErrors];
    if (err.cost !== undefined) out.cost = err.cost;
    if (err.module !== undefined) out.module = err.module;
    return out;
  }
  return { code: 'internal', message: err instanceof Error ? err.message : String(err) };
}

export function deserializeError(e: SerializedError): CelError {
  return errorFromModule(e);
}
