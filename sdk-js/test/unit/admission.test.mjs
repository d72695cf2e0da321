// Admission policies (Runtime.admit, WorkerRuntime.admit) compared with the Go CLI: each case is
// one `celwasm admit ... -o json` run and the same request through the SDK; the SDK's results,
// written as the Go CLI writes them (json.Marshal of the Go host's AdmitResult, then the CLI's
// indenting encoder), must be its stdout byte for byte. The policies are wasm/admission's test
// policies (demoPolicy, sidecarPolicy) and one with Warn/Audit actions, messageExpression,
// variables and RBAC objects (test/fixtures/admission). Nothing below is an expected value typed by
// hand but the typed errors' codes.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';
import { Runtime, WorkerRuntime, CelError, InvalidPolicyError } from '../../dist/node.js';
import { admitRequest, parseAdmitResponse } from '../../dist/admission.js';

const repo = fileURLToPath(new URL('../../../', import.meta.url));
const fixtures = fileURLToPath(new URL('../fixtures/admission/', import.meta.url));
const fx = (name) => join(fixtures, name);

let rt;
let work;
let cli;

/** The Go CLI: CELWASM_GO_CLI (make -C sdk-js unit sets build/celwasm), or built here. */
function goCLI() {
  let bin = process.env.CELWASM_GO_CLI;
  if (!bin) {
    bin = join(work, 'celwasm');
    execFileSync('go', ['build', '-buildvcs=false', '-o', bin, './cmd/celwasm'], { cwd: repo, stdio: ['ignore', 'inherit', 'inherit'] });
  }
  return bin;
}

/** The documents of a YAML file, as plain data (kind: List is not used here). */
const docs = (name) => parseAllDocuments(readFileSync(fx(name), 'utf8')).map((d) => d.toJSON()).filter((d) => d !== null);

// --- the Go CLI's -o json: json.Marshal, then wasm/input.Indent ---------------------------------

const GO_SHORT = { '"': '\\"', '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\b': '\\b', '\f': '\\f' };

/** A string as Go's encoder writes it without HTML escaping: control characters, U+2028 and
 * U+2029 escaped, lone surrogates (invalid UTF-8 to Go) as U+FFFD. */
function goString(s) {
  return (
    '"' +
    s.replace(/["\\\u0000-\u001f\u2028\u2029]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, (c) => {
      if (GO_SHORT[c]) return GO_SHORT[c];
      if (c >= '\ud800' && c <= '\udfff') return '\\ufffd';
      return '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0');
    }) +
    '"'
  );
}

/** The Go CLI's writeJSON of a value whose members are in the Go structs' order (the module's,
 * which JSON.parse keeps): two-space indent, `[]` and `{}` for empty ones, a final line break. */
function goIndent(v, prefix = '') {
  if (v === null) return 'null';
  switch (typeof v) {
    case 'string':
      return goString(v);
    case 'number':
      assert.ok(Number.isInteger(v), `a float in an admission answer: ${v}`);
      return String(v);
    case 'boolean':
      return String(v);
  }
  const inner = prefix + '  ';
  if (Array.isArray(v)) {
    if (v.length === 0) return '[]';
    return '[\n' + v.map((x) => inner + goIndent(x, inner)).join(',\n') + '\n' + prefix + ']';
  }
  const keys = Object.keys(v).filter((k) => v[k] !== undefined);
  if (keys.length === 0) return '{}';
  return '{\n' + keys.map((k) => inner + goString(k) + ': ' + goIndent(v[k], inner)).join(',\n') + '\n' + prefix + '}';
}

const cliJSON = (results) => goIndent(results) + '\n';

function runCLI(args) {
  const p = spawnSync(cli, ['admit', '--engine', 'wasmtime', ...args], { encoding: 'utf8', cwd: fixtures, maxBuffer: 64 << 20 });
  return { status: p.status, stdout: p.stdout, stderr: p.stderr };
}

// --- cases: the CLI's arguments and the request it sends (cmd/celwasm/admit.go) ------------------

const deployments = () => docs('deployments.yaml');
const pod = () => docs('pod.yaml');

