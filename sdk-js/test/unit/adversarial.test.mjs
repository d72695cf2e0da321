// The adversarial corpus through the Node Runtime (one instance): test/adversarial/runner.mjs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Runtime } from '../../dist/node.js';
import { runAdversarial } from '../adversarial/runner.mjs';

const corpus = new URL('../../../conformance/adversarial/cases.jsonl', import.meta.url);

test('adversarial corpus: every case gives its one outcome, and the runtime answers after it', async () => {
  const rt = await Runtime.load();
  try {
    const { ran, failures } = await runAdversarial(rt, readFileSync(corpus, 'utf8'));
    assert.ok(ran >= 50, `ran ${ran}`);
    assert.deepEqual(failures, []);
  } finally {
    rt.close();
  }
});

test('memoryLimit: a call that grows the instance past its cap fails with trap; the next call gets a new instance and only its own data', async () => {
  const limit = 96 << 20;
  const rt = await Runtime.load({ memoryLimit: limit });
  try {
    const prg = rt.env({ variables: { self: 'dyn' } }).compile('size(self)');
    assert.equal(prg.eval('{"self":[1,2,3]}').json, '{"int":"3"}');
    assert.throws(() => prg.eval('{"self":[' + '1,'.repeat(4 << 20) + '1]}'), (e) => e.code === 'trap' && /past its cap of 100663296/.test(e.message));
    assert.equal(prg.eval('{"self":[7]}').json, '{"int":"1"}');
    assert.ok(rt.memoryBytes() <= limit, `memory ${rt.memoryBytes()} after replacement`);
    const other = rt.env({ variables: { self: 'dyn' } }).compile('self');
    assert.equal(other.eval('{"self":"mine"}').json, '"mine"');
  } finally {
    rt.close();
  }
});
