/**
 * Kubernetes CustomResourceDefinition validation offline (docs/abi.md, "validate" and "cost"):
 * the shapes of the module's `celwasm_validate` and `celwasm_cost` answers, and the requests as
 * the Go host (host/crd.go) sends them. Shared by the main-thread and Worker runtimes.
 *
 * Every answer comes from kube-apiserver's own code inside the module
 * (k8s.io/apiextensions-apiserver v0.37.2: the CRD handler's decoding, pruning and defaulting,
 * the custom resource strategy, the OpenAPI schema validator, the CEL validator with its cost
 * limits, the CRD validation kube-apiserver runs when a CRD is created); this package only moves
 * bytes.
 *
 * @module
 */

import { CelError, errorFromModule } from './errors.js';
import { compactJson } from './env.js';
import { isPlainJson } from './values.js';
import type { FieldError, KubeObject } from './wire.js';

export type { FieldError, KubeObject, RuleRef } from './wire.js';


/** One object to validate: a create (`object`), or an update (`object` replacing `oldObject`,
 * the stored object). Go host: `CRDObject`. */
export interface CRDObject {
  readonly object: KubeObject;
  /** The stored object the update replaces; absent (or `null`) for a create. */
  readonly oldObject?: KubeObject | null;
}

/** Options of `validate`. */
export interface ValidateOptions {
  /**
   * Validate against this version of the CRD instead of each object's `apiVersion`: an object of
   * another version is converted as kube-apiserver converts without a conversion webhook (its
   * apiVersion changes); a CRD with a conversion webhook cannot convert offline
   * (`invalid_object`). Go host: `Version(name)`.
   */
  version?: string;
}

/** Options of `cost`. */
export interface CostOptions {
  /** Report only this version's schema (default: every version). */
  version?: string;
}

/** Which CRD answered (the `crd` member of both answers). */
export interface CRDInfo {
  /** `metadata.name`, e.g. `webapps.example.com`. */
  name: string;
  group: string;
  kind: string;
  namespaced: boolean;
  /** The CRD's versions, in its order. */
  versions: string[];
  /** The storage version (or the only served one). */
  defaultVersion: string;
  /** The hex sha256 of the CRD's JSON as sent: the module's cache key (16 CRDs per instance).
   * The same on every host for the same input. */
  sha256: string;
  /** Unknown or duplicate fields in the CRD, as kube-apiserver warns about them; absent when
   * none. */
  warnings?: string[];
}

/**
 * What kube-apiserver would answer to one create or update. Costs are in cost units (cel-go's
 * runtime cost with kube-apiserver's library costs).
 */
export interface ObjectResult {
  kind: string;
  group: string;
  /** The version validated against (the object's own, or `ValidateOptions.version`). */
  version: string;
  name: string;
  /** Absent for cluster-scoped kinds; a namespaced object without one is in `default`. */
  namespace?: string;
  operation: 'create' | 'update';
  valid: boolean;
  /** The Status kube-apiserver would return for an invalid object: `Invalid` (422) with `errors`
   * as its causes, `BadRequest` (400), …; absent when valid. */
  reason?: string;
  code?: number;
  message?: string;
  /** The causes, in kube-apiserver's order (the CEL validator's errors sorted by field path). */
  errors?: FieldError[];
  /** Unknown fields that were pruned (`unknown field "spec.x"`), and on update the errors of
   * unchanged values that validation ratcheting turned into warnings; each kind sorted. */
  warnings?: string[];
  /** The actual cost of the rules and messageExpressions evaluated, against `costBudget`
   * (kube-apiserver's RuntimeCELCostBudget, 10,000,000 per object). */
  cost: number;
  costBudget: number;
  /** The budget ran out, or one evaluation passed the per-call limit (1,000,000): the remaining
   * rules did not run. */
  costExceeded?: boolean;
  /** Blocking OpenAPI schema errors (type, required, enum, maxLength, maxItems) kept the rules
   * from running, as in kube-apiserver; `cost` is 0. */
  celSkipped?: boolean;
}

