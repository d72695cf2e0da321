// The conformance runner's own logic: raw member extraction and the sample corpus.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Runtime } from '../../dist/node.js';
import { members, corpusLines, runCorpus } from '../conformance/runner.mjs';

const enc = new TextEncoder();
const dec = new TextDecoder();

test('members() returns each top-level value byte for byte, like Go json.RawMessage', () => {
  const line = '{ "id" : "a\\"b" ,"compile":{"x":[1,{"y":"}]"}],"z":"\\\\"},"eval":{ },"n":-1.5e3,"t":true,"nil":null,"s":"é😀\u2028"}';
  const m = members(enc.encode(line));
  assert.deepEqual([...m.keys()], ['id', 'compile', 'eval', 'n', 't', 'nil', 's']);
  assert.equal(dec.decode(m.get('id')), '"a\\"b"');
  assert.equal(dec.decode(m.get('compile')), '{"x":[1,{"y":"}]"}],"z":"\\\\"}');
  assert.equal(dec.decode(m.get('eval')), '{ }');
  assert.equal(dec.decode(m.get('n')), '-1.5e3');
  assert.equal(dec.decode(m.get('s')), '"é😀\u2028"');
  const parsed = JSON.parse(line);
  for (const [k, v] of m) assert.deepEqual(JSON.parse(dec.decode(v)), parsed[k]);
});

test('corpusLines() splits files on newlines and drops empty lines', () => {
  const lines = corpusLines([enc.encode('{"a":1}\n\n{"b":2}\n'), enc.encode('{"c":3}')]);
  assert.deepEqual(lines.map((l) => dec.decode(l)), ['{"a":1}', '{"b":2}', '{"c":3}']);
});

test('the sample corpus (expectations from the Go host) is met in Node', async () => {
  const file = new Uint8Array(readFileSync(new URL('../fixtures/corpus/sample.jsonl', import.meta.url)));
  const rt = await Runtime.load();
  const res = await runCorpus(rt, [file]);
  rt.close();
  assert.equal(res.lines, 13);
  assert.deepEqual(res.unmetIds, []);
  assert.equal(res.met, 12);
  assert.equal(res.skipped, 1);
  const out = dec.decode(res.bytes).split('\n');
  assert.equal(out.length, 14); // 13 lines, each ending in \n
  assert.equal(out[12], '{"id":"sample/cel/skipped","skip":true}');
  // The program handle is removed from successful compile responses.
  assert.match(out[0], /^\{"id":"sample\/k8s\/replicas","compile":\{"outputType":"bool","costEstimate":\{"min":3,"max":3689348814741910532\}\},"eval":\{"value":true,"cost":10\}\}$/);
  assert.match(out[11], /^\{"id":"sample\/cel\/check_only",.*"eval":null\}$/);
});
