// The playground (playground/dist, built by Vite) in headless Chromium: type an expression, see
// the result; type a broken one, see the compile error at its place; pick an example; reload from
// a shared URL; admit the documentation's demo Deployments (a denial, an allowed and patched
// object), validate custom resources against KEP-2876's CRD (kubectl's messages, the cost report),
// both compared with the Go CLI (build/celwasm).
// Screenshots go to test-output/playground/.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { launch, watchPage } from '../browser/chromium.mjs';
import { serve } from '../browser/server.mjs';
import { sdkRoot } from '../conformance/corpus.mjs';
import { parse as parseYaml } from 'yaml';

const dist = join(sdkRoot, 'playground', 'dist');
const repo = join(sdkRoot, '..');
// The Go CLI the admission and CRD modes are compared with (`make -C sdk-js playground-test`
// builds it with the modules).
const cli = process.env.CELWASM_GO_CLI ?? join(repo, 'build', 'celwasm');
const shots = join(sdkRoot, 'test-output', 'playground');
let server;
let browser;
let page;
let problems;

before(async () => {
  assert.ok(existsSync(join(dist, 'index.html')), 'playground/dist is missing: run npm run build:playground');
  mkdirSync(shots, { recursive: true });
  server = await serve({ '/': dist });
  browser = await launch();
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  problems = watchPage(page, 'playground');
});
after(async () => {
  await browser?.close();
  await server?.close();
});

/** Waits until no change is pending and the last run has finished. */
async function settle(p = page) {
  await p.waitForFunction(() => {
    const b = document.body.dataset;
    return b.pending !== '1' && b.started !== undefined && b.started === b.completed;
  }, null, { timeout: 60_000 });
}

async function setExpression(text) {
  await page.fill('#expr', '');
  await page.locator('#expr').pressSequentially(text, { delay: 2 });
  await settle();
}

test('the page loads the engine in a Worker and evaluates the first example', async () => {
  const t0 = Date.now();
  await page.goto(server.url + '/');
  await settle();
  console.log(`playground: first result ${Date.now() - t0} ms after navigation`);
  assert.match(await page.textContent('#version'), /cel-go v0\.29\.2/);
  assert.equal(await page.textContent('#result-value'), 'true');
  assert.equal(await page.textContent('#result-type'), 'bool');
  assert.match(await page.textContent('#cost-estimate'), /^\d+/);
  assert.match(await page.textContent('#cost-actual'), /^\d+$/);
  // The compatibility selector lists the module's versions.
  const versions = await page.$$eval('#compat option', (os) => os.map((o) => o.value));
  assert.ok(versions.includes('1.30') && versions.includes(''));
});

test('typing an expression shows its result, type and costs', async () => {
  await setExpression('self.items.filter(i, i.port > 8095).map(i, i.name)');
  const value = await page.textContent('#result-value');
  assert.match(value, /^\[".+"\]$/);
  assert.equal(value.split(',').length, 4);
  assert.equal(await page.textContent('#result-type'), 'list(dyn)');
  assert.ok(Number(await page.textContent('#cost-actual')) > 100);
  await page.screenshot({ path: join(shots, 'result.png'), fullPage: true });
});

test('a compile error is shown with line, column, caret snippet and a mark at the place', async () => {
  await setExpression('self.replicas <= self.maxReplicas &&\n  self.nope(1)');
  assert.equal(await page.isVisible('#errors'), true);
  assert.equal(await page.isVisible('#result'), false);
  assert.match(await page.textContent('#error-title'), /Compile error/);
  const where = await page.textContent('#error-list .where');
  assert.equal(where, '2:12');
  assert.match(await page.textContent('#error-list pre'), /\|   self\.nope\(1\)\n \| \.{11}\^/);
  // The backdrop marks the character at 2:12 under the textarea.
  assert.equal(await page.textContent('#expr-backdrop mark'), '(');
  await page.screenshot({ path: join(shots, 'compile-error.png'), fullPage: true });
  // Clicking the issue selects the place in the editor.
  await page.click('#error-list li.issue');
  const sel = await page.$eval('#expr', (t) => [t.selectionStart, t.value.slice(t.selectionStart, t.selectionEnd)]);
  assert.deepEqual(sel, [48, '(']);
});

