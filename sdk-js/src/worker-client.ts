/**
 * The Worker API: the same shape as {@link Runtime}, with every call asynchronous and run in a
 * Web Worker (browsers) or a worker thread (Node), so that compilation and evaluation never block
 * the page. Calls can carry a timeout or an AbortSignal: the Worker running an overdue call is
 * terminated and replaced (a running WebAssembly call cannot be interrupted otherwise).
 *
 * @module
 */

import { admitRequest, parseAdmitResponse } from './admission.js';
import { parseBatchResponse, type CostEstimate } from './core.js';
import {
  costRequest, goRawJson, parseCostResponse, parseValidateResponse, validateRequest,
  type CostOptions, type CRDCostReport, type CRDObject, type CRDValidation, type KubeObject, type ValidateOptions,
} from './crd.js';
import {
  batchRest, encodeActivation, envSpec, evalRest, eventRest, filterRequest, projected, variableTypes, whenRequest,
  type Activation, type BatchItems, type CloudEvent, type CloudEventFilter, type EnvOptions, type EnvSpec, type EvalOptions, type Reads,
} from './env.js';
import { CelError, deserializeError, type SerializedError } from './errors.js';
import { compileModule, getPlatform, type WasmSource, type WorkerPort } from './platform.js';
import { compileRequest, Result, type BatchResult, type EvalResult, type VersionInfo } from './runtime.js';
import type { Reply, Request } from './worker-server.js';
import type { TypeHint } from './values.js';
import type { AdmitRequest, AdmitResponse } from './wire.js';

/** Options for {@link WorkerRuntime.load}. */
export interface WorkerRuntimeOptions {
  /** Where the module is (see `RuntimeOptions.wasm`). It is compiled once on the calling thread
   * and the compiled `WebAssembly.Module` is sent to each Worker. */
  wasm?: WasmSource;
  /**
   * Starts the Worker. Default: the package's worker script next to its JavaScript
   * (`new Worker(new URL('./worker.js', import.meta.url), {type: 'module'})` in browsers,
   * `worker_threads` in Node). Bundlers that rewrite workers can pass their own, e.g. Vite:
   * `() => new CelWorker()` with `import CelWorker from 'celwasm/worker?worker'`.
   */
  worker?: () => Worker;
  /** Default timeout for every call, in milliseconds (none by default). */
  timeoutMs?: number;
  /** Caps each Worker's instance memory, in bytes (see `RuntimeOptions.memoryLimit`; default 1 GiB). */
  memoryLimit?: number;
  /** Where celwasm-full is (see `RuntimeOptions.fullWasm`): compiled on the calling thread when a
   * request first needs it, and sent to the Worker. */
  fullWasm?: WasmSource;
  /** Where celwasm-admission is (see `RuntimeOptions.admissionWasm`): compiled on the calling
   * thread by the first `admit`, and sent to the Worker. */
  admissionWasm?: WasmSource;
}

/** Per-call options of the Worker API. */
export interface CallOptions {
  /** Milliseconds before the call fails with `deadline_exceeded` (the Worker is replaced if the
   * call was running). Overrides the runtime's `timeoutMs`. */
  timeoutMs?: number;
  /** Aborting fails the call with `canceled` (the Worker is replaced if the call was running). */
  signal?: AbortSignal;
}

interface Pending {
  msg: Request & { id: number };
  resolve(v: unknown): void;
  reject(e: unknown): void;
  timer?: ReturnType<typeof setTimeout>;
  signal?: AbortSignal;
  onAbort?: () => void;
  /** Built lazily so that compile requests are attached for the Worker that runs the call. */
  prepare?: () => void;
}

function wrapWebWorker(w: Worker): WorkerPort {
  return {
    post: (m) => w.postMessage(m),
    onMessage: (cb) => w.addEventListener('message', (e) => cb((e as MessageEvent).data)),
    onError: (cb) => {
      w.addEventListener('error', (e) => {
        e.preventDefault?.();
        cb(new Error((e as ErrorEvent).message || 'worker error'));
      });
      w.addEventListener('messageerror', () => cb(new Error('worker message error')));
    },
    terminate: () => w.terminate(),
  };
}

