// CloudEvents trigger filters, Tekton when expressions, evalEvent and evalBatch on the main-thread
// Runtime, compared with the Go host (github.com/celwasm/celwasm/host) over the same inputs: the
// expectations come from conformance/cmd/gohost (CompileFilter, CompileWhen, EvalEvent, EvalBatch)
// and from the Go CLI's `celwasm filter`, both run here at test time. Nothing below is an
// expected value typed by hand.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { Runtime, CelError, CompileError, EvalError } from '../../dist/node.js';
import { compactJson, batchLine } from '../../dist/env.js';
import { parseBatchResponse } from '../../dist/core.js';

const repo = fileURLToPath(new URL('../../../', import.meta.url));
const td = join(repo, 'conformance', 'testdata');
const wasm = fileURLToPath(new URL('../../dist/celwasm.wasm', import.meta.url));
const eventsFile = join(td, 'cloudevents', 'events.ndjson');
const EVENTS = readFileSync(eventsFile, 'utf8').split('\n').filter((l) => l.trim() !== '');
const FILTER_FILES = readdirSync(join(td, 'filters')).filter((f) => f.endsWith('.yaml')).sort();
const PIPELINE_CONTEXT = readFileSync(join(td, 'tekton', 'pipelinerun-context.json'), 'utf8');

// The filters of cmd/celwasm TestFilterRejects (as JSON) and its malformed events.
const REJECTED_FILTERS = [
  { attributes: { type: 'a' }, expression: "ce.type == 'a'" },
  { regex: { type: 'a' } },
  { exact: { Type: 'a' } },
  { cesql: 'type = ' },
  { exact: { type: 'a' }, prefix: { type: 'b' } },
  { expression: 'ce.type ==' },
  { expression: 'ce.type' },
  { expression: '   ' },
  { spec: { filters: {} } },
  'not a filter',
];
const MALFORMED_EVENTS = [
  '{"specversion":"1.0","id":"1","source":"/s","type":"a"}',
  '{not json',
  '{"no":"specversion"}',
  '{"headers":{"ce-specversion":"1.0","ce-type":"a","content-type":"application/json"},"body":"{bad"}',
  '{"specversion":"1.0","id":"2","source":"/s","type":"b"}',
];
// Binary-mode envelopes beyond the fixtures: base64 bodies, percent-encoding, header case,
// content types, a missing specversion.
const BINARY_EVENTS = [
  { headers: { 'ce-specversion': '1.0', 'ce-id': 'b1', 'ce-source': '/s', 'ce-type': 'a', 'content-type': 'application/json' }, body: '{"n": 2, "s": "x"}' },
  { headers: { 'CE-SpecVersion': '1.0', 'Ce-Id': 'b2', 'ce-source': '/s%2Fx', 'ce-type': 'a', 'ce-tag': 'caf%C3%A9' }, body: 'plain text' },
  { headers: { 'ce-specversion': '1.0', 'ce-id': 'b3', 'ce-source': '/s', 'ce-type': 'a', 'content-type': 'application/octet-stream' }, bodyBase64: '/wAB' },
  { headers: { 'ce-specversion': '1.0', 'ce-id': 'b4', 'ce-source': '/s', 'ce-type': 'a', 'ce-time': '2026-11-21T10:00:00+02:00', 'content-type': 'application/cloudevents-batch+json; charset=utf-8' }, body: '[1]' },
  { headers: { 'ce-id': 'b5', 'ce-type': 'a' }, body: '' },
  { specversion: '1.0', id: 's1', source: '/s', type: 'a', data_base64: 'aGk=' },
  { specversion: '1.0', id: 's2', source: '/s', type: 'a', time: 'not a time' },
];
const CE_ENV = { base: 'cel', variables: [{ name: 'ce', type: 'map(string, dyn)' }, { name: 'data', type: 'dyn' }] };
const BINARY_EXPR = "[ce.type, ce.source, has(ce.tag) ? ce.tag : '', has(ce.time) ? string(ce.time) : '', has(ce.datacontenttype) ? ce.datacontenttype : '', type(data) == bytes ? string(data.size()) : type(data) == string ? data : type(data) == map ? 'map' : type(data) == list ? 'list' : 'other']";

