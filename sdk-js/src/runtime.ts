/**
 * The main-thread API: {@link Runtime} → {@link Env} → {@link Program} → {@link EvalResult}, in
 * the shape of the Go host (host/*.go). Calls are synchronous once the runtime is loaded.
 *
 * @module
 */

import { admitRequest, parseAdmitResponse } from './admission.js';
import { Core, type CostEstimate, utf8 } from './core.js';
import {
  costRequest, goRawJson, parseCostResponse, parseValidateResponse, validateRequest,
  type CostOptions, type CRDCostReport, type CRDObject, type CRDValidation, type KubeObject, type ValidateOptions,
} from './crd.js';
import {
  batchRest, costLimitValue, encodeActivation, envSpec, evalRest, eventRest, filterRequest, projected, variableTypes, whenRequest,
  type Activation, type Reads, type BatchItems, type CloudEvent, type CloudEventFilter, type EnvOptions, type EnvSpec, type EvalOptions,
} from './env.js';
import { CelError } from './errors.js';
import type { InstanceOptions } from './instance.js';
import { compileModule, compileModuleSync, getPlatform, type WasmSource } from './platform.js';
import { decodeValue, type CelValue, type TypeHint } from './values.js';
import type { AdmitRequest, AdmitResponse } from './wire.js';

export type { CostEstimate } from './core.js';

/** Version information from the module (`celwasm_version`). */
export interface VersionInfo {
  /** The ABI version; changes when a request or response shape changes incompatibly. */
  abi: number;
  /** The module's version. */
  module: string;
  /** cel-go's version, e.g. `v0.29.2`. */
  celGo: string;
  /** The k8s.io/apiserver version whose CEL libraries are built in. */
  kubernetes: string;
  /** The Go toolchain that built the module. */
  go: string;
  /** The supported Kubernetes compatibility versions, oldest first. */
  compatibilityVersions: string[];
  defaultCompatibilityVersion: string;
  /** The cel-go extensions that can be added. */
  extensions: string[];
  /** The default per-call cost limit, in cost units. */
  defaultCostLimit: number;
}

/** Options for loading a runtime. */
export interface RuntimeOptions extends InstanceOptions {
  /**
   * Where the module is. Default: `celwasm.wasm` next to the package's JavaScript (Node: read
   * from disk; browsers: fetched and compiled with `WebAssembly.compileStreaming`). A URL or
   * string (a path in Node, a URL relative to the page in browsers), bytes, a `Response`, or an
   * already compiled `WebAssembly.Module` (compile once, share with Workers).
   */
  wasm?: WasmSource;
  /**
   * Where celwasm-full is: the module that serves every request, loaded only for those the first
   * module answers with `needs_module` — CRD validation and cost, filters reading Knative's
   * `attrs` or `cesql` (RATIONALE.md, "Two modules"). Default: `celwasm-full.wasm` next to the
   * package's JavaScript. In Node (a file, bytes or a compiled module) it is loaded synchronously
   * on the first such call; in browsers (fetched) `await runtime.loadFull()` first, or the call
   * fails with `needs_module`. {@link WorkerRuntime} loads it by itself.
   */
  fullWasm?: WasmSource;
  /**
   * Where celwasm-admission is: the module of admission policies ({@link Runtime.admit};
   * k8s.io/apiserver's admission plugins make it the largest module), loaded only by the first
   * `admit`. Default: `celwasm-admission.wasm` next to the package's JavaScript. Loaded as
   * `fullWasm` is: synchronously in Node on the first `admit` (a file, bytes or a compiled
   * module); in browsers (fetched) `await runtime.loadAdmission()` first, or `admit` fails with
   * `needs_module`. {@link WorkerRuntime} loads it by itself.
   */
  admissionWasm?: WasmSource;
}

/** An evaluation result. */
export interface EvalResult {
  /** The value as JavaScript (see the value mapping in the README; decoded on first access). */
  readonly value: CelValue;
  /** The value in canonical typed JSON (docs/value-encoding.md): identical values give identical
   * bytes on every celwasm host. */
  readonly json: string;
  /** The actual cost of the evaluation, in cost units (cel-go's runtime cost with
   * kube-apiserver's library costs). */
  readonly cost: number;
}

