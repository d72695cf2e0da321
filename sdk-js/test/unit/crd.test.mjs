// CustomResourceDefinition validation (Runtime.crd → CRD.validate / CRD.cost, and the Worker's
// WorkerCRD) compared with the Go host (github.com/celwasm/celwasm/host: NewCRD, Validate, Cost)
// over the CRD corpus of conformance/testdata/crd — its CRDs, creates and updates, the real CRDs
// it fetches into the Go module cache (gateway-api, karpenter), the CRDs kube-apiserver rejects —
// and over bad input. conformance/cmd/gohost reads the corpus as the differential test does
// (conformance/crdref) and runs every case through the Go host; nothing below is an expected value
// typed by hand. Each SDK answer, written as Go's json.Marshal writes the Go host's structs, must
// be byte for byte the Go host's.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Runtime, WorkerRuntime, CelError, InvalidCRDError } from '../../dist/node.js';
import { goRawJson, parseCostResponse } from '../../dist/crd.js';

const repo = fileURLToPath(new URL('../../../', import.meta.url));
const wasm = fileURLToPath(new URL('../../dist/celwasm.wasm', import.meta.url));

let rt;
let work;
let gohost;
let corpus;
let cases; // name → { input, go }

/** The Go driver: CELWASM_GO_HOST (make -C sdk-js test builds it once), or built here. */
function goHostBinary() {
  let bin = process.env.CELWASM_GO_HOST;
  if (!bin) {
    bin = join(work, 'gohost');
    execFileSync('go', ['build', '-buildvcs=false', '-o', bin, './conformance/cmd/gohost'], { cwd: repo, stdio: ['ignore', 'inherit', 'inherit'] });
  }
  return bin;
}

// --- Go's encoding/json, for comparing the SDK's answers with the Go host's bytes ---------------

const GO_SHORT = { '"': '\\"', '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\b': '\\b', '\f': '\\f' };

/** A string as json.Marshal writes it: HTML characters, U+2028/U+2029 and control characters
 * escaped, lone surrogates (invalid UTF-8 to Go) as U+FFFD. */
function goString(s) {
  return (
    '"' +
    s.replace(/["\\\u0000-\u001f<>&\u2028\u2029]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, (c) => {
      if (GO_SHORT[c]) return GO_SHORT[c];
      if (c >= '\ud800' && c <= '\udfff') return '\\ufffd';
      return '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0');
    }) +
    '"'
  );
}

/**
 * json.Marshal of an SDK answer, in the Go host's struct order — which is the module's member
 * order, kept by JSON.parse. A per-object CelError is {"error": E} (E: the Go host's *Error); a
 * schema without rules is `"rules":null`, as the Go host's nil slice marshals.
 */
function goMarshal(v, key) {
  if (v === null || v === undefined) return 'null';
  if (v instanceof CelError) return goMarshal({ error: errorShape(v) });
  switch (typeof v) {
    case 'string':
      return goString(v);
    case 'bigint':
      return v.toString();
    case 'number':
      assert.ok(Number.isFinite(v));
      return String(v);
    case 'boolean':
      return String(v);
  }
  if (Array.isArray(v)) {
    if (v.length === 0 && key === 'rules') return 'null';
    return '[' + v.map((x) => goMarshal(x)).join(',') + ']';
  }
  return '{' + Object.keys(v).filter((k) => v[k] !== undefined).map((k) => goString(k) + ':' + goMarshal(v[k], k)).join(',') + '}';
}

/** An error as the Go host's *Error marshals it. */
function errorShape(e) {
  assert.ok(e instanceof CelError, `not a CelError: ${e}`);
  const o = { code: e.code, message: e.message };
  if (e.cost !== undefined) o.cost = e.cost;
  return o;
}

/** A failed call as gohost writes it: {"error": E, "fieldErrors": [...]}. */
function failureShape(e) {
  const o = { error: errorShape(e) };
  if (e instanceof InvalidCRDError && e.fieldErrors.length > 0) o.fieldErrors = e.fieldErrors;
  return o;
}

// --- the corpus as cases -------------------------------------------------------------------------

const groupKind = (doc) => {
  const o = JSON.parse(doc);
  return [o.spec?.group ?? '', o.spec?.names?.kind ?? ''];
};

