// JavaScript benchmarks: celwasm (the module in Node and Chromium) against two pure-JavaScript CEL
// engines without the Kubernetes libraries, @bufbuild/cel and @marcbachmann/cel-js, on the
// reference set (a)-(d), same process, plus cold start (import → first result) in Node and
// Chromium. Writes build/bench/js.json (the format of internal/benchdoc); the renderer
// (go run ./cmd/celwasm-benchdoc) turns it into a section of docs/benchmarks.md.
//
//   make -C sdk-js bench        (= npm run bench; BENCH_QUICK=1 for a short run)
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { arch, cpus, loadavg, platform } from 'node:os';
import { dirname, join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { plan, parse as celParse, celEnv } from '@bufbuild/cel';
import { Environment as CelJsEnvironment } from '@marcbachmann/cel-js';
import { Runtime, WorkerRuntime } from '../dist/node.js';
import { launch } from '../test/browser/chromium.mjs';
import { serve } from '../test/browser/server.mjs';
import { repoRoot, sdkRoot } from '../test/conformance/corpus.mjs';

const QUICK = !!process.env.BENCH_QUICK;
const ROUNDS = QUICK ? 3 : 7;
const ROUND_MS = QUICK ? 100 : 300;
const COLD_RUNS = QUICK ? 2 : 5;
const outPath = process.env.BENCH_OUT ?? join(repoRoot, 'build', 'bench', 'js.json');
const loadStart = loadavg()[0];

const td = (p) => readFileSync(join(repoRoot, 'conformance', 'testdata', p), 'utf8');
const ce = JSON.parse(td('cloudevents/github-pull-request.json'));
const spec = parseYaml(td('k8s/webapp.yaml')).spec;
const cases = [
  { id: '(a)', name: 'CloudEvent filter', expr: 'ce.type == "com.github.pull.create" && ce.source.startsWith("https://github.com")', v: 'ce', doc: ce },
  { id: '(b)', name: 'replicas in range', expr: 'self.minReplicas <= self.replicas && self.replicas <= self.maxReplicas', v: 'self', doc: { minReplicas: 1, replicas: 3, maxReplicas: 5 } },
  { id: '(c)', name: '100 items match a regex', expr: "self.items.all(i, i.name.matches('^[a-z]+$'))", v: 'self', doc: spec },
  { id: '(d)', name: 'quantity compare', expr: "quantity(self.mem).isLessThan(quantity('1Gi'))", v: 'self', doc: { mem: '768Mi' } },
];
const key = (c) => c.id.slice(1, 2); // "(a)" → "a", the metric names' case id

// The other engines: each compiles the case once and returns a function of a JS object, or throws
// when it cannot run the case (compile error or a result other than true).
const engines = {
  bufbuild: {
    name: '@bufbuild/cel',
    prepare: (c) => plan(celEnv(), celParse(c.expr)),
  },
  celjs: {
    name: '@marcbachmann/cel-js',
    // Its Environment type-checks the expression against the declared variable.
    prepare: (c) => new CelJsEnvironment().registerVariable(c.v, 'dyn').parse(c.expr),
  },
};
function prepare(engine, c) {
  try {
    const f = engines[engine].prepare(c);
    const r = f(c.activation);
    if (r instanceof Error) throw r; // @bufbuild/cel returns evaluation errors as values
    if (r !== true) throw new Error(`result ${String(r)}, want true`);
    return { f };
  } catch (e) {
    return { error: String(e?.message ?? e).split('\n')[0].slice(0, 120) };
  }
}
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

/** Median per-call time in µs of an async call: ROUNDS rounds of n calls each. */
async function measureAsync(fn, n) {
  for (let i = 0; i < Math.min(100, n); i++) await fn();
  const per = [];
  for (let r = 0; r < ROUNDS; r++) {
    const t0 = performance.now();
    for (let i = 0; i < n; i++) await fn();
    per.push(((performance.now() - t0) * 1000) / n);
  }
  return median(per);
}

// ------------------------------------------------------------------------------------------
// Steady state in Node

let floor = 0;
let floorObject = 0;

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
  floorObject = measure(() => floorPrg.eval({}).value);
  for (const [i, c] of cases.entries()) {
    const prg = prgs[i];
    const want = prg.eval(c.json).json;
    if (want !== 'true') throw new Error(`${c.id}: celwasm gives ${want}`);
    const row = { c };
    row.jsonPath = measure(() => prg.eval(c.json).json);
    row.objPath = measure(() => prg.eval(c.activation).value);
    for (const e of Object.keys(engines)) {
      const p = prepare(e, c);
      row[e] = { error: p.error };
      if (p.f) {
        row[e].object = measure(() => p.f(c.activation));
        row[e].json = measure(() => p.f(JSON.parse(c.json)));
      }
    }
    const wprg = await wrt.env({ variables: { [c.v]: 'dyn' } }).compile(c.expr);
    row.worker = await measureAsync(() => wprg.eval(c.json), QUICK ? 100 : 300);
    rows.push(row);
    console.error(`${c.id} celwasm json ${us(row.jsonPath)}, object ${us(row.objPath)}, worker ${us(row.worker)}` +
      Object.keys(engines).map((e) => `, ${engines[e].name} ${row[e].object !== undefined ? us(row[e].object) : row[e].error}`).join(''));
  }
  wrt.close();
  rt.close();
  return rows;
}

