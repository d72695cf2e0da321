// The main-thread Runtime against the real module (dist/celwasm.wasm) in Node.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import {
  Runtime, CelError, CompileError, EvalError, uint, CelUint, CelTimestamp, CelDuration, CelOptional, CelType, CelObject,
  loadRuntime, toTypedJson,
} from '../../dist/node.js';

let rt;
before(async () => {
  rt = await Runtime.load();
});
after(() => rt.close());

// The `spec` of conformance/testdata/k8s/webapp.yaml: 100 items named in lower case.
const webapp = parseYaml(readFileSync(new URL('../../../conformance/testdata/k8s/webapp.yaml', import.meta.url), 'utf8')).spec;

test('version reports the ABI, cel-go, Kubernetes and compatibility versions', () => {
  const v = rt.version();
  assert.equal(v.abi, 1);
  assert.equal(v.celGo, 'v0.29.2');
  assert.match(v.kubernetes, /^v0\.\d+\.\d+$/);
  assert.ok(v.compatibilityVersions.includes('1.30'));
  assert.equal(v.defaultCompatibilityVersion, v.compatibilityVersions.at(-1));
  assert.ok(v.extensions.includes('math'));
  assert.equal(v.defaultCostLimit, 1_000_000);
});

test('compile + eval: a KEP-2876 CRD rule, with output type, exact cost estimate and actual cost', () => {
  const prg = rt.env({ variables: { self: 'dyn' } }).compile('self.minReplicas <= self.replicas && self.replicas <= self.maxReplicas');
  assert.equal(prg.outputType, 'bool');
  assert.equal(typeof prg.costEstimate.min, 'bigint');
  assert.equal(prg.costEstimate.min, 3n);
  // Unbounded inputs: the maximum is beyond 2^53 and must be exact, not a rounded double.
  assert.ok(prg.costEstimate.max > BigInt(Number.MAX_SAFE_INTEGER));
  assert.equal(prg.costEstimate.max.toString(), '3689348814741910532');
  const ok = prg.eval({ self: { minReplicas: 1, replicas: 3, maxReplicas: 5 } });
  assert.equal(ok.value, true);
  assert.equal(ok.json, 'true');
  assert.equal(typeof ok.cost, 'number');
  assert.ok(ok.cost > 0);
  assert.equal(prg.eval({ self: { minReplicas: 4, replicas: 3, maxReplicas: 5 } }).value, false);
  prg.free();
});

test('the reference expressions (a)–(d) give their documented results', () => {
  const ce = JSON.parse(readFileSync(new URL('../../../conformance/testdata/cloudevents/github-pull-request.json', import.meta.url), 'utf8'));
  const a = rt.compile('ce.type == "com.github.pull.create" && ce.source.startsWith("https://github.com")', { variables: { ce: 'dyn' } });
  assert.equal(a.eval({ ce }).value, true);
  const c = rt.compile("self.items.all(i, i.name.matches('^[a-z]+$'))", { variables: { self: 'dyn' } });
  assert.equal(webapp.items.length, 100);
  const rc = c.eval({ self: webapp });
  assert.equal(rc.value, true);
  assert.ok(rc.cost > 100);
  const d = rt.compile("quantity(self.mem).isLessThan(quantity('1Gi'))", { variables: { self: 'dyn' } });
  assert.equal(d.eval({ self: { mem: '512Mi' } }).value, true);
  assert.equal(d.eval({ self: { mem: '2Gi' } }).value, false);
});

test('compile errors are CompileError with line, column and caret snippets', () => {
  const env = rt.env({ variables: { x: 'int' } });
  assert.throws(() => env.compile('x +\n  y'), (e) => {
    assert.ok(e instanceof CompileError);
    assert.ok(e instanceof CelError);
    assert.ok(e instanceof Error);
    assert.equal(e.code, 'compile_error');
    assert.equal(e.name, 'CompileError');
    assert.equal(e.issues.length, 1);
    assert.deepEqual([e.issues[0].line, e.issues[0].column], [2, 3]);
    assert.match(e.issues[0].message, /undeclared reference to 'y'/);
    assert.equal(e.issues[0].snippet.split('\n').at(-1), ' | ..^');
    assert.equal(e.message, e.issues.map((i) => i.snippet).join('\n'));
    return true;
  });
  // Columns count code points, not UTF-16 units.
  assert.throws(() => env.compile("'😀' + x"), (e) => e.issues[0].column === 5);
});