/** @internal */
export class Result implements EvalResult {
  private decoded?: CelValue;
  private done = false;
  constructor(readonly json: string, readonly cost: number) {}
  get value(): CelValue {
    if (!this.done) {
      const j = this.json;
      this.decoded = j === 'true' ? true : j === 'false' ? false : decodeValue(j);
      this.done = true;
    }
    return this.decoded as CelValue;
  }
}

/**
 * One item's outcome in {@link Program.evalBatch}: its {@link EvalResult}, or the typed error its
 * evaluation ended with (`EvalError` for `eval_error`/`cost_limit_exceeded`, with `cost`;
 * `CelError` `invalid_activation` for an item that is not a JSON object or not a valid
 * CloudEvent). Tell them apart with `instanceof CelError`.
 */
export type BatchResult = EvalResult | CelError;

/** The compile request JSON for an expression in an environment, asking for the program's reads
 * (what evaluations then send of an activation object). */
export function compileRequest(expression: string, specJson: string): string {
  return '{"expression":' + JSON.stringify(expression) + ',"env":' + specJson + ',"reads":true}';
}

const registry =
  typeof FinalizationRegistry !== 'undefined'
    ? new FinalizationRegistry<{ core: Core; pid: number }>(({ core, pid }) => {
        if (!core.closed) core.free(pid);
      })
    : undefined;

/**
 * A loaded celwasm module with one instance. Not for concurrent use from several threads; in
 * browsers, prefer {@link WorkerRuntime} for work that should not block the page.
 *
 * After a trap (out of memory, a Go runtime fatal error) the failed call throws
 * `CelError('trap')`, the instance is discarded, and the next call uses a new one; programs are
 * compiled there again on first use.
 */
export class Runtime {
  /** @internal */
  readonly core: Core;
  private versionCache?: VersionInfo;
  private full?: Runtime;
  private fullLoading?: Promise<Runtime>;
  private admission?: Runtime;
  private admissionLoading?: Promise<Runtime>;

  private constructor(
    core: Core,
    private readonly options: RuntimeOptions,
    /** @internal true: this Runtime runs celwasm-full. */ readonly isFull: boolean,
    /** @internal true: this Runtime runs celwasm-admission. */ readonly isAdmission = false,
  ) {
    this.core = core;
  }

  /**
   * Loads the expression module and creates its first instance (Go runtime initialisation:
   * 20–400 ms). celwasm-full is loaded later, when a request needs it (see `fullWasm`).
   * @throws {CelError} `load_failed` when the module cannot be fetched, read or compiled.
   */
  static async load(options: RuntimeOptions = {}): Promise<Runtime> {
    const module = await compileModule(options.wasm);
    const core = await Core.create(module, { stderr: options.stderr, memoryLimit: options.memoryLimit });
    return new Runtime(core, options, false);
  }

  /**
   * Loads celwasm-full now (asynchronously: streaming compilation in browsers), so that CRD
   * validation and Knative's `attrs`/`cesql` filters do not load it in the middle of a call. A
   * browser main thread must call this before them.
   * @throws {CelError} `load_failed` when the module cannot be fetched, read or compiled.
   */
  async loadFull(): Promise<void> {
    if (this.isFull || this.full) return;
    this.fullLoading ??= (async () => {
      const module = await compileModule(this.options.fullWasm ?? getPlatform().defaultWasm('celwasm-full'));
      const core = await Core.create(module, { stderr: this.options.stderr, memoryLimit: this.options.memoryLimit });
      return new Runtime(core, this.options, true);
    })();
    try {
      this.full ??= await this.fullLoading;
    } finally {
      this.fullLoading = undefined;
    }
  }

  /** Whether celwasm-full is loaded. */
  get fullLoaded(): boolean {
    return this.isFull || this.full !== undefined;
  }

  /** @internal The Runtime of celwasm-full, loaded synchronously on first use when its source
   * allows (see `fullWasm`). */
  fullRuntime(): Runtime {
    if (this.isFull) return this;
    if (!this.full) {
      if (this.core.closed) throw new CelError('closed', 'runtime is closed');
      const module = compileModuleSync(this.options.fullWasm, 'celwasm-full');
      this.full = new Runtime(Core.createSync(module, { stderr: this.options.stderr, memoryLimit: this.options.memoryLimit }), this.options, true);
    }
    return this.full;
  }

