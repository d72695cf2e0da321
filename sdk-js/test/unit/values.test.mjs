// The value mapping (no module needed): canonical JSON ↔ JavaScript ↔ text form, checked against
// the Go CLI's output in test/fixtures/text-form.jsonl (scripts/gen-fixtures.sh).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import {
  decodeValue, toTypedJson, formatText, CelTimestamp, CelDuration, CelUint, uint, CelOptional, CelError, CelType,
} from '../../dist/node.js';

const cases = readFileSync(new URL('../fixtures/text-form.jsonl', import.meta.url), 'utf8').trim().split('\n').map((l) => JSON.parse(l));

test('formatText prints the Go CLI text form byte for byte', () => {
  assert.ok(cases.length >= 15);
  for (const c of cases) assert.equal(formatText(c.json), c.text, c.expr);
});

test('decodeValue then toTypedJson gives the canonical bytes back', () => {
  for (const c of cases) assert.equal(toTypedJson(decodeValue(c.json)), c.json, c.expr);
});

test('decoded kinds and values', () => {
  const [d] = cases.filter((c) => c.expr.startsWith('[1.5'));
  const doubles = decodeValue(d.json);
  assert.ok(Object.is(doubles[1], -0));
  assert.ok(Number.isNaN(doubles[2]));
  assert.equal(doubles[3], -Infinity);
  assert.equal(doubles[9], 5e-324);
  const m = decodeValue(cases.find((c) => c.expr.startsWith("{'x'")).json);
  assert.ok(m instanceof Map);
  const keys = [...m.keys()];
  assert.deepEqual(keys.slice(0, 3), [false, true, -1n]);
  assert.ok(keys[3] instanceof CelUint && keys[3].value === 2n);
  const ts = decodeValue(cases.find((c) => c.expr.startsWith('[timestamp')).json);
  assert.equal(ts[1].seconds, -62135596800n);
  assert.equal(ts[2].nanos, 999_999_999);
  assert.equal(decodeValue('{"int":"-9223372036854775808"}'), -(2n ** 63n));
  const proto = decodeValue('{"map":[["__proto__",{"int":"1"}]]}');
  assert.deepEqual(Object.keys(proto), ['__proto__']);
  assert.equal(proto.__proto__, 1n);
  assert.equal(Object.getPrototypeOf(proto), Object.prototype);
});

test('malformed canonical JSON is invalid_argument', () => {
  for (const bad of ['{"int":5}', '{"a":1,"b":2}', '{}', '{"map":[[1]]}', '{"nope":"x"}', '1', 'not json']) {
    assert.throws(() => decodeValue(bad), (e) => e instanceof CelError && e.code === 'invalid_argument', bad);
  }
});

test('timestamps: RFC 3339 parsing with offsets, Date conversion, range', () => {
  assert.equal(CelTimestamp.parse('2026-01-01T10:00:00.5+02:00').toString(), '2026-01-01T08:00:00.500Z');
  assert.equal(CelTimestamp.parse('1969-12-31T23:59:59.999999999Z').epochNanoseconds, -1n);
  assert.equal(CelTimestamp.parse('1969-12-31T23:59:59.999999999Z').nanos, 999_999_999);
  assert.equal(CelTimestamp.parse('0001-01-01T00:00:00Z').toString(), '0001-01-01T00:00:00Z');
  assert.equal(CelTimestamp.fromDate(new Date(Date.UTC(2020, 1, 29, 1, 2, 3, 4))).toString(), '2020-02-29T01:02:03.004Z');
  assert.equal(new CelTimestamp(1_500n).toString(), '1970-01-01T00:00:00.000001500Z');
  assert.throws(() => CelTimestamp.parse('10000-01-01T00:00:00Z'), CelError);
  assert.throws(() => CelTimestamp.parse('yesterday'), CelError);
  assert.throws(() => new CelTimestamp(-62135596801n * 1_000_000_000n), CelError);
});

test('durations: canonical form, milliseconds, range', () => {
  assert.equal(new CelDuration(-1n).toString(), '-0.000000001s');
  assert.equal(CelDuration.parse('-5400s').nanoseconds, -5_400_000_000_000n);
  assert.equal(CelDuration.fromMilliseconds(1.5).toString(), '0.001500s');
  assert.equal(new CelDuration(2n ** 63n - 1n).toString(), '9223372036.854775807s');
  assert.throws(() => new CelDuration(2n ** 63n), CelError);
  assert.throws(() => CelDuration.parse('1h'), CelError);
});

test('toTypedJson follows declared types', () => {
  assert.equal(toTypedJson(5, 'uint'), '{"uint":"5"}');
  assert.equal(toTypedJson(5, 'double'), '{"double":"5"}');
  assert.equal(toTypedJson('42', 'int'), '{"int":"42"}');
  assert.equal(toTypedJson(2n ** 64n - 1n, 'uint'), '{"uint":"18446744073709551615"}');
  assert.equal(toTypedJson(null, 'optional_type(int)'), '{"optional":[]}');
  assert.equal(toTypedJson(3, 'optional(int)'), '{"optional":[{"int":"3"}]}');
  assert.equal(toTypedJson({ 10: 'a', 9: 'b' }, 'map(int, string)'), '{"map":[[{"int":"9"},"b"],[{"int":"10"},"a"]]}');
  assert.equal(toTypedJson({ b: [1, 2] }, 'map(string, list(double))'), '{"map":[["b",[{"double":"1"},{"double":"2"}]]]}');
  assert.equal(toTypedJson('2026-01-01T00:00:00Z', 'google.protobuf.Timestamp'), '{"timestamp":"2026-01-01T00:00:00Z"}');
  assert.equal(toTypedJson('-_8', 'bytes'), '{"bytes":"+/8="}');
  assert.equal(toTypedJson(new CelType('int')), '{"type":"int"}');
  assert.equal(toTypedJson(CelOptional.of(uint(1))), '{"optional":[{"uint":"1"}]}');
  assert.equal(toTypedJson([undefined, { a: undefined, b: 1 }]), '[null,{"map":[["b",{"int":"1"}]]}]');
  // Canonical key order: code points, so U+FFFF sorts before astral characters.
  assert.equal(toTypedJson({ '😀': 1, '\uffff': 2 }), '{"map":[["\uffff",{"int":"2"}],["😀",{"int":"1"}]]}');
  for (const [v, t] of [[1.5, 'int'], [2n ** 63n, 'int'], [-1, 'uint'], [{}, 'int'], [() => 1, 'dyn'], [new Map([[{}, 1]]), 'dyn']]) {
    assert.throws(() => toTypedJson(v, t), (e) => e.code === 'invalid_argument');
  }
});