/**
 * A celwasm runtime in a Worker. One call runs at a time; the others queue.
 */
export class WorkerRuntime {
  private port?: WorkerPort;
  private starting?: Promise<WorkerPort>;
  /** Increments each time a Worker is started; programs compiled in an older one are compiled
   * again (lazily) in the new one. */
  private epoch = 0;
  private nextId = 1;
  private nextPid = 1;
  private readonly queue: Pending[] = [];
  private inFlight?: Pending;
  private closed = false;
  private versionCache?: VersionInfo;
  /** @internal */
  readonly compiledIn = new Map<number, number>();
  /** How many times a Worker was replaced (after a timeout, an abort, or a crash). */
  replacements = 0;
  private fullModule?: Promise<WebAssembly.Module>;
  /** The Worker (epoch) that has celwasm-full. */
  private fullEpoch = 0;
  private admissionModule?: Promise<WebAssembly.Module>;
  /** The Worker (epoch) that has celwasm-admission. */
  private admissionEpoch = 0;

  private constructor(
    /** The compiled module, sent to each Worker. */
    readonly module: WebAssembly.Module,
    private readonly options: WorkerRuntimeOptions,
  ) {}

  /** Compiles the module, starts the Worker and waits until its instance is initialised. */
  static async load(options: WorkerRuntimeOptions = {}): Promise<WorkerRuntime> {
    const module = await compileModule(options.wasm);
    const rt = new WorkerRuntime(module, options);
    await rt.start();
    return rt;
  }

  private start(): Promise<WorkerPort> {
    if (this.port) return Promise.resolve(this.port);
    if (this.starting) return this.starting;
    this.starting = new Promise<WorkerPort>((resolve, reject) => {
      let port: WorkerPort;
      try {
        port = this.options.worker ? wrapWebWorker(this.options.worker()) : getPlatform().spawnWorker();
      } catch (e) {
        reject(new CelError('load_failed', 'start worker: ' + String((e as Error)?.message ?? e), { cause: e }));
        return;
      }
      let ready = false;
      port.onMessage((raw) => {
        const m = raw as Reply;
        if (!ready) {
          if ('t' in m && m.t === 'ready') {
            ready = true;
            this.port = port;
            this.epoch++;
            if (!this.inFlight && this.queue.length === 0) port.unref?.();
            resolve(port);
          } else if ('t' in m && m.t === 'fatal') {
            port.terminate();
            reject(deserializeError(m.error));
          }
          return;
        }
        if (this.port === port) this.onReply(m);
      });
      port.onError((err) => {
        if (!ready) {
          port.terminate();
          reject(new CelError('trap', 'worker failed to start: ' + err.message, { cause: err }));
          return;
        }
        if (this.port === port) this.lose(new CelError('trap', 'worker failed and was replaced: ' + err.message, { cause: err }));
      });
      port.post({ t: 'init', module: this.module, memoryLimit: this.options.memoryLimit } satisfies Request);
    }).finally(() => {
      this.starting = undefined;
    });
    return this.starting;
  }

  /** Drops the current Worker; the in-flight call fails with `err`. */
  private lose(err: CelError): void {
    const port = this.port;
    this.port = undefined;
    if (port) {
      port.terminate();
      this.replacements++;
    }
    const p = this.inFlight;
    this.inFlight = undefined;
    if (p) this.settle(p, () => p.reject(err));
    this.pump();
  }

  private onReply(m: Reply): void {
    if (!('id' in m)) return;
    const p = this.inFlight;
    if (!p || p.msg.id !== m.id) return;
    this.inFlight = undefined;
    this.settle(p, () => (m.ok ? p.resolve(m.result) : p.reject(deserializeError(m.error as SerializedError))));
    this.pump();
  }