  /**
   * Loads celwasm-admission now (asynchronously: streaming compilation in browsers), so that the
   * first {@link Runtime.admit} does not load it in the middle of the call. A browser main thread
   * must call this before `admit`.
   * @throws {CelError} `load_failed` when the module cannot be fetched, read or compiled.
   */
  async loadAdmission(): Promise<void> {
    if (this.isAdmission || this.admission) return;
    this.admissionLoading ??= (async () => {
      const module = await compileModule(this.options.admissionWasm ?? getPlatform().defaultWasm('celwasm-admission'));
      const core = await Core.create(module, { stderr: this.options.stderr, memoryLimit: this.options.memoryLimit });
      return new Runtime(core, this.options, false, true);
    })();
    try {
      this.admission ??= await this.admissionLoading;
    } finally {
      this.admissionLoading = undefined;
    }
  }

  /** Whether celwasm-admission is loaded. */
  get admissionLoaded(): boolean {
    return this.isAdmission || this.admission !== undefined;
  }

  /** @internal The Runtime of celwasm-admission, loaded synchronously on first use when its
   * source allows (see `admissionWasm`). */
  admissionRuntime(): Runtime {
    if (this.isAdmission) return this;
    if (!this.admission) {
      if (this.core.closed) throw new CelError('closed', 'runtime is closed');
      const module = compileModuleSync(this.options.admissionWasm, 'celwasm-admission');
      this.admission = new Runtime(Core.createSync(module, { stderr: this.options.stderr, memoryLimit: this.options.memoryLimit }), this.options, false, true);
    }
    return this.admission;
  }

  /**
   * Admits objects as kube-apiserver's admission chain would, with its own code inside the module
   * celwasm-admission (k8s.io/apiserver v0.37.2, `pkg/admission/plugin/policy/{mutating,validating}`):
   * every MutatingAdmissionPolicy (ApplyConfiguration and JSONPatch, reinvocation), then every
   * ValidatingAdmissionPolicy, with their bindings, params (`paramRef` by name or selector,
   * `parameterNotFoundAction`), match constraints and conditions, variables, messages and
   * messageExpressions, audit annotations, validationActions and failurePolicy; `authorizer`
   * answered by kube-apiserver's RBAC authorizer over the RBAC objects given. Policies and
   * bindings are defaulted and validated as when they are created. A denial is a result with
   * `allowed: false`, not an exception. Go host: `Runtime.Admit`; CLI: `celwasm admit -o json`
   * prints `results`.
   *
   * celwasm-admission is loaded by the first call (see `admissionWasm`; browsers:
   * `await runtime.loadAdmission()` first). The policies are compiled on every call.
   *
   * @param request `{documents, requests, user?, groups?, compatibilityVersion?}`: the cluster's
   *   objects (policies, bindings, params, Namespaces, CRDs, RBAC objects) and the objects to
   *   admit, as plain JSON data or JSON text (YAML: parse it first); see {@link AdmitRequest}.
   * @returns one {@link AdmitResult} per request, in order (`allowed`, kube-apiserver's Status
   *   `message`, `reason` and `code` of a denial, `warnings`, `auditAnnotations`, the
   *   `patchedObject` after mutation or `null`), and the policies' type-checking `warnings`.
   * @throws {InvalidPolicyError} `invalid_policy`: a policy or binding kube-apiserver would refuse
   *   to create (`fieldErrors` say why).
   * @throws {CelError} `bad_request` (a document or object that is not a Kubernetes object, a
   *   kind no resource serves and no CRD given defines; the message names `requests[i]`),
   *   `invalid_env` (an unsupported `compatibilityVersion`), `invalid_argument` (a request that is
   *   not of the shape, an object that is neither plain JSON data nor JSON text), `needs_module`
   *   (a browser main thread before `loadAdmission()`), `load_failed`, `closed`, `trap` (the
   *   instance failed; it is replaced).
   */
  admit(request: AdmitRequest): AdmitResponse {
    const req = admitRequest(request);
    return parseAdmitResponse(this.admissionRuntime().core.raw('admit', req));
  }

  /** The compiled module (share it with other runtimes or Workers to skip compilation). */
  get module(): WebAssembly.Module {
    return this.core.module;
  }

  /** An environment. Errors in it (an unknown extension, a bad type name) surface at compile
   * time as `CelError` with code `invalid_env`. */
  env(options: EnvOptions = {}): Env {
    return new Env(this, envSpec(options));
  }

