/**
 * The Node entry point (package.json `exports` condition `node`): the module is read from disk
 * next to this file; the Worker runtime uses `worker_threads`.
 */

import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { compileResponse, setPlatform, type WorkerPort } from './platform.js';

setPlatform({
  name: 'node',
  defaultWasm: (name = 'celwasm') =>
    name === 'celwasm-full'
      ? new URL('./celwasm-full.wasm', import.meta.url)
      : name === 'celwasm-admission'
        ? new URL('./celwasm-admission.wasm', import.meta.url)
        : new URL('./celwasm.wasm', import.meta.url),
  readSync: (url) => readFileSync(url),
  resolve: (location) => (/^[a-z][a-z0-9+.-]*:\/\//i.test(location) || location.startsWith('file:') ? new URL(location) : pathToFileURL(location)),
  compileUrl: async (url) => {
    if (url.protocol === 'file:') return WebAssembly.compile(await readFile(url));
    return compileResponse(await fetch(url));
  },
  spawnWorker: (): WorkerPort => {
    const w = new Worker(new URL('./worker-node.js', import.meta.url));
    return {
      post: (m) => w.postMessage(m),
      onMessage: (cb) => w.on('message', cb),
      onError: (cb) => {
        w.on('error', cb);
        w.on('exit', (code) => cb(new Error(`worker exited with code ${code}`)));
      },
      terminate: () => void w.terminate(),
      ref: () => w.ref(),
      unref: () => w.unref(),
    };
  },
});

export * from './common.js';
