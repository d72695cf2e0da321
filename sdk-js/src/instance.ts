/**
 * One instance of the celwasm module (docs/abi.md): WASI from @bjorn3/browser_wasi_shim, the
 * request buffer, the packed i64 responses, and trap handling. Internal.
 */

import { ConsoleStdout, File, OpenFile, WASI, WASIProcExit } from '@bjorn3/browser_wasi_shim';
import { CelError } from './errors.js';

interface Exports {
  memory: WebAssembly.Memory;
  _initialize(): void;
  celwasm_alloc(size: number): number;
  celwasm_dealloc(ptr: number): void;
  celwasm_compile(ptr: number, len: number): bigint;
  celwasm_eval(ptr: number, len: number): bigint;
  celwasm_eval_batch?(ptr: number, len: number): bigint;
  celwasm_eval_activation?(program: number, limitLo: number, limitHi: number, ptr: number, len: number): bigint;
  celwasm_validate?(ptr: number, len: number): bigint;
  celwasm_cost?(ptr: number, len: number): bigint;
  celwasm_admit?(ptr: number, len: number): bigint;
  celwasm_free(program: number): number;
  celwasm_version(): bigint;
  celwasm_interrupt_flag(): number;
}

/** Keeps the last bytes the guest wrote to stderr (Go runtime fatal errors), for trap messages. */
class Tail {
  private bytes: Uint8Array = new Uint8Array(0);
  constructor(private readonly copyTo?: (b: Uint8Array) => void) {}
  write(b: Uint8Array): void {
    this.copyTo?.(b);
    const joined = new Uint8Array(Math.min(2048, this.bytes.length + b.length));
    const all = new Uint8Array(this.bytes.length + b.length);
    all.set(this.bytes);
    all.set(b, this.bytes.length);
    joined.set(all.subarray(all.length - joined.length));
    this.bytes = joined;
  }
  suffix(): string {
    const s = new TextDecoder().decode(this.bytes).trim();
    return s ? `; guest stderr: ${JSON.stringify(s)}` : '';
  }
}

const MIN_BUFFER = 64 * 1024;
const encoder = new TextEncoder();

export type Fn = 'compile' | 'eval' | 'eval_batch' | 'validate' | 'cost' | 'admit';

/** Options for instances. */
export interface InstanceOptions {
  /** Receives every byte the guest writes to stderr (Go runtime messages). Default: kept for
   * error messages only. */
  stderr?: (bytes: Uint8Array) => void;
  /**
   * Caps the instance's linear memory, in bytes. Default {@link DEFAULT_MEMORY_LIMIT} (1 GiB, as
   * the Go and Python hosts). A call that leaves the memory larger fails with `trap` and the
   * instance is replaced; WebAssembly memory only grows, so these are exactly the calls that
   * grew it past the cap, the calls that fail on the other hosts.
   */
  memoryLimit?: number;
}

/** The default cap of an instance's linear memory: 1 GiB, in bytes. */
export const DEFAULT_MEMORY_LIMIT = 1 << 30;

export class ModuleInstance {
  private readonly ex: Exports;
  private readonly tail: Tail;
  private buf = 0;
  private cap = 0;
  private u8: Uint8Array;
  dead = false;
  private readonly memoryLimit: number;

  private constructor(instance: WebAssembly.Instance, wasi: WASI, tail: Tail, memoryLimit: number | undefined) {
    this.ex = instance.exports as unknown as Exports;
    this.tail = tail;
    this.memoryLimit = memoryLimit ?? DEFAULT_MEMORY_LIMIT;
    try {
      wasi.initialize(instance as unknown as { exports: { memory: WebAssembly.Memory; _initialize?: () => unknown } });
    } catch (e) {
      throw this.trapError('initialize', e);
    }
    this.u8 = new Uint8Array(this.ex.memory.buffer);
  }

  private static imports(opts: InstanceOptions): { wasi: WASI; tail: Tail; imports: WebAssembly.Imports } {
    const tail = new Tail(opts.stderr);
    const wasi = new WASI(
      ['celwasm'],
      [],
      [new OpenFile(new File([])), new ConsoleStdout(() => {}), new ConsoleStdout((b) => tail.write(b))],
      { debug: false },
    );
    return { wasi, tail, imports: { wasi_snapshot_preview1: wasi.wasiImport as WebAssembly.ModuleImports } };
  }

