// Loading the celwasm Extism plugin with @extism/extism (docs/extism.md).
import createPlugin from '@extism/extism';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = join(fileURLToPath(new URL('.', import.meta.url)), '..', '..', '..');

/** The plugin file: the argument, CELWASM_EXTISM_PLUGIN, or build/celwasm-extism.wasm. */
export function pluginPath(arg) {
  return arg ?? process.env.CELWASM_EXTISM_PLUGIN ?? join(repoRoot, 'build', 'celwasm-extism.wasm');
}

/** A plugin with WASI on (the plugin is a WASI reactor); `options` adds timeoutMs, memory, runInWorker. */
export function loadPlugin(path, options = {}) {
  return createPlugin({ wasm: [{ path }] }, { useWasi: true, ...options });
}
