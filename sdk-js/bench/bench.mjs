// JavaScript benchmarks: celwasm (the module in Node and Chromium) vs @bufbuild/cel (pure
// TypeScript CEL, no Kubernetes libraries) on the reference set of the core issue, same process,
// plus cold start (import → first result) in Node and Chromium. Writes the markdown section
// between <!-- js-bench:start --> and <!-- js-bench:end --> in docs/benchmarks.md.
//
//   make -C sdk-js bench        (= npm run bench; BENCH_QUICK=1 for a short run)
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { plan, parse as celParse, celEnv } from '@bufbuild/cel';
import { Runtime, WorkerRuntime } from '../dist/node.js';
import { launch } from '../test/browser/chromium.mjs';
import { serve } from '../test/browser/server.mjs';
import { repoRoot, sdkRoot } from '../test/conformance/corpus.mjs';

const QUICK = !!process.env.BENCH_QUICK;
const ROUNDS = QUICK ? 3 : 7;
const ROUND_MS = QUICK ? 100 : 300;
const COLD_RUNS = QUICK ? 2 : 5;
const docPath = process.env.BENCH_OUT ?? join(repoRoot, 'docs', 'benchmarks.md');

const td = (p) => readFileSync(join(repoRoot, 'conformance', 'testdata', p), 'utf8');
const ce = JSON.parse(td('cloudevents/github-pull-request.json'));
const spec = parseYaml(td('k8s/webapp.yaml')).spec;
const cases = [
  { id: '(a)', name: 'CloudEvent filter', expr: 'ce.type == "com.github.pull.create" && ce.source.startsWith("https://github.com")', v: 'ce', doc: ce, buf: true },
  { id: '(b)', name: 'replicas in range', expr: 'self.minReplicas <= self.replicas && self.replicas <= self.maxReplicas', v: 'self', doc: { minReplicas: 1, replicas: 3, maxReplicas: 5 }, buf: true },
  { id: '(c)', name: '100 items match a regex', expr: "self.items.all(i, i.name.matches('^[a-z]+$'))", v: 'self', doc: spec, buf: true },
  { id: '(d)', name: 'quantity compare', expr: "quantity(self.mem).isLessThan(quantity('1Gi'))", v: 'self', doc: { mem: '768Mi' }, buf: false },
];
for (const c of cases) {
  c.activation = { [c.v]: c.doc };
  c.json = JSON.stringify(c.activation);
}

/** Median per-call time in µs: ROUNDS rounds of at least ROUND_MS each, after a warm-up. */
function measure(fn) {
  let n = 1;
  const warmEnd = performance.now() + (QUICK ? 100 : 400);
  while (performance.now() < warmEnd) fn();
  for (;;) {
    const t0 = performance.now();
    for (let i = 0; i < n; i++) fn();
    const dt = performance.now() - t0;
    if (dt >= ROUND_MS / 4) {
      n = Math.max(1, Math.round((n * ROUND_MS) / dt));
      break;
    }
    n *= 2;
  }
  const per = [];
  for (let r = 0; r < ROUNDS; r++) {
    const t0 = performance.now();
    for (let i = 0; i < n; i++) fn();
    per.push(((performance.now() - t0) * 1000) / n);
  }
  per.sort((a, b) => a - b);
  return per[per.length >> 1];
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1];
}

const us = (x) => (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2)) + ' µs';
const ms = (x) => x.toFixed(0) + ' ms';
const ratio = (a, b) => (a / b >= 10 ? (a / b).toFixed(0) : (a / b).toFixed(1)) + '×';