  /** Instantiates asynchronously (allowed everywhere, including browser main threads). */
  static async create(module: WebAssembly.Module, opts: InstanceOptions = {}): Promise<ModuleInstance> {
    const { wasi, tail, imports } = ModuleInstance.imports(opts);
    let instance: WebAssembly.Instance;
    try {
      instance = await WebAssembly.instantiate(module, imports);
    } catch (e) {
      throw new CelError('load_failed', 'instantiate: ' + String((e as Error)?.message ?? e), { cause: e });
    }
    return new ModuleInstance(instance, wasi, tail, opts.memoryLimit);
  }

  /** Instantiates synchronously. Browsers refuse this on the main thread for large modules
   * (RangeError), which the caller handles. */
  static createSync(module: WebAssembly.Module, opts: InstanceOptions = {}): ModuleInstance {
    const { wasi, tail, imports } = ModuleInstance.imports(opts);
    const instance = new WebAssembly.Instance(module, imports);
    return new ModuleInstance(instance, wasi, tail, opts.memoryLimit);
  }

  private trapError(what: string, e: unknown): CelError {
    this.dead = true;
    let msg: string;
    if (e instanceof WASIProcExit) msg = `the module exited with code ${e.code}`;
    else if (e instanceof Error) msg = `${e.name}: ${e.message}`;
    else msg = String(e);
    return new CelError('trap', `${what}: instance failed and was discarded: ${msg}${this.tail.suffix()}`, { cause: e });
  }

  private mem(): Uint8Array {
    if (this.u8.buffer !== this.ex.memory.buffer) this.u8 = new Uint8Array(this.ex.memory.buffer);
    return this.u8;
  }

  private ensureCapacity(n: number): void {
    if (n <= this.cap) return;
    const newCap = Math.max(n, 2 * this.cap, MIN_BUFFER);
    try {
      if (this.cap > 0) this.ex.celwasm_dealloc(this.buf);
      this.cap = 0;
      this.buf = this.ex.celwasm_alloc(newCap);
    } catch (e) {
      throw this.trapError('alloc', e);
    }
    this.cap = newCap;
  }

  /** A view of the request buffer, cached until memory grows or the buffer moves. */
  private reqView(): Uint8Array {
    const mem = this.mem();
    if (this.req === undefined || this.req.buffer !== mem.buffer || this.req.byteOffset !== this.buf || this.req.length !== this.cap) {
      this.req = mem.subarray(this.buf, this.buf + this.cap);
    }
    return this.req;
  }
  private req: Uint8Array | undefined;

  /** Writes a request made of string and byte pieces into the request buffer; returns its length. */
  private write(pieces: readonly (string | Uint8Array)[]): number {
    let allStrings = true;
    let guess = 0;
    for (const p of pieces) {
      guess += p.length;
      if (typeof p !== 'string') allStrings = false;
    }
    this.ensureCapacity(guess);
    if (allStrings) {
      // One encodeInto of the joined string (V8 joins cheaply) beats one per piece.
      const text = pieces.length === 1 ? (pieces[0] as string) : (pieces as string[]).join('');
      const r = encoder.encodeInto(text, this.reqView());
      if (r.read === text.length) return r.written;
      this.ensureCapacity(encoder.encode(text).length);
      return encoder.encodeInto(text, this.reqView()).written;
    }
    for (;;) {
      let off = 0;
      let fits = true;
      const view = this.reqView();
      for (const p of pieces) {
        if (typeof p === 'string') {
          const r = encoder.encodeInto(p, view.subarray(off));
          off += r.written;
          if (r.read < p.length) {
            fits = false;
            break;
          }
        } else {
          if (off + p.length > this.cap) {
            fits = false;
            break;
          }
          view.set(p, off);
          off += p.length;
        }
      }
      if (fits) return off;
      let exact = 0;
      for (const p of pieces) exact += typeof p === 'string' ? encoder.encode(p).length : p.length;
      this.ensureCapacity(exact);
    }
  }