test('invalid environments are CelError invalid_env, not crashes', () => {
  for (const opts of [{ extensions: ['nope'] }, { compatibilityVersion: '9.99' }, { variables: { x: 'map(string' } }, { base: 'nope' }]) {
    assert.throws(() => rt.env(opts).compile('1'), (e) => e instanceof CelError && e.code === 'invalid_env');
  }
});

test('compatibility versions decide which libraries an expression may use', () => {
  // semver() arrived with Kubernetes 1.33 (NewExpressions); StoredExpressions has every library.
  assert.throws(() => rt.compile('semver("1.2.3").major()', { compatibilityVersion: '1.32' }), CompileError);
  assert.equal(rt.compile('semver("1.2.3").major()', { compatibilityVersion: '1.33' }).eval().value, 1n);
  assert.equal(rt.compile('semver("1.2.3").major()', { compatibilityVersion: '1.32', envType: 'StoredExpressions' }).eval().value, 1n);
});

test('extensions are added to the base', () => {
  assert.throws(() => rt.compile('math.greatest(1, 2)', { base: 'cel' }), CompileError);
  assert.equal(rt.compile('math.greatest(1, 2)', { base: 'cel', extensions: ['math'] }).eval().value, 2n);
  assert.equal(rt.compile("base64.encode(b'hi')", { base: 'cel', extensions: [{ name: 'encoders', version: 0 }] }).eval().value, 'aGk=');
});

test('evaluation errors are EvalError with code and the cost spent', () => {
  const p = rt.compile('1 / x == 1', { variables: { x: 'int' } });
  assert.throws(() => p.eval({ x: 0 }), (e) => e instanceof EvalError && e.code === 'eval_error' && /division by zero/.test(e.message) && typeof e.cost === 'number');
  const q = rt.compile('self.a.b', { variables: { self: 'dyn' } });
  assert.throws(() => q.eval({ self: {} }), (e) => e.code === 'eval_error' && /no such key/.test(e.message));
});

test('the cost limit stops evaluation with cost_limit_exceeded', () => {
  const p = rt.compile("self.items.all(i, i.name.matches('^[a-z]+$'))", { variables: { self: 'dyn' } });
  const full = p.eval({ self: webapp }).cost;
  assert.throws(() => p.eval({ self: webapp }, { costLimit: 10 }), (e) => e instanceof EvalError && e.code === 'cost_limit_exceeded' && e.cost > 10 && e.cost < full);
  assert.equal(p.eval({ self: webapp }, { costLimit: 2n ** 64n - 1n }).cost, full);
  assert.throws(() => p.eval({}, { costLimit: -1 }), (e) => e.code === 'invalid_argument');
});

test('int64 and uint64 beyond 2^53 are exact in both directions', () => {
  const p = rt.compile('[x, x - 1, u, u - 1u, 9223372036854775807, 18446744073709551615u]', { base: 'cel', variables: { x: 'int', u: 'uint' } });
  const big = 2n ** 62n + 1n;
  const r = p.eval({ x: big, u: uint(2n ** 64n - 1n) });
  assert.deepEqual(r.value, [big, big - 1n, new CelUint(2n ** 64n - 1n), new CelUint(2n ** 64n - 2n), 2n ** 63n - 1n, new CelUint(2n ** 64n - 1n)]);
  assert.equal(r.json, `[{"int":"${big}"},{"int":"${big - 1n}"},{"uint":"18446744073709551615"},{"uint":"18446744073709551614"},{"int":"9223372036854775807"},{"uint":"18446744073709551615"}]`);
  // A bigint given for a declared uint is converted by the declaration.
  assert.deepEqual(p.eval({ x: 1n, u: 2n ** 63n }).value[2], uint(2n ** 63n));
  // Decimal strings are exact too (plain JSON, converted by the module).
  assert.deepEqual(p.eval({ x: '-9223372036854775807', u: '18446744073709551615' }).value.slice(0, 3), [-(2n ** 63n) + 1n, -(2n ** 63n), new CelUint(2n ** 64n - 1n)]);
  // Overflow is a CEL error, as in cel-go.
  assert.throws(() => p.eval({ x: -(2n ** 63n), u: 0n }), (e) => e.code === 'eval_error' && /overflow/.test(e.message));
  // A bigint outside int64 for an int is rejected before reaching the module.
  assert.throws(() => p.eval({ x: 2n ** 63n, u: 0n }), (e) => e.code === 'invalid_argument');
});