test('evaluation errors and bad input do not break the page', async () => {
  await setExpression('self.missing.field');
  assert.match(await page.textContent('#error-title'), /Evaluation error/);
  assert.match(await page.textContent('#error-list'), /eval_error/);
  await page.fill('#doc', '{"unterminated": ');
  await settle();
  assert.equal(await page.textContent('#error-title'), 'Input document');
});

test('examples from the seeds load from the menu; the state is shareable in the URL', async () => {
  const labels = await page.$$eval('#examples optgroup', (gs) => gs.map((g) => g.label));
  assert.deepEqual(labels.slice(0, 1), ['CRD validation rules (KEP-2876)']);
  assert.ok(labels.includes('Knative trigger filters') && labels.includes('Tekton when expressions (TEP-0145)'));
  const knative = await page.$eval('#examples', (s) => [...s.options].find((o) => o.text === 'Type and source prefix').value);
  await page.selectOption('#examples', knative);
  await settle();
  assert.equal(await page.inputValue('#bind'), 'ce');
  assert.equal(await page.textContent('#result-value'), 'true');
  const tekton = await page.$eval('#examples', (s) => [...s.options].find((o) => o.text === 'Coverage threshold').value);
  await page.selectOption('#examples', tekton);
  await settle();
  assert.equal(await page.inputValue('#base'), 'cel');
  assert.equal(await page.textContent('#result-value'), 'true');
  // Change the environment, then reopen the URL in a fresh page: the same state comes back.
  await page.check('#exts input[value="math"]');
  await settle();
  await setExpression("math.greatest([1, 5, 3]) == 5 && params.branch.startsWith('release/')");
  assert.equal(await page.textContent('#result-value'), 'true');
  const url = page.url();
  assert.match(url, /#s=[A-Za-z0-9_-]+$/);
  const other = await browser.newPage();
  await other.goto(url);
  await settle(other);
  assert.equal(await other.inputValue('#expr'), "math.greatest([1, 5, 3]) == 5 && params.branch.startsWith('release/')");
  assert.equal(await other.isChecked('#exts input[value="math"]'), true);
  assert.equal(await other.textContent('#result-value'), 'true');
  await other.close();
});

const pick = async (title) => {
  await page.selectOption('#examples', await page.$eval('#examples', (s, t) => [...s.options].find((o) => o.text === t).value, title));
  await settle();
};

test('trigger filter and when modes: the module derives the CEL, shown next to the result', async () => {
  await pick('Trigger: Subscriptions API dialects');
  assert.equal(await page.inputValue('#mode'), 'filter');
  assert.equal(await page.isDisabled('#bind'), true);
  assert.equal(await page.textContent('#result-value'), 'true');
  // The derived CEL is shown once celwasm-full, which this filter needs, has answered.
  await page.waitForSelector('#result-cel', { state: 'visible', timeout: 60_000 });
  assert.match(await page.textContent('#result-cel'), /attrs\.type\)\.startsWith\("com\.github\."\)/);
  await page.screenshot({ path: join(shots, 'filter.png'), fullPage: true });
  await pick('Trigger: binary-mode event');
  assert.equal(await page.textContent('#result-value'), 'true');
  // A filter that does not transform: the module's message; one whose CEL does not compile: snippets.
  await setExpression('regex: {type: a}');
  assert.match(await page.textContent('#error-title'), /Compile error/);
  assert.match(await page.textContent('#error-list'), /exactly one top-level filter|regex/);
  await setExpression('expression: ce.type ==');
  assert.match(await page.textContent('#error-list pre'), /\^/);
  await pick('When list: file, coverage, task status');
  assert.equal(await page.inputValue('#mode'), 'when');
  assert.equal(await page.textContent('#result-value'), 'true');
  assert.match(await page.textContent('#result-cel'), /string\(params\.path\) == 'README\.md'/);
  await pick('When: an injection attempt stays a string');
  assert.equal(await page.textContent('#result-value'), 'false');
  assert.equal(await page.textContent('#result-cel'), "string(params.injection) == 'x'");
  await page.screenshot({ path: join(shots, 'when.png'), fullPage: true });
  // Back to CEL mode: the CEL row is hidden again.
  await page.selectOption('#mode', 'cel');
  await settle();
  assert.equal(await page.isDisabled('#bind'), false);
});