  /** Shorthand for `runtime.env(options).compile(expression)`. */
  compile(expression: string, options: EnvOptions = {}): Program {
    return this.env(options).compile(expression);
  }

  /** Shorthand for `runtime.env(options).compileFilter(filter)`. */
  compileFilter(filter: CloudEventFilter | string, options: EnvOptions = {}): Program {
    return this.env(options).compileFilter(filter);
  }

  /** Shorthand for `runtime.env(options).compileWhen(expressions)`. */
  compileWhen(expressions: readonly string[] | string, options: EnvOptions = {}): Program {
    return this.env(options).compileWhen(expressions);
  }

  /**
   * A CustomResourceDefinition to validate custom resources against offline, as kube-apiserver
   * does (see {@link CRD}). Go host: `Runtime.NewCRD`.
   *
   * @param crd an apiextensions.k8s.io/v1 CustomResourceDefinition as plain JSON data, or its JSON
   *   text (sent as the Go host sends it, so `crd.sha256` is the same on every host). YAML is the
   *   caller's business: parse it first.
   * @throws {CelError} `invalid_argument` when `crd` is neither JSON text nor plain JSON data.
   *   Everything else is checked by the module on the first call.
   */
  crd(crd: KubeObject): CRD {
    return new CRD(this, goRawJson(crd, 'crd'));
  }

  /** Module, cel-go and Kubernetes versions, supported compatibility versions and extensions. */
  version(): VersionInfo {
    if (!this.versionCache) this.versionCache = JSON.parse(this.core.version()) as VersionInfo;
    return this.versionCache;
  }

  /** Resolves when an instance is ready; needed only after a `CelError('unavailable')` (a browser
   * main thread that refused to replace a failed instance synchronously). */
  ready(): Promise<void> {
    return this.core.ready();
  }

  /**
   * The module's ABI verbatim (docs/abi.md), for tools such as conformance runners: sends the
   * request JSON to `celwasm_compile` / `celwasm_eval` / `celwasm_validate` / `celwasm_cost` /
   * `celwasm_admit` (answered by this module: the first answers `admit` with `needs_module`) and
   * returns a copy of the response bytes. Program handles from raw compiles are valid only until
   * the instance is replaced (a trap). Free them with {@link Runtime.rawFree}.
   */
  raw(fn: 'compile' | 'eval' | 'validate' | 'cost' | 'admit', request: string | Uint8Array): Uint8Array {
    return this.core.raw(fn, request);
  }

  /** `celwasm_free` verbatim: frees a raw program handle; true if it was known. */
  rawFree(handle: number): boolean {
    return this.core.rawFree(handle);
  }

  /** The guest's linear memory, in bytes (it grows, never shrinks). */
  memoryBytes(): number {
    return this.core.memoryBytes();
  }

  /** How many times a failed instance was replaced. */
  get replacements(): number {
    return this.core.replacements;
  }

  /** Releases the instance (and those of celwasm-full and celwasm-admission). Later calls fail
   * with code `closed`. */
  close(): void {
    this.core.close();
    this.full?.close();
    this.admission?.close();
  }
}

/**
 * A CEL environment description, built inside the module on first compile and cached there (by
 * its JSON; up to 64 environments).
 */
export class Env {
  /** The module's `env` object. */
  readonly spec: EnvSpec;
  /** @internal */
  readonly specJson: string;
  /** @internal */
  readonly types: Map<string, TypeHint>;

  /** @internal */
  constructor(readonly runtime: Runtime, spec: EnvSpec) {
    this.spec = spec;
    this.specJson = JSON.stringify(spec);
    this.types = variableTypes(spec);
  }

  /**
   * Parses and type-checks an expression.
   * @throws {CompileError} `compile_error` with `issues` (line, column, caret snippet).
   * @throws {CelError} `invalid_env` when the environment cannot be built; `trap` when the
   * instance failed (it is replaced).
   */
  compile(expression: string): Program {
    if (typeof expression !== 'string') throw new CelError('invalid_argument', 'expression must be a string');
    const req = compileRequest(expression, this.specJson);
    return this.compileIn(req, expression);
  }