  private settle(p: Pending, f: () => void): void {
    if (p.timer !== undefined) clearTimeout(p.timer);
    if (p.signal && p.onAbort) p.signal.removeEventListener('abort', p.onAbort);
    f();
  }

  private pump(): void {
    if (this.inFlight || this.closed) return;
    if (this.queue.length === 0) {
      this.port?.unref?.();
      return;
    }
    if (!this.port) {
      this.start().then(
        () => this.pump(),
        (e) => {
          // Fail everything queued: the Worker cannot start.
          for (const p of this.queue.splice(0)) this.settle(p, () => p.reject(e));
        },
      );
      return;
    }
    const p = this.queue.shift()!;
    this.inFlight = p;
    this.port.ref?.();
    try {
      p.prepare?.();
      this.port.post(p.msg);
    } catch (e) {
      this.inFlight = undefined;
      this.settle(p, () => p.reject(new CelError('invalid_argument', String((e as Error)?.message ?? e), { cause: e })));
      this.pump();
    }
  }

  /**
   * Loads celwasm-full into the Worker now (it is otherwise loaded by the first request that
   * needs it: CRD validation and cost, filters reading Knative's `attrs` or `cesql`).
   */
  async loadFull(opts: CallOptions = {}): Promise<void> {
    this.fullModule ??= compileModule(this.options.fullWasm ?? getPlatform().defaultWasm('celwasm-full'));
    let module: WebAssembly.Module;
    try {
      module = await this.fullModule;
    } catch (e) {
      this.fullModule = undefined;
      throw e;
    }
    if (this.port && this.fullEpoch === this.epoch) return;
    await this.callOnce<null>({ t: 'initFull', id: this.id(), module, memoryLimit: this.options.memoryLimit }, opts);
    this.fullEpoch = this.epoch;
  }

  /**
   * Loads celwasm-admission into the Worker now (it is otherwise loaded by the first `admit`).
   */
  async loadAdmission(opts: CallOptions = {}): Promise<void> {
    this.admissionModule ??= compileModule(this.options.admissionWasm ?? getPlatform().defaultWasm('celwasm-admission'));
    let module: WebAssembly.Module;
    try {
      module = await this.admissionModule;
    } catch (e) {
      this.admissionModule = undefined;
      throw e;
    }
    if (this.port && this.admissionEpoch === this.epoch) return;
    await this.callOnce<null>({ t: 'initAdmission', id: this.id(), module, memoryLimit: this.options.memoryLimit }, opts);
    this.admissionEpoch = this.epoch;
  }

  /** @internal A call; one the Worker answers with needs_module is sent again after loading the
   * module it names (loadFull, loadAdmission). */
  async call<T>(msg: Request & { id: number }, opts: CallOptions = {}, prepare?: () => void): Promise<T> {
    let module: string | undefined;
    try {
      return await this.callOnce<T>(msg, opts, prepare);
    } catch (e) {
      if (!(e instanceof CelError) || e.code !== 'needs_module') throw e;
      module = e.module;
    }
    if (module === 'celwasm-admission') await this.loadAdmission(opts);
    else await this.loadFull(opts);
    return this.callOnce<T>({ ...msg, id: this.id() }, opts, prepare);
  }

  /**
   * Admits objects in the Worker as kube-apiserver's admission chain would (see `Runtime.admit`
   * for the request, the answer and the errors). The first call loads celwasm-admission into the
   * Worker (a Worker replaced after a timeout loads it again), so a `timeoutMs` should leave room
   * for that.
   * @throws additionally {CelError} `deadline_exceeded` / `canceled` (timeout, AbortSignal).
   */
  async admit(request: AdmitRequest, options?: CallOptions): Promise<AdmitResponse> {
    const req = admitRequest(request);
    return parseAdmitResponse(await this.call<Uint8Array>({ t: 'admit', id: this.id(), req }, options));
  }