test('the compatibility version changes what compiles', async () => {
  await page.selectOption('#examples', await page.$eval('#examples', (s) => [...s.options].find((o) => o.text === 'Replicas ordered').value));
  await settle();
  await setExpression("semver('1.2.3').major() == 1");
  assert.equal(await page.textContent('#result-value'), 'true');
  await page.selectOption('#compat', '1.32');
  await settle();
  assert.match(await page.textContent('#error-list'), /undeclared reference to 'semver'/);
  await page.selectOption('#envType', 'StoredExpressions');
  await settle();
  assert.equal(await page.textContent('#result-value'), 'true');
});

test('a runaway expression times out in the worker and the page recovers', async () => {
  await page.selectOption('#envType', 'NewExpressions');
  await page.selectOption('#compat', '');
  await page.fill('#costLimit', '18446744073709551615');
  await settle();
  await setExpression('lists.range(2000).all(i, lists.range(2000).all(j, i + j >= 0))');
  assert.match(await page.textContent('#error-title'), /Timed out/);
  await page.fill('#costLimit', '');
  await settle();
  await setExpression('self.replicas + 1');
  assert.equal(await page.textContent('#result-value'), '4');
  await page.screenshot({ path: join(shots, 'playground.png'), fullPage: true });
  assert.ok(statSync(join(shots, 'playground.png')).size > 10_000);
  assert.deepEqual(problems, []);
});

/** Records the status line's texts from now on (window.statuses). */
async function recordStatuses(p = page) {
  await p.evaluate(() => {
    window.statuses = [];
    window.statusObserver?.disconnect();
    const status = document.getElementById('status');
    window.statusObserver = new MutationObserver(() => window.statuses.push(status.textContent));
    window.statusObserver.observe(status, { childList: true, characterData: true, subtree: true });
  });
}
const fetched = (name, p = page) => p.evaluate((n) => performance.getEntriesByType('resource').some((e) => e.name.includes(n)), name);
const results = () => page.$$eval('#adm-results .adm-result', (rs) => rs.map((r) => ({
  head: r.querySelector('h3').textContent,
  allowed: r.dataset.allowed,
  decision: r.querySelector('.decision').textContent,
  reason: r.querySelector('.reason')?.textContent,
  message: r.querySelector('.message')?.textContent,
  warnings: [...r.querySelectorAll('.warning')].map((w) => w.textContent),
  audit: [...r.querySelectorAll('.audit')].map((w) => w.textContent),
  patched: r.querySelector('.patched')?.textContent,
})));

