// Activation objects cut down to what a program reads (docs/abi.md, compile `reads`): the module
// must answer exactly what it answers for the whole object, sent as JSON text — for every
// Kubernetes corpus case with an activation, in the main-thread and the Worker runtime — and a
// projection must send only what is read.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Runtime, WorkerRuntime, CelError } from '../../dist/node.js';
import { projectActivation } from '../../dist/env.js';

let rt;
let wrt;
before(async () => {
  rt = await Runtime.load();
  wrt = await WorkerRuntime.load();
});
after(async () => {
  rt.close();
  await wrt.close();
});

const corpus = readFileSync(new URL('../../../conformance/corpus/k8s.jsonl', import.meta.url), 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '')
  .map((l) => JSON.parse(l))
  .filter((c) => c.eval && c.eval.activation && Object.keys(c.eval.activation).length > 0);

/** `{json, cost}` or `{error code, cost}`: what a comparison looks at. */
function outcome(f) {
  try {
    const r = f();
    return { json: r.json, cost: r.cost };
  } catch (e) {
    if (!(e instanceof CelError)) throw e;
    return { code: e.code, cost: e.cost };
  }
}

async function outcomeAsync(f) {
  try {
    const r = await f();
    return { json: r.json, cost: r.cost };
  } catch (e) {
    if (!(e instanceof CelError)) throw e;
    return { code: e.code, cost: e.cost };
  }
}

test('every Kubernetes corpus activation: the object (cut to the reads) answers what its JSON text answers', async () => {
  let cut = 0;
  for (const c of corpus) {
    const env = c.compile.env;
    const variables = Object.fromEntries((env.variables ?? []).map((v) => [v.name, v.type]));
    const prg = rt.env({ ...env, variables }).compile(c.compile.expression);
    assert.ok(prg.reads, `${c.id}: no reads`);
    const text = JSON.stringify(c.eval.activation);
    const want = outcome(() => prg.eval(text));
    assert.deepEqual(outcome(() => prg.eval(c.eval.activation)), want, c.id);
    const [batched] = prg.evalBatch([c.eval.activation], 'activations');
    assert.deepEqual(batched instanceof CelError ? { code: batched.code, cost: batched.cost } : { json: batched.json, cost: batched.cost }, want, c.id + ' (batch)');
    if (JSON.stringify(projectActivation(c.eval.activation, prg.reads)) !== text) cut++;
    prg.free();
  }
  assert.ok(corpus.length >= 80, `${corpus.length} corpus cases`);
  assert.ok(cut > 0, 'no corpus activation was cut');
});

test('the Worker runtime cuts activations the same way', async () => {
  for (const c of corpus.slice(0, 40)) {
    const env = c.compile.env;
    const variables = Object.fromEntries((env.variables ?? []).map((v) => [v.name, v.type]));
    const prg = await wrt.env({ ...env, variables }).compile(c.compile.expression);
    assert.deepEqual(prg.reads, rt.env({ ...env, variables }).compile(c.compile.expression).reads, c.id);
    const want = await outcomeAsync(() => prg.eval(JSON.stringify(c.eval.activation)));
    assert.deepEqual(await outcomeAsync(() => prg.eval(c.eval.activation)), want, c.id);
    prg.free();
  }
});

test('only what is read is sent: unread members are not encoded at all', () => {
  const prg = rt.env({ variables: { ce: 'map(string, dyn)', data: 'dyn' } })
    .compile('ce.type == "com.github.pull.create" && ce.source.startsWith("https://github.com")');
  assert.deepEqual(prg.reads, { ce: { source: true, type: true } });
  const ce = { type: 'com.github.pull.create', source: 'https://github.com/x', id: '1', time: new Date(0) };
  // A Symbol has no CEL form: sent, it would be invalid_argument; unread, it is never looked at.
  const withSymbol = { ce: { ...ce, ext: Symbol('x') }, data: { big: 'x'.repeat(1 << 20), f: () => 1 } };
  const r = prg.eval(withSymbol);
  assert.equal(r.value, true);
  assert.equal(r.cost, prg.eval(JSON.stringify({ ce: { type: ce.type, source: ce.source } })).cost);
  assert.deepEqual(JSON.parse(JSON.stringify(projectActivation(withSymbol, prg.reads))), { ce: { source: ce.source, type: ce.type } });
  // What is read is still checked: a Symbol there is an error.
  assert.throws(() => prg.eval({ ce: { ...ce, type: Symbol('t') } }), (e) => e instanceof CelError && e.code === 'invalid_argument');
});

test('values that are not plain objects stay whole; "__proto__" is a member like any other', () => {
  const env = rt.env({ variables: { self: 'dyn' } });
  const prg = env.compile('self.a.b == 1 && self["__proto__"].c == 2');
  assert.equal(JSON.stringify(prg.reads), '{"self":{"__proto__":{"c":true},"a":{"b":true}}}');
  const self = JSON.parse('{"a":{"b":1,"x":2},"__proto__":{"c":2,"d":3},"z":0}');
  assert.equal(prg.eval({ self }).value, true);
  assert.equal(JSON.stringify(projectActivation({ self }, prg.reads)), '{"self":{"__proto__":{"c":2},"a":{"b":1}}}');
  // A list, a Map and a class instance are not cut.
  const list = env.compile('self.items[0].name');
  assert.deepEqual(list.reads, { self: { items: true } });
  const items = [{ name: 'a', other: 1 }];
  assert.equal(JSON.stringify(projectActivation({ self: { items, skip: 1 } }, list.reads)), JSON.stringify({ self: { items } }));
  // A program that reads nothing sends an empty activation; one not type-checked sends all.
  assert.deepEqual(env.compile('1 + 1').reads, {});
  assert.equal(rt.env({ variables: { self: 'dyn' }, disableTypeCheck: true }).compile('self.a').reads, undefined);
});
