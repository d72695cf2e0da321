// `npm pack` content check: the tarball holds the module, the JS, the types, README, LICENSE and
// package.json — nothing else. Then the tarball is installed into an empty project and used from
// Node exactly as a user would (`import { Runtime } from 'celwasm'`).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const tmp = mkdtempSync(join(tmpdir(), 'celwasm-pack-'));
let failed = 0;
const fail = (msg) => {
  failed++;
  console.error('pack-check: ' + msg);
};

try {
  const [info] = JSON.parse(execFileSync(npm, ['pack', '--json', '--pack-destination', tmp], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }));
  const files = info.files.map((f) => f.path).sort();
  const allowed = (p) =>
    p === 'package.json' || p === 'README.md' || p === 'LICENSE' || p === 'dist/celwasm.wasm' || p === 'dist/celwasm-full.wasm' || p === 'dist/celwasm-admission.wasm' || /^dist\/[\w-]+\.(js|d\.ts)$/.test(p);
  for (const f of files) if (!allowed(f)) fail(`unexpected file in the tarball: ${f}`);
  const need = ['package.json', 'README.md', 'LICENSE', 'dist/celwasm.wasm', 'dist/celwasm-full.wasm', 'dist/celwasm-admission.wasm', 'dist/node.js', 'dist/node.d.ts', 'dist/browser.js', 'dist/worker.js', 'dist/worker-node.js'];
  for (const f of need) if (!files.includes(f)) fail(`missing from the tarball: ${f}`);
  for (const name of ['celwasm.wasm', 'celwasm-full.wasm', 'celwasm-admission.wasm']) {
    const wasm = info.files.find((f) => f.path === 'dist/' + name);
    const built = statSync(join(root, 'dist', name)).size;
    if (wasm && (wasm.size !== built || built < 10e6)) fail(`dist/${name} in the tarball is ${wasm?.size} bytes (built: ${built})`);
  }
  console.log(`pack-check: ${info.filename}: ${files.length} files, ${(info.size / 1e6).toFixed(1)} MB packed, ${(info.unpackedSize / 1e6).toFixed(1)} MB unpacked`);
  console.log('pack-check: ' + files.join(' '));

  // Install the tarball into an empty project and use it.
  const app = join(tmp, 'app');
  execFileSync('mkdir', ['-p', app]);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }));
  execFileSync(npm, ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error', join(tmp, info.filename)], { cwd: app, stdio: ['ignore', 'inherit', 'inherit'] });
  writeFileSync(
    join(app, 'main.js'),
    `import { Runtime, WorkerRuntime, CompileError } from 'celwasm';
const rt = await Runtime.load();
const prg = rt.env({ variables: { self: 'dyn' } }).compile('self.replicas <= self.maxReplicas');
const r = prg.eval({ self: { replicas: 3, maxReplicas: 5 } });
let compileError = '';
try { rt.compile('1 +'); } catch (e) { compileError = e instanceof CompileError ? e.code : 'wrong'; }
const w = await WorkerRuntime.load({ wasm: rt.module });
const wr = await (await w.compile('[1, 2].map(x, x * 21)[1]', { base: 'cel' })).eval();
const ev = { specversion: '1.0', id: '1', source: '/s', type: 'a' };
const fb = (await w.compileFilter({ exact: { type: 'a' } })).evalBatch([ev, { ...ev, type: 'b' }, '{bad'], 'cloudEvents');
const filter = (await fb).map((x) => x.code ?? x.json).join(' ');
w.close();
const crd = rt.crd({ apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'widgets.example.com' },
  spec: { group: 'example.com', names: { kind: 'Widget', plural: 'widgets' }, scope: 'Namespaced', versions: [{ name: 'v1', served: true, storage: true,
    schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { n: { type: 'integer' } }, 'x-kubernetes-validations': [{ rule: 'self.n < 3' }] } } } } }] } });
const vr = crd.validate([{ object: { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' }, spec: { n: 5 } } }]).results[0];
const validate = vr.valid + ' ' + vr.errors[0].field + ' ' + typeof crd.cost().schemas[0].totalCost;
const vap = { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingAdmissionPolicy', metadata: { name: 'p' },
  spec: { matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'] }] },
    validations: [{ expression: "object.metadata.name != 'bad'" }] } };
const binding = { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingAdmissionPolicyBinding', metadata: { name: 'b' }, spec: { policyName: 'p', validationActions: ['Deny'] } };
const cm = (name) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name } });
const admit = rt.admit({ documents: [vap, binding], requests: [{ object: cm('good') }, { object: cm('bad') }] }).results.map((x) => x.allowed).join(' ');
console.log(JSON.stringify({ value: r.value, json: r.json, cost: r.cost, compileError, worker: String(wr.value), filter, validate, admit }));
`,
  );
  const out = JSON.parse(execFileSync(process.execPath, ['main.js'], { cwd: app, encoding: 'utf8' }).trim());
  if (out.value !== true || out.json !== 'true' || !(out.cost > 0) || out.compileError !== 'compile_error' || out.worker !== '42' || out.filter !== 'true false invalid_activation' || out.validate !== 'false spec bigint' || out.admit !== 'true false') {
    fail('the installed package gave ' + JSON.stringify(out));
  } else {
    console.log(`pack-check: installed ${info.filename} into an empty project; import 'celwasm' → ${JSON.stringify(out)}`);
  }
  const types = readFileSync(join(app, 'node_modules', 'celwasm', 'dist', 'node.d.ts'), 'utf8');
  if (!types.includes("export * from './common.js'")) fail('types entry does not re-export the API');
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
if (failed) process.exit(1);