const cases = () => [
  {
    name: 'demo policy: CREATE, one allowed and mutated, one denied',
    args: ['-f', 'demo-policy.yaml', '-o', 'json', 'deployments.yaml'],
    request: { documents: docs('demo-policy.yaml'), requests: deployments().map((object) => ({ object })) },
  },
  {
    name: 'sidecar policy: a param ConfigMap, merged by name beside the init container',
    args: ['-f', 'sidecar-policy.yaml', '-o', 'json', 'pod.yaml'],
    request: { documents: docs('sidecar-policy.yaml'), requests: pod().map((object) => ({ object })) },
  },
  {
    name: 'demo policy: UPDATE of the stored objects (--old)',
    args: ['-f', 'demo-policy.yaml', '--old', 'deployments.yaml', '-o', 'json', 'deployments.yaml'],
    // The CLI pairs objects by kind, namespace and name: both have the second as the old one.
    request: { documents: docs('demo-policy.yaml'), requests: deployments().map((object) => ({ object, oldObject: deployments()[1] })) },
  },
  {
    name: 'warn policy: Warn and Audit, messageExpression, variables, RBAC objects, a user',
    args: ['-f', 'warn-policy.yaml', '--user', 'alice', '--group', 'deployers', '--group', 'system:authenticated', '-o', 'json', 'deployments.yaml'],
    request: {
      documents: docs('warn-policy.yaml'),
      requests: deployments().map((object) => ({ object })),
      user: 'alice',
      groups: ['deployers', 'system:authenticated'],
    },
  },
  {
    name: 'both policies: DELETE (object null, the old object given)',
    args: ['-f', 'demo-policy.yaml', '-f', 'warn-policy.yaml', '--operation', 'DELETE', '-o', 'json', 'deployments.yaml'],
    request: {
      documents: [...docs('demo-policy.yaml'), ...docs('warn-policy.yaml')],
      requests: deployments().map((object) => ({ operation: 'DELETE', oldObject: object })),
    },
  },
  {
    name: 'annotate policy: a param\'s data applied as annotations, then a JSONPatch',
    args: ['-f', 'annotate-policy.yaml', '-o', 'json', 'deployments.yaml'],
    request: { documents: docs('annotate-policy.yaml'), requests: deployments().map((object) => ({ object })) },
  },
  {
    name: 'a kind no policy matches, in the namespace given, at a compatibility version',
    args: ['-f', 'demo-policy.yaml', '--namespace-name', 'team-a', '--compatibility-version', '1.34', '-o', 'json', 'pod.yaml'],
    request: { documents: docs('demo-policy.yaml'), requests: pod().map((object) => ({ object, namespace: 'team-a' })), compatibilityVersion: '1.34' },
  },
];