/** Native cel-go per-call times from the Go section (make bench), if it is there. */
function nativeFigures() {
  // BENCH_NATIVE: another markdown file holding the Go section (a separate celwasm-bench run).
  const src = process.env.BENCH_NATIVE ?? docPath;
  if (!existsSync(src)) return {};
  const text = readFileSync(src, 'utf8');
  const block = /<!-- go-bench:start -->([\s\S]*?)<!-- go-bench:end -->/.exec(text)?.[1] ?? '';
  const lines = block.split('\n');
  const header = lines.find((l) => /^\|\s*case/i.test(l) || (/native/i.test(l) && l.startsWith('|')));
  if (!header) return {};
  const cols = header.split('|').map((s) => s.trim());
  const col = cols.findIndex((c) => /^native/i.test(c));
  if (col < 0) return {};
  const out = {};
  for (const l of lines) {
    const m = /^\|\s*(\([a-d]\))/.exec(l);
    if (!m) continue;
    const cell = l.split('|').map((s) => s.trim())[col];
    const v = /([\d.]+)\s*µs/.exec(cell ?? '');
    if (v) out[m[1]] = Number(v[1]);
  }
  return out;
}

// ------------------------------------------------------------------------------------------
// Steady state in Node

let floor = 0;

async function steady() {
  const rt = await Runtime.load();
  const wrt = await WorkerRuntime.load({ wasm: rt.module });
  const rows = [];
  const prgs = cases.map((c) => rt.env({ variables: { [c.v]: 'dyn' } }).compile(c.expr));
  // V8 compiles the module lazily and tiers hot functions up in the background: run every path
  // for a while before timing anything, so that no case is measured on baseline code.
  const warmEnd = performance.now() + (QUICK ? 1000 : 4000);
  while (performance.now() < warmEnd) {
    cases.forEach((c, i) => {
      prgs[i].eval(c.json);
      prgs[i].eval(c.activation);
    });
  }
  const floorPrg = rt.env({ base: 'cel' }).compile('true');
  floor = measure(() => floorPrg.eval('{}').json);
  for (const [i, c] of cases.entries()) {
    const prg = prgs[i];
    const want = prg.eval(c.json).json;
    if (want !== 'true') throw new Error(`${c.id}: celwasm gives ${want}`);
    const row = { c };
    row.jsonPath = measure(() => prg.eval(c.json).json);
    row.objPath = measure(() => prg.eval(c.activation).value);
    if (c.buf) {
      const f = plan(celEnv(), celParse(c.expr));
      if (f(c.activation) !== true) throw new Error(`${c.id}: @bufbuild/cel gives ${f(c.activation)}`);
      row.buf = measure(() => f(c.activation));
      row.bufJson = measure(() => f(JSON.parse(c.json)));
    }
    const wprg = await wrt.env({ variables: { [c.v]: 'dyn' } }).compile(c.expr);
    const n = QUICK ? 200 : 1000;
    for (let i = 0; i < 100; i++) await wprg.eval(c.json);
    const t0 = performance.now();
    for (let i = 0; i < n; i++) await wprg.eval(c.json);
    row.worker = ((performance.now() - t0) * 1000) / n;
    rows.push(row);
    console.error(`${c.id} celwasm json ${us(row.jsonPath)}, object ${us(row.objPath)}, worker ${us(row.worker)}` + (c.buf ? `, @bufbuild/cel ${us(row.buf)} (JSON ${us(row.bufJson)})` : ''));
  }
  wrt.close();
  rt.close();
  return rows;
}

// ------------------------------------------------------------------------------------------
// Cold start: Node processes