  private callOnce<T>(msg: Request & { id: number }, opts: CallOptions = {}, prepare?: () => void): Promise<T> {
    if (this.closed) return Promise.reject(new CelError('closed', 'runtime is closed'));
    return new Promise<T>((resolve, reject) => {
      const p: Pending = { msg, resolve: resolve as (v: unknown) => void, reject, prepare };
      const cancel = (err: CelError) => {
        if (this.inFlight === p) {
          this.lose(err); // terminates the Worker that runs the call
        } else {
          const i = this.queue.indexOf(p);
          if (i >= 0) this.queue.splice(i, 1);
          this.settle(p, () => reject(err));
        }
      };
      const timeout = opts.timeoutMs ?? this.options.timeoutMs;
      if (timeout !== undefined && timeout !== Infinity) {
        p.timer = setTimeout(() => cancel(new CelError('deadline_exceeded', `call took longer than ${timeout} ms; the worker was replaced`)), timeout);
      }
      if (opts.signal) {
        if (opts.signal.aborted) {
          reject(new CelError('canceled', 'aborted'));
          return;
        }
        p.signal = opts.signal;
        p.onAbort = () => cancel(new CelError('canceled', 'aborted; the worker was replaced'));
        opts.signal.addEventListener('abort', p.onAbort, { once: true });
      }
      this.queue.push(p);
      this.pump();
    });
  }

  /** @internal */
  id(): number {
    return this.nextId++;
  }
  /** @internal */
  pid(): number {
    return this.nextPid++;
  }
  /** @internal */
  currentEpoch(): number {
    return this.epoch;
  }
  /** @internal */
  freeInWorker(pid: number): void {
    this.compiledIn.delete(pid);
    if (this.port && !this.closed) this.port.post({ t: 'free', pid } satisfies Request);
  }

  /** An environment (see `Runtime.env`). */
  env(options: EnvOptions = {}): WorkerEnv {
    return new WorkerEnv(this, envSpec(options));
  }

  /** Shorthand for `runtime.env(options).compile(expression)`. */
  compile(expression: string, options: EnvOptions = {}, call?: CallOptions): Promise<WorkerProgram> {
    return this.env(options).compile(expression, call);
  }

  /** Shorthand for `runtime.env(options).compileFilter(filter)`. */
  compileFilter(filter: CloudEventFilter | string, options: EnvOptions = {}, call?: CallOptions): Promise<WorkerProgram> {
    return this.env(options).compileFilter(filter, call);
  }

  /** Shorthand for `runtime.env(options).compileWhen(expressions)`. */
  compileWhen(expressions: readonly string[] | string, options: EnvOptions = {}, call?: CallOptions): Promise<WorkerProgram> {
    return this.env(options).compileWhen(expressions, call);
  }

  /** A CustomResourceDefinition whose validation and cost report run in the Worker (see
   * `Runtime.crd`).
   * @throws {CelError} `invalid_argument` when `crd` is neither JSON text nor plain JSON data. */
  crd(crd: KubeObject): WorkerCRD {
    return new WorkerCRD(this, goRawJson(crd, 'crd'));
  }

  /** Module, cel-go and Kubernetes versions (see `Runtime.version`). */
  async version(): Promise<VersionInfo> {
    if (!this.versionCache) {
      const text = await this.call<string>({ t: 'version', id: this.id() });
      this.versionCache = JSON.parse(text) as VersionInfo;
    }
    return this.versionCache;
  }

  /** The Worker instance's linear memory, in bytes. */
  memoryBytes(): Promise<number> {
    return this.call<number>({ t: 'memory', id: this.id() });
  }

  /** Terminates the Worker. Queued and later calls fail with code `closed`. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    const err = new CelError('closed', 'runtime is closed');
    for (const p of this.queue.splice(0)) this.settle(p, () => p.reject(err));
    const p = this.inFlight;
    this.inFlight = undefined;
    if (p) this.settle(p, () => p.reject(err));
    this.port?.terminate();
    this.port = undefined;
  }
}

/** An environment in a {@link WorkerRuntime}. */
export class WorkerEnv {
  readonly spec: EnvSpec;
  /** @internal */
  readonly specJson: string;
  /** @internal */
  readonly types: Map<string, TypeHint>;