test('admission mode: the documentation replica limit denies, the defaulting policy patches', async () => {
  // celwasm-admission is loaded when the mode first needs it, not with the page.
  assert.equal(await fetched('celwasm-admission'), false);
  await recordStatuses();
  await pick('Demo policies: two Deployments');
  assert.equal(await fetched('celwasm-admission'), true);
  assert.ok((await page.evaluate(() => window.statuses)).includes('loading celwasm-admission…'));
  assert.equal(await page.inputValue('#mode'), 'admission');
  assert.equal(await page.isVisible('#bind'), false);
  assert.equal(await page.isVisible('#operation'), true);
  assert.equal(await page.isVisible('#admission'), true);
  const [web, nginx] = await results();
  // web: allowed; the MutatingAdmissionPolicy defaults revisionHistoryLimit (absent in the object).
  assert.equal(web.head, 'CREATE deployment.apps/web: allowed');
  assert.equal(web.allowed, 'true');
  assert.doesNotMatch((await page.inputValue('#doc')).split(/^---$/m)[0], /revisionHistoryLimit/);
  assert.match(web.patched, /^spec:\n(?: {2}.*\n)*? {2}revisionHistoryLimit: 3\n/m);
  assert.match(web.patched, /^ {2}name: web$/m);
  assert.deepEqual(web.audit, ['replica-limit.example.com/high-replica-count: Deployment spec.replicas set to 2']);
  assert.deepEqual(web.warnings, []);
  // nginx: 5 replicas > the ConfigMap's maxReplicas 3: kube-apiserver's Status message, as kubectl prints it.
  assert.equal(nginx.decision, 'denied');
  assert.equal(nginx.reason, 'Invalid (422)');
  assert.equal(nginx.message, `deployments.apps "nginx" is forbidden: ValidatingAdmissionPolicy 'replica-limit.example.com' with binding 'replica-limit-test.example.com' denied request: object.spec.replicas must be no greater than 3`);
  assert.deepEqual(nginx.warnings, [`Validation failed for ValidatingAdmissionPolicy 'require-team-label.example.com' with binding 'require-team-label-warn.example.com': every Deployment needs a team label`]);
  assert.ok(nginx.audit.some((a) => a.startsWith('validation.policy.admission.k8s.io/validation_failure: [{"message":"every Deployment needs a team label"')));
  assert.equal(nginx.patched, undefined); // it has a revisionHistoryLimit: the mutation does not match
  await page.screenshot({ path: join(shots, 'admission.png'), fullPage: true });

  // The param decides: raise maxReplicas in the ConfigMap and nginx is allowed.
  await page.fill('#expr', (await page.inputValue('#expr')).replace('maxReplicas: "3"', 'maxReplicas: "5"'));
  await settle();
  assert.deepEqual((await results()).map((r) => r.decision), ['allowed', 'allowed']);
  // An UPDATE (old object given): the MutatingAdmissionPolicy matches CREATE only.
  await page.fill('#old', 'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web, labels: {team: shop}}\nspec: {replicas: 1}\n');
  await settle();
  const [webUpdate] = await results();
  assert.equal(webUpdate.head, 'UPDATE deployment.apps/web: allowed');
  assert.equal(webUpdate.patched, undefined);
  // A policy kube-apiserver would refuse: its field errors.
  await page.fill('#expr', (await page.inputValue('#expr')).replace('object.spec.replicas <= int(params.data.maxReplicas)', 'object.spec.replicas <= '));
  await settle();
  assert.equal(await page.textContent('#error-title'), 'Invalid policy');
  assert.match(await page.textContent('#error-list'), /spec\.validations\[0\]\.expression/);
  // DELETE, from the examples: nothing matches it.
  await pick('Deleting a Deployment (no policy matches DELETE)');
  assert.equal(await page.inputValue('#operation'), 'DELETE');
  assert.deepEqual((await results()).map((r) => r.head), ['DELETE deployment.apps/nginx: allowed']);
});

test('crd mode: validate and cost as the CLI prints them, with kubectl messages', async () => {
  // In a fresh page, celwasm-full is loaded by the first request that needs it (here a filter
  // may have loaded it before).
  const fresh = await browser.newPage();
  await fresh.goto(server.url + '/');
  await settle(fresh);
  assert.equal(await fetched('celwasm-full', fresh), false);
  await recordStatuses(fresh);
  await fresh.selectOption('#examples', await fresh.$eval('#examples', (s) => [...s.options].find((o) => o.text === 'WebApp: a valid object').value));
  await settle(fresh);
  assert.equal(await fetched('celwasm-full', fresh), true);
  assert.ok((await fresh.evaluate(() => window.statuses)).includes('loading celwasm-full…'));
  assert.match(await fresh.textContent('#crd-validate'), /^webapp\.example\.com\/singleton in \S+: valid \(create, rule cost [1-9][\d,]*\)$/);
  await fresh.close();

  await pick('WebApp: replicas above maxReplicas');
  assert.equal(await page.inputValue('#mode'), 'crd');
  assert.equal(await page.isVisible('#operation'), false);
  const invalid = await page.textContent('#crd-validate');
  assert.match(invalid, /^webapp\.example\.com\/singleton in replicas: invalid \(create, rule cost [1-9][\d,]*\)\n/);
  assert.match(invalid, /\nThe WebApp "singleton" is invalid: spec: Invalid value: replicas exceeds maxReplicas$/);
  const cost = await page.textContent('#crd-cost');
  assert.match(cost, /^CustomResourceDefinition webapps\.example\.com\n\nspec\.validation\.openAPIV3Schema \(versions v1\): total estimated cost [\d,]+ of 100,000,000\n/);
  assert.match(cost, /\n +[\d,]+ {2}\(root\) {2}x-kubernetes-validations\[0\]\.rule\n {6}self\.metadata\.name == 'singleton'\n {6}estimated cost [\d,]+ = /);
  assert.match(cost, /spec messageExpression {2}properties\[spec\]\.x-kubernetes-validations\[0\]\.messageExpression/);
  await page.screenshot({ path: join(shots, 'crd.png'), fullPage: true });
  // Fix the object: valid.
  await page.fill('#doc', (await page.inputValue('#doc')).replace('replicas: 12', 'replicas: 5'));
  await settle();
  assert.match(await page.textContent('#crd-validate'), /^webapp\.example\.com\/singleton in replicas: valid \(create, rule cost [1-9][\d,]*\)$/);
  // A rule that does not compile: kube-apiserver rejects the CRD; cost says where.
  await page.fill('#expr', (await page.inputValue('#expr')).replace("self.health.startsWith('ok')", 'self.health.startsWith(1)'));
  await settle();
  assert.match(await page.textContent('#crd-validate'), /^The CustomResourceDefinition "webapps\.example\.com" is invalid: /);
  assert.match(await page.textContent('#crd-validate'), /x-kubernetes-validations\[6\]\.rule: Invalid value: .*compilation failed/);
  assert.match(await page.textContent('#crd-cost'), /self\.health\.startsWith\(1\)\n {6}does not compile: /);
  // An update (old objects paired by kind, namespace and name): the transition rule's message;
  // the state, old objects included, comes back from the URL.
  await pick('WebApp: an update that changes an immutable field');
  const update = await page.textContent('#crd-validate');
  assert.match(update, /^webapp\.example\.com\/singleton in immutable: invalid \(update, rule cost [\d,]+\)\nThe WebApp "singleton" is invalid: spec: Invalid value: foo is immutable once set$/);
  const other = await browser.newPage();
  await other.goto(page.url());
  await settle(other);
  assert.equal(await other.inputValue('#mode'), 'crd');
  assert.equal(await other.textContent('#crd-validate'), update);
  await other.close();
  assert.deepEqual(problems, []);
});