/** group, kind, namespace, name of an object (the Go CLI's keyOf). */
function keyOf(doc) {
  let o;
  try {
    o = JSON.parse(doc);
  } catch {
    return null;
  }
  if (!o || typeof o !== 'object' || Array.isArray(o)) return null;
  const av = typeof o.apiVersion === 'string' ? o.apiVersion : '';
  const i = av.lastIndexOf('/');
  return { group: i >= 0 ? av.slice(0, i) : '', kind: o.kind ?? '', namespace: o.metadata?.namespace ?? '', name: o.metadata?.name ?? '' };
}
const keyString = (k) => JSON.stringify([k.group, k.kind, k.namespace, k.name]);

/** The stored object an update replaces, paired as the Go CLI pairs them (a namespaced object
 * without a namespace is in "default"). */
function lookupOld(olds, k) {
  const exact = olds.get(keyString(k));
  if (exact !== undefined) return exact;
  const alt = { ...k, namespace: k.namespace === '' ? 'default' : k.namespace === 'default' ? '' : k.namespace };
  return olds.get(keyString(alt));
}

const docsOf = (files) => files.flatMap((f) => f.docs);

function corpusCases() {
  const out = [];
  for (const c of corpus) {
    const olds = new Map();
    for (const d of docsOf(c.updates?.old ?? [])) {
      const k = keyOf(d);
      if (k) olds.set(keyString(k), d);
    }
    docsOf(c.crds).forEach((crd, ci) => {
      const [group, kind] = groupKind(crd);
      const mine = (d) => {
        const k = keyOf(d);
        return k && k.group === group && k.kind === kind ? k : null;
      };
      const creates = docsOf([...c.valid, ...c.invalid]).filter(mine).map((d) => ({ object: d }));
      const updates = docsOf([...(c.updates?.valid ?? []), ...(c.updates?.invalid ?? [])])
        .filter(mine)
        .map((d) => ({ object: d, oldObject: lookupOld(olds, mine(d)) }));
      const name = `${c.name}/${ci}:${kind}`;
      // A CRD kube-apiserver rejects is still sent with no objects: the module checks it first.
      out.push({ name, creates: creates.length, updates: updates.length, input: { crd, validate: true, objects: [...creates, ...updates], cost: true } });
      const versions = JSON.parse(crd).spec?.versions?.map((v) => v.name) ?? [];
      if (versions.length > 1 && !c.crdErrors) {
        // Another version than the objects': converted as kube-apiserver converts without a
        // webhook; and that version's schema alone in the cost report.
        const version = versions.at(-1);
        out.push({ name: `${name}@${version}`, input: { crd, version, validate: true, objects: [...creates, ...updates].slice(0, 8), cost: true } });
      }
    });
  }
  return out;
}

const kepCase = () => corpus.find((c) => c.name === 'kep');

/** Bad input: CRDs that are not usable CRDs, objects the module cannot validate, arguments
 * neither host can send. */
function badCases() {
  const kep = kepCase();
  const kepCRD = kep.crds[0].docs[0];
  const valid = kep.valid[0].docs[0];
  const gw = corpus.find((c) => c.name === 'gateway-api');
  const httproute = docsOf(gw.crds).find((d) => groupKind(d)[1] === 'HTTPRoute');
  // A document of the gateway-api examples that is not a gateway-api kind (a Service, ...).
  const foreign = docsOf(gw.valid).find((d) => keyOf(d)?.group !== 'gateway.networking.k8s.io');
  const objects = [
    '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cm"}}',
    '[1]',
    '"a string"',
    '42',
    'null',
    '{"metadata":{"name":"x"}}',
    '{"apiVersion":"example.com/v2","kind":"WebApp","metadata":{"name":"a"}}',
    '{"apiVersion":"example.com/v1","kind":"WebApp","metadata":{"name":7}}',
    valid,
  ].map((o) => ({ object: o }));
  return [
    { name: 'bad:crd not JSON', input: { crd: '{"apiVersion": ', validate: true, objects: [{ object: valid }], cost: true } },
    { name: 'bad:crd YAML text', input: { crd: 'apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\n', validate: true, objects: [], cost: true } },
    { name: 'bad:crd v1beta1', input: { crd: '{"apiVersion":"apiextensions.k8s.io/v1beta1","kind":"CustomResourceDefinition"}', validate: true, objects: [{ object: valid }], cost: true } },
    { name: 'bad:crd ConfigMap', input: { crd: '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cm"},"data":{"a":"b"}}', validate: true, objects: [], cost: true } },
    { name: 'bad:crd array', input: { crd: '[{"kind":"CustomResourceDefinition"}]', validate: true, objects: [], cost: true } },
    { name: 'bad:crd null', input: { crd: 'null', validate: true, objects: [], cost: true } },
    { name: 'bad:crd no versions', input: { crd: '{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"xs.example.com"},"spec":{"group":"example.com","names":{"kind":"X","plural":"xs"},"scope":"Namespaced"}}', validate: true, objects: [], cost: true } },
    { name: 'bad:crd wrong field type', input: { crd: '{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"xs.example.com"},"spec":{"group":5}}', validate: true, objects: [], cost: true } },
    { name: 'bad:objects', input: { crd: kepCRD, validate: true, objects, cost: false } },
    { name: 'bad:object of another kind (gateway-api)', input: { crd: httproute, validate: true, objects: [{ object: foreign }, { object: foreign, oldObject: foreign }] } },
    { name: 'bad:object not JSON', input: { crd: kepCRD, validate: true, objects: [{ object: valid }, { object: '{"apiVersion":' }] } },
    { name: 'bad:oldObject not an object', input: { crd: kepCRD, validate: true, objects: [{ object: valid, oldObject: '[]' }] } },
    { name: 'bad:version', input: { crd: kepCRD, version: 'v9', validate: true, objects: [{ object: valid }], cost: true } },
    { name: 'bad:no objects', input: { crd: kepCRD, validate: true, objects: [] } },
  ];
}