  /** @internal */
  constructor(readonly runtime: WorkerRuntime, spec: EnvSpec) {
    this.spec = spec;
    this.specJson = JSON.stringify(spec);
    this.types = variableTypes(spec);
  }

  /**
   * Parses and type-checks an expression in the Worker.
   * @throws {CompileError} `compile_error` with `issues`. {@link CelError} `invalid_env`,
   * `deadline_exceeded`, `canceled`, `trap`, `closed`.
   */
  async compile(expression: string, options?: CallOptions): Promise<WorkerProgram> {
    if (typeof expression !== 'string') throw new CelError('invalid_argument', 'expression must be a string');
    return this.compileRequest(compileRequest(expression, this.specJson), expression, options);
  }

  /**
   * Compiles a CloudEvents trigger filter in the Worker (see `Env.compileFilter`);
   * `program.expression` is the CEL it became.
   * @throws {CompileError} `compile_error`. {@link CelError} `invalid_argument`, `invalid_env`,
   * `deadline_exceeded`, `canceled`, `trap`, `closed`.
   */
  async compileFilter(filter: CloudEventFilter | string, options?: CallOptions): Promise<WorkerProgram> {
    return this.compileRequest(filterRequest(filter, this.specJson), undefined, options);
  }

  /**
   * Compiles Tekton when expressions (AND-ed) in the Worker (see `Env.compileWhen`);
   * `program.expression` is the CEL they became.
   * @throws {CompileError} `compile_error`. {@link CelError} `invalid_argument`, `invalid_env`,
   * `deadline_exceeded`, `canceled`, `trap`, `closed`.
   */
  async compileWhen(expressions: readonly string[] | string, options?: CallOptions): Promise<WorkerProgram> {
    return this.compileRequest(whenRequest(expressions, this.specJson), undefined, options);
  }

  private async compileRequest(req: string, expression: string | undefined, options?: CallOptions): Promise<WorkerProgram> {
    const rt = this.runtime;
    const pid = rt.pid();
    const res = await rt.call<{ outputType: string; costEstimate?: CostEstimate; expression?: string; reads?: Reads }>(
      { t: 'compile', id: rt.id(), pid, req },
      options,
      () => rt.compiledIn.set(pid, rt.currentEpoch()),
    );
    return new WorkerProgram(this, pid, req, expression ?? res.expression ?? '', res.outputType, res.costEstimate, res.reads);
  }
}

const registry =
  typeof FinalizationRegistry !== 'undefined'
    ? new FinalizationRegistry<{ rt: WorkerRuntime; pid: number }>(({ rt, pid }) => rt.freeInWorker(pid))
    : undefined;

/** A program compiled in a {@link WorkerRuntime}. Free it with {@link WorkerProgram.free}; a
 * FinalizationRegistry frees it otherwise. */
export class WorkerProgram {
  private freed = false;

  /** @internal */
  constructor(
    readonly env: WorkerEnv,
    /** @internal */ readonly pid: number,
    /** @internal */ readonly request: string,
    /** The CEL source: as given to `compile`, or what a trigger filter or when list became. */
    readonly expression: string,
    readonly outputType: string,
    readonly costEstimate: CostEstimate | undefined,
    /** What the program can read of its variables (see `Program.reads`). */
    readonly reads?: Reads,
  ) {
    registry?.register(this, { rt: env.runtime, pid }, this);
  }

  /**
   * Evaluates the program in the Worker (see `Program.eval` for the activation and errors).
   * @throws additionally {CelError} `deadline_exceeded` / `canceled` (timeout, AbortSignal).
   */
  async eval(activation?: Activation | string | Uint8Array, options?: EvalOptions & CallOptions): Promise<EvalResult> {
    if (this.freed) throw new CelError('closed', 'program was freed');
    const rest = evalRest(encodeActivation(projected(activation, this.reads), this.env.types), options);
    const out = await this.send<{ json: string; cost: number }>('eval', rest, options);
    return new Result(out.json, out.cost);
  }