before(async () => {
  work = mkdtempSync(join(tmpdir(), 'celwasm-js-admit-'));
  cli = goCLI();
  rt = await Runtime.load();
});
after(() => {
  rt?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

test('admit: every case gives the Go CLI\'s -o json output, byte for byte', () => {
  const seen = [];
  for (const c of cases()) {
    const go = runCLI(c.args);
    assert.ok(go.status === 0 || go.status === 1, `${c.name}: the Go CLI exited ${go.status}: ${go.stderr}`);
    const resp = rt.admit(c.request);
    assert.equal(cliJSON(resp.results), go.stdout, c.name);
    // The CLI's exit status is the SDK's decision: 1 when any request is denied.
    assert.equal(go.status, resp.results.some((r) => !r.allowed) ? 1 : 0, c.name);
    seen.push(go.stdout);
  }
  // The cases cover what admission answers: allowed and denied, a patched object, warnings, audit
  // annotations, a Status reason and code, a result nothing matched.
  const text = seen.join('\n');
  for (const needle of ['"allowed": true', '"allowed": false', '"patchedObject": {', '"patchedObject": null', '"reason": "', '"code": 4',
    '"warnings": [\n', '"auditAnnotations": {\n', '"auditAnnotations": {}', 'mesh/proxy:v1.0.0', 'is forbidden: ValidatingAdmissionPolicy ']) {
    assert.ok(text.includes(needle), needle);
  }
});

test('admit: objects as JSON text and as data send the same request (the Go host\'s bytes)', () => {
  const c = cases()[0];
  const asText = {
    documents: c.request.documents.map((d) => JSON.stringify(d, null, 2)),
    requests: c.request.requests.map((r) => ({ object: JSON.stringify(r.object) })),
  };
  assert.equal(admitRequest(asText), admitRequest(c.request));
  assert.deepEqual(rt.admit(asText), rt.admit(c.request));
  // json.Marshal of wire.AdmitRequest: omitempty members left out, `<>&` escaped in strings.
  assert.equal(
    admitRequest({ documents: ['{ "a" : "<&>" }'], requests: [{ operation: 'DELETE', oldObject: { b: 1 } }, {}], user: 'u<', groups: ['g'], compatibilityVersion: '1.36' }),
    '{"documents":[{"a":"\\u003c\\u0026\\u003e"}],"requests":[{"operation":"DELETE","oldObject":{"b":1}},{}],"user":"u\\u003c","groups":["g"],"compatibilityVersion":"1.36"}',
  );
});

test('admit: the Worker runtime gives the same answers', async () => {
  const w = await WorkerRuntime.load({ wasm: rt.module, admissionWasm: rt.admissionRuntime().module });
  try {
    for (const c of cases().slice(0, 2)) assert.deepEqual(await w.admit(c.request), rt.admit(c.request), c.name);
    await assert.rejects(w.admit({ documents: ['[1]'], requests: [] }), (e) => e instanceof CelError && e.code === 'invalid_object');
  } finally {
    w.close();
  }
});

test('admit: the expression module answers needs_module; celwasm-admission is loaded once, by the first admit', async () => {
  const fresh = await Runtime.load({ wasm: rt.module, admissionWasm: rt.admissionRuntime().module });
  try {
    const raw = JSON.parse(new TextDecoder().decode(fresh.raw('admit', admitRequest(cases()[0].request))));
    assert.equal(raw.error.code, 'needs_module');
    assert.equal(raw.error.module, 'celwasm-admission');
    assert.equal(fresh.admissionLoaded, false);
    assert.equal(fresh.admit(cases()[0].request).results.length, 2);
    assert.equal(fresh.admissionLoaded, true);
    assert.equal(fresh.fullLoaded, false);
  } finally {
    fresh.close();
  }
  assert.throws(() => fresh.admit(cases()[0].request), (e) => e instanceof CelError && e.code === 'closed');
});

test('admit: a browser-like source that cannot be compiled synchronously asks for loadAdmission', async () => {
  const admissionWasm = Promise.resolve(new URL('../../dist/celwasm-admission.wasm', import.meta.url));
  const b = await Runtime.load({ wasm: rt.module, admissionWasm });
  try {
    const request = cases()[0].request;
    assert.throws(() => b.admit(request), (e) => e instanceof CelError && e.code === 'needs_module' && e.module === 'celwasm-admission' && /loadAdmission\(\)/.test(e.message));
    await b.loadAdmission();
    assert.deepEqual(b.admit(request), rt.admit(request));
  } finally {
    b.close();
  }
});

test('bad input: typed errors, with the Go CLI\'s messages', () => {
  const policies = docs('demo-policy.yaml');
  const bad = [
    // A request object that is not an object, one of a kind no resource serves, a document that
    // is not an object: the module's invalid_object, as the Go CLI prints it ("error: MESSAGE", exit 2).
    { stdin: '[1]\n', request: { documents: policies, requests: [{ object: '[1]' }] } },
    { stdin: '{"apiVersion":"v1","kind":"Frob","metadata":{"name":"x"}}\n', request: { documents: policies, requests: [{ object: { apiVersion: 'v1', kind: 'Frob', metadata: { name: 'x' } } }] } },
    { stdin: '"just a string"\n', request: { documents: policies, requests: [{ object: '"just a string"' }] } },
  ];
  for (const b of bad) {
    const p = spawnSync(cli, ['admit', '--engine', 'wasmtime', '-f', 'demo-policy.yaml', '-'], { input: b.stdin, encoding: 'utf8', cwd: fixtures });
    assert.equal(p.status, 2, p.stderr);
    assert.throws(
      () => rt.admit(b.request),
      (e) => e instanceof CelError && e.code === 'invalid_object' && p.stderr === `error: ${e.message}\n`,
      p.stderr,
    );
  }
  // A document that is not an object.
  for (const d of ['[1]', '42', 'null', '{"metadata":{"name":"x"}}']) {
    assert.throws(() => rt.admit({ documents: [d], requests: [] }), (e) => e instanceof CelError && e.code === 'invalid_object' && /^documents\[0\]: /.test(e.message), d);
  }
  // Invalid JSON: neither host can send it (the Go CLI: not JSON or YAML, exit 2).
  const p = spawnSync(cli, ['admit', '--engine', 'wasmtime', '-f', '-', 'deployments.yaml'], { input: '{"apiVersion":', encoding: 'utf8', cwd: fixtures });
  assert.equal(p.status, 2);
  assert.match(p.stderr, /^celwasm admit: stdin is neither JSON nor YAML/);
  for (const request of [
    { documents: ['{"apiVersion":'], requests: [] },
    { documents: [], requests: [{ object: '{"kind": "Pod"' }] },
    { documents: [], requests: [{ object: { a: 1n } }] },
    { documents: {}, requests: [] },
    { documents: [], requests: [1] },
    { documents: [], requests: [], groups: 'g' },
    null,
  ]) {
    assert.throws(() => rt.admit(request), (e) => e instanceof CelError && e.code === 'invalid_argument', JSON.stringify(request, (_, v) => (typeof v === 'bigint' ? String(v) : v)));
  }
  // An unsupported compatibility version: invalid_env.
  assert.throws(() => rt.admit({ documents: policies, requests: [], compatibilityVersion: '1.2' }), (e) => e instanceof CelError && e.code === 'invalid_env');
});

test('parseAdmitResponse: invalid_policy carries its field errors; other module errors are typed', () => {
  const enc = (s) => new TextEncoder().encode(s);
  assert.throws(
    () => parseAdmitResponse(enc('{"error":{"code":"invalid_policy","message":"ValidatingAdmissionPolicy.admissionregistration.k8s.io \\"p\\" is invalid","fieldErrors":[{"field":"spec.validations[0].expression","type":"FieldValueInvalid","message":"Invalid value: \\"1 +\\": compilation failed"}]}}')),
    (e) => e instanceof InvalidPolicyError && e.code === 'invalid_policy' && e.fieldErrors.length === 1 && e.fieldErrors[0].field === 'spec.validations[0].expression',
  );
  assert.throws(() => parseAdmitResponse(enc('{"error":{"code":"canceled","message":"admission interrupted by the host"}}')), (e) => e instanceof CelError && e.code === 'canceled');
  for (const s of ['', '[]', '{"results":null}', '{"results":[null]}', '{"results":[{"message":""}]}']) {
    assert.throws(() => parseAdmitResponse(enc(s)), (e) => e instanceof CelError && e.code === 'internal', s);
  }
});
