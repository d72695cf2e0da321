// The Knative and Tekton vectors (conformance/testdata/knative/eventfilter.json,
// conformance/testdata/tekton/when.json: Knative's eventfilter tests and Tekton's when tests
// rebuilt as data) through the JS SDK: compileFilter + evalEvent, compileWhen + eval.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Runtime, CompileError, EvalError } from '../../dist/node.js';

const td = fileURLToPath(new URL('../../../conformance/testdata/', import.meta.url));
const knative = JSON.parse(readFileSync(join(td, 'knative', 'eventfilter.json'), 'utf8')).cases;
const tekton = JSON.parse(readFileSync(join(td, 'tekton', 'when.json'), 'utf8')).cases;

let rt;
before(async () => { rt = await Runtime.load(); });
after(() => rt?.close());

test('Knative eventfilter vectors: delivered exactly when Knative delivers, webhook errors as compile errors', () => {
  assert.ok(knative.length >= 100);
  for (const c of knative) {
    if (c.error !== undefined) {
      assert.throws(() => rt.compileFilter(c.filter), (e) => e instanceof CompileError && e.message.includes(c.error), c.name);
      continue;
    }
    const prg = rt.compileFilter(c.filter);
    try {
      assert.equal(prg.evalEvent(c.event).value, c.deliver, `${c.name}: ${prg.expression}`);
    } finally {
      prg.close?.();
    }
  }
});

test('Tekton when vectors: the same acceptance and truth values as Tekton', () => {
  assert.ok(tekton.length >= 50);
  for (const c of tekton) {
    const entries = c.when.map((w) => (typeof w === 'string' ? w : JSON.stringify(w)));
    if (c.error !== undefined) {
      assert.throws(() => rt.compileWhen(entries), (e) => e instanceof CompileError && e.message.includes(c.error), c.name);
      continue;
    }
    const prg = rt.compileWhen(entries);
    if (c.evalError !== undefined) {
      let value;
      try {
        value = prg.eval(c.context).value;
      } catch (e) {
        assert.ok(e instanceof EvalError && e.message.includes(c.evalError), `${c.name}: ${e.message}`);
        continue;
      }
      assert.ok(typeof value !== 'boolean', `${c.name}: ${value}, want an error`);
      continue;
    }
    assert.equal(prg.eval(c.context).value, c.result, `${c.name}: ${prg.expression}`);
  }
});