  /**
   * Evaluates the program against one CloudEvent in the Worker (see `Program.evalEvent` for the
   * event forms and errors).
   * @throws additionally {CelError} `deadline_exceeded` / `canceled` (timeout, AbortSignal).
   */
  async evalEvent(event: CloudEvent | string, options?: EvalOptions & CallOptions): Promise<EvalResult> {
    if (this.freed) throw new CelError('closed', 'program was freed');
    const out = await this.send<{ json: string; cost: number }>('eval', eventRest(event, options), options);
    return new Result(out.json, out.cost);
  }

  /**
   * Evaluates the program over many items in one call into the module, in the Worker (see
   * `Program.evalBatch`): one {@link BatchResult} per item.
   * @throws additionally {CelError} `deadline_exceeded` / `canceled` (timeout, AbortSignal) for the
   * whole batch.
   */
  async evalBatch(
    items: readonly (Activation | CloudEvent | string)[],
    kind: BatchItems,
    options?: EvalOptions & CallOptions,
  ): Promise<BatchResult[]> {
    if (this.freed) throw new CelError('closed', 'program was freed');
    const rest = batchRest(items, kind, options, this.reads);
    const bytes = await this.send<Uint8Array>('batch', rest, options);
    return parseBatchResponse(bytes, items.length).map((o) => (o instanceof CelError ? o : new Result(o.json, o.cost)));
  }

  private send<T>(t: 'eval' | 'batch', rest: (string | Uint8Array)[], options?: CallOptions): Promise<T> {
    const rt = this.env.runtime;
    const msg: Request & { t: 'eval' | 'batch'; id: number } = { t, id: rt.id(), pid: this.pid, rest };
    return rt.call<T>(msg, options, () => {
      // Attach the compile request when the Worker that runs the call has not seen the program.
      if (rt.compiledIn.get(this.pid) !== rt.currentEpoch()) {
        msg.compile = this.request;
        rt.compiledIn.set(this.pid, rt.currentEpoch());
      } else {
        delete msg.compile;
      }
    });
  }

  /** Frees the program in the Worker. */
  free(): void {
    if (this.freed) return;
    this.freed = true;
    registry?.unregister(this);
    this.env.runtime.freeInWorker(this.pid);
  }
}

/**
 * A CustomResourceDefinition in a {@link WorkerRuntime}: `validate` and `cost` run in the Worker
 * (see `CRD` for what they do). The first call for a CRD compiles it in the Worker (seconds for
 * large CRDs), so a `timeoutMs` should leave room for that; a Worker replaced after a timeout
 * compiles it again.
 */
export class WorkerCRD {
  /** @internal */
  constructor(
    readonly runtime: WorkerRuntime,
    /** The CRD's JSON as sent to the module (see `CRD.json`). */
    readonly json: string,
  ) {}

  /**
   * Validates objects in the Worker as kube-apiserver validates creates and updates (see
   * `CRD.validate` for the objects, the outcomes and the errors).
   * @throws additionally {CelError} `deadline_exceeded` / `canceled` (timeout, AbortSignal).
   */
  async validate(objects: readonly CRDObject[], options?: ValidateOptions & CallOptions): Promise<CRDValidation> {
    const rt = this.runtime;
    const req = validateRequest(this.json, objects, options);
    return parseValidateResponse(await rt.call<Uint8Array>({ t: 'crd', id: rt.id(), fn: 'validate', req }, options));
  }

  /**
   * The CRD's rule cost estimates, computed in the Worker (see `CRD.cost`).
   * @throws additionally {CelError} `deadline_exceeded` / `canceled` (timeout, AbortSignal).
   */
  async cost(options?: CostOptions & CallOptions): Promise<CRDCostReport> {
    const rt = this.runtime;
    return parseCostResponse(await rt.call<Uint8Array>({ t: 'crd', id: rt.id(), fn: 'cost', req: costRequest(this.json, options) }, options));
  }
}
