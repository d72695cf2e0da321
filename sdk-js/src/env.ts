/**
 * Environment options (the compile request's `env`, docs/abi.md) and activation encoding, shared
 * by the main-thread and Worker runtimes.
 *
 * @module
 */

import { CelError } from './errors.js';
import { bytesToBase64, isPlainJson, isPlainObject, parseTypeName, toTypedJson, type TypeHint } from './values.js';

/** A cel-go extension: its name (latest version), or a name and a version. */
export type Extension =
  | 'bindings' | 'encoders' | 'lists' | 'math' | 'protos' | 'sets' | 'strings' | 'two-var-comprehensions'
  | (string & {})
  | { name: string; version?: number | 'latest' };

/**
 * An environment: what kube-apiserver (or plain cel-go) gives an expression. Every member is
 * optional; the defaults are the module's (docs/abi.md, "compile").
 */
export interface EnvOptions {
  /**
   * `'kubernetes'` (default): kube-apiserver's versioned base environment
   * (`k8s.io/apiserver/pkg/cel/environment`): the Kubernetes libraries (lists, regex, urls, authz,
   * quantity, ip, cidr, format, semver), optionals, ext strings/sets/lists, two-variable
   * comprehensions, kube-apiserver's cost estimator — as the compatibility version allows.
   * `'cel'`: cel-go's standard library with optional types and UTC as the default time zone.
   */
  base?: 'kubernetes' | 'cel';
  /** Kubernetes compatibility version, `'1.30'` … `'1.37'` (`runtime.version()` lists them);
   * default the newest. Decides which libraries a NewExpressions environment has. */
  compatibilityVersion?: string;
  /** `'NewExpressions'` (default; libraries introduced at or before the compatibility version, as
   * kube-apiserver uses for expressions being written) or `'StoredExpressions'` (every library). */
  envType?: 'NewExpressions' | 'StoredExpressions';
  /** cel-go extensions on top of the base. Naming one the Kubernetes base already has for this
   * version is an `invalid_env` error. */
  extensions?: readonly Extension[];
  /**
   * Variable declarations: name → CEL type name as cel-go prints types (`int`, `uint`, `double`,
   * `bool`, `string`, `bytes`, `dyn`, `timestamp`, `duration`, `list(T)`, `map(K, V)`,
   * `optional_type(T)`, `kubernetes.Quantity`, message names, ...), or a list of `{name, type}`.
   * The declared type also decides how activation values convert.
   */
  variables?: Readonly<Record<string, string>> | readonly { name: string; type: string }[];
  /** The namespace in which identifiers and message names resolve. */
  container?: string;
  /** Parse only: the output type is `dyn` and there is no cost estimate. */
  disableTypeCheck?: boolean;
  /** No macros (`has`, `all`, `exists`, `exists_one`, `map`, `filter`; cel-go `ClearMacros`). */
  disableMacros?: boolean;
  /** A `google.protobuf.FileDescriptorSet` (bytes, or base64; optionally gzip-compressed) whose
   * messages become types. */
  descriptorSet?: Uint8Array | string;
  /** Function declarations without implementations, for type checking only (calling one at
   * evaluation is an `eval_error`). */
  functions?: readonly FunctionDecl[];
  /** `has(x.f)` and `x.?f` on a value without fields are an error, as the CEL specification says,
   * instead of `false` (cel-go's `EnableErrorOnBadPresenceTest`). */
  errorOnBadPresenceTest?: boolean;
}

/** A function declaration (docs/abi.md, `functions`). */
export interface FunctionDecl {
  name: string;
  overloads: readonly {
    /** A unique overload id, e.g. `fn_string_int`. */
    id: string;
    /** Argument CEL type names; for a member overload the first is the receiver. */
    args: readonly string[];
    /** The result CEL type name. */
    result: string;
    /** A receiver-style overload (`x.fn()`). */
    member?: boolean;
    /** Names used in `args`/`result` that are type parameters. */
    typeParams?: readonly string[];
  }[];
}

/** The env object as sent to the module (JSON-ready, members in a fixed order). */
export interface EnvSpec {
  base?: string;
  compatibilityVersion?: string;
  envType?: string;
  extensions?: (string | { name: string; version: number | 'latest' })[];
  variables?: { name: string; type: string }[];
  container?: string;
  disableTypeCheck?: boolean;
  disableMacros?: boolean;
  descriptorSet?: string;
  functions?: FunctionDecl[];
  errorOnBadPresenceTest?: boolean;
}

