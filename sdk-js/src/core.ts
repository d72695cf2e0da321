/**
 * The synchronous engine shared by the main-thread Runtime and the Worker: one module instance,
 * the program table (compile requests kept so that programs are compiled again after an instance
 * is replaced), and response parsing. Internal.
 */

import { CelError, errorFromModule } from './errors.js';
import { ModuleInstance, type InstanceOptions } from './instance.js';
import type { Reads } from './env.js';

const decoder = new TextDecoder();
const encoder = new TextEncoder();

/** Decodes UTF-8; short ASCII strings without TextDecoder (faster for small results). */
export function utf8(b: Uint8Array, start = 0, end = b.length): string {
  const n = end - start;
  if (n <= 48) {
    let s = '';
    for (let i = start; i < end; i++) {
      const c = b[i]!;
      if (c >= 0x80) return decoder.decode(b.subarray(start, end));
      s += String.fromCharCode(c);
    }
    return s;
  }
  return decoder.decode(b.subarray(start, end));
}

/** The static cost estimate, in cost units, exact (`bigint`: `max` may be 2^64−1). */
export interface CostEstimate {
  readonly min: bigint;
  readonly max: bigint;
}

export interface CompileInfo {
  handle: number;
  outputType: string;
  costEstimate?: CostEstimate;
  /** The CEL a trigger filter or a when list became (absent for plain expressions). */
  expression?: string;
  /** What the program can read of its variables, when the request asked (docs/abi.md). */
  reads?: Reads;
}

/** Parses a compile response; numbers of the cost estimate are read exactly. */
export function parseCompileResponse(text: string): CompileInfo {
  let obj: { program?: unknown; outputType?: unknown; expression?: unknown; reads?: unknown; error?: Record<string, unknown> };
  try {
    obj = JSON.parse(text);
  } catch {
    throw new CelError('internal', 'malformed compile response: ' + text.slice(0, 200));
  }
  if (obj.error) throw errorFromModule(obj.error);
  if (typeof obj.program !== 'number' || typeof obj.outputType !== 'string') {
    throw new CelError('internal', 'malformed compile response: ' + text.slice(0, 200));
  }
  const info: CompileInfo = { handle: obj.program, outputType: obj.outputType };
  if (typeof obj.expression === 'string' && obj.expression !== '') info.expression = obj.expression;
  if (obj.reads !== null && typeof obj.reads === 'object') info.reads = obj.reads as Reads;
  // JSON.parse rounds numbers above 2^53; read the estimate's digits from the text.
  const m = /"costEstimate":\{"min":(\d+),"max":(\d+)\}/.exec(text);
  if (m) info.costEstimate = { min: BigInt(m[1]!), max: BigInt(m[2]!) };
  return info;
}

/** The successful outcome of an evaluation. */
export interface EvalOutcome {
  /** The value in canonical typed JSON. */
  json: string;
  /** The actual cost in cost units. */
  cost: number;
}

// {"value":
const VALUE_PREFIX = [0x7b, 0x22, 0x76, 0x61, 0x6c, 0x75, 0x65, 0x22, 0x3a];
// ,"cost":
const COST_FIELD = [0x2c, 0x22, 0x63, 0x6f, 0x73, 0x74, 0x22, 0x3a];

/**
 * Parses an eval response `{"value":VALUE,"cost":DIGITS}`, slicing VALUE's canonical bytes out
 * without re-encoding; error responses become typed errors.
 */
export function parseEvalResponse(b: Uint8Array): EvalOutcome {
  const n = b.length;
  let ok = n > VALUE_PREFIX.length + COST_FIELD.length + 1 && b[n - 1] === 0x7d;
  for (let i = 0; ok && i < VALUE_PREFIX.length; i++) if (b[i] !== VALUE_PREFIX[i]) ok = false;
  if (ok) {
    let i = n - 2;
    let cost = 0;
    let mul = 1;
    while (i > 0 && b[i]! >= 0x30 && b[i]! <= 0x39) {
      cost += (b[i]! - 0x30) * mul;
      mul *= 10;
      i--;
    }
    const start = i - COST_FIELD.length + 1;
    let match = i < n - 2 && start > VALUE_PREFIX.length;
    for (let j = 0; match && j < COST_FIELD.length; j++) if (b[start + j] !== COST_FIELD[j]) match = false;
    if (match) return { json: utf8(b, VALUE_PREFIX.length, start), cost };
  }
  const text = decoder.decode(b);
  let obj: { error?: Record<string, unknown> };
  try {
    obj = JSON.parse(text);
  } catch {
    throw new CelError('internal', 'malformed eval response: ' + text.slice(0, 200));
  }
  if (obj.error) throw errorFromModule(obj.error);
  throw new CelError('internal', 'malformed eval response: ' + text.slice(0, 200));
}

/**
 * Parses an eval_batch response: one line per item, each an eval response. A single error
 * response for a malformed header or an unknown program (or for an empty batch) fails the whole
 * call; item errors become {@link CelError} values in the result. As the Go host's `EvalBatch`.
 */