  /** Compiles in this runtime's module, or in celwasm-full when the first module answers
   * `needs_module` (the program then lives, and is evaluated, there). */
  private compileIn(req: string, expression?: string): Program {
    try {
      const { pid, info } = this.runtime.core.compile(req);
      return new Program(this, pid, expression ?? info.expression ?? '', info.outputType, info.costEstimate, info.reads);
    } catch (e) {
      if (!(e instanceof CelError) || e.code !== 'needs_module' || this.runtime.isFull) throw e;
    }
    const env = new Env(this.runtime.fullRuntime(), this.spec);
    const { pid, info } = env.runtime.core.compile(req);
    return new Program(env, pid, expression ?? info.expression ?? '', info.outputType, info.costEstimate, info.reads);
  }

  /**
   * Compiles a CloudEvents trigger filter (docs/abi.md, `cloudEventFilter`): Knative's `expression`,
   * `attributes` and `sourceAndType`, the CloudEvents Subscriptions API's `exact`, `prefix`,
   * `suffix`, `all`, `any` and `not` — or `{filter: F}`, or a whole Trigger (`spec.filter`, or
   * `spec.filters`, AND-ed). The module turns it into one CEL expression over `ce` (the attributes,
   * `map(string, dyn)`) and `data` (`dyn`), both declared automatically, and compiles that:
   * `program.expression` is that CEL. Evaluate with {@link Program.evalEvent} or
   * `evalBatch(events, 'cloudEvents')`.
   *
   * Without `base`, `compatibilityVersion`, `envType` or `extensions`, the environment is cel-go's
   * with the `strings` extension, as Knative evaluates filters.
   *
   * @param filter the filter as an object of plain data, or its JSON text.
   * @throws {CompileError} `compile_error`: the filter does not transform (two top-level forms, an
   *   unknown dialect, both `spec.filter` and `spec.filters`, ...) — the message names the problem —
   *   or the CEL it became does not compile (`issues` with caret snippets).
   * @throws {CelError} `invalid_argument` (not plain data / not JSON text), `invalid_env`, `trap`.
   */
  compileFilter(filter: CloudEventFilter | string): Program {
    return this.compileIn(filterRequest(filter, this.specJson));
  }

  /**
   * Compiles a Tekton `when` list, AND-ed, accepting what Tekton Pipelines accepts (docs/abi.md):
   * each entry a `cel` expression or a WhenExpression as JSON text (`{"input","operator","values"}`).
   * `'$(params.x)'` (quoted) reads the value as a string; an unquoted `$(…)` only works when the
   * value is a number or bool literal. References become accesses of `params`, `tasks` and `context`
   * — never text substitution, so a parameter value holding CEL stays a string.
   * `program.expression` is the CEL the list became. Evaluate with `{params, tasks, context}`.
   *
   * @param expressions one expression or a list (AND-ed).
   * @throws {CompileError} `compile_error` (an unknown reference such as `$(workspaces.…)`, a
   *   syntax error; the message names the CEL the list became).
   * @throws {CelError} `invalid_argument`, `invalid_env`, `trap`.
   */
  compileWhen(expressions: readonly string[] | string): Program {
    return this.compileIn(whenRequest(expressions, this.specJson));
  }
}

/**
 * A compiled expression. Free it with {@link Program.free} when done; a FinalizationRegistry frees
 * it otherwise once it is garbage collected.
 */
export class Program {
  private freed = false;

  /** @internal */
  constructor(
    readonly env: Env,
    /** @internal */ readonly pid: number,
    /** The CEL source: as given to `compile`, or what a trigger filter or when list became. */
    readonly expression: string,
    /** The checked output type as a CEL type name (`bool`, `list(string)`); `dyn` when type
     * checking is off. */
    readonly outputType: string,
    /** The static cost estimate in cost units (cel-go's estimator; kube-apiserver's for the
     * kubernetes base). Undefined when type checking is off. Declarations carry no size bounds, so
     * `max` may be 2^64−1. */
    readonly costEstimate: CostEstimate | undefined,
    /** What the program can read of its variables (docs/abi.md, compile `reads`): an activation
     * object is cut down to it before it is encoded. Undefined when type checking is off. */
    readonly reads?: Reads,
  ) {
    registry?.register(this, { core: env.runtime.core, pid }, this);
  }