/** The Go CLI's stdout (exit status 0 or 1: 1 means invalid or denied, not a failure). */
function goCli(...args) {
  const r = spawnSync(cli, args, { cwd: repo, encoding: 'utf8' });
  assert.ok(r.status === 0 || r.status === 1, `${cli} ${args.join(' ')}: exit ${r.status}: ${r.stderr}`);
  return r.stdout;
}

test('the admission and CRD modes show what the Go CLI answers', async () => {
  assert.ok(existsSync(cli), `${cli} is missing: run make cli at the repository root`);
  const text = (p) => readFileSync(join(repo, p), 'utf8');
  // Admission: the demo, each decision against `celwasm admit -o json`.
  await pick('Demo policies: two Deployments');
  const want = JSON.parse(goCli('admit', '-o', 'json', '-f', 'conformance/testdata/admission/demo/policies.yaml', 'conformance/testdata/admission/demo/deployments.yaml'));
  const got = await results();
  assert.equal(got.length, want.length);
  want.forEach((w, i) => {
    const g = got[i];
    assert.equal(g.allowed, String(w.allowed));
    assert.equal(g.message, w.allowed ? undefined : w.message);
    assert.equal(g.reason, w.allowed ? undefined : `${w.reason} (${w.code})`);
    assert.deepEqual(g.warnings, w.warnings);
    assert.deepEqual(g.audit, Object.keys(w.auditAnnotations).sort().map((k) => `${k}: ${w.auditAnnotations[k]}`));
    assert.deepEqual(g.patched === undefined ? null : parseYaml(g.patched), w.patchedObject);
  });
  // CRD: every object of kep/invalid.yaml, and the cost reports of the KEP CRD and of one over
  // the limits, byte for byte as `celwasm validate` and `celwasm cost -v` print them.
  await pick('WebApp: replicas above maxReplicas');
  await page.fill('#doc', text('conformance/testdata/crd/kep/invalid.yaml'));
  await settle();
  assert.equal((await page.textContent('#crd-validate')) + '\n', goCli('validate', '--crd', 'conformance/testdata/crd/kep/crd.yaml', 'conformance/testdata/crd/kep/invalid.yaml'));
  assert.equal((await page.textContent('#crd-cost')) + '\n', goCli('cost', '-v', '--crd', 'conformance/testdata/crd/kep/crd.yaml'));
  await page.fill('#expr', text('conformance/testdata/crd/expensive/crd.yaml'));
  await page.fill('#doc', '');
  await settle();
  assert.equal((await page.textContent('#crd-cost')) + '\n', goCli('cost', '-v', '--crd', 'conformance/testdata/crd/expensive/crd.yaml'));
  assert.match(await page.textContent('#crd-cost'), /EXCEEDS/);
  assert.deepEqual(problems, []);
});