/** Normalizes {@link EnvOptions} into the module's `env` object. */
export function envSpec(o: EnvOptions = {}): EnvSpec {
  const s: EnvSpec = {};
  if (o.base !== undefined) s.base = o.base;
  if (o.compatibilityVersion !== undefined) s.compatibilityVersion = o.compatibilityVersion;
  if (o.envType !== undefined) s.envType = o.envType;
  if (o.extensions && o.extensions.length > 0) {
    s.extensions = o.extensions.map((x) =>
      typeof x === 'string' ? x : x.version === undefined ? x.name : { name: x.name, version: x.version },
    );
  }
  if (o.variables) {
    const vars = Array.isArray(o.variables)
      ? (o.variables as { name: string; type: string }[]).map((v) => ({ name: v.name, type: v.type }))
      : Object.entries(o.variables as Record<string, string>).map(([name, type]) => ({ name, type }));
    if (vars.length > 0) s.variables = vars;
  }
  if (o.container) s.container = o.container;
  if (o.disableTypeCheck) s.disableTypeCheck = true;
  if (o.disableMacros) s.disableMacros = true;
  if (o.descriptorSet !== undefined) {
    s.descriptorSet = typeof o.descriptorSet === 'string' ? o.descriptorSet : bytesToBase64(o.descriptorSet);
  }
  if (o.functions && o.functions.length > 0) s.functions = o.functions.map((f) => ({ name: f.name, overloads: f.overloads.map((x) => ({ ...x })) }));
  if (o.errorOnBadPresenceTest) s.errorOnBadPresenceTest = true;
  return s;
}

/**
 * An activation: variable name → value. Values are JavaScript values as in the value mapping
 * (`bigint`, {@link CelUint}, `Uint8Array`, `Date`, {@link CelTimestamp}, ... or plain JSON data).
 * A `string` is taken as the JSON text of the whole activation object and passed through untouched
 * (the fastest path).
 */
export type Activation = Readonly<Record<string, unknown>>;

/** Evaluation options. */
export interface EvalOptions {
  /** Per-call cost limit in cost units (default 1,000,000, kube-apiserver's `PerCallLimit`). An
   * evaluation that passes it fails with `cost_limit_exceeded`. Up to 2^64−1 (use a bigint). */
  costLimit?: number | bigint;
}

/** An activation encoded for the module: plain JSON text and typed members (or null). */
export interface EncodedActivation {
  plain: string | Uint8Array;
  typed: string | null;
}

/**
 * Splits an activation into plain JSON (sent as `activation`, converted by declared types inside
 * the module) and the variables plain JSON cannot carry (sent as `typedActivation` in canonical
 * typed JSON, converted here by declared types).
 */
export function encodeActivation(act: Activation | string | Uint8Array | undefined, types: ReadonlyMap<string, TypeHint>): EncodedActivation {
  if (act === undefined || act === null) return { plain: '{}', typed: null };
  if (typeof act === 'string' || act instanceof Uint8Array) return { plain: act, typed: null };
  if (typeof act !== 'object' || Array.isArray(act)) {
    throw new CelError('invalid_argument', 'activation must be an object of variable name → value, or JSON text');
  }
  let allPlain = true;
  for (const k in act) {
    if (!isPlainJson(act[k])) {
      allPlain = false;
      break;
    }
  }
  if (allPlain) return { plain: JSON.stringify(act), typed: null };
  const plain: Record<string, unknown> = {};
  const typed: string[] = [];
  for (const k of Object.keys(act)) {
    const v = act[k];
    if (v === undefined) continue;
    if (isPlainJson(v)) plain[k] = v;
    else typed.push(JSON.stringify(k) + ':' + toTypedJson(v, types.get(k) ?? { kind: 'dyn' }, k));
  }
  return { plain: JSON.stringify(plain), typed: typed.length ? '{' + typed.join(',') + '}' : null };
}

/**
 * What a program can read of its variables: the compile response's `reads` (docs/abi.md). Per
 * variable it can read, `true` (all of it) or an object of the members it reads, each `true` or
 * such an object. Computed by the module from the checked AST; absent when type checking is off.
 */
export interface Reads {
  readonly [variable: string]: ReadTree;
}
/** What a program reads of one value: all of it, or the members named. */
export type ReadTree = true | { readonly [member: string]: ReadTree };

const ownEnumerable = Object.prototype.propertyIsEnumerable;

/**
 * The part of an activation object that a program with these reads can look at: the variables it
 * reads, and of plain objects along each read path only the members it names (arrays, class
 * instances and objects with `toJSON` stay whole). The module converts members lazily, so the
 * program evaluates to the same value, error and cost over this as over the whole object, while
 * only this is checked, serialised and sent. Members nobody reads are not looked at, so a value
 * there that has no CEL form is no longer an `invalid_argument` error.
 */