// cmd/celwasm TestWhenExpressions: TEP-0145's examples, the injection attempts, and errors.
const WHEN_CASES = [
  ["$(params.path) == 'README.md'"],
  ["$(tasks.check-file.results.exists) in ['yes']"],
  ["$(tasks.echo-file-exists.status) == 'Succeeded'", "$(tasks.status) == 'Succeeded'", "$(tasks.check-file.results.exists) == 'yes'", "$(params.path) == 'README.md'"],
  ["$(params.param1) != '' || $(params.param2) == '8.5' || $(params.param2) == '8.6'"],
  ['$(tasks.unit-test.results.test-coverage) >= 0.9'],
  ['$(tasks.unit-test.results.test-coverage) >= 0.95'],
  ["$(params.branch).matches('release/.*')"],
  ["'foo' in ['foo', 'bar']", "!('duh' in ['foo', 'bar'])"],
  ["'refs/heads/$(params.branch)' == 'refs/heads/release/v1.2'"],
  ["$(context.pipelineRun.name).startsWith('guarded-pr-')", "$(params.path) == 'nope'"],
  ["$(params.injection) == 'x'"],
  ["'$(params.injection)' == 'x'"],
  ["$(params['injection']) == \"x' == 'x' || true || 'y\""],
  ['$(params.path)'],
  ["$(workspaces.source.path) == ''"],
  ["$(params.nope) == ''"],
  ['$(params.path) =='],
  [],
];

// Activation batches: good items, malformed ones among them, text that needs compacting, blanks.
const ACTIVATION_ITEMS = [
  '{"x":1}',
  '{"x":',
  '{"x":\n  41}',
  '',
  '   ',
  '\u00a0\u3000',
  '{"x": 2,\r\n "y": "ignored"}',
  '[1]',
  '{"x":"7"}',
  '{"x":9223372036854775807}',
  'null',
  '{"x":\n',
  '\n',
  '{"x":3}',
];

let rt;
let goCases;
let go;
let work;

function goHostResults(cases) {
  // Build the Go driver (the Go build cache makes this quick after the first time) unless
  // CELWASM_GO_HOST names a built one, then run every case through one Go host runtime on the
  // same module file.
  let bin = process.env.CELWASM_GO_HOST;
  if (!bin) {
    bin = join(work, 'gohost');
    execFileSync('go', ['build', '-buildvcs=false', '-o', bin, './conformance/cmd/gohost'], { cwd: repo, stdio: ['ignore', 'inherit', 'inherit'] });
  }
  const out = execFileSync(bin, ['-module', wasm], { input: cases.map((c) => JSON.stringify(c)).join('\n') + '\n', maxBuffer: 256 << 20 });
  return out.toString('utf8').trimEnd().split('\n').map((l) => JSON.parse(l));
}

const filterJson = (file) => JSON.stringify(parseYaml(readFileSync(join(td, 'filters', file), 'utf8')));