  /**
   * Evaluates the program.
   *
   * @param activation variable name → value (see the value mapping; declared types convert), or
   *   the JSON text of the activation object, as a string or as UTF-8 bytes (`Uint8Array`, e.g. a
   *   file read with `readFileSync`), passed through untouched: the module checks it (JSON, UTF-8,
   *   nesting at most 1000 deep) and answers `invalid_activation` otherwise. Of an object, only
   *   what the program can read ({@link Program.reads}) is encoded and sent, so a call costs what
   *   the expression reads, not the object's size; the value, error and cost are the same.
   * @throws {EvalError} `eval_error` (a CEL error: no such key, no matching overload, overflow,
   *   ...) or `cost_limit_exceeded`, with `cost`.
   * @throws {CelError} `invalid_activation`, `invalid_argument` (a value the program reads that
   *   cannot be encoded), `closed` (freed), `trap` (the instance failed and is replaced).
   */
  eval(activation?: Activation | string | Uint8Array, options?: EvalOptions): EvalResult {
    if (this.freed) throw new CelError('closed', 'program was freed');
    const enc = encodeActivation(projected(activation, this.reads), this.env.types);
    const out =
      enc.typed === null
        ? this.env.runtime.core.evalActivation(this.pid, enc.plain, costLimitValue(options))
        : this.env.runtime.core.eval(this.pid, evalRest(enc, options));
    return new Result(out.json, out.cost);
  }

  /**
   * Evaluates the program against one CloudEvent, bound to `ce` (the attributes; `time` is a
   * timestamp, every other attribute keeps its JSON type) and `data` (parsed JSON when the content
   * type is JSON or absent, a string for other text, bytes for `data_base64`/`bodyBase64`). For
   * trigger filters ({@link Env.compileFilter}) and any program over `ce` and `data`.
   *
   * @param event a structured-mode event (`{specversion, id, source, type, …, data}`), or an HTTP
   *   binary-mode envelope `{headers: {'ce-specversion': …, 'content-type': …}, body: '<text>'}`
   *   (or `bodyBase64`; header names are case-insensitive, values percent-decoded). A string is the
   *   event's JSON text, sent untouched.
   * @throws {EvalError} `eval_error` (e.g. no such key: an attribute the event lacks) or
   *   `cost_limit_exceeded`, with `cost`.
   * @throws {CelError} `invalid_activation` (not a CloudEvent: no `specversion`, a body that claims
   *   JSON but is not), `bad_request` (event text that is not JSON), `invalid_argument`, `closed`,
   *   `trap`.
   */
  evalEvent(event: CloudEvent | string, options?: EvalOptions): EvalResult {
    if (this.freed) throw new CelError('closed', 'program was freed');
    const out = this.env.runtime.core.eval(this.pid, eventRest(event, options));
    return new Result(out.json, out.cost);
  }

  /**
   * Evaluates the program over many items in one module call (`celwasm_eval_batch`), so the
   * boundary crossing is paid once per batch. Returns one {@link BatchResult} per item, in order:
   * an item's failure (`eval_error`, `cost_limit_exceeded`, `invalid_activation`, …) is its
   * result, not an exception.
   *
   * Items are sent as the Go host sends them: objects as JSON; text containing a line break is
   * compacted (text that is not JSON becomes the string `"<invalid JSON item>"`, an
   * `invalid_activation` for that item); blank text becomes `null` (also an item error, never a
   * dropped item).
   *
   * @param items activations (objects of variable name → plain JSON data, or their JSON text) or
   *   CloudEvents (as for {@link Program.evalEvent}), per `kind`. Typed values (`bigint`, `Date`,
   *   `Uint8Array`, …) cannot travel in a batch; use {@link Program.eval} for those.
   * @param kind `'activations'` or `'cloudEvents'`.
   * @param options `costLimit` (cost units) applies to each item.
   * @throws {CelError} for the call as a whole: `bad_request` (a malformed batch header),
   *   `unknown_program`, `invalid_argument` (an item that is not plain data), `closed`, `trap`.
   */
  evalBatch(items: readonly (Activation | CloudEvent | string)[], kind: BatchItems, options?: EvalOptions): BatchResult[] {
    if (this.freed) throw new CelError('closed', 'program was freed');
    const rest = batchRest(items, kind, options, this.reads);
    return this.env.runtime.core.evalBatch(this.pid, rest, items.length).map((o) => (o instanceof CelError ? o : new Result(o.json, o.cost)));
  }

