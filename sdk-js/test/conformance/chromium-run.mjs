// Runs the conformance corpus in headless Chromium (Debian's chromium via playwright-core): the
// package's browser build, the module fetched and compiled with WebAssembly.compileStreaming, on
// the page's main thread. Writes out/conformance/chromium.jsonl (conformance/FORMAT.md).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { launch, watchPage } from '../browser/chromium.mjs';
import { serve } from '../browser/server.mjs';
import { corpusDir, outDir, repoRoot, sdkRoot } from './corpus.mjs';
import { compareWithOthers, expectationsHold } from './compare.mjs';

const dir = corpusDir();
let uploaded;
const server = await serve({ '/corpus/': dir, '/': sdkRoot }, { onUpload: (name, bytes) => { if (name === 'chromium.jsonl') uploaded = bytes; } });
const browser = await launch();
let ok = false;
try {
  const page = await browser.newPage();
  const problems = watchPage(page, 'chromium');
  await page.goto(server.url + '/test/browser/conformance.html');
  await page.waitForFunction(() => document.getElementById('status')?.textContent === 'ready', null, { timeout: 30_000 });
  const before = problems.length;
  const opt = await page.evaluate(() => window.checkWasmOption());
  // The browser logs the intended 404 of the missing module; nothing else may appear.
  const extra = problems.splice(before);
  if (extra.some((p) => !/status of 404/.test(p))) throw new Error('page errors: ' + extra.join('; '));
  if (opt.value !== '42' || !/^load_failed: fetch .*nonexistent\.wasm: HTTP 404$/.test(opt.missing) || opt.trap !== 'trap' || !/^(unavailable then )?3$/.test(opt.after)) {
    throw new Error('browser checks: ' + JSON.stringify(opt));
  }
  console.log(`chromium: wasm option: a relative URL loads the module; a missing one fails with ${opt.missing}`);
  console.log(`chromium: a real trap on the main thread gives "${opt.trap}"; the next call: ${opt.after}`);
  const res = await page.evaluate(() => window.runConformance());
  if (!uploaded) throw new Error('no result uploaded');
  mkdirSync(outDir, { recursive: true });
  const path = join(outDir, 'chromium.jsonl');
  writeFileSync(path, uploaded);
  console.log(`chromium: ${res.lines} tests from ${relative(repoRoot, dir)} in ${(res.totalMs / 1000).toFixed(1)}s (module load ${(res.loadedMs / 1000).toFixed(1)}s), ${res.hostErrors} host errors → ${relative(repoRoot, path)}`);
  console.log(`chromium: ${res.userAgent}`);
  console.log(`chromium: sha256 ${res.sha256}`);
  console.log(`chromium: expectations met ${res.met}, unmet ${res.unmet}, skipped ${res.skipped}`);
  const met = expectationsHold('chromium', res);
  const same = compareWithOthers('chromium', uploaded, { required: ['wasmtime'], optional: ['wazero', 'native', 'python', 'node'] });
  ok = met && same && problems.length === 0;
  if (problems.length) console.log(`chromium: ${problems.length} page errors`);
} finally {
  await browser.close();
  await server.close();
}
process.exitCode = ok ? 0 : 1;