  /**
   * Sends a request to `celwasm_compile`, `celwasm_eval`, `celwasm_eval_batch`,
   * `celwasm_validate`, `celwasm_cost` or `celwasm_admit` and returns a view of the response bytes, valid until
   * the next call into this instance.
   */
  call(fn: Fn, pieces: readonly (string | Uint8Array)[]): Uint8Array {
    if (this.dead) throw new CelError('trap', 'instance was discarded');
    const f =
      fn === 'eval'
        ? this.ex.celwasm_eval
        : fn === 'compile'
          ? this.ex.celwasm_compile
          : fn === 'eval_batch'
            ? this.ex.celwasm_eval_batch
            : fn === 'validate'
              ? this.ex.celwasm_validate
              : fn === 'cost'
                ? this.ex.celwasm_cost
                : this.ex.celwasm_admit;
    if (typeof f !== 'function') {
      const feature = fn === 'eval_batch' ? 'batch evaluation' : fn === 'admit' ? 'admission policies' : 'CRD validation';
      throw new CelError('internal', `the module has no celwasm_${fn} export (built before ${feature}?)`);
    }
    const n = this.write(pieces);
    let r: bigint;
    try {
      r = f(this.buf, n);
    } catch (e) {
      throw this.trapError(fn, e);
    }
    this.checkMemory(fn);
    return this.view(r);
  }

  /** Discards the instance when the call left its memory past the cap (see `memoryLimit`). */
  private checkMemory(fn: string): void {
    const size = this.ex.memory.buffer.byteLength;
    if (size > this.memoryLimit) {
      this.dead = true;
      throw new CelError('trap', `celwasm_${fn}: the instance's memory grew to ${size} bytes, past its cap of ${this.memoryLimit} (memoryLimit); instance discarded`);
    }
  }

  /** Whether the module has `celwasm_eval_activation` (docs/abi.md). */
  hasEvalActivation(): boolean {
    return typeof this.ex.celwasm_eval_activation === 'function';
  }

  /**
   * Calls `celwasm_eval_activation`: the activation object's JSON text alone, the cost limit as
   * two 32-bit halves. Returns the packed bool result (a number below 2^32, bits 30–31 the value,
   * 0–29 the cost) or a view of the eval response, valid until the next call.
   */
  evalActivation(handle: number, limitLo: number, limitHi: number, activation: string | Uint8Array): number | Uint8Array {
    if (this.dead) throw new CelError('trap', 'instance was discarded');
    const n = this.write([activation]);
    let r: bigint;
    try {
      r = this.ex.celwasm_eval_activation!(handle, limitLo, limitHi, this.buf, n);
    } catch (e) {
      throw this.trapError('eval', e);
    }
    this.checkMemory('eval_activation');
    if (r < 0x100000000n && r !== 0n) return Number(r);
    return this.view(r);
  }

  private view(r: bigint): Uint8Array {
    const ptr = Number(r >> 32n);
    const len = Number(r & 0xffffffffn);
    const mem = this.mem();
    if (ptr + len > mem.length) {
      this.dead = true;
      throw new CelError('trap', `response [${ptr}, +${len}) lies outside guest memory; instance discarded`);
    }
    return mem.subarray(ptr, ptr + len);
  }

  version(): Uint8Array {
    if (this.dead) throw new CelError('trap', 'instance was discarded');
    let r: bigint;
    try {
      r = this.ex.celwasm_version();
    } catch (e) {
      throw this.trapError('version', e);
    }
    return this.view(r);
  }

  free(handle: number): boolean {
    if (this.dead) return false;
    try {
      return this.ex.celwasm_free(handle) === 1;
    } catch (e) {
      throw this.trapError('free', e);
    }
  }

  /** Guest linear memory size in bytes. */
  memoryBytes(): number {
    return this.ex.memory.buffer.byteLength;
  }

  /** For tests: direct access to the guest memory (to provoke a real trap). */
  memoryForTesting(): WebAssembly.Memory {
    return this.ex.memory;
  }
}