test('timestamps, durations, bytes, optionals, types and library objects have JS types', () => {
  const p = rt.compile(
    "[dyn(t), dyn(t + d), dyn(d), dyn(b), dyn(o), dyn(optional.none()), dyn(type(1)), dyn(quantity('1Gi')), dyn({1: 'a', -2: 'b'}), dyn({'k': 1.5}), dyn(-0.0), dyn(0.0/0.0)]",
    { base: 'kubernetes', variables: { t: 'timestamp', d: 'duration', b: 'bytes', o: 'optional_type(string)' } },
  );
  const r = p.eval({
    t: CelTimestamp.parse('2009-02-13T23:31:30.123456789Z'),
    d: CelDuration.parse('1.5s'),
    b: new Uint8Array([0xff, 0, 1]),
    o: CelOptional.of('x'),
  });
  assert.equal(
    r.json,
    '[{"timestamp":"2009-02-13T23:31:30.123456789Z"},{"timestamp":"2009-02-13T23:31:31.623456789Z"},{"duration":"1.500s"},' +
      '{"bytes":"/wAB"},{"optional":["x"]},{"optional":[]},{"type":"int"},{"object":{"type":"kubernetes.Quantity","value":"1Gi"}},' +
      '{"map":[[{"int":"-2"},"b"],[{"int":"1"},"a"]]},{"map":[["k",{"double":"1.5"}]]},{"double":"-0"},{"double":"NaN"}]',
  );
  const [t, t2, d, b, o, none, ty, q, m, sm, negz, nan] = r.value;
  assert.ok(t instanceof CelTimestamp);
  assert.equal(t.epochNanoseconds, 1234567890123456789n);
  assert.equal(t.nanos, 123456789);
  assert.equal(t.toDate().toISOString(), '2009-02-13T23:31:30.123Z');
  assert.equal(t2.toString(), '2009-02-13T23:31:31.623456789Z');
  assert.ok(d instanceof CelDuration);
  assert.equal(d.nanoseconds, 1_500_000_000n);
  assert.equal(d.toMilliseconds(), 1500);
  assert.deepEqual(b, new Uint8Array([0xff, 0, 1]));
  assert.ok(o instanceof CelOptional && o.hasValue && o.value === 'x');
  assert.ok(none instanceof CelOptional && !none.hasValue);
  assert.ok(ty instanceof CelType && ty.name === 'int');
  assert.ok(q instanceof CelObject && q.type === 'kubernetes.Quantity' && q.value === '1Gi');
  assert.ok(m instanceof Map);
  assert.deepEqual([...m], [[-2n, 'b'], [1n, 'a']]);
  assert.deepEqual(sm, { k: 1.5 });
  assert.ok(Object.is(negz, -0));
  assert.ok(Number.isNaN(nan));
  // Round trip: a decoded value encodes back to the same canonical bytes.
  assert.equal(toTypedJson(r.value), r.json);
});

test('plain JSON activations convert by declared type; typed values go in typedActivation', () => {
  const p = rt.compile('[t, d, b, n, l]', {
    base: 'cel',
    variables: { t: 'timestamp', d: 'duration', b: 'bytes', n: 'double', l: 'list(uint)' },
  });
  // Plain JSON: strings for timestamps/durations/bytes, converted by the module.
  const plain = p.eval({ t: '2026-01-01T10:00:00+02:00', d: '1h30m', b: '/wAB', n: 2, l: [1, 2] });
  assert.equal(plain.json, '[{"timestamp":"2026-01-01T08:00:00Z"},{"duration":"5400s"},{"bytes":"/wAB"},{"double":"2"},[{"uint":"1"},{"uint":"2"}]]');
  // JS values: Date, CelDuration, Uint8Array, bigint, typed by the declarations on the JS side.
  const typed = p.eval({ t: new Date(Date.UTC(2026, 0, 1, 8)), d: CelDuration.fromMilliseconds(5_400_000), b: new Uint8Array([255, 0, 1]), n: 2n, l: [1n, 2n] });
  assert.equal(typed.json, plain.json);
  // The raw JSON text of an activation is passed through untouched.
  assert.equal(p.eval('{"t":"2026-01-01T08:00:00Z","d":"5400s","b":"/wAB","n":2.0,"l":[1,2]}').json, plain.json);
  // A plain-JSON value that does not convert is an eval_error where it is read.
  assert.throws(() => p.eval({ t: 'yesterday', d: '1s', b: '', n: 1, l: [] }), (e) => e.code === 'eval_error');
});