/**
 * One object's outcome: its {@link ObjectResult}, or the {@link CelError} `invalid_object` of an
 * object that never reached validation (not a JSON object, no apiVersion/kind, not of the CRD's
 * group and kind, a version that is not served or cannot be converted, metadata that does not
 * decode). Tell them apart with `instanceof CelError`.
 */
export type ObjectOutcome = ObjectResult | CelError;

/** The answer of `validate`: one outcome per object, in order. Go host: `CRDValidation`. */
export interface CRDValidation {
  crd: CRDInfo;
  results: ObjectOutcome[];
}

/** A schema node whose size the estimate depends on. */
export interface BoundNode {
  /** In the custom resource, e.g. `spec.hosts[*]`. */
  path: string;
  /** `list`, `map` or `string`. */
  kind: string;
  /** The schema bound (`maxItems`, `maxProperties`, `maxLength`), when there is one. */
  bound?: bigint;
  /** Which bound: `maxItems`, `maxProperties`, `maxLength`, `enum`. */
  boundName?: string;
  /** The size the estimator used: items, entries, or bytes (a maxLength of n is 4n bytes). */
  maxSize: bigint;
  /** Only the request size (3 MiB) bounds it. */
  fromRequestSize?: boolean;
}

/** A value of unbounded estimated size (an element of a list computed by `filter`/`map`, the
 * result of `string()`), which no schema bound can fix. */
export interface UnknownSize {
  expression: string;
  /** The function it is passed to. */
  function: string;
  line?: number;
  column?: number;
}

/** A call's or macro's share of a rule's per-run estimate. */
export interface CallCost {
  function: string;
  expression: string;
  line: number;
  column: number;
  cost: bigint;
  /** Percent of the per-run estimate (shares under 1% are left out). */
  percent: number;
}

/** The largest `set` (`maxItems`, `maxProperties`, `maxLength`) on `path` that brings the rule
 * to the target; `cost` is the estimate with it. */
export interface BoundFix {
  path: string;
  set: string;
  value: bigint;
  /** The bound the node has now, if any. */
  current?: bigint;
  cost: bigint;
}

/** Where a rule's estimated cost comes from, computed by re-running kube-apiserver's cost and
 * size estimators on the rule. */
export interface CostExplanation {
  /** E.g. `estimated cost 1,314 = 1,314 per run × 1 runs; limit 10,000,000`. */
  summary: string;
  /** The lists and maps above the node that multiply how often it runs (the product of their
   * bounds is the cardinality). */
  runs?: BoundNode[];
  /** One of them has no bound: the cardinality is the most copies of the node that fit in a
   * 3 MiB request. */
  runsFromRequestSize?: boolean;
  /** The lists, maps and strings the estimate read. */
  sizes?: BoundNode[];
  unknownSizes?: UnknownSize[];
  /** The rule's calls and macros by their share of the per-run estimate. */
  calls?: CallCost[];
  /** What `fixes` aim for: the limit, or (for a rule that pushes its schema over the total
   * limit) the rule's cost less the excess. */
  target?: bigint;
  /** Single bounds that bring the rule to `target`. */
  fixes?: BoundFix[];
  /** One value for the bounds of several nodes at once, when no single one suffices (or two or
   * more are unbounded). */
  combinedFix?: BoundFix[];
  /** Why no bound helps. */
  noFix?: string;
}

/** One rule's or messageExpression's estimated cost. `cost` = `perCall` × `cardinality`
 * (saturating at 2^64−1), in cost units, against `limit` (StaticEstimatedCostLimit,
 * 10,000,000). */
