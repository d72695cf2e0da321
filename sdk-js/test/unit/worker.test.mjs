// The Worker runtime in Node (worker_threads; the browser build is exercised by the playground test).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { WorkerRuntime, CelError, CompileError, EvalError, CelTimestamp, uint } from '../../dist/node.js';

let rt;
before(async () => {
  rt = await WorkerRuntime.load();
});
after(() => rt.close());

// About 1M comprehension steps: seconds of work inside one WebAssembly call.
const SLOW = 'lists.range(1000).all(i, lists.range(1000).all(j, i + j >= 0))';

test('compile and eval in a worker give the same results as on the main thread', async () => {
  const v = await rt.version();
  assert.equal(v.abi, 1);
  const p = await rt.env({ variables: { self: 'dyn', t: 'timestamp', u: 'uint' } }).compile('[dyn(self.a + 1), dyn(t), dyn(u)]');
  assert.equal(p.outputType, 'list(dyn)');
  assert.equal(typeof p.costEstimate.max, 'bigint');
  const r = await p.eval({ self: { a: 41 }, t: CelTimestamp.parse('2026-01-01T00:00:00.5Z'), u: uint(2n ** 64n - 1n) });
  assert.equal(r.json, '[{"int":"42"},{"timestamp":"2026-01-01T00:00:00.500Z"},{"uint":"18446744073709551615"}]');
  assert.equal(r.value[0], 42n);
  assert.ok(r.cost > 0);
});

test('errors cross the worker boundary as the same typed errors', async () => {
  await assert.rejects(rt.compile('1 +', { base: 'cel' }), (e) => e instanceof CompileError && e.issues[0].column === 4 && e.issues[0].snippet.endsWith('...^'));
  await assert.rejects(rt.compile('1', { extensions: ['nope'] }), (e) => e instanceof CelError && e.code === 'invalid_env');
  const p = await rt.compile('1 / x', { base: 'cel', variables: { x: 'int' } });
  await assert.rejects(p.eval({ x: 0 }), (e) => e instanceof EvalError && e.code === 'eval_error' && typeof e.cost === 'number');
  await assert.rejects(p.eval('{"x":'), (e) => e.code === 'invalid_activation');
});

test('calls queue and run one at a time, in order', async () => {
  const p = await rt.compile('x * 2', { base: 'cel', variables: { x: 'int' } });
  const results = await Promise.all(Array.from({ length: 50 }, (_, i) => p.eval({ x: i })));
  assert.deepEqual(results.map((r) => r.value), Array.from({ length: 50 }, (_, i) => BigInt(i * 2)));
});

test('a timeout terminates the running call, the worker is replaced, programs come back', async () => {
  const fast = await rt.compile('x + 1', { base: 'cel', variables: { x: 'int' } });
  const slow = await rt.compile(SLOW);
  const before = rt.replacements;
  const t0 = performance.now();
  const queued = fast.eval({ x: 1 }); // queued behind the slow call: must survive the replacement
  const running = slow.eval({}, { costLimit: 2n ** 64n - 1n, timeoutMs: 300 });
  const queued2 = fast.eval({ x: 2 });
  await assert.rejects(running, (e) => e instanceof CelError && e.code === 'deadline_exceeded');
  assert.ok(performance.now() - t0 < 5000, 'the slow call was stopped, not waited for');
  assert.equal((await queued).value, 2n);
  assert.equal((await queued2).value, 3n);
  assert.equal(rt.replacements, before + 1);
  // The program compiled in the old worker is compiled again in the new one on first use.
  assert.equal((await fast.eval({ x: 41 })).value, 42n);
});

test('an AbortSignal cancels a running call; an already aborted signal fails at once', async () => {
  const slow = await rt.compile(SLOW);
  const ac = new AbortController();
  const running = slow.eval({}, { costLimit: 2n ** 64n - 1n, signal: ac.signal });
  setTimeout(() => ac.abort(), 200);
  await assert.rejects(running, (e) => e.code === 'canceled');
  await assert.rejects(slow.eval({}, { signal: AbortSignal.abort() }), (e) => e.code === 'canceled');
  const p = await rt.compile('"ok"', { base: 'cel' });
  assert.equal((await p.eval()).value, 'ok');
});

