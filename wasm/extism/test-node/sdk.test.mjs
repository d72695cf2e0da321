// The celwasm Extism plugin through Extism's JavaScript SDK in Node: bad input, the manifest's
// timeoutMs (needs runInWorker) and memory.maxPages, a trap inside the plugin. The host survives
// each, and a fresh plugin works.
//
//   node --test sdk.test.mjs        (CELWASM_EXTISM_PLUGIN or build/celwasm-extism.wasm)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadPlugin, pluginPath } from './plugin.mjs';

const path = pluginPath();
const listEnv = '"env":{"variables":[{"name":"l","type":"list(int)"}]}';
// A billion iterations, no allocation: runs until stopped.
const long = `{"expression":"l.all(x, l.all(y, l.all(z, true)))",${listEnv}}`;
// A million list elements: a response of about 16 MB.
const big = `{"expression":"l.map(x, l.map(y, y))",${listEnv}}`;
const noLimit = '"costLimit":18446744073709551615';
const list = (n) => JSON.stringify([...Array(n).keys()]);

async function call(p, fn, req) {
  return (await p.call(fn, req)).text();
}

async function handle(p, req) {
  const out = JSON.parse(await call(p, 'compile', req));
  assert.ok(out.program > 0, JSON.stringify(out));
  return out.program;
}

async function works(p) {
  const h = await handle(p, '{"expression":"x + 1 == 2","env":{"variables":[{"name":"x","type":"int"}]}}');
  assert.equal(await call(p, 'eval', `{"program":${h},"activation":{"x":1}}`), '{"value":true,"cost":3}');
}

test('bad input is an error object; the plugin keeps working', async () => {
  const p = await loadPlugin(path);
  try {
    for (const [fn, req, code] of [
      ['compile', '{"expression":', 'bad_request'],
      ['compile', new Uint8Array([...Buffer.from('{"expression":"\''), 0xff, ...Buffer.from('\'"}')]), 'bad_request'],
      ['compile', '{"expression":1}', 'bad_request'],
      ['compile', '{"expression":"x +"}', 'compile_error'],
      ['compile', '{"expression":"1","env":{"extensions":["nope"]}}', 'invalid_env'],
      ['eval', '{"program":999}', 'unknown_program'],
      ['eval', '[]', 'bad_request'],
      ['eval_batch', '', 'bad_request'],
      ['validate', '{}', 'bad_request'],
      ['cost', '{"crd":"x"}', 'invalid_crd'],
      ['free', '{"program":"1"}', 'bad_request'],
      ['free', '1', 'bad_request'],
    ]) {
      const got = await call(p, fn, req);
      assert.ok(got.startsWith(`{"error":{"code":"${code}"`), `${fn} ${req}: ${got.slice(0, 200)}`);
    }
    assert.equal(await call(p, 'free', '{"program":999}'), '{"freed":false}');
    await assert.rejects(p.call('celwasm_eval', ''));
    await works(p);
    const h = await handle(p, '{"expression":"true"}');
    assert.equal(await call(p, 'eval', `{"program":${h}}`), '{"value":true,"cost":0}');
    assert.equal(await call(p, 'free', `{"program":${h}}`), '{"freed":true}');
    assert.ok((await call(p, 'eval', `{"program":${h}}`)).startsWith('{"error":{"code":"unknown_program"'));
  } finally {
    await p.close();
  }
});

// The SDK enforces timeoutMs by terminating the plugin's worker; it starts a new one (a fresh
// instance: the programs are gone).
test('timeoutMs stops a call; the plugin restarts fresh', async () => {
  const p = await loadPlugin(path, { runInWorker: true, timeoutMs: 5000 });
  try {
    const h = await handle(p, long);
    const start = performance.now();
    await assert.rejects(p.call('eval', `{"program":${h},${noLimit},"activation":{"l":${list(1000)}}}`), /timeout/);
    const took = performance.now() - start;
    assert.ok(took > 4000 && took < 60000, `stopped after ${took} ms`);
    assert.ok((await call(p, 'eval', `{"program":${h}}`)).startsWith('{"error":{"code":"unknown_program"'));
    await works(p);
  } finally {
    await p.close();
  }
});

// In the JS SDK memory.maxPages bounds Extism's own memory (inputs, outputs, vars), not the
// plugin's linear memory: a response larger than the limit fails inside the plugin (go-pdk's
// output store traps). The failed plugin is discarded; a fresh one works.
test('memory.maxPages: a response beyond the limit traps inside the plugin', async () => {
  const p = await loadPlugin(path, { memory: { maxPages: 64 } });
  try {
    const h = await handle(p, big);
    assert.equal(await call(p, 'eval', `{"program":${h},${noLimit},"activation":{"l":[1,2]}}`),
      '{"value":[[{"int":"1"},{"int":"2"}],[{"int":"1"},{"int":"2"}]],"cost":82}');
    await assert.rejects(p.call('eval', `{"program":${h},${noLimit},"activation":{"l":${list(1000)}}}`));
  } finally {
    await p.close();
  }
  const q = await loadPlugin(path);
  try {
    await works(q);
  } finally {
    await q.close();
  }
});