before(async () => {
  work = mkdtempSync(join(tmpdir(), 'celwasm-js-crd-'));
  gohost = goHostBinary();
  rt = await Runtime.load();
  corpus = execFileSync(gohost, ['-crd-corpus', join(repo, 'conformance', 'testdata', 'crd')], { maxBuffer: 256 << 20 })
    .toString('utf8')
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l));
  const all = [...corpusCases(), ...badCases()];
  // One Go host runtime (wasmtime-go: the same bytes as wazero, faster at compiling CRDs).
  const out = execFileSync(gohost, ['-module', wasm, '-engine', 'wasmtime'], {
    input: all.map((c) => JSON.stringify(c.input)).join('\n') + '\n',
    maxBuffer: 1 << 30,
  })
    .toString('utf8')
    .trimEnd()
    .split('\n');
  assert.equal(out.length, all.length);
  cases = new Map(all.map((c, i) => [c.name, { ...c, go: JSON.parse(out[i]) }]));
});
after(() => {
  rt?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

/** Runs a case's validate and cost through a CRD (main thread or Worker) and returns the answers
 * as Go marshals them. */
async function sdkAnswers(newCRD, input, { objectsAsData = false } = {}) {
  const out = {};
  let crd;
  let argError;
  try {
    crd = newCRD(objectsAsData ? JSON.parse(input.crd) : input.crd);
  } catch (e) {
    argError = e; // invalid_argument: the Go host fails the call instead
  }
  const run = async (f) => {
    if (argError) return goMarshal(failureShape(argError));
    try {
      return goMarshal(await f());
    } catch (e) {
      return goMarshal(failureShape(e));
    }
  };
  const options = input.version ? { version: input.version } : undefined;
  if (input.validate) {
    const objects = input.objects.map((o) => {
      const x = { object: objectsAsData ? JSON.parse(o.object) : o.object };
      if (o.oldObject) x.oldObject = objectsAsData ? JSON.parse(o.oldObject) : o.oldObject;
      return x;
    });
    out.validate = await run(() => crd.validate(objects, options));
  }
  if (input.cost) out.cost = await run(() => crd.cost(options));
  return out;
}

/** Compares with the Go host: byte for byte, except an invalid_argument's message (Go's JSON
 * parser words it). */
function assertSameAsGo(name, got, want) {
  for (const k of ['validate', 'cost']) {
    if (want[k] === undefined) {
      assert.equal(got[k], undefined, `${name}: ${k}`);
      continue;
    }
    const w = JSON.parse(want[k]);
    if (w.error?.code === 'invalid_argument') {
      assert.equal(JSON.parse(got[k]).error?.code, 'invalid_argument', `${name}: ${k}: ${got[k]}`);
      continue;
    }
    assert.equal(got[k], want[k], `${name}: ${k}`);
  }
}

test('the corpus: every CRD, create and update gives the Go host\'s answer, byte for byte', async () => {
  let creates = 0;
  let updates = 0;
  let compared = 0;
  for (const c of cases.values()) {
    if (c.name.startsWith('bad:')) continue;
    const got = await sdkAnswers((crd) => rt.crd(crd), c.input);
    assertSameAsGo(c.name, got, c.go);
    creates += c.creates ?? 0;
    updates += c.updates ?? 0;
    compared++;
  }
  // As the differential test demands of the corpus (conformance/crd): it must keep exercising
  // what it was built for.
  assert.ok(compared >= 19 && creates >= 140 && updates >= 32, `${compared} cases, ${creates} creates, ${updates} updates`);
  // What the Go host answered covers the shapes: invalid objects with rule errors attributed to
  // their rule, warnings, celSkipped, costExceeded, updates, rejected CRDs with field errors,
  // rules over the limit with fixes, schemas without rules.
  const text = [...cases.values()].map((c) => (c.go.validate ?? '') + (c.go.cost ?? '')).join('\n');
  for (const needle of ['"valid":false', '"rule":{"schemaPath"', '"warnings":[', '"celSkipped":true', '"costExceeded":true', '"operation":"update"',
    '"fieldErrors":[', '"exceeds":true', '"fixes":[', '"combinedFix":[', '"rules":null', '"code":"invalid_crd"', '"unknownSizes":[', '"runsFromRequestSize":true']) {
    assert.ok(text.includes(needle), needle);
  }
});

test('CRDs and objects as plain data: the same bytes reach the module (same sha256, same answers)', async () => {
  for (const c of cases.values()) {
    if (!c.name.startsWith('kep/') && !c.name.startsWith('budget/') && !c.name.startsWith('karpenter/')) continue;
    const got = await sdkAnswers((crd) => rt.crd(crd), c.input, { objectsAsData: true });
    assertSameAsGo(c.name, got, c.go);
  }
});

test('bad input: typed errors with the module\'s codes, as the Go host', async () => {
  for (const c of cases.values()) {
    if (!c.name.startsWith('bad:')) continue;
    assertSameAsGo(c.name, await sdkAnswers((crd) => rt.crd(crd), c.input), c.go);
  }
  const kep = kepCase();
  const crd = rt.crd(kep.crds[0].docs[0]);
  // A CRD kube-apiserver would reject: InvalidCRDError with its field errors (kubectl's lines).
  const nonstructural = corpus.find((c) => c.name === 'nonstructural').crds[0].docs[0];
  assert.throws(
    () => rt.crd(nonstructural).validate([{ object: kep.valid[0].docs[0] }]),
    (e) => e instanceof InvalidCRDError && e.code === 'invalid_crd' && e.fieldErrors.length === 2 &&
      e.fieldErrors.every((f) => f.field.startsWith('spec.validation.openAPIV3Schema.') && /^Field/.test(f.type) && f.message !== ''),
  );
  // ... while cost reports it: valid false, the same errors.
  const rep = rt.crd(nonstructural).cost();
  assert.equal(rep.valid, false);
  assert.deepEqual(rep.errors.map((f) => f.field), rt.crd(nonstructural).cost().errors.map((f) => f.field));
  // Not a CRD at all: invalid_crd without field errors.
  assert.throws(() => rt.crd({ apiVersion: 'v1', kind: 'ConfigMap' }).cost(), (e) => e instanceof InvalidCRDError && e.fieldErrors.length === 0);
  // Objects of the wrong kind, not objects, unknown versions: per-object invalid_object.
  const v = crd.validate([
    { object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm' } } },
    { object: [1] },
    { object: { apiVersion: 'example.com/v2', kind: 'WebApp', metadata: { name: 'a' } } },
    { object: kep.valid[0].docs[0] },
  ]);
  assert.deepEqual(v.results.slice(0, 3).map((r) => r instanceof CelError && r.code), ['invalid_object', 'invalid_object', 'invalid_object']);
  assert.ok(!(v.results[3] instanceof CelError) && v.results[3].valid === true);
  // Arguments neither host can send: invalid_argument before the module is called.
  for (const bad of ['{', 'apiVersion: v1', 42n, undefined, () => 1, { a: new Date() }]) {
    assert.throws(() => rt.crd(bad), (e) => e instanceof CelError && e.code === 'invalid_argument', String(bad));
  }
  assert.throws(() => crd.validate([{ object: '{' }]), (e) => e.code === 'invalid_argument');
  assert.throws(() => crd.validate({ object: '{}' }), (e) => e.code === 'invalid_argument');
  assert.throws(() => crd.validate([{ obj: '{}' }]), (e) => e.code === 'invalid_argument');
  assert.throws(() => crd.validate([{ object: '{}', oldObject: 1n }]), (e) => e.code === 'invalid_argument');
});

test('typed answers: exact bigint estimates, numbers for actual costs', () => {
  const kep = kepCase();
  const crd = rt.crd(kep.crds[0].docs[0]);
  const rep = crd.cost();
  assert.equal(rep.valid, true);
  assert.equal(typeof rep.schemas[0].totalCost, 'bigint');
  assert.equal(rep.schemas[0].totalLimit, 100_000_000n);
  for (const r of rep.schemas[0].rules) {
    assert.equal(r.cost, r.perCall * r.cardinality, r.path);
    assert.equal(r.limit, 10_000_000n);
  }
  const v = crd.validate(kep.invalid[0].docs.map((object) => ({ object })));
  const r = v.results.find((x) => !(x instanceof CelError) && !x.valid && x.errors?.some((e) => e.rule));
  assert.equal(typeof r.cost, 'number');
  assert.equal(r.costBudget, 10_000_000);
  assert.equal(r.reason, 'Invalid');
  assert.equal(r.code, 422);
  // Saturated estimates (2^64−1) stay exact.
  const expensive = rt.crd(corpus.find((c) => c.name === 'expensive').crds[0].docs[0]).cost();
  assert.equal(expensive.valid, false);
  assert.equal(expensive.schemas[0].totalCost, 2n ** 64n - 1n);
  const big = parseCostResponse(new TextEncoder().encode(
    '{"crd":{"name":"a"},"valid":true,"schemas":[{"versions":["v1"],"path":"p","totalCost":18446744073709551615,"totalLimit":100000000,"rules":[{"path":"p","node":"n","expression":"e \\"cost\\",\\"cost\\":5","kind":"rule","cost":18446744073709551614,"limit":10000000,"perCall":9007199254740993,"cardinality":2,"explanation":{"summary":"s","fixes":[{"path":"p","set":"maxItems","value":-9223372036854775808,"current":9223372036854775807,"cost":1}]}}]}]}',
  ));
  const rule = big.schemas[0].rules[0];
  assert.equal(big.schemas[0].totalCost, 18446744073709551615n);
  assert.equal(rule.cost, 18446744073709551614n);
  assert.equal(rule.perCall, 9007199254740993n);
  assert.equal(rule.expression, 'e "cost","cost":5');
  assert.equal(rule.explanation.fixes[0].value, -9223372036854775808n);
  assert.equal(rule.explanation.fixes[0].current, 9223372036854775807n);
  assert.deepEqual(parseCostResponse(new TextEncoder().encode('{"crd":{},"valid":true,"schemas":[{"versions":["v1"],"path":"p","totalCost":0,"totalLimit":1,"rules":null}]}')).schemas[0].rules, []);
  // The CRD's JSON is sent as the Go host's json.Marshal writes it.
  assert.equal(goRawJson('{ "a" : "<b> & \u2028" ,\n "c": [1, 2] }', 'x'), '{"a":"\\u003cb\\u003e \\u0026 \\u2028","c":[1,2]}');
  assert.equal(crd.json, goRawJson(JSON.parse(kep.crds[0].docs[0]), 'crd'));
});

test('the Worker runtime validates and reports costs with the same answers', async () => {
  const w = await WorkerRuntime.load({ wasm: rt.module });
  try {
    for (const c of cases.values()) {
      if (!c.name.startsWith('kep/') && !c.name.startsWith('budget/') && !c.name.startsWith('bad:')) continue;
      assertSameAsGo('worker ' + c.name, await sdkAnswers((crd) => w.crd(crd), c.input), c.go);
    }
    // A timeout stops a long first compilation: the Worker is replaced.
    const httproute = docsOf(corpus.find((x) => x.name === 'gateway-api').crds).find((d) => groupKind(d)[1] === 'HTTPRoute');
    const before = w.replacements;
    await assert.rejects(w.crd(httproute).cost({ timeoutMs: 1 }), (e) => e instanceof CelError && e.code === 'deadline_exceeded');
    assert.equal(w.replacements, before + 1);
    const kep = kepCase();
    const v = await w.crd(JSON.parse(kep.crds[0].docs[0])).validate([{ object: JSON.parse(kep.valid[0].docs[0]) }]);
    assert.equal(v.results[0].valid, true);
    await assert.rejects(w.crd('null').cost(), (e) => e instanceof CelError && e.code === 'bad_request');
  } finally {
    w.close();
  }
});
