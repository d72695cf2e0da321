// Two modules (RATIONALE.md, "Two modules"): a Runtime serves expressions and CEL filters from
// the expression module and loads celwasm-full only for what that module answers with
// needs_module (Knative's attrs/cesql filters, CRDs); programs compiled there are evaluated there.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Runtime, WorkerRuntime, CelError } from '../../dist/node.js';

const event = { specversion: '1.0', id: '1', source: 's', type: 'dev.x' };

test('celwasm-full is loaded on the first request that needs it, not before', async () => {
  const rt = await Runtime.load();
  try {
    assert.equal(rt.compileFilter({ expression: "ce.type == 'dev.x'" }).evalEvent(event).json, 'true');
    assert.equal(rt.fullLoaded, false);
    // The expression module's own answer to a cesql filter names the module that serves it.
    const raw = new TextDecoder().decode(rt.raw('compile', JSON.stringify({ cloudEventFilter: { cesql: "type = 'x'" } })));
    assert.equal(JSON.parse(raw).error.code, 'needs_module');
    assert.equal(JSON.parse(raw).error.module, 'celwasm-full');
    for (const [filter, want] of [
      [{ cesql: "type LIKE 'dev.%'" }, 'true'],
      [{ attributes: { type: 'dev.y' } }, 'false'],
      [{ prefix: { type: 'dev.' } }, 'true'],
    ]) {
      const p = rt.compileFilter(filter);
      assert.equal(p.evalEvent(event).json, want, JSON.stringify(filter));
      assert.deepEqual(p.evalBatch([event], 'cloudEvents').map((r) => r.json), [want]);
    }
    assert.equal(rt.fullLoaded, true);
    assert.throws(() => rt.compileFilter({ cesql: 'type LIKE' }), (e) => e instanceof CelError && e.code === 'compile_error');
  } finally {
    rt.close();
  }
});

test('a browser-like source that cannot be compiled synchronously asks for loadFull', async () => {
  const rt = await Runtime.load({ fullWasm: Promise.resolve(new URL('../../dist/celwasm-full.wasm', import.meta.url)) });
  try {
    assert.throws(() => rt.compileFilter({ cesql: "type = 'x'" }), (e) => e instanceof CelError && e.code === 'needs_module' && e.module === 'celwasm-full');
    await rt.loadFull();
    assert.equal(rt.compileFilter({ cesql: "type = 'dev.x'" }).evalEvent(event).json, 'true');
  } finally {
    rt.close();
  }
});

test('WorkerRuntime sends celwasm-full to its Worker on first need', async () => {
  const rt = await WorkerRuntime.load();
  try {
    const p = await rt.compileFilter({ suffix: { type: '.x' } });
    assert.equal((await p.evalEvent(event)).json, 'true');
    assert.equal((await (await rt.compile('1 + 1')).eval()).json, '{"int":"2"}');
  } finally {
    rt.close();
  }
});