test('dyn maps with int keys, uint values and nested typed values survive the trip', () => {
  const p = rt.compile('x', { base: 'cel', variables: { x: 'dyn' } });
  const v = new Map([[1n, uint(2)], ['s', [new Uint8Array([1]), CelOptional.none(), null, true, 1.5, -0]]]);
  const r = p.eval({ x: v });
  assert.equal(r.json, '{"map":[[{"int":"1"},{"uint":"2"}],["s",[{"bytes":"AQ=="},{"optional":[]},null,true,{"double":"1.5"},{"double":"-0"}]]]}');
  assert.equal(toTypedJson(r.value), r.json);
  // Plain numbers keep the module's plain-JSON meaning: integral → int, else double.
  assert.equal(p.eval({ x: [1, 1.5, 1e21] }).json, '[{"int":"1"},{"double":"1.5"},{"double":"1e+21"}]');
});

test('strings are exact: unicode, escapes and U+2028 round-trip canonically', () => {
  const s = 'héllo\u2028"\\\n\u0001😀';
  const r = rt.compile('s + "!"', { base: 'cel', variables: { s: 'string' } }).eval({ s });
  assert.equal(r.value, s + '!');
  assert.equal(r.json, '"héllo\u2028\\"\\\\\\n\\u0001😀!"');
});

test('freed programs fail with closed; freeing twice is harmless', () => {
  const p = rt.compile('1 + 1', { base: 'cel' });
  assert.equal(p.eval().value, 2n);
  p.free();
  p.free();
  assert.throws(() => p.eval(), (e) => e instanceof CelError && e.code === 'closed');
});

test('programs dropped without free() are released by the FinalizationRegistry', { skip: typeof globalThis.gc !== 'function' && 'run with --expose-gc' }, async () => {
  const before = rt.core.programCount();
  (() => {
    for (let i = 0; i < 50; i++) rt.compile(`${i} + 1`, { base: 'cel' });
  })();
  assert.equal(rt.core.programCount(), before + 50);
  for (let i = 0; i < 20 && rt.core.programCount() > before; i++) {
    globalThis.gc();
    await new Promise((r) => setTimeout(r, 10));
  }
  assert.ok(rt.core.programCount() <= before, `${rt.core.programCount()} programs left, ${before} before`);
});

// The soak (make soak) sees Node's RSS rise between mark-compacts; this is the check that nothing
// an evaluation allocates stays reachable: what a full collection leaves must not grow with the
// number of evaluations (a leak of 10 bytes per evaluation would add 400 KB here).
test('evaluations retain nothing: the live JS heap after a full collection does not grow', { skip: typeof globalThis.gc !== 'function' && 'run with --expose-gc' }, () => {
  const p = rt.env({ variables: { self: 'dyn' } }).compile("self.items.filter(i, i.ok).map(i, i.name + '-' + string(self.id))");
  const run = (from, n) => {
    for (let i = from; i < from + n; i++) {
      const text = `{"self":{"id":${i},"items":[{"name":"a","ok":true},{"name":"b${i}","ok":${i % 2 === 0}}]}}`;
      // JSON text (the celwasm_eval_activation path), and an object whose value is decoded.
      const r = i % 4 === 0 ? p.eval({ self: JSON.parse(text).self }) : p.eval(text);
      const want = i % 2 === 0 ? `["a-${i}","b${i}-${i}"]` : `["a-${i}"]`;
      if (r.json !== want) assert.fail(`eval ${i}: ${r.json}, want ${want}`);
      if (i % 4 === 0) assert.equal(r.value.length, i % 2 === 0 ? 2 : 1);
    }
  };
  run(0, 5_000); // inline caches and optimized code settle first
  globalThis.gc();
  const before = process.memoryUsage().heapUsed;
  run(5_000, 40_000);
  globalThis.gc();
  const grown = process.memoryUsage().heapUsed - before;
  assert.ok(grown < 256 * 1024, `live heap grew ${grown} bytes over 40,000 evaluations`);
  p.free();
});