export function projectActivation(act: Activation, reads: Reads): Record<string, unknown> {
  return projectMembers(act, reads);
}

/** `act` cut to `reads` when both are there and `act` is an object (not JSON text). */
export function projected<T>(act: T, reads: Reads | undefined): T | Record<string, unknown> {
  if (reads === undefined || act === null || typeof act !== 'object' || act instanceof Uint8Array || Array.isArray(act)) return act;
  return projectActivation(act as Activation, reads);
}

function projectMembers(obj: Readonly<Record<string, unknown>>, reads: { readonly [k: string]: ReadTree }): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k in reads) {
    if (!ownEnumerable.call(obj, k)) continue;
    const v = obj[k];
    if (v === undefined) continue;
    // Assigning "__proto__" would set the prototype; define it as the member it is.
    if (k === '__proto__') Object.defineProperty(out, k, { value: projectValue(v, reads[k]!), enumerable: true, writable: true, configurable: true });
    else out[k] = projectValue(v, reads[k]!);
  }
  return out;
}

function projectValue(v: unknown, read: ReadTree): unknown {
  if (read === true || v === null || typeof v !== 'object' || Array.isArray(v) || !isPlainObject(v)) return v;
  if (typeof (v as { toJSON?: unknown }).toJSON === 'function') return v;
  return projectMembers(v, read);
}

/** The request tail after `{"program":H`: cost limit, typed activation, then the activation. */
export function evalRest(enc: EncodedActivation, opts?: EvalOptions): (string | Uint8Array)[] {
  const rest: (string | Uint8Array)[] = costLimitPiece(opts);
  if (enc.typed !== null) rest.push(',"typedActivation":' + enc.typed);
  rest.push(',"activation":', enc.plain, '}');
  return rest;
}

/** The declared variable types of a spec, parsed for activation conversions. */
export function variableTypes(spec: EnvSpec): Map<string, TypeHint> {
  const m = new Map<string, TypeHint>();
  for (const v of spec.variables ?? []) m.set(v.name, parseTypeName(v.type));
  return m;
}

// --- CloudEvents trigger filters, Tekton when expressions, batches --------------------------

/**
 * A CloudEvents trigger filter (docs/abi.md, compile `cloudEventFilter`): one of Knative's
 * advanced filtering dialects or the CloudEvents Subscriptions API dialects (`cesql` included),
 * decided as Knative Eventing's broker decides; attribute names must be lowercase alphanumeric.
 */
export type CloudEventFilter =
  /** CEL over `ce` (the attributes, `map(string, dyn)`) and `data`, as written. */
  | { readonly expression: string }
  /** Exact match of every attribute (AND). */
  | { readonly attributes: Readonly<Record<string, string>> }
  /** Deprecated: exact match of `source` and/or `type`. */
  | { readonly sourceAndType: { readonly source?: string; readonly type?: string } }
  /** Exact, prefix or suffix match of one attribute. */
  | { readonly exact: Readonly<Record<string, string>> }
  | { readonly prefix: Readonly<Record<string, string>> }
  | { readonly suffix: Readonly<Record<string, string>> }
  | { readonly all: readonly CloudEventFilter[] }
  | { readonly any: readonly CloudEventFilter[] }
  | { readonly not: CloudEventFilter }
  /** A filter wrapped as `{filter: F}`. */
  | { readonly filter: CloudEventFilter }
  /** A Knative Trigger (or its `spec`): `spec.filter`, or `spec.filters` (AND). Other members
   * (`apiVersion`, `metadata`, `spec.broker`, ...) are ignored. */
  | {
      readonly spec: {
        readonly filter?: CloudEventFilter;
        readonly filters?: readonly CloudEventFilter[];
        readonly [member: string]: unknown;
      };
      readonly [member: string]: unknown;
    };

/**
 * One CloudEvent (docs/abi.md, eval `cloudEvent`): a structured-mode event (an object with
 * `specversion`, the attributes, and `data` or `data_base64`), or an HTTP binary-mode envelope
 * `{headers: {'ce-id': …, 'ce-specversion': …, 'content-type': …}, body: '<text>'}` (or
 * `bodyBase64`). A string is the event's JSON text, sent untouched.
 */
export type CloudEvent = Readonly<Record<string, unknown>>;

/** What the items of {@link Program.evalBatch} are: activations (each an object of variables)
 * or CloudEvents (each as for `evalEvent`). */
export type BatchItems = 'activations' | 'cloudEvents';

/** The compile request for a trigger filter: `{"cloudEventFilter":F,"env":…}`. A string filter
 * must be JSON text (it is checked here, as the Go host does, and sent as is). */