export interface RuleCost {
  /** The expression in the CRD, e.g. `spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule`. */
  path: string;
  /** Where it applies in the custom resource (`spec.items[*]`: every item); `''` for the root. */
  node: string;
  expression: string;
  /** `rule` or `messageExpression`. */
  kind: string;
  cost: bigint;
  limit: bigint;
  exceeds?: boolean;
  perCall: bigint;
  /** How often it runs per object (1 for a messageExpression, as kube-apiserver counts it). */
  cardinality: bigint;
  /** The compile error, when it does not compile. */
  error?: string;
  explanation?: CostExplanation;
}

/** The cost accounting of one schema, shared by `versions`. */
export interface SchemaCost {
  versions: string[];
  /** The schema in the CRD kube-apiserver validates: `spec.validation.openAPIV3Schema` when
   * every version shares it, else `spec.versions[i].schema.openAPIV3Schema`. */
  path: string;
  /** The sum of the rules' estimated costs (saturating at 2^64−1), against `totalLimit`
   * (StaticEstimatedCRDCostLimit, 100,000,000). */
  totalCost: bigint;
  totalLimit: bigint;
  /** Every rule and messageExpression in schema order (empty when the schema has none; the
   * module writes `null` then). */
  rules: RuleCost[];
}

/**
 * The answer of `cost`: what kube-apiserver reports about the CRD's schemas and
 * x-kubernetes-validations when the CRD is created, and every rule's estimated cost explained.
 * Go host: `CRDCostReport`. Estimates are exact `bigint`s in cost units (they reach 2^64−1).
 */
export interface CRDCostReport {
  crd: CRDInfo;
  /** kube-apiserver would accept the CRD's schemas and rules; otherwise `message` and `errors`
   * (sorted by field path) say why. */
  valid: boolean;
  message?: string;
  errors?: FieldError[];
  schemas: SchemaCost[];
}

// --- requests ---------------------------------------------------------------------------------

/** `encoding/json`'s escaping of what `json.Marshal` writes of a `json.RawMessage`: `<`, `>`, `&`,
 * U+2028 and U+2029 (they occur only inside strings of valid JSON). */
const HTML_ESCAPES: Record<string, string> = { '<': '\\u003c', '>': '\\u003e', '&': '\\u0026', '\u2028': '\\u2028', '\u2029': '\\u2029' };

/**
 * A JSON argument as the Go host's `json.Marshal` writes a `json.RawMessage`: compacted, with
 * `<`, `>`, `&`, U+2028 and U+2029 escaped. Text must be JSON; other values must be plain JSON
 * data (sent as their `JSON.stringify` text).
 */
export function goRawJson(v: unknown, what: string): string {
  let text: string;
  if (typeof v === 'string') {
    text = v;
  } else {
    if (v === undefined || !isPlainJson(v)) {
      throw new CelError('invalid_argument', `${what} must be plain JSON data or JSON text`);
    }
    text = JSON.stringify(v);
  }
  const c = compactJson(text);
  if (c === null) throw new CelError('invalid_argument', `${what}: not JSON text`);
  return c.replace(/[<>&\u2028\u2029]/g, (ch) => HTML_ESCAPES[ch]!);
}

function versionPiece(version: string | undefined): string {
  if (version === undefined || version === '') return '';
  if (typeof version !== 'string') throw new CelError('invalid_argument', 'version must be a string');
  return ',"version":' + JSON.stringify(version).replace(/[<>&\u2028\u2029]/g, (ch) => HTML_ESCAPES[ch]!);
}

/** The validate request, byte for byte what the Go host's `CRD.Validate` sends. */
export function validateRequest(crdJson: string, objects: readonly CRDObject[], options?: ValidateOptions): string {
  if (!Array.isArray(objects)) throw new CelError('invalid_argument', 'objects must be an array of {object, oldObject?}');
  const parts: string[] = [];
  for (let i = 0; i < objects.length; i++) {
    const o = objects[i];
    if (o === null || typeof o !== 'object' || !('object' in o)) {
      throw new CelError('invalid_argument', `objects[${i}] must be {object, oldObject?}`);
    }
    let s = '{"object":' + goRawJson(o.object, `objects[${i}].object`);
    if (o.oldObject !== undefined && o.oldObject !== null) s += ',"oldObject":' + goRawJson(o.oldObject, `objects[${i}].oldObject`);
    parts.push(s + '}');
  }
  return '{"crd":' + crdJson + versionPiece(options?.version) + ',"objects":[' + parts.join(',') + ']}';
}