test('bad input never crashes: typed errors for every malformed request', () => {
  const p = rt.compile('x', { variables: { x: 'dyn' } });
  assert.throws(() => p.eval('{"x": '), (e) => e.code === 'invalid_activation');
  assert.throws(() => p.eval('[1]'), (e) => e.code === 'invalid_activation');
  assert.throws(() => p.eval('{"x":' + '['.repeat(20_000) + ']'.repeat(20_000) + '}'), (e) => e.code === 'invalid_activation');
  assert.throws(() => p.eval({ x: () => 1 }), (e) => e.code === 'invalid_argument');
  assert.throws(() => p.eval({ x: Symbol('s') }), (e) => e.code === 'invalid_argument');
  assert.throws(() => p.eval(42), (e) => e.code === 'invalid_argument');
  assert.throws(() => rt.env().compile(42), (e) => e.code === 'invalid_argument');
  assert.throws(() => rt.compile('\u0000'), (e) => e.code === 'compile_error');
  assert.throws(() => rt.env({ variables: { x: 'dyn' } }).compile('x.' + 'a.'.repeat(50_000) + 'b'), (e) => e instanceof CelError);
  // A large activation grows the request buffer (and the guest memory) without trouble.
  const big = { x: { s: 'x'.repeat(3_000_000), a: Array.from({ length: 50_000 }, (_, i) => i) } };
  assert.equal(rt.compile('size(x.s) + size(x.a)', { variables: { x: 'dyn' } }).eval(big).value, 3_050_000n);
  // The raw ABI reports malformed requests as bad_request.
  assert.match(new TextDecoder().decode(rt.raw('compile', '{"expression": 1}')), /"code":"bad_request"/);
  assert.match(new TextDecoder().decode(rt.raw('eval', '{"program":999999}')), /"code":"unknown_program"/);
  assert.equal(rt.rawFree(999999), false);
});

test('a trapped instance is replaced and programs are compiled again in the new one', async () => {
  const own = await loadRuntime({ wasm: rt.module });
  const p = own.compile('x + 1', { variables: { x: 'int' } });
  assert.equal(p.eval({ x: 1 }).value, 2n);
  // Corrupt the guest's heap: the next call traps for real inside WebAssembly.
  new Uint8Array(own.core.memoryForTesting().buffer).fill(0xff, 4 << 20);
  assert.throws(() => p.eval({ x: 2 }), (e) => e instanceof CelError && e.code === 'trap' && /instance failed/.test(e.message));
  assert.equal(own.replacements, 0);
  assert.equal(p.eval({ x: 3 }).value, 4n);
  assert.equal(own.replacements, 1);
  own.close();
  assert.throws(() => p.eval({ x: 1 }), (e) => e.code === 'closed');
});

test('loading from bytes, a path and a URL; a missing file is load_failed', async () => {
  const wasmUrl = new URL('../../dist/celwasm.wasm', import.meta.url);
  const fromBytes = await Runtime.load({ wasm: readFileSync(wasmUrl) });
  assert.equal(fromBytes.compile('1', { base: 'cel' }).eval().value, 1n);
  fromBytes.close();
  const fromPath = await Runtime.load({ wasm: wasmUrl.pathname });
  fromPath.close();
  await assert.rejects(Runtime.load({ wasm: '/nonexistent/celwasm.wasm' }), (e) => e instanceof CelError && e.code === 'load_failed');
  await assert.rejects(Runtime.load({ wasm: new Uint8Array([0, 97, 115, 109]) }), (e) => e.code === 'load_failed');
});

test('function declarations type-check; errorOnBadPresenceTest follows the spec', () => {
  const env = rt.env({
    base: 'cel',
    variables: { x: 'dyn' },
    functions: [{ name: 'shout', overloads: [{ id: 'string_shout', args: ['string'], result: 'string', member: true }] }],
  });
  const p = env.compile("'a'.shout()");
  assert.equal(p.outputType, 'string');
  assert.throws(() => p.eval(), (e) => e.code === 'eval_error');
  assert.throws(() => env.compile('1.shout()'), CompileError);
  assert.equal(rt.compile('has(x.f)', { base: 'cel', variables: { x: 'dyn' } }).eval({ x: 1 }).value, false);
  assert.throws(() => rt.compile('has(x.f)', { base: 'cel', variables: { x: 'dyn' }, errorOnBadPresenceTest: true }).eval({ x: 1 }), (e) => e.code === 'eval_error');
});

test('the declarative authorizer is a typed object value', () => {
  const p = rt.compile("authorizer.group('apps').resource('deployments').namespace('shop').check('delete').allowed()", {
    variables: { authorizer: 'kubernetes.authorization.Authorizer' },
  });
  const table = (decision) => new CelObject('kubernetes.authorization.Authorizer', {
    user: { name: 'alice' },
    rules: [{ apiGroup: 'apps', resource: 'deployments', namespace: 'shop', verb: 'delete', decision }],
  });
  assert.equal(p.eval({ authorizer: table('allow') }).value, true);
  assert.equal(p.eval({ authorizer: table('deny') }).value, false);
});