export function parseBatchResponse(b: Uint8Array, items: number): (EvalOutcome | CelError)[] {
  const LF = 0x0a;
  if (startsWith(b, ERROR_PREFIX) && b.indexOf(LF) < 0) {
    const text = decoder.decode(b);
    let err: CelError;
    try {
      const obj = JSON.parse(text) as { error?: unknown };
      if (!obj.error || typeof obj.error !== 'object') throw new Error('no error object');
      err = errorFromModule(obj.error as Record<string, unknown>);
    } catch {
      err = new CelError('internal', 'malformed error response: ' + text.slice(0, 200));
    }
    if (err.code === 'bad_request' || err.code === 'unknown_program' || items === 0) throw err;
  }
  const out: (EvalOutcome | CelError)[] = [];
  let start = 0;
  while (start < b.length) {
    let end = b.indexOf(LF, start);
    if (end < 0) end = b.length;
    try {
      out.push(parseEvalResponse(b.subarray(start, end)));
    } catch (e) {
      out.push(e instanceof CelError ? e : new CelError('internal', String((e as Error)?.message ?? e)));
    }
    start = end + 1;
  }
  if (out.length !== items) throw new CelError('internal', `batch: ${out.length} results for ${items} items`);
  return out;
}

// {"error":
const ERROR_PREFIX = [0x7b, 0x22, 0x65, 0x72, 0x72, 0x6f, 0x72, 0x22, 0x3a];

