// Runs the conformance corpus through the celwasm Extism plugin with Extism's JavaScript SDK
// (@extism/extism) in Node and writes out/conformance/extism-node.jsonl (conformance/FORMAT.md),
// which must be byte-identical to the Go SDK's run (extism-go.jsonl).
//
//   node conformance.mjs [path/to/celwasm-extism.wasm]
//
// The corpus reading, the requests, the result lines and the judging are the JS SDK's runner
// (sdk-js/test/conformance/runner.mjs); this file supplies the `raw`/`rawFree` interface it
// drives, on plugin calls. A failed Extism call is a trap: the plugin is replaced.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { corpusDir, outDir, readCorpus, repoRoot } from '../../../sdk-js/test/conformance/corpus.mjs';
import { runCorpus, sha256 } from '../../../sdk-js/test/conformance/runner.mjs';
import { compareWithOthers, expectationsHold } from '../../../sdk-js/test/conformance/compare.mjs';
import { loadPlugin, pluginPath } from './plugin.mjs';

/** The interface runCorpus drives, on one plugin at a time. */
class PluginRuntime {
  constructor(path) {
    this.path = path;
  }

  async open() {
    this.plugin = await loadPlugin(this.path);
  }

  ready() {
    return Promise.resolve();
  }

  async raw(kind, req) {
    await this.pending; // the free before this call (runCorpus does not wait for it)
    try {
      return (await this.plugin.call(kind, req)).bytes().slice();
    } catch (e) {
      await this.plugin.close().catch(() => {});
      await this.open();
      const err = new Error(`${kind}: ${e?.message ?? e}`);
      err.code = 'trap';
      throw err;
    }
  }

  rawFree(handle) {
    this.pending = this.raw('free', `{"program":${handle}}`).then((out) => {
      const text = new TextDecoder().decode(out);
      if (text !== '{"freed":true}') throw new Error(`free ${handle}: ${text}`);
    });
  }
}

// A ref'd timer for the whole run: make test once saw this script end with exit code 13 (an
// unsettled top-level await) and no output, its first await (compiling the 55 MB plugin) still
// pending; Node can let the process end while a WebAssembly compilation is the only work left
// (nodejs/node#36616). It also bounds the run: a call that never settles fails it.
const watchdog = setTimeout(() => {
  console.error('extism-node: no result after 10 minutes');
  process.exit(1);
}, 10 * 60 * 1000);
const dir = corpusDir();
const t0 = performance.now();
const rt = new PluginRuntime(pluginPath(process.argv[2]));
await rt.open();
const loaded = performance.now() - t0;
const res = await runCorpus(rt, readCorpus(dir));
await rt.pending;
await rt.plugin.close();
mkdirSync(outDir, { recursive: true });
const path = join(outDir, 'extism-node.jsonl');
writeFileSync(path, res.bytes);
console.log(`extism-node: ${res.lines} tests from ${relative(repoRoot, dir)} in ${((performance.now() - t0) / 1000).toFixed(1)}s (plugin load ${(loaded / 1000).toFixed(1)}s), ${res.hostErrors} host errors → ${relative(repoRoot, path)}`);
console.log(`extism-node: sha256 ${await sha256(res.bytes)}`);
console.log(`extism-node: expectations met ${res.met}, unmet ${res.unmet}, skipped ${res.skipped}`);
const met = expectationsHold('extism-node', res);
const same = compareWithOthers('extism-node', res.bytes, { required: ['extism-go'], optional: ['extism-python', 'wasmtime', 'wazero', 'native', 'node', 'python'] });
process.exitCode = met && same ? 0 : 1;
clearTimeout(watchdog);
