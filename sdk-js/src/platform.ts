/**
 * What differs between Node and browsers: where the module is by default, how a URL is read, and
 * how a Worker is started. Set once by the entry point (node.ts / browser.ts). Internal.
 */

import { CelError } from './errors.js';

/** Where the celwasm module comes from. */
export type WasmSource =
  | URL
  | string
  | ArrayBuffer
  | ArrayBufferView
  | Response
  | WebAssembly.Module
  | PromiseLike<URL | string | ArrayBuffer | ArrayBufferView | Response | WebAssembly.Module>;

/** The modules (RATIONALE.md, "Two modules"): expressions; every request but admit; admission
 * policies. */
export type ModuleName = 'celwasm' | 'celwasm-full' | 'celwasm-admission';

/** The modules loaded later, by the request that needs them. */
export type LaterModule = Exclude<ModuleName, 'celwasm'>;

/** The method that loads a later module asynchronously (what a browser main thread calls first). */
export function loaderOf(name: LaterModule): string {
  return name === 'celwasm-admission' ? 'loadAdmission' : 'loadFull';
}

/** The messaging side of a Worker, common to Web Workers and Node's worker_threads. */
export interface WorkerPort {
  post(message: unknown): void;
  onMessage(cb: (message: unknown) => void): void;
  /** Called when the worker fails (uncaught error, exit). */
  onError(cb: (error: Error) => void): void;
  terminate(): void;
  /** Node: keep the process alive while calls are in flight (workers are unref'd when idle). */
  ref?(): void;
  unref?(): void;
}

export interface Platform {
  name: 'node' | 'browser';
  /** The module next to the package's JavaScript ('celwasm', 'celwasm-full' or 'celwasm-admission'). */
  defaultWasm(name?: ModuleName): URL;
  /** Reads a file: URL synchronously (Node); absent in browsers. */
  readSync?(url: URL): Uint8Array;
  /** Compiles the module at a URL (file: in Node; fetched with compileStreaming in browsers). */
  compileUrl(url: URL): Promise<WebAssembly.Module>;
  /** Resolves a string location (a path in Node; a URL relative to the page in browsers). */
  resolve(location: string): URL;
  /** Starts the package's Worker script. */
  spawnWorker(): WorkerPort;
}

let platform: Platform | undefined;

export function setPlatform(p: Platform): void {
  platform = p;
}

export function getPlatform(): Platform {
  if (!platform) throw new CelError('load_failed', 'celwasm: no platform (import "celwasm", not an internal file)');
  return platform;
}

/**
 * Compiles the module from any {@link WasmSource}. Responses are compiled with
 * `WebAssembly.compileStreaming` when served as `application/wasm`.
 */
export async function compileModule(source: WasmSource | undefined): Promise<WebAssembly.Module> {
  const p = getPlatform();
  let src = await (source ?? p.defaultWasm());
  try {
    if (src instanceof WebAssembly.Module) return src;
    if (typeof src === 'string') src = p.resolve(src);
    if (src instanceof URL) return await p.compileUrl(src);
    if (typeof Response !== 'undefined' && src instanceof Response) return await compileResponse(src);
    if (src instanceof ArrayBuffer) return await WebAssembly.compile(src);
    if (ArrayBuffer.isView(src)) {
      return await WebAssembly.compile(new Uint8Array(src.buffer, src.byteOffset, src.byteLength) as Uint8Array<ArrayBuffer>);
    }
  } catch (e) {
    if (e instanceof CelError) throw e;
    throw new CelError('load_failed', 'load celwasm module: ' + String((e as Error)?.message ?? e), { cause: e });
  }
  throw new CelError('invalid_argument', 'wasm: expected a URL, path, bytes, Response or WebAssembly.Module');
}

/**
 * Compiles a module synchronously, for celwasm-full or celwasm-admission loaded in the middle of
 * a synchronous call: from bytes, a compiled module, or (Node) a file. Anything else — a URL to
 * fetch, a Response, a promise — and a browser main thread, which refuses to compile modules over
 * 8 MB synchronously, throw `needs_module`: `await runtime.loadFull()` (`loadAdmission()`) first.
 */
export function compileModuleSync(source: WasmSource | undefined, name: LaterModule): WebAssembly.Module {
  const p = getPlatform();
  let src: unknown = source ?? p.defaultWasm(name);
  const later = () =>
    new CelError('needs_module', `this request needs the module ${name}, which is not loaded: await runtime.${loaderOf(name)}() first`, { module: name });
  try {
    if (src instanceof WebAssembly.Module) return src;
    if (typeof src === 'string') src = p.resolve(src);
    if (src instanceof URL) {
      if (src.protocol !== 'file:' || !p.readSync) throw later();
      src = p.readSync(src);
    }
    if (src instanceof ArrayBuffer) return new WebAssembly.Module(src);
    if (ArrayBuffer.isView(src)) {
      return new WebAssembly.Module(new Uint8Array(src.buffer, src.byteOffset, src.byteLength) as Uint8Array<ArrayBuffer>);
    }
  } catch (e) {
    if (e instanceof CelError) throw e;
    if (e instanceof RangeError) throw later(); // a browser main thread: too large to compile synchronously
    throw new CelError('load_failed', `load ${name} module: ` + String((e as Error)?.message ?? e), { cause: e });
  }
  throw later();
}

/** Compiles a fetched module: streaming when the server says application/wasm. */
export async function compileResponse(res: Response): Promise<WebAssembly.Module> {
  if (!res.ok) throw new CelError('load_failed', `fetch ${res.url}: HTTP ${res.status}`);
  const type = res.headers.get('content-type') ?? '';
  if (typeof WebAssembly.compileStreaming === 'function' && type.split(';')[0]!.trim() === 'application/wasm') {
    return WebAssembly.compileStreaming(res);
  }
  return WebAssembly.compile(await res.arrayBuffer());
}