function nodeCold(which) {
  const entry = join(sdkRoot, 'dist', 'node.js');
  const c = cases[1];
  const script =
    which === 'celwasm'
      ? `const t0 = performance.now();
         const { Runtime } = await import(${JSON.stringify(entry)});
         const t1 = performance.now();
         const rt = await Runtime.load();
         const t2 = performance.now();
         const p = rt.compile(${JSON.stringify(c.expr)}, { variables: { self: 'dyn' } });
         const t3 = performance.now();
         const v = p.eval(${JSON.stringify(c.json)}).value;
         const t4 = performance.now();
         if (v !== true) throw new Error('wrong result');
         console.log(JSON.stringify({ total: t4 - t0, imp: t1 - t0, load: t2 - t1, compile: t3 - t2, eval: t4 - t3 }));`
      : `const t0 = performance.now();
         const { plan, parse, celEnv } = await import('@bufbuild/cel');
         const t1 = performance.now();
         const v = plan(celEnv(), parse(${JSON.stringify(c.expr)}))(${JSON.stringify(c.activation)});
         const t4 = performance.now();
         if (v !== true) throw new Error('wrong result');
         console.log(JSON.stringify({ total: t4 - t0, imp: t1 - t0 }));`;
  const runs = [];
  for (let i = 0; i < COLD_RUNS; i++) {
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: sdkRoot, encoding: 'utf8' });
    runs.push(JSON.parse(out.trim().split('\n').at(-1)));
  }
  const med = {};
  for (const k of Object.keys(runs[0])) med[k] = median(runs.map((r) => r[k]));
  return med;
}

// ------------------------------------------------------------------------------------------
// Cold start and steady state in Chromium

async function chromium() {
  const server = await serve({ '/': sdkRoot });
  const browser = await launch();
  const c = cases[1];
  const out = { cold: [], coldWorker: [], version: browser.version() };
  try {
    for (let i = 0; i < COLD_RUNS; i++) {
      for (const worker of [false, true]) {
        const ctx = await browser.newContext(); // fresh cache and compiled-code cache
        const page = await ctx.newPage();
        await page.goto(server.url + '/bench/cold.html');
        const r = await page.evaluate(
          async ({ expr, json, worker }) => window.cold(expr, json, worker),
          { expr: c.expr, json: c.json, worker },
        );
        (worker ? out.coldWorker : out.cold).push(r);
        await ctx.close();
      }
    }
    const ctx = await browser.newContext();
    const page = await ctx.newPage();
    await page.goto(server.url + '/bench/cold.html');
    out.steady = await page.evaluate(
      async ({ cases, rounds, roundMs }) => window.steady(cases, rounds, roundMs),
      { cases: cases.map((x) => ({ id: x.id, expr: x.expr, v: x.v, json: x.json })), rounds: ROUNDS, roundMs: ROUND_MS },
    );
    await ctx.close();
  } finally {
    await browser.close();
    await server.close();
  }
  const med = (arr) => {
    const m = {};
    for (const k of Object.keys(arr[0])) m[k] = median(arr.map((r) => r[k]));
    return m;
  };
  return { version: out.version, cold: med(out.cold), coldWorker: med(out.coldWorker), steady: out.steady };
}

// ------------------------------------------------------------------------------------------

function splice(body) {
  const start = '<!-- js-bench:start -->';
  const end = '<!-- js-bench:end -->';
  const block = `${start}\n${body.trim()}\n${end}`;
  let text = existsSync(docPath) ? readFileSync(docPath, 'utf8') : '# Benchmarks\n';
  const i = text.indexOf(start);
  const j = text.indexOf(end);
  if (i >= 0 && j > i) text = text.slice(0, i) + block + text.slice(j + end.length);
  else text = text.trimEnd() + '\n\n## JavaScript (Node, Chromium)\n\n' + block + '\n';
  writeFileSync(docPath, text);
}

const t0 = performance.now();
const rows = await steady();
const coldNode = nodeCold('celwasm');
const coldBuf = nodeCold('bufbuild');
console.error(`node cold: celwasm ${ms(coldNode.total)}, @bufbuild/cel ${ms(coldBuf.total)}`);
const chrome = await chromium();
console.error(`chromium cold: ${ms(chrome.cold.total)} (worker ${ms(chrome.coldWorker.total)})`);
const native = nativeFigures();
const wasmSha = readFileSync(join(repoRoot, 'build', 'celwasm.wasm.sha256'), 'utf8').trim();
const pkg = JSON.parse(readFileSync(join(sdkRoot, 'package.json'), 'utf8'));

