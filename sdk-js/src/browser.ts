/**
 * The browser entry point (package.json `exports` default): the module is fetched from
 * `celwasm.wasm` next to this file and compiled with `WebAssembly.compileStreaming`; the Worker
 * runtime starts `worker.js` (a self-contained module worker) next to this file. Bundlers that
 * understand `new URL('…', import.meta.url)` (Vite, webpack 5, Rollup plugins) emit both.
 */

import { compileResponse, setPlatform, type WorkerPort } from './platform.js';

function base(): string {
  return typeof document !== 'undefined' ? document.baseURI : String(globalThis.location?.href ?? import.meta.url);
}

setPlatform({
  name: 'browser',
  defaultWasm: (name = 'celwasm') =>
    name === 'celwasm-full'
      ? new URL('./celwasm-full.wasm', import.meta.url)
      : name === 'celwasm-admission'
        ? new URL('./celwasm-admission.wasm', import.meta.url)
        : new URL('./celwasm.wasm', import.meta.url),
  resolve: (location) => new URL(location, base()),
  compileUrl: async (url) => compileResponse(await fetch(url)),
  spawnWorker: (): WorkerPort => {
    const w = new Worker(new URL('./worker.js', import.meta.url), { type: 'module', name: 'celwasm' });
    return {
      post: (m) => w.postMessage(m),
      onMessage: (cb) => w.addEventListener('message', (e) => cb(e.data)),
      onError: (cb) => {
        w.addEventListener('error', (e) => {
          e.preventDefault();
          cb(new Error(e.message || 'worker error'));
        });
        w.addEventListener('messageerror', () => cb(new Error('worker message error')));
      },
      terminate: () => w.terminate(),
    };
  },
});

export * from './common.js';