export function filterRequest(filter: CloudEventFilter | string, specJson: string): string {
  let text: string;
  if (typeof filter === 'string') {
    try {
      JSON.parse(filter);
    } catch (e) {
      throw new CelError('invalid_argument', 'filter: not JSON text: ' + String((e as Error)?.message ?? e));
    }
    text = filter;
  } else {
    if (filter === null || typeof filter !== 'object' || !isPlainJson(filter)) {
      throw new CelError('invalid_argument', 'filter must be a JSON object (plain data) or JSON text');
    }
    text = JSON.stringify(filter);
  }
  return '{"cloudEventFilter":' + text + ',"env":' + specJson + '}';
}

/** The compile request for Tekton when expressions: `{"when":[…],"env":…}`. */
export function whenRequest(expressions: readonly string[] | string, specJson: string): string {
  const list = typeof expressions === 'string' ? [expressions] : expressions;
  if (!Array.isArray(list) || list.some((e) => typeof e !== 'string')) {
    throw new CelError('invalid_argument', 'when expressions must be strings');
  }
  return '{"when":' + JSON.stringify(list) + ',"env":' + specJson + '}';
}

function costLimitPiece(opts?: EvalOptions): string[] {
  const c = costLimitValue(opts);
  return c === undefined ? [] : [',"costLimit":' + c.toString()];
}

/** The cost limit of `opts`, checked: undefined when not set. */
export function costLimitValue(opts?: EvalOptions): bigint | undefined {
  if (opts?.costLimit === undefined) return undefined;
  let c: bigint;
  try {
    c = BigInt(opts.costLimit);
  } catch {
    throw new CelError('invalid_argument', 'costLimit must be an integer 0 … 2^64−1');
  }
  if (c < 0n || c > (1n << 64n) - 1n) throw new CelError('invalid_argument', 'costLimit must be 0 … 2^64−1');
  return c;
}

/** The eval request tail after `{"program":H` for one CloudEvent. */
export function eventRest(event: CloudEvent | string, opts?: EvalOptions): string[] {
  let text: string;
  if (typeof event === 'string') text = event;
  else if (event !== null && typeof event === 'object' && !Array.isArray(event) && isPlainJson(event)) text = JSON.stringify(event);
  else throw new CelError('invalid_argument', 'a CloudEvent is a JSON object (plain data) or its JSON text');
  return [...costLimitPiece(opts), ',"cloudEvent":', text, '}'];
}

/** Go's unicode.IsSpace over a whole string (bytes.TrimSpace leaves nothing). */
const GO_BLANK = /^[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]*$/;

/**
 * Go's `json.Compact`: JSON text without the whitespace between tokens, or null when the text is
 * not valid JSON (Go's scanner: RFC 8259, at most 10,000 levels of nesting).
 */
export function compactJson(s: string): string | null {
  try {
    JSON.parse(s);
  } catch {
    return null;
  }
  let out = '';
  let start = 0;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > 10_000) return null;
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    } else if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) {
      out += s.slice(start, i);
      start = i + 1;
    }
  }
  return out + s.slice(start);
}

/**
 * One batch item as the module's NDJSON line, exactly as the Go host makes it: text containing a
 * line break is compacted (text that is not JSON becomes the string `"<invalid JSON item>"`, an
 * error for that item alone); blank text becomes `null` (an error for that item, never a skipped
 * line). Objects are encoded with JSON.stringify and must be plain data.
 */
export function batchLine(item: unknown, index: number): string {
  if (typeof item === 'string') {
    let s = item;
    if (s.includes('\n') || s.includes('\r')) s = compactJson(s) ?? '"<invalid JSON item>"';
    return GO_BLANK.test(s) ? 'null' : s;
  }
  if (item === undefined || item === null) return 'null';
  if (typeof item !== 'object' || Array.isArray(item) || !isPlainJson(item)) {
    throw new CelError(
      'invalid_argument',
      `batch item ${index}: items are objects of plain JSON data or JSON text (values such as bigint, Date or Uint8Array need Program.eval)`,
    );
  }
  return JSON.stringify(item);
}

/** The eval_batch request tail after `{"program":H`: the rest of the header line, then one line
 * per item. */
export function batchRest(items: readonly unknown[], kind: BatchItems, opts?: EvalOptions, reads?: Reads): string[] {
  if (!Array.isArray(items)) throw new CelError('invalid_argument', 'batch items must be an array');
  const rest = [...costLimitPiece(opts), ',"items":' + JSON.stringify(kind) + '}'];
  const cut = kind === 'activations' ? reads : undefined;
  for (let i = 0; i < items.length; i++) rest.push('\n', batchLine(projected(items[i], cut), i));
  return rest;
}