// ------------------------------------------------------------------------------------------
// Cold start: Node processes

// variants: the Node flags of each fresh process (the same script otherwise); the variants
// alternate, one process each, so that they meet the same machine. Returns each variant's medians.
function nodeCold(which, variants = [[]]) {
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
      : which === 'celjs'
      ? `const t0 = performance.now();
         const { Environment } = await import('@marcbachmann/cel-js');
         const t1 = performance.now();
         const v = new Environment().registerVariable('self', 'dyn').parse(${JSON.stringify(c.expr)})(${JSON.stringify(c.activation)});
         const t4 = performance.now();
         if (v !== true) throw new Error('wrong result');
         console.log(JSON.stringify({ total: t4 - t0, imp: t1 - t0 }));`
      : `const t0 = performance.now();
         const { plan, parse, celEnv } = await import('@bufbuild/cel');
         const t1 = performance.now();
         const v = plan(celEnv(), parse(${JSON.stringify(c.expr)}))(${JSON.stringify(c.activation)});
         const t4 = performance.now();
         if (v !== true) throw new Error('wrong result');
         console.log(JSON.stringify({ total: t4 - t0, imp: t1 - t0 }));`;
  const runs = variants.map(() => []);
  for (let i = 0; i < COLD_RUNS; i++) {
    variants.forEach((flags, v) => {
      const out = execFileSync(process.execPath, [...flags, '--input-type=module', '-e', script], { cwd: sdkRoot, encoding: 'utf8' });
      runs[v].push(JSON.parse(out.trim().split('\n').at(-1)));
    });
  }
  return runs.map((rs) => {
    const med = {};
    for (const k of Object.keys(rs[0])) med[k] = median(rs.map((r) => r[k]));
    return med;
  });
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

/**
 * Native cel-go's per-call time of each case (JSON bytes in, encoding/json, JSON out), measured right
 * after the Node measurements, so the ratio is of one run: under `upstream` cel-go as a Go program
 * without celwasm runs it (cmd/celwasm-bench/upstream, built by make as CELGO_UPSTREAM), the targets'
 * baseline; under `fork` the same program on the patched fork this repository builds with (CELGO_FORK).
 */
function nativeCelGo() {
  const { CELGO_UPSTREAM: upstream, CELGO_FORK: fork } = process.env;
  if (!upstream || !fork) throw new Error('CELGO_UPSTREAM, CELGO_FORK: the native cel-go baselines (make bench-js builds them)');
  const args = ['run', './cmd/celwasm-bench', '-native-only', '-upstream', upstream, '-fork', fork, ...(QUICK ? ['-short'] : [])];
  const out = execFileSync(process.env.GO || 'go', args, { cwd: repoRoot, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  return JSON.parse(out.trim().split('\n').at(-1));
}

/**
 * Each case's floor in Node, in µs: wasm/stagebench built as a WASI command (make bench-js builds
 * build/stagebench.wasm), run under node:wasi in a child process. Its last rows time cel-go's
 * evaluation of each case alone, compiled as the module compiles it and evaluated over an activation
 * already read (no JSON, no conversion, no call): no call of the module in Node does less.
 */
function nodeFloors() {
  const wasm = process.env.STAGEBENCH ?? join(repoRoot, 'build', 'stagebench.wasm');
  const stageCases = cases.map((c) => ({ name: `${c.id} ${c.name}`, expression: c.expr, variable: c.v, activation: { [c.v]: c.doc } }));
  const run = `import { WASI } from 'node:wasi';
import { readFileSync } from 'node:fs';
const [file, event, cases] = process.argv.slice(1);
const wasi = new WASI({ version: 'preview1', args: ['stagebench', event, cases], returnOnExit: true });
const { instance } = await WebAssembly.instantiate(readFileSync(file), { wasi_snapshot_preview1: wasi.wasiImport });
process.exitCode = wasi.start(instance);`;
  const out = execFileSync(process.execPath, ['--no-warnings', '--input-type=module', '-e', run, wasm, td('cloudevents/github-pull-request.json'), JSON.stringify(stageCases)],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 1 << 20 });
  const stages = JSON.parse(out.trim().split('\n').at(-1));
  // Run reports the cases' stages last, in the order given.
  const floors = {};
  stages.slice(-stageCases.length).forEach((st, i) => {
    const c = stageCases[i];
    if (!st.stage.includes(c.name)) throw new Error(`stagebench: stage ${JSON.stringify(st.stage)} is not ${c.name}'s`);
    floors[c.name.slice(1, 2)] = st.ns / 1000;
  });
  return floors;
}

const t0 = performance.now();
const rows = await steady();
const floors = nodeFloors();
console.error(`cel-go alone in Node (floors): ${JSON.stringify(floors)}`);
const native = nativeCelGo();
console.error(`native cel-go: ${JSON.stringify(native)}`);
// With --v8-pool-size=1 beside the default start: see the context line below and RATIONALE.md.
const [coldNode, coldNodePool1] = nodeCold('celwasm', [[], ['--v8-pool-size=1']]);
const [coldBuf] = nodeCold('bufbuild');
const [coldCelJs] = nodeCold('celjs');
console.error(`node cold: celwasm ${ms(coldNode.total)} (--v8-pool-size=1 ${ms(coldNodePool1.total)}), @bufbuild/cel ${ms(coldBuf.total)}, @marcbachmann/cel-js ${ms(coldCelJs.total)}`);
const chrome = await chromium();
console.error(`chromium cold: ${ms(chrome.cold.total)} (worker ${ms(chrome.coldWorker.total)})`);
const wasmSha = readFileSync(join(repoRoot, 'build', 'celwasm.wasm.sha256'), 'utf8').trim();
const pkg = JSON.parse(readFileSync(join(sdkRoot, 'package.json'), 'utf8'));
const dev = pkg.devDependencies;

const metrics = {};
const context = [
  `Node ${process.version}; ${chrome.version.startsWith('1') ? 'Chromium ' + chrome.version : chrome.version} (headless); celwasm module sha256 ${wasmSha}; @bufbuild/cel ${dev['@bufbuild/cel']}; @marcbachmann/cel-js ${dev['@marcbachmann/cel-js']}.`,
  '*cel-go alone* is the floor of a call in Node: wasm/stagebench (a WASI command, run by node:wasi) timing each case compiled as the module compiles it and evaluated over an activation already read, so no JSON, no conversion and no call (the Go section\'s stage table has the same rows for wazero and wasmtime-go).',
  '*upstream cel-go* is native cel-go as a Go program without celwasm runs it (github.com/google/cel-go v0.29.2 and k8s.io/apiserver v0.37.2, the versions kube-apiserver 1.37 pins: cmd/celwasm-bench/upstream, the Kubernetes base environment, the JSON activation decoded with encoding/json and the result marshalled back); *fork* is the same program built on the patched cel-go fork the modules build with. Both run as processes of their own right after the Node measurements (`go run ./cmd/celwasm-bench -native-only -upstream … -fork …`); the targets\' ratios are to upstream cel-go.',
  'celwasm paths: *JSON → JSON* is the JSON text of the activation in and the canonical JSON of the result out; *object → value* is a JS object in (cut by the SDK to what the program reads, then serialised) and the decoded JS value out; *Worker* is the JSON → JSON call through `WorkerRuntime` (a postMessage round trip to a worker thread).',
  '@bufbuild/cel (planned expression) and @marcbachmann/cel-js (an `Environment` declaring the variable as `dyn`, which type-checks the expression) evaluate over a JS object; *from JSON* adds `JSON.parse` of the same text. Neither has the Kubernetes libraries.',
  `Per-call times: the median of ${ROUNDS} rounds of ≥ ${ROUND_MS} ms each (Worker: ${ROUNDS} rounds of ${QUICK ? 100 : 300} calls), after a warm-up; cold starts: the median of ${COLD_RUNS} fresh processes / browser contexts.`,
];
for (const e of Object.keys(engines)) {
  const cannot = rows.filter((r) => r[e].object === undefined).map((r) => `${r.c.id}: ${r[e].error}`);
  if (cannot.length) context.push(`Cases ${engines[e].name} cannot run: ${cannot.join('; ')}.`);
}
if (QUICK) context.push('Quick run (BENCH_QUICK=1).');

const tables = [];
const steadyRows = [];
for (const r of rows) {
  const k = key(r.c);
  metrics[`js.node.${k}.json_us`] = r.jsonPath;
  metrics[`js.node.${k}.object_us`] = r.objPath;
  metrics[`js.node.${k}.worker_us`] = r.worker;
  const up = native.upstream[k];
  const fork = native.fork[k];
  metrics[`js.upstream.${k}_us`] = up;
  metrics[`js.fork.${k}_us`] = fork;
  metrics[`js.node.${k}.json_per_upstream`] = r.jsonPath / up;
  metrics[`js.node.${k}.json_per_fork`] = r.jsonPath / fork;
  metrics[`js.node.${k}.celgo_alone_us`] = floors[k];
  metrics[`js.node.${k}.floor_per_upstream`] = floors[k] / up;
  const cells = [`${r.c.id} ${r.c.name}`, r.jsonPath, r.objPath, r.worker, up, fork, r.jsonPath / up, r.jsonPath / fork, floors[k], floors[k] / up];
  for (const e of Object.keys(engines)) {
    cells.push(r[e].object ?? null, r[e].json ?? null);
    if (r[e].object !== undefined) {
      metrics[`js.node.${k}.${e}_us`] = r[e].object;
      metrics[`js.node.${k}.${e}_json_us`] = r[e].json;
      metrics[`js.node.${k}.object_per_${e}`] = r.objPath / r[e].object;
      metrics[`js.node.${k}.floor_per_${e}`] = floors[k] / r[e].object;
    }
  }
  cells.push(r.bufbuild.object !== undefined ? r.objPath / r.bufbuild.object : null);
  cells.push(r.celjs.object !== undefined ? r.objPath / r.celjs.object : null);
  steadyRows.push(cells);
}
tables.push({
  title: 'Steady-state evaluation in Node, per call, same process',
  columns: ['case', 'celwasm JSON → JSON µs', 'celwasm object → value µs', 'celwasm Worker µs', 'upstream cel-go µs', 'fork µs', 'celwasm JSON → JSON / upstream cel-go', 'celwasm JSON → JSON / fork', 'cel-go alone (floor) µs', 'floor / upstream cel-go', '@bufbuild/cel µs', '@bufbuild/cel from JSON µs',
    '@marcbachmann/cel-js µs', '@marcbachmann/cel-js from JSON µs', 'celwasm object / @bufbuild/cel', 'celwasm object / @marcbachmann/cel-js'],
  rows: steadyRows,
});
metrics['js.node.true_us'] = floor;
metrics['js.upstream.true_us'] = native.upstream.true;
metrics['js.fork.true_us'] = native.fork.true;
metrics['js.node.true_object_us'] = floorObject;
tables.push({
  title: 'Fixed cost of a call in Node: `true`, empty activation',
  columns: ['path', 'µs'],
  rows: [['celwasm JSON → JSON (`{}` in, `true` out)', floor], ['celwasm object → value', floorObject], ['upstream cel-go, JSON in and out', native.upstream.true], ['fork, JSON in and out', native.fork.true]],
});
tables.push({
  title: 'Steady-state evaluation in Chromium, per call, page main thread',
  columns: ['case', 'celwasm JSON → JSON µs', 'celwasm object → value µs'],
  rows: chrome.steady.map((x) => [x.id, x.jsonPath, x.objPath]),
});
for (const x of chrome.steady) {
  metrics[`js.chromium.${x.id.slice(1, 2)}.json_us`] = x.jsonPath;
  metrics[`js.chromium.${x.id.slice(1, 2)}.object_us`] = x.objPath;
}
context.push('Cold start: case (b), from the start of `import()` of the package to the first evaluated value: reading or fetching the module, compiling it, instantiating it and initialising the Go runtime, building the environment on the first compile, and the first evaluation. Node: a new process each run. Chromium: a fresh browser context each run (nothing cached), the module fetched from a local HTTP server and compiled with `WebAssembly.compileStreaming`.');
context.push('Node with `--v8-pool-size=1`: the same start in processes alternating with the default ones, V8 left one background thread; the difference is the main thread\'s time that dynamic tiering\'s TurboFan compiles of functions run once (package initialisers) take on this machine. A process-wide flag a user may pass; the SDK cannot set it.');
const coldRow = (name, x) => [name, x.total, x.imp, x.load ?? null, x.compile ?? null, x.eval ?? null];
tables.push({
  title: 'Cold start: import → first result',
  columns: ['', 'total ms', 'import ms', 'module load (fetch/read + compile + instantiate) ms', 'first compile ms', 'first eval ms'],
  rows: [
    coldRow('Node, celwasm `Runtime`', coldNode),
    coldRow('Node, celwasm `Runtime`, `node --v8-pool-size=1`', coldNodePool1),
    coldRow('Node, @bufbuild/cel', coldBuf),
    coldRow('Node, @marcbachmann/cel-js', coldCelJs),
    coldRow('Chromium, celwasm `Runtime` (main thread)', chrome.cold),
    coldRow('Chromium, celwasm `WorkerRuntime`', chrome.coldWorker),
  ],
});
for (const [name, x] of [['node', coldNode], ['chromium', chrome.cold], ['chromium_worker', chrome.coldWorker]]) {
  metrics[`js.${name}.cold.first_result_ms`] = x.total;
  metrics[`js.${name}.cold.import_ms`] = x.imp;
  metrics[`js.${name}.cold.load_ms`] = x.load;
}
metrics['js.node.cold.pool1_first_result_ms'] = coldNodePool1.total;
metrics['js.node.cold.bufbuild_first_result_ms'] = coldBuf.total;
metrics['js.node.cold.celjs_first_result_ms'] = coldCelJs.total;
context.push(`Run time of this benchmark: ${((performance.now() - t0) / 1000).toFixed(0)} s; load average (1 min) ${loadStart.toFixed(1)} at the start, ${loadavg()[0].toFixed(1)} at the end.`);

// A metric that was not measured is left out (JSON would turn NaN into null).
for (const [k, v] of Object.entries(metrics)) if (!Number.isFinite(v)) delete metrics[k];

const section = {
  section: 'js',
  title: 'JavaScript SDK (Node, Chromium) against @bufbuild/cel and @marcbachmann/cel-js',
  command: 'make -C sdk-js bench',
  date: new Date().toISOString().slice(0, 10),
  machine: `${platform()}/${arch() === 'x64' ? 'amd64' : arch()}, ${cpus().length} CPUs, ${cpus()[0]?.model.trim()}`,
  context,
  tables,
  metrics,
};
mkdirSync(dirname(outPath), { recursive: true });
writeFileSync(outPath, JSON.stringify(section, null, 2) + '\n');
console.error(`bench: wrote ${outPath}`);