  /** Evaluates and returns the raw eval response text (`{"value":…,"cost":N}` or an error
   * object) without throwing for module errors. */
  evalRaw(activation?: Activation | string | Uint8Array, options?: EvalOptions): string {
    if (this.freed) throw new CelError('closed', 'program was freed');
    const rest = evalRest(encodeActivation(projected(activation, this.reads), this.env.types), options);
    return utf8(this.env.runtime.core.evalRaw(this.pid, rest));
  }

  /** Frees the program in the module. Further evaluations fail with code `closed`. */
  free(): void {
    if (this.freed) return;
    this.freed = true;
    registry?.unregister(this);
    this.env.runtime.core.free(this.pid);
  }
}

/**
 * A CustomResourceDefinition, to validate custom resources against offline the way kube-apiserver
 * validates creates and updates, with kube-apiserver's own code inside the module
 * (k8s.io/apiextensions-apiserver v0.37.2): decoding (unknown fields pruned, as warnings),
 * defaulting, object metadata, the OpenAPI schema, list-type invariants, embedded resources, and
 * every x-kubernetes-validations rule at every schema node — transition rules with `oldSelf`,
 * `optionalOldSelf`, `messageExpression`, `reason`, `fieldPath`, ratcheting on updates — with
 * kube-apiserver's cost limits. Go host: `CRD` (host/crd.go).
 *
 * Before anything is validated the module checks the CRD as kube-apiserver does when it is
 * created; it compiles the CRD once per instance and caches it by the sha256 of its JSON (16
 * CRDs), so validating many objects against one `CRD` compiles it once. The first call costs the
 * checks and compilation (0.2–4 s for large CRDs such as gateway-api's HTTPRoute).
 */
export class CRD {
  /** @internal */
  constructor(
    readonly runtime: Runtime,
    /** The CRD's JSON as sent to the module (compacted as the Go host's `json.Marshal` writes
     * it); its sha256 is `CRDInfo.sha256`. */
    readonly json: string,
  ) {}

  /**
   * Validates objects as kube-apiserver validates creates and updates of custom resources of this
   * CRD (`celwasm_validate`; docs/abi.md, "validate"). Each object is validated against the
   * version its apiVersion names, unless `options.version` is given. Offline requests follow
   * kubectl: a namespaced object without a namespace is in `default`; the stored object of an
   * update gets the system fields a stored object has (uid, creationTimestamp, resourceVersion
   * "1", generation 1); `generateName` gets the fixed suffix `xxxxx`.
   *
   * @param objects creates (`{object}`) and updates (`{object, oldObject}`), as plain JSON data or
   *   JSON text.
   * @returns one outcome per object, in order: an {@link ObjectResult} (valid or not, with field
   *   errors, warnings and the actual cost), or a `CelError` `invalid_object` for an object that
   *   never reached validation.
   * @throws {InvalidCRDError} `invalid_crd`: the CRD is not usable or kube-apiserver would reject
   *   it (`fieldErrors` say why); also for a `version` the CRD does not have.
   * @throws {CelError} `invalid_argument` (an object that is neither JSON text nor plain JSON
   *   data), `bad_request`, `closed`, `trap` (the instance failed; it is replaced).
   */
  validate(objects: readonly CRDObject[], options?: ValidateOptions): CRDValidation {
    const req = validateRequest(this.json, objects, options);
    return parseValidateResponse(this.runtime.fullRuntime().core.raw('validate', req));
  }

  /**
   * Reports the CRD's x-kubernetes-validations cost estimates against kube-apiserver's limits
   * (`celwasm_cost`; docs/abi.md, "cost"): what kube-apiserver reports when the CRD is created
   * (structural schema errors, compile errors, rules over StaticEstimatedCostLimit per rule or
   * StaticEstimatedCRDCostLimit per schema), every rule's estimated cost (cost units, exact
   * `bigint`s) and where it comes from, and for rules over a limit the `maxItems`/`maxLength`/
   * `maxProperties` that would bring them under. A CRD with errors is reported (`valid: false`).
   *
   * @throws {InvalidCRDError} `invalid_crd`: the input is not a usable CRD (not a CRD, no such
   *   version). {@link CelError} `bad_request`, `closed`, `trap`.
   */
  cost(options?: CostOptions): CRDCostReport {
    return parseCostResponse(this.runtime.fullRuntime().core.raw('cost', costRequest(this.json, options)));
  }
}