/** The cost request, byte for byte what the Go host's `CRD.Cost` sends. */
export function costRequest(crdJson: string, options?: CostOptions): string {
  return '{"crd":' + crdJson + versionPiece(options?.version) + '}';
}

// --- responses --------------------------------------------------------------------------------

const decoder = new TextDecoder();

function parseObject(text: string, what: string, reviver?: (k: string, v: unknown) => unknown): Record<string, unknown> {
  let obj: unknown;
  try {
    obj = JSON.parse(text, reviver);
  } catch {
    throw new CelError('internal', `malformed ${what} response: ` + text.slice(0, 200));
  }
  if (obj === null || typeof obj !== 'object' || Array.isArray(obj)) {
    throw new CelError('internal', `malformed ${what} response: ` + text.slice(0, 200));
  }
  const o = obj as Record<string, unknown>;
  if (o.error && typeof o.error === 'object') throw errorFromModule(o.error as Record<string, unknown>);
  return o;
}

/** Parses a validate response: a module error (`invalid_crd` with its field errors,
 * `bad_request`, …) is thrown; a result `{"error": …}` becomes a {@link CelError} in `results`. */
export function parseValidateResponse(b: Uint8Array): CRDValidation {
  const text = decoder.decode(b);
  const o = parseObject(text, 'validate');
  if (!o.crd || typeof o.crd !== 'object' || !Array.isArray(o.results)) {
    throw new CelError('internal', 'malformed validate response: ' + text.slice(0, 200));
  }
  const results = (o.results as Record<string, unknown>[]).map((r): ObjectOutcome =>
    r && typeof r.error === 'object' && r.error !== null ? errorFromModule(r.error as Record<string, unknown>) : (r as unknown as ObjectResult),
  );
  return { crd: o.crd as CRDInfo, results };
}

/** The members of a cost response that are 64-bit integers (read as `bigint`). */
const BIG = new Set(['totalCost', 'totalLimit', 'cost', 'limit', 'perCall', 'cardinality', 'maxSize', 'target', 'bound', 'value', 'current']);
const BIG_MEMBER = /([{,])"(totalCost|totalLimit|cost|limit|perCall|cardinality|maxSize|target|bound|value|current)":(-?\d+)(?=[,}])/g;

/**
 * Parses a cost response with its 64-bit integers exact: JSON.parse would round the estimates
 * above 2^53 (they saturate at 2^64−1). Each such member's digits are quoted (marked with a NUL)
 * before parsing and read back as `bigint`. The pattern cannot match inside a string: there a
 * `"` is always escaped, so `,"` and `{"` occur only between members.
 */
export function parseCostResponse(b: Uint8Array): CRDCostReport {
  const text = decoder.decode(b);
  const marked = text.replace(BIG_MEMBER, '$1"$2":"\\u0000$3"');
  const o = parseObject(marked, 'cost', (k, v) =>
    typeof v === 'string' && BIG.has(k) && v.charCodeAt(0) === 0 ? BigInt(v.slice(1)) : v,
  );
  if (!o.crd || typeof o.crd !== 'object' || typeof o.valid !== 'boolean' || !Array.isArray(o.schemas)) {
    throw new CelError('internal', 'malformed cost response: ' + text.slice(0, 200));
  }
  for (const s of o.schemas as { rules: RuleCost[] | null }[]) if (s.rules === null || s.rules === undefined) s.rules = [];
  return o as unknown as CRDCostReport;
}