before(async () => {
  rt = await Runtime.load();
  work = mkdtempSync(join(tmpdir(), 'celwasm-js-events-'));
  goCases = {};
  const cases = [];
  const add = (name, c) => {
    goCases[name] = cases.length;
    cases.push(c);
  };
  for (const f of FILTER_FILES) add('file:' + f, { filter: JSON.parse(filterJson(f)), events: EVENTS, batch: { kind: 'cloudEvents', items: EVENTS } });
  REJECTED_FILTERS.forEach((f, i) => add('reject:' + i, { filter: f, events: MALFORMED_EVENTS, batch: { kind: 'cloudEvents', items: MALFORMED_EVENTS } }));
  add('ok:malformed', { filter: { attributes: { type: 'a' } }, events: MALFORMED_EVENTS, batch: { kind: 'cloudEvents', items: MALFORMED_EVENTS } });
  const binary = BINARY_EVENTS.map((e) => JSON.stringify(e));
  add('binary', { expression: BINARY_EXPR, env: CE_ENV, events: binary, batch: { kind: 'cloudEvents', items: binary } });
  add('binary:filter', { filter: { all: [{ prefix: { source: '/s' } }, { not: { exact: { type: 'b' } } }] }, events: binary, batch: { kind: 'cloudEvents', items: binary } });
  add('costLimit', { filter: { expression: "ce.source.matches('github') && data.action == 'opened'" }, costLimit: 10, events: EVENTS, batch: { kind: 'cloudEvents', items: EVENTS } });
  WHEN_CASES.forEach((w, i) => add('when:' + i, { when: w, activations: [PIPELINE_CONTEXT, '{}'], batch: { kind: 'activations', items: [PIPELINE_CONTEXT, '{}', '{"params":{"path":"README.md"}}'] } }));
  add('activations', { expression: 'x + 1', env: { base: 'cel', variables: [{ name: 'x', type: 'int' }] }, activations: ACTIVATION_ITEMS.filter((a) => !/^\s*$/.test(a)), batch: { kind: 'activations', items: ACTIVATION_ITEMS } });
  add('activations:empty', { expression: 'x + 1', env: { base: 'cel', variables: [{ name: 'x', type: 'int' }] }, batch: { kind: 'activations', items: [] } });
  add('activations:kind', { expression: '1', env: { base: 'cel' }, batch: { kind: 'rows', items: ['{}'] } });
  go = goHostResults(cases);
  assert.equal(go.length, cases.length);
});
after(() => {
  rt?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

/** An error as the Go host's *Error marshals it. */
function errorShape(e) {
  assert.ok(e instanceof CelError, `not a CelError: ${e}`);
  const o = { code: e.code, message: e.message };
  if (e instanceof CompileError && e.issues.length) o.issues = e.issues.map((i) => ({ line: i.line, column: i.column, message: i.message, snippet: i.snippet }));
  if (e.cost !== undefined) o.cost = e.cost;
  return o;
}
const resultShape = (r) => (r instanceof CelError ? { error: errorShape(r) } : { json: r.json, cost: r.cost });
function attempt(f) {
  try {
    return resultShape(f());
  } catch (e) {
    return { error: errorShape(e) };
  }
}
function compileShape(f) {
  try {
    const p = f();
    const o = { expression: p.expression, outputType: p.outputType };
    if (p.costEstimate) o.costEstimate = { min: String(p.costEstimate.min), max: String(p.costEstimate.max) };
    return { prg: p, shape: o };
  } catch (e) {
    return { shape: { error: errorShape(e) } };
  }
}
function batchShape(f) {
  try {
    return f().map(resultShape);
  } catch (e) {
    return { error: errorShape(e) };
  }
}

/** Runs one case the way the Go driver did and compares everything with the Go host's output. */
function sameAsGo(name, compile, { events, activations, batch, costLimit } = {}) {
  const want = go[goCases[name]];
  const { prg, shape } = compileShape(compile);
  assert.deepEqual(shape, want.compile, `${name}: compile`);
  if (!prg) return { want };
  const opts = costLimit ? { costLimit } : undefined;
  if (events) assert.deepEqual(events.map((e) => attempt(() => prg.evalEvent(e, opts))), want.events, `${name}: evalEvent`);
  if (activations) assert.deepEqual(activations.map((a) => attempt(() => prg.eval(a, opts))), want.activations, `${name}: eval`);
  let got;
  if (batch) {
    got = batchShape(() => prg.evalBatch(batch.items, batch.kind, opts));
    assert.deepEqual(got, want.batch, `${name}: evalBatch`);
  }
  prg.free();
  return { want, got };
}

test('every filter dialect and fixture compiles to the same CEL, and matches the same events, as the Go host', () => {
  for (const f of FILTER_FILES) {
    // The filter as an object; the Go host got its JSON text.
    const filter = JSON.parse(filterJson(f));
    sameAsGo('file:' + f, () => rt.env().compileFilter(filter), { events: EVENTS, batch: { kind: 'cloudEvents', items: EVENTS } });
  }
  // JSON text is sent as is (and a Trigger's other members are ignored).
  const text = filterJson('20-subscriptions-dialects.yaml');
  const p = rt.compileFilter(text);
  assert.equal(p.expression, go[goCases['file:20-subscriptions-dialects.yaml']].compile.expression);
  const trigger = { apiVersion: 'eventing.knative.dev/v1', kind: 'Trigger', metadata: { name: 't' }, spec: { broker: 'default', ...JSON.parse(text).spec } };
  assert.equal(rt.compileFilter(trigger).expression, p.expression);
});

test('batches over a fixture are exactly the per-event results (one module call, same bytes)', () => {
  for (const f of FILTER_FILES) {
    const want = go[goCases['file:' + f]];
    if (want.compile.error) continue;
    assert.deepEqual(want.batch, want.events, f);
  }
});

test('filters that do not transform or compile are CompileError naming the problem, as in Go', () => {
  REJECTED_FILTERS.forEach((f, i) => {
    // A string is JSON text for compileFilter; the Go host got the string's JSON.
    sameAsGo('reject:' + i, () => rt.compileFilter(typeof f === 'string' ? JSON.stringify(f) : f), { events: MALFORMED_EVENTS, batch: { kind: 'cloudEvents', items: MALFORMED_EVENTS } });
  });
  // Two top-level forms: a compile_error that names them; a CEL syntax error: caret snippets.
  assert.throws(() => rt.compileFilter(REJECTED_FILTERS[0]), (e) => e instanceof CompileError && /multiple dialects found/.test(e.message));
  assert.throws(() => rt.compileFilter({ expression: 'ce.type ==' }), (e) => e instanceof CompileError && e.issues.length === 1 && e.issues[0].snippet.includes('^'));
  // Host-side argument checks.
  for (const bad of ['{', 42, null, [], { expression: 1n }]) {
    assert.throws(() => rt.compileFilter(bad), (e) => e instanceof CelError && (e.code === 'invalid_argument' || e.code === 'compile_error'), String(bad));
  }
});

test('malformed events are per-event errors; the rest is filtered (fail closed counts as in Go)', () => {
  const { got } = sameAsGo('ok:malformed', () => rt.compileFilter({ attributes: { type: 'a' } }), { events: MALFORMED_EVENTS, batch: { kind: 'cloudEvents', items: MALFORMED_EVENTS } });
  assert.equal(got.length, MALFORMED_EVENTS.length);
  assert.ok(got.some((r) => r.error?.code === 'invalid_activation'));
  assert.ok(got.some((r) => r.json === 'true'));
});

test('binary-mode envelopes: headers, percent-decoding, content types, base64 bodies', () => {
  const { got } = sameAsGo('binary', () => rt.env(CE_ENV).compile(BINARY_EXPR), { events: BINARY_EVENTS, batch: { kind: 'cloudEvents', items: BINARY_EVENTS } });
  assert.ok(got.filter((r) => r.json !== undefined).length >= 3, JSON.stringify(got));
  sameAsGo('binary:filter', () => rt.compileFilter({ all: [{ prefix: { source: '/s' } }, { not: { exact: { type: 'b' } } }] }), {
    events: BINARY_EVENTS.map((e) => JSON.stringify(e)),
    batch: { kind: 'cloudEvents', items: BINARY_EVENTS.map((e) => JSON.stringify(e)) },
  });
  // A pretty-printed fixture object: a text body is data as a string.
  const ping = JSON.parse(readFileSync(join(td, 'cloudevents', 'binary-ping.json'), 'utf8'));
  const r = rt.env(CE_ENV).compile('[ce.type, data]').evalEvent(ping);
  assert.equal(r.json, JSON.stringify([ping.headers['ce-type'], ping.body]));
});

test('cost limits apply to each event; passing one is a cost_limit_exceeded EvalError', () => {
  const { got } = sameAsGo('costLimit', () => rt.compileFilter({ expression: "ce.source.matches('github') && data.action == 'opened'" }), {
    events: EVENTS,
    batch: { kind: 'cloudEvents', items: EVENTS },
    costLimit: 10,
  });
  assert.ok(got.some((r) => r.error?.code === 'cost_limit_exceeded' && r.error.cost > 10) && got.some((r) => r.json === 'false'));
  const p = rt.compileFilter({ expression: "ce.source.matches('github')" });
  assert.throws(() => p.evalEvent(EVENTS[0], { costLimit: 1 }), (e) => e instanceof EvalError && e.code === 'cost_limit_exceeded');
});

test('evaluation errors fail closed: the counts equal the Go CLI summary (celwasm filter)', () => {
  // The Go CLI: CELWASM_GO_CLI (make -C sdk-js test sets build/celwasm, made with the module by
  // `make wasm cli`), or one built here from the source, which embeds host/module/celwasm.wasm.
  let bin = process.env.CELWASM_GO_CLI;
  if (!bin) {
    bin = join(work, 'celwasm');
    execFileSync('go', ['build', '-buildvcs=false', '-o', bin, './cmd/celwasm'], { cwd: repo, stdio: ['ignore', 'inherit', 'inherit'] });
  }
  for (const f of ['11-complex-boolean.yaml', '15-dotted-extension-expression.yaml', '16-nested-extension-expression.yaml', '18-data-string-field.yaml']) {
    const run = spawnSync(bin, ['filter', '--filter', join(td, 'filters', f), '-i', eventsFile], { encoding: 'utf8' });
    assert.equal(run.status, 0, `${f}: ${run.stderr}`);
    const { stdout: out, stderr } = run;
    const results = rt.compileFilter(JSON.parse(filterJson(f))).evalBatch(EVENTS, 'cloudEvents');
    const matched = results.filter((r) => !(r instanceof CelError) && r.json === 'true').length;
    const errors = results.filter((r) => r instanceof CelError || (r.json !== 'true' && r.json !== 'false')).length;
    assert.ok(stderr.endsWith(`matched ${matched} of ${EVENTS.length} events, ${errors} evaluation errors (fail closed)\n`), `${f}: ${stderr}`);
    // The delivered events are the matching ones, in order.
    const delivered = EVENTS.filter((_, i) => !(results[i] instanceof CelError) && results[i].json === 'true');
    assert.equal(out, delivered.map((e) => e + '\n').join(''), f);
  }
});

test('Tekton when expressions: the same CEL and results as the Go host, injection stays a value', () => {
  WHEN_CASES.forEach((w, i) => {
    sameAsGo('when:' + i, () => rt.compileWhen(w), {
      activations: [PIPELINE_CONTEXT, '{}'],
      batch: { kind: 'activations', items: [PIPELINE_CONTEXT, '{}', '{"params":{"path":"README.md"}}'] },
    });
  });
  // The injection attempt compares false, and the CEL shows no trace of the parameter's content.
  const ctx = JSON.parse(PIPELINE_CONTEXT);
  for (const w of ["$(params.injection) == 'x'", "'$(params.injection)' == 'x'"]) {
    const p = rt.compileWhen(w);
    assert.ok(!p.expression.includes('||'), p.expression);
    // Quoted: a string, unequal to 'x'; unquoted: refused with a request to quote it.
    if (w.startsWith("'")) assert.equal(p.eval(ctx).value, false);
    else assert.throws(() => p.eval(ctx), (e) => e instanceof EvalError && /quote the reference/.test(e.message));
  }
  assert.equal(rt.compileWhen("'$(params.injection)' == 'x'").expression, "string(params.injection) == 'x'");
  // One expression may be given as a string; task results that are numbers compare as numbers.
  assert.equal(rt.compileWhen('$(tasks.unit-test.results.test-coverage) >= 0.9').eval(ctx).value, true);
  assert.throws(() => rt.compileWhen('$(workspaces.source.path) == ""'), CompileError);
  assert.throws(() => rt.compileWhen([1]), (e) => e.code === 'invalid_argument');
});

test('a batch with malformed items among good ones: one result or error per item, as the Go host', () => {
  const env = rt.env({ base: 'cel', variables: { x: 'int' } });
  const { got } = sameAsGo('activations', () => env.compile('x + 1'), {
    activations: ACTIVATION_ITEMS.filter((a) => !/^\s*$/.test(a)),
    batch: { kind: 'activations', items: ACTIVATION_ITEMS },
  });
  assert.equal(got.length, ACTIVATION_ITEMS.length);
  const results = env.compile('x + 1').evalBatch(ACTIVATION_ITEMS, 'activations');
  assert.equal(results[0].value, 2n);
  assert.ok(results[1] instanceof CelError && results[1].code === 'invalid_activation');
  assert.ok(results[9] instanceof EvalError && results[9].code === 'eval_error' && typeof results[9].cost === 'number');
  // Objects are items too; typed values cannot travel in a batch.
  const objs = env.compile('x + 1').evalBatch([{ x: 1 }, { x: 2 }, null], 'activations');
  assert.deepEqual(objs.slice(0, 2).map((r) => r.json), ['{"int":"2"}', '{"int":"3"}']);
  assert.equal(objs[2].code, 'invalid_activation');
  assert.throws(() => env.compile('x + 1').evalBatch([{ x: 1n }], 'activations'), (e) => e.code === 'invalid_argument');
  // An empty batch is an empty result; a bad kind fails the whole call, as in Go.
  sameAsGo('activations:empty', () => env.compile('x + 1'), { batch: { kind: 'activations', items: [] } });
  sameAsGo('activations:kind', () => rt.compile('1', { base: 'cel' }), { batch: { kind: 'rows', items: ['{}'] } });
  assert.throws(() => rt.compile('1', { base: 'cel' }).evalBatch(['{}'], 'rows'), (e) => e.code === 'bad_request');
  // A freed program fails the call.
  const p = env.compile('x');
  p.free();
  assert.throws(() => p.evalBatch(['{"x":1}'], 'activations'), (e) => e.code === 'closed');
  assert.throws(() => p.evalEvent(EVENTS[0]), (e) => e.code === 'closed');
});

test('large batches: thousands of items in one call, the same bytes as one evaluation each', () => {
  const p = rt.compileFilter({ any: [{ exact: { type: 'com.github.pull.create' } }, { suffix: { source: '/nightly' } }] });
  const items = Array.from({ length: 4000 }, (_, i) => EVENTS[i % EVENTS.length]);
  const batch = p.evalBatch(items, 'cloudEvents');
  const single = EVENTS.map((e) => attempt(() => p.evalEvent(e)));
  assert.deepEqual(batch.map(resultShape), items.map((_, i) => single[i % EVENTS.length]));
});

test('item encoding mirrors the Go host: compaction, blanks, Go white space', () => {
  assert.equal(compactJson('{ "a" : [1, 2],\n "b": "x y\\n" }'), '{"a":[1,2],"b":"x y\\n"}');
  assert.equal(compactJson('\n'), null);
  assert.equal(compactJson('{"a":\n'), null);
  assert.equal(compactJson('['.repeat(10_000) + ']'.repeat(10_000)), '['.repeat(10_000) + ']'.repeat(10_000));
  assert.equal(compactJson('['.repeat(10_001) + ']'.repeat(10_001)), null);
  assert.equal(batchLine('{"a":\n1}', 0), '{"a":1}');
  assert.equal(batchLine('{bad\n', 0), '"<invalid JSON item>"');
  assert.equal(batchLine('\n', 0), '"<invalid JSON item>"');
  for (const blank of ['', ' ', '\t\v\f', '\u0085', '\u00a0', '\u1680\u2000\u200a\u2028\u2029\u202f\u205f\u3000']) assert.equal(batchLine(blank, 0), 'null');
  // Not white space for Go: U+FEFF, U+180E.
  assert.equal(batchLine('\ufeff', 0), '\ufeff');
  // Whole-call failures versus item errors in the response.
  assert.throws(() => parseBatchResponse(new TextEncoder().encode('{"error":{"code":"unknown_program","message":"no program"}}'), 1), (e) => e.code === 'unknown_program');
  assert.throws(() => parseBatchResponse(new TextEncoder().encode('{"error":{"code":"eval_error","message":"m"}}'), 0), (e) => e.code === 'eval_error');
  const one = parseBatchResponse(new TextEncoder().encode('{"error":{"code":"eval_error","message":"m","cost":3}}'), 1);
  assert.ok(one[0] instanceof EvalError && one[0].cost === 3);
  assert.throws(() => parseBatchResponse(new TextEncoder().encode('{"value":true,"cost":1}'), 2), (e) => e.code === 'internal');
});