function startsWith(b: Uint8Array, prefix: readonly number[]): boolean {
  if (b.length < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (b[i] !== prefix[i]) return false;
  return true;
}

interface ProgramEntry {
  req: Uint8Array;
  handle: number;
  gen: number;
}

/** Whether an error means the browser refused synchronous instantiation on the main thread. */
function refusedSync(e: unknown): boolean {
  return e instanceof RangeError || (e instanceof Error && /disallowed on the main thread/.test(e.message));
}

export class Core {
  private inst: ModuleInstance | null;
  private gen = 1;
  private replacing: Promise<void> | null = null;
  private readonly programs = new Map<number, ProgramEntry>();
  private nextPid = 1;
  /** How many times an instance was replaced after a failure. */
  replacements = 0;
  closed = false;

  private constructor(
    readonly module: WebAssembly.Module,
    private readonly opts: InstanceOptions,
    first: ModuleInstance,
  ) {
    this.inst = first;
  }

  static async create(module: WebAssembly.Module, opts: InstanceOptions = {}): Promise<Core> {
    return new Core(module, opts, await ModuleInstance.create(module, opts));
  }

  /** As `create`, synchronously (celwasm-full loaded in the middle of a synchronous call). */
  static createSync(module: WebAssembly.Module, opts: InstanceOptions = {}): Core {
    return new Core(module, opts, ModuleInstance.createSync(module, opts));
  }

  /** The live instance, replaced synchronously when the last one failed. */
  private instance(): ModuleInstance {
    if (this.closed) throw new CelError('closed', 'runtime is closed');
    if (this.inst && !this.inst.dead) return this.inst;
    this.inst = null;
    if (this.replacing) throw new CelError('unavailable', 'the instance is being replaced after a failure; await runtime.ready()');
    try {
      this.inst = ModuleInstance.createSync(this.module, this.opts);
      this.gen++;
      this.replacements++;
      return this.inst;
    } catch (e) {
      if (e instanceof CelError) throw e;
      if (refusedSync(e)) {
        void this.ready().catch(() => {});
        throw new CelError('unavailable', 'the instance is being replaced after a failure; await runtime.ready()', { cause: e });
      }
      throw new CelError('load_failed', 'instantiate: ' + String((e as Error)?.message ?? e), { cause: e });
    }
  }

  /** Resolves when an instance is available (replacing a failed one asynchronously). */
  ready(): Promise<void> {
    if (this.closed) return Promise.reject(new CelError('closed', 'runtime is closed'));
    if (this.inst && !this.inst.dead) return Promise.resolve();
    if (!this.replacing) {
      this.replacing = ModuleInstance.create(this.module, this.opts).then(
        (inst) => {
          this.inst = inst;
          this.gen++;
          this.replacements++;
          this.replacing = null;
        },
        (e) => {
          this.replacing = null;
          throw e;
        },
      );
    }
    return this.replacing;
  }

  private fail(e: unknown): never {
    if (e instanceof CelError && e.code === 'trap') this.inst = null;
    throw e;
  }

  /** Compiles and registers a program; `pid` is chosen by the caller or assigned. */
  compile(req: Uint8Array | string, pid?: number): { pid: number; info: CompileInfo } {
    const bytes = typeof req === 'string' ? encoder.encode(req) : req;
    const inst = this.instance();
    let text: string;
    try {
      text = utf8(inst.call('compile', [bytes]));
    } catch (e) {
      this.fail(e);
    }
    const info = parseCompileResponse(text);
    const id = pid ?? this.nextPid++;
    const old = this.programs.get(id);
    if (old && old.gen === this.gen) this.freeHandle(old.handle);
    this.programs.set(id, { req: bytes, handle: info.handle, gen: this.gen });
    return { pid: id, info };
  }

  has(pid: number): boolean {
    return this.programs.has(pid);
  }

  /** Evaluates program `pid`; `rest` continues the request after `{"program":H` (it must end
   * with `}`). Returns a view of the response, valid until the next call. */
  evalRaw(pid: number, rest: readonly (string | Uint8Array)[], fn: 'eval' | 'eval_batch' = 'eval'): Uint8Array {
    const p = this.programs.get(pid);
    if (!p) throw new CelError('closed', 'program was freed');
    let inst = this.instance();
    if (p.gen !== this.gen) {
      let text: string;
      try {
        text = utf8(inst.call('compile', [p.req]));
      } catch (e) {
        this.fail(e);
      }
      const info = parseCompileResponse(text);
      p.handle = info.handle;
      p.gen = this.gen;
      inst = this.instance();
    }
    try {
      return inst.call(fn, ['{"program":' + p.handle, ...rest]);
    } catch (e) {
      this.fail(e);
    }
  }

  /**
   * Evaluates program `pid` over the activation object's JSON text through
   * `celwasm_eval_activation` (no request object around it; a bool result read from the return
   * value); falls back to `celwasm_eval` with a module that lacks the export.
   */
  evalActivation(pid: number, activation: string | Uint8Array, costLimit: bigint | undefined): EvalOutcome {
    const p = this.programs.get(pid);
    if (!p) throw new CelError('closed', 'program was freed');
    let inst = this.instance();
    if (!inst.hasEvalActivation()) {
      const rest = costLimit === undefined ? [] : [',"costLimit":' + costLimit.toString()];
      return this.eval(pid, [...rest, ',"activation":', activation, '}']);
    }
    if (p.gen !== this.gen) {
      this.evalRawCompile(p, inst);
      inst = this.instance();
    }
    const lo = costLimit === undefined ? 0 : Number(costLimit & 0xffffffffn);
    const hi = costLimit === undefined ? 0 : Number(costLimit >> 32n);
    let r: number | Uint8Array;
    try {
      r = inst.evalActivation(p.handle, lo, hi, activation);
    } catch (e) {
      this.fail(e);
    }
    if (typeof r === 'number') {
      const kind = r >>> 30;
      if (kind === 1) return { json: 'false', cost: r & 0x3fffffff };
      if (kind === 2) return { json: 'true', cost: r & 0x3fffffff };
      throw new CelError('internal', 'malformed eval_activation result ' + r);
    }
    return parseEvalResponse(r);
  }

  /** Recompiles a program in a new instance (after a trap replaced the old one). */
  private evalRawCompile(p: ProgramEntry, inst: ModuleInstance): void {
    let text: string;
    try {
      text = utf8(inst.call('compile', [p.req]));
    } catch (e) {
      this.fail(e);
    }
    p.handle = parseCompileResponse(text).handle;
    p.gen = this.gen;
  }

  eval(pid: number, rest: readonly (string | Uint8Array)[]): EvalOutcome {
    return parseEvalResponse(this.evalRaw(pid, rest));
  }

  /** Evaluates program `pid` over a batch (`rest`: see {@link batchRest}) of `items` items. */
  evalBatch(pid: number, rest: readonly (string | Uint8Array)[], items: number): (EvalOutcome | CelError)[] {
    return parseBatchResponse(this.evalRaw(pid, rest, 'eval_batch'), items);
  }

  private freeHandle(handle: number): void {
    try {
      this.inst?.free(handle);
    } catch (e) {
      if (e instanceof CelError && e.code === 'trap') this.inst = null;
    }
  }

  /** Frees a program in the current instance (if it was compiled there) and forgets it. */
  free(pid: number): void {
    const p = this.programs.get(pid);
    if (!p) return;
    this.programs.delete(pid);
    if (p.gen === this.gen && !this.closed) this.freeHandle(p.handle);
  }

  /** How many programs are registered. */
  programCount(): number {
    return this.programs.size;
  }

  version(): string {
    const inst = this.instance();
    try {
      return utf8(inst.version());
    } catch (e) {
      this.fail(e);
    }
  }

  /** Sends a request to an export verbatim; returns a copy of the response bytes. */
  raw(fn: 'compile' | 'eval' | 'validate' | 'cost' | 'admit', req: Uint8Array | string): Uint8Array {
    const inst = this.instance();
    try {
      return inst.call(fn, [typeof req === 'string' ? encoder.encode(req) : req]).slice();
    } catch (e) {
      this.fail(e);
    }
  }

  /** Frees a handle in the current instance verbatim (`celwasm_free`); true if it was known. */
  rawFree(handle: number): boolean {
    const inst = this.instance();
    try {
      return inst.free(handle);
    } catch (e) {
      this.fail(e);
    }
  }

  memoryBytes(): number {
    return this.inst?.memoryBytes() ?? 0;
  }

  /** For tests: the live instance's memory. */
  memoryForTesting(): WebAssembly.Memory {
    return this.instance().memoryForTesting();
  }

  close(): void {
    this.closed = true;
    this.inst = null;
    this.programs.clear();
  }
}