test('freed programs and a closed runtime fail with closed', async () => {
  const own = await WorkerRuntime.load({ wasm: rt.module });
  const p = await own.compile('1', { base: 'cel' });
  p.free();
  await assert.rejects(p.eval(), (e) => e.code === 'closed');
  const q = await own.compile('2', { base: 'cel' });
  own.close();
  await assert.rejects(q.eval(), (e) => e.code === 'closed');
  await assert.rejects(own.compile('3'), (e) => e.code === 'closed');
});

test('trigger filters, when expressions, CloudEvents and batches in a worker: the main thread\'s results', async () => {
  const { Runtime } = await import('../../dist/node.js');
  const { readFileSync } = await import('node:fs');
  const events = readFileSync(new URL('../../../conformance/testdata/cloudevents/events.ndjson', import.meta.url), 'utf8').trim().split('\n');
  const main = await Runtime.load({ wasm: rt.module });
  const shape = (r) => (r instanceof CelError ? [r.constructor.name, r.code, r.message, r.cost] : [r.json, r.cost]);
  try {
    const filter = { spec: { filters: [{ prefix: { type: 'com.github.' } }, { not: { exact: { type: 'com.github.push' } } }] } };
    const wp = await rt.compileFilter(filter);
    const mp = main.compileFilter(filter);
    assert.equal(wp.expression, mp.expression);
    assert.equal(wp.outputType, 'bool');
    assert.deepEqual(wp.costEstimate, mp.costEstimate);
    // The fixture's GitHub events carry nested extensions, which Knative refuses: add a valid one.
    const items = [...events, '{bad\n', '', '{"specversion":"1.0"}', '{"specversion":"1.0","id":"v","source":"/s","type":"com.github.pull.create"}'];
    const wb = await wp.evalBatch(items, 'cloudEvents');
    assert.deepEqual(wb.map(shape), mp.evalBatch(items, 'cloudEvents').map(shape));
    assert.ok(wb.some((r) => r instanceof CelError) && wb.some((r) => r.value === true));
    assert.deepEqual(shape(await wp.evalEvent(items.at(-1))), shape(mp.evalEvent(items.at(-1))));
    await assert.rejects(wp.evalEvent('{"no":"specversion"}'), (e) => e instanceof CelError && e.code === 'invalid_activation');
    await assert.rejects(rt.compileFilter({ regex: { type: 'a' } }), (e) => e instanceof CompileError);

    const when = ["'$(params.path)' == 'README.md'", "'$(params.injection)' == 'x'"];
    const ww = await rt.compileWhen(when);
    assert.equal(ww.expression, main.compileWhen(when).expression);
    const ctx = { params: { path: 'README.md', injection: "x' == 'x' || true || 'y" } };
    assert.equal((await ww.eval(ctx)).value, false);
    await assert.rejects(rt.compileWhen('$(params.path) =='), (e) => e instanceof CompileError);

    const px = await rt.compile('1 / x', { base: 'cel', variables: { x: 'int' } });
    const rs = await px.evalBatch([{ x: 1 }, { x: 0 }, '{"x":'], 'activations');
    assert.equal(rs[0].value, 1n);
    assert.ok(rs[1] instanceof EvalError && rs[1].code === 'eval_error' && typeof rs[1].cost === 'number');
    assert.equal(rs[2].code, 'invalid_activation');
    await assert.rejects(px.evalBatch(['{}'], 'rows'), (e) => e.code === 'bad_request');
  } finally {
    main.close();
  }
});

test('a batch that passes its timeout fails as a whole; the worker is replaced and the program recompiled', async () => {
  const slow = await rt.compile(SLOW);
  const before = rt.replacements;
  await assert.rejects(slow.evalBatch(['{}', '{}'], 'activations', { costLimit: 2n ** 64n - 1n, timeoutMs: 300 }), (e) => e.code === 'deadline_exceeded');
  assert.equal(rt.replacements, before + 1);
  const p = await rt.compileFilter({ exact: { type: 'a' } });
  const r = await p.evalBatch([{ specversion: '1.0', id: '1', source: 's', type: 'a' }], 'cloudEvents');
  assert.equal(r[0].value, true);
});