let md = '';
md += `Measured by \`make -C sdk-js bench\` (\`npm run bench\` in sdk-js: bench/bench.mjs) on ${new Date().toISOString().slice(0, 10)}, ` +
  `Node ${process.version}, ${chrome.version.startsWith('1') ? 'Chromium ' + chrome.version : chrome.version} (headless), ${cpus().length} CPUs (${cpus()[0]?.model.trim()}); ` +
  `module sha256 ${wasmSha.slice(0, 12)}…; @bufbuild/cel ${pkg.devDependencies['@bufbuild/cel']}. ` +
  `Per-call times are medians of ${ROUNDS} rounds of ≥ ${ROUND_MS} ms after a warm-up; cold starts are medians of ${COLD_RUNS} fresh processes / browser contexts. ` +
  'Every case is checked to give `true` on every path before it is timed.\n\n';
md += '### Steady-state evaluation in Node (per call, same process)\n\n';
md += 'celwasm paths: *JSON → JSON* is the JSON text of the activation in and the canonical JSON of the result out (what the Go section measures for native cel-go: JSON bytes in, JSON out); *object → value* is a JS object in (serialised by the SDK) and the decoded JS value out. *Worker* is the same JSON → JSON call through `WorkerRuntime` (postMessage round trip to a worker thread). @bufbuild/cel (pure TypeScript, no Kubernetes libraries: no `quantity`) evaluates a planned expression over a JS object; *from JSON* adds `JSON.parse` of the same text.\n\n';
md += '| case | celwasm JSON → JSON | celwasm object → value | celwasm Worker | @bufbuild/cel object | @bufbuild/cel from JSON | celwasm ÷ @bufbuild/cel (object) | native cel-go (Go section) | celwasm JSON ÷ native |\n';
md += '|---|---|---|---|---|---|---|---|---|\n';
for (const r of rows) {
  const n = native[r.c.id];
  md += `| ${r.c.id} ${r.c.name} | ${us(r.jsonPath)} | ${us(r.objPath)} | ${us(r.worker)} | ${r.buf ? us(r.buf) : '—'} | ${r.bufJson ? us(r.bufJson) : '—'} | ${r.buf ? ratio(r.objPath, r.buf) : '— (no Kubernetes library)'} | ${n ? us(n) : 'n/a'} | ${n ? ratio(r.jsonPath, n) : 'n/a'} |\n`;
}
md += '\n### Steady-state evaluation in Chromium (per call, page main thread)\n\n| case | celwasm JSON → JSON | celwasm object → value |\n|---|---|---|\n';
for (const s of chrome.steady) md += `| ${s.id} | ${us(s.jsonPath)} | ${us(s.objPath)} |\n`;
md += '\n### Cold start: import → first result\n\n';
md += 'Case (b), from the start of `import()` of the package to the first evaluated value: reading or fetching the 38 MB module, compiling it (V8 compiles lazily), instantiating it and running the Go runtime\'s initialisation, building the Kubernetes environment on the first compile, and the first evaluation. Chromium: a fresh browser context each run (nothing cached), the module fetched from a local HTTP server and compiled with `WebAssembly.compileStreaming`.\n\n';
md += '| | total | import | module load (fetch/read + compile + instantiate) | first compile | first eval |\n|---|---|---|---|---|---|\n';
md += `| Node, celwasm \`Runtime\` | ${ms(coldNode.total)} | ${ms(coldNode.imp)} | ${ms(coldNode.load)} | ${ms(coldNode.compile)} | ${ms(coldNode.eval)} |\n`;
md += `| Node, @bufbuild/cel (for comparison) | ${ms(coldBuf.total)} | ${ms(coldBuf.imp)} | — | — | — |\n`;
md += `| Chromium, celwasm \`Runtime\` (main thread) | ${ms(chrome.cold.total)} | ${ms(chrome.cold.imp)} | ${ms(chrome.cold.load)} | ${ms(chrome.cold.compile)} | ${ms(chrome.cold.eval)} |\n`;
md += `| Chromium, celwasm \`WorkerRuntime\` | ${ms(chrome.coldWorker.total)} | ${ms(chrome.coldWorker.imp)} | ${ms(chrome.coldWorker.load)} | ${ms(chrome.coldWorker.compile)} | ${ms(chrome.coldWorker.eval)} |\n`;
md += '\n### Reading\n\n';
const lines = [];
for (const r of rows) {
  const n = native[r.c.id];
  const vsBuf = r.buf ? r.objPath / r.buf : undefined;
  let s = `- ${r.c.id}: celwasm ${us(r.jsonPath)} JSON → JSON`;
  if (n) s += ` = ${ratio(r.jsonPath, n)} native cel-go (${r.jsonPath / n <= 1.5 ? 'within' : 'outside'} the 1.5× target)`;
  if (vsBuf !== undefined) s += `; ${vsBuf < 1 ? `${ratio(r.buf, r.objPath)} faster than` : `${ratio(r.objPath, r.buf)} slower than`} @bufbuild/cel on JS objects`;
  else s += '; @bufbuild/cel has no Kubernetes `quantity` library';
  lines.push(s + '.');
}
md += lines.join('\n') + '\n';
if (Object.keys(native).length === 0) md += '- Native cel-go figures: run `make bench` (the Go section) first; the ratios to native are filled in from it.\n';
else md += `- Native cel-go figures are the "native cel-go + encoding/json" column of the Go section (${process.env.BENCH_NATIVE ? 'a `go run ./cmd/celwasm-bench` run on the same machine just before this one' : 'docs/benchmarks.md, measured by `make bench`'}): cel-go with the same Kubernetes environment, JSON bytes decoded with encoding/json and the result marshalled back.\n`;
const withBuf = rows.filter((r) => r.buf);
const best = withBuf.reduce((a, b) => (a.objPath / a.buf < b.objPath / b.buf ? a : b));
const ahead = withBuf.filter((r) => r.objPath < r.buf);
md += `- The per-call floor — \`true\` with an empty activation, JSON → JSON — is ${us(floor)} in Node: entering the Go code in the module and leaving it. The rest of a small case ((b): ${us(rows[1].jsonPath)}) is the module's work per call: validating the activation JSON, converting what the expression reads, cost tracking, encoding the result; the JavaScript side (building the request, \`encodeInto\` into guest memory, slicing the response) is about 1 µs.\n`;
md += `- Against @bufbuild/cel: ${ahead.length ? `celwasm is ahead on ${ahead.map((r) => r.c.id).join(', ')}` : 'celwasm is not ahead on any case measured here'}; the gap is smallest where the engine does real work (${best.c.id}: ${ratio(best.objPath, best.buf)}), and largest where an expression reads two fields of an already parsed object, which a pure-JS evaluator does in a few µs. celwasm's case is semantics rather than speed: cel-go's exact behaviour (RE2 regular expressions, the Kubernetes libraries — (d) has no @bufbuild/cel equivalent — kube-apiserver's cost estimates and costs) and results byte-identical to every other host.\n`;
md += '- The Worker path adds a postMessage round trip per call; it exists so that long evaluations never block a page (and can be stopped by terminating the worker), not for throughput.\n';
md += '- Cold start is dominated by instantiating the module and initialising the Go runtime (and, in browsers, fetching 38 MB); a page should start the `WorkerRuntime` early and keep it.\n';
md += '- The machine\'s 2 CPUs were shared with other jobs: expect ±30% between runs (medians are reported).\n';
md += `\nRun time of this benchmark: ${((performance.now() - t0) / 1000).toFixed(0)} s.\n`;

splice(md);
console.log(md);
console.error(`bench: wrote the js-bench section of ${docPath}`);
