// The celwasm playground: a static page that compiles and evaluates CEL in a Web Worker through
// the `celwasm` package (WorkerRuntime), with the state shareable in the URL.
import { WorkerRuntime, CompileError, CelError, InvalidCRDError, InvalidPolicyError, formatText } from 'celwasm';
import { parse as parseYaml, parseAllDocuments, stringify as stringifyYaml } from 'yaml';
import { examples } from './examples.js';

const $ = (id) => document.getElementById(id);
const el = {
  mode: $('mode'), exprLabel: $('expr-label'), docLabel: $('doc-label'), cel: $('result-cel'),
  expr: $('expr'), backdrop: $('expr-backdrop'), decls: $('decls'), base: $('base'), compat: $('compat'),
  envType: $('envType'), exts: $('exts'), doc: $('doc'), docFormat: $('doc-format'), bind: $('bind'), at: $('at'),
  costLimit: $('costLimit'), examples: $('examples'), share: $('share'), version: $('version'), status: $('status'),
  result: $('result'), value: $('result-value'), type: $('result-type'), costEstimate: $('cost-estimate'),
  costActual: $('cost-actual'), timing: $('timing'), json: $('result-json'), errors: $('errors'),
  errorTitle: $('error-title'), errorList: $('error-list'),
  old: $('old'), operation: $('operation'), user: $('user'), groups: $('groups'),
  admission: $('admission'), admTypecheck: $('adm-typecheck'), admResults: $('adm-results'), admTiming: $('adm-timing'),
  crd: $('crd'), crdValidate: $('crd-validate'), crdCost: $('crd-cost'), crdTiming: $('crd-timing'),
};

const UINT64_MAX = (1n << 64n) - 1n;
const EVAL_TIMEOUT_MS = 5000;
/** Loading celwasm-admission (≈115 MB) or celwasm-full, and a first admit or CRD call, which
 * compiles the policies or the CRD's rules. */
const LOAD_TIMEOUT_MS = 180_000;
const K8S_TIMEOUT_MS = 30_000;

// ------------------------------------------------------------------------------------------
// State ↔ controls ↔ URL

/**
 * Modes: a CEL expression over the input; a Knative trigger filter (the module turns it into
 * CEL over `ce` and `data`) over a CloudEvent; Tekton when expressions (turned into CEL over
 * `params`, `tasks`, `context`) over a pipeline context. Filters and when lists get the
 * module's own environment, so the environment controls apply to CEL mode only.
 */
const MODES = {
  cel: { expr: 'Expression', doc: 'Input document' },
  filter: { expr: 'Trigger filter (YAML or JSON: a Trigger, or one filter)', doc: 'CloudEvent (structured, or a binary-mode {headers, body})' },
  when: { expr: 'When expressions (one per line, AND-ed)', doc: 'Pipeline context ({params, tasks, context})' },
  admission: {
    expr: 'Policies, bindings and the cluster objects they read (YAML, several documents: ValidatingAdmissionPolicy, MutatingAdmissionPolicy, bindings, ConfigMaps, Namespaces, CRDs, RBAC)',
    doc: 'Objects under admission (one admission request per document)',
  },
  crd: { expr: 'CustomResourceDefinition', doc: 'Custom resources to validate (one create, or update, per document)' },
};
const CEL_ONLY = () => [el.decls, el.base, el.envType, el.bind, el.at, ...el.exts.querySelectorAll('input')];

/** Shows the controls of the mode (data-modes) and enables the CEL-only ones in CEL mode. */
function syncMode() {
  const mode = MODES[el.mode.value] ? el.mode.value : 'cel';
  el.exprLabel.textContent = MODES[mode].expr;
  el.docLabel.textContent = MODES[mode].doc;
  for (const c of CEL_ONLY()) c.disabled = mode !== 'cel';
  // The compatibility version also selects the CEL environment admission policies compile in.
  el.compat.disabled = mode !== 'cel' && mode !== 'admission';
  for (const n of document.querySelectorAll('[data-modes]')) n.hidden = !n.dataset.modes.split(' ').includes(mode);
  document.body.dataset.mode = mode;
}

function defaultState() {
  const ex = examples[0];
  return { mode: 'cel', expr: ex.expr, decls: '', base: ex.base, compat: '', envType: 'NewExpressions', exts: [], doc: ex.doc, bind: ex.bind, at: ex.at, costLimit: '', old: '', operation: '', user: '', groups: '' };
}

function readControls() {
  return {
    mode: el.mode.value,
    expr: el.expr.value,
    decls: el.decls.value,
    base: el.base.value,
    compat: el.compat.value,
    envType: el.envType.value,
    exts: [...el.exts.querySelectorAll('input:checked')].map((c) => c.value),
    doc: el.doc.value,
    bind: el.bind.value.trim(),
    at: el.at.value.trim(),
    costLimit: el.costLimit.value.trim(),
    old: el.old.value,
    operation: el.operation.value,
    user: el.user.value.trim(),
    groups: el.groups.value.trim(),
  };
}

function writeControls(s) {
  el.mode.value = MODES[s.mode] ? s.mode : 'cel';
  syncMode();
  el.expr.value = s.expr ?? '';
  el.decls.value = s.decls ?? '';
  el.base.value = s.base === 'cel' ? 'cel' : 'kubernetes';
  el.compat.value = s.compat ?? '';
  if (el.compat.selectedIndex < 0) el.compat.selectedIndex = 0;
  el.envType.value = s.envType === 'StoredExpressions' ? 'StoredExpressions' : 'NewExpressions';
  for (const c of el.exts.querySelectorAll('input')) c.checked = (s.exts ?? []).includes(c.value);
  el.doc.value = s.doc ?? '';
  el.bind.value = s.bind ?? '';
  el.at.value = s.at ?? '';
  el.costLimit.value = s.costLimit ?? '';
  el.old.value = s.old ?? '';
  el.operation.value = ['CREATE', 'UPDATE', 'DELETE', 'CONNECT'].includes(s.operation) ? s.operation : '';
  el.user.value = s.user ?? '';
  el.groups.value = s.groups ?? '';
  syncBackdrop([]);
}

function b64url(bytes) {
  let s = '';
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}
function unb64url(s) {
  const bin = atob(s.replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(bin, (c) => c.charCodeAt(0));
}
async function pipe(bytes, stream) {
  return new Uint8Array(await new Response(new Blob([bytes]).stream().pipeThrough(stream)).arrayBuffer());
}

/** The state as a URL fragment: #s= + base64url(deflate-raw(JSON)). */
async function encodeState(s) {
  return 's=' + b64url(await pipe(new TextEncoder().encode(JSON.stringify(s)), new CompressionStream('deflate-raw')));
}
async function decodeState(hash) {
  const m = /^#?s=([A-Za-z0-9_-]+)$/.exec(hash);
  if (!m) return null;
  try {
    return JSON.parse(new TextDecoder().decode(await pipe(unb64url(m[1]), new DecompressionStream('deflate-raw'))));
  } catch {
    return null;
  }
}

// ------------------------------------------------------------------------------------------
// Inputs → environment and activation

/** Parses "name: type" lines. */
function parseDecls(text) {
  const vars = {};
  const problems = [];
  text.split('\n').forEach((line, i) => {
    const t = line.trim();
    if (!t || t.startsWith('#')) return;
    const m = /^([A-Za-z_][\w.]*)\s*[:=]\s*(.+)$/.exec(t);
    if (!m) problems.push(`declarations line ${i + 1}: want "name: type"`);
    else vars[m[1]] = m[2].trim();
  });
  return { vars, problems };
}

/** The value at a dotted field path. */
function at(value, path) {
  if (!path) return value;
  let cur = value;
  for (const f of path.split('.')) {
    if (cur === null || typeof cur !== 'object' || Array.isArray(cur) || !(f in cur)) throw new Error(`no field "${f}" at path "${path}"`);
    cur = cur[f];
  }
  return cur;
}

/**
 * Reads the input document. JSON is passed to the module as JSON text (its numbers exactly as
 * written); YAML is read with integers as bigint, so nothing is rounded.
 */
function readDocument(text) {
  const t = text.trim();
  if (t === '') return { format: 'empty', value: undefined };
  if (t[0] === '{' || t[0] === '[') {
    try {
      JSON.parse(t);
      return { format: 'JSON', value: parseYaml(t, { intAsBigInt: true }), json: t };
    } catch {
      /* fall through to YAML, which reports positions */
    }
  }
  return { format: 'YAML', value: parseYaml(text, { intAsBigInt: true }) };
}

/** The document as plain JSON for filters and when lists: JSON text as written, YAML as data. */
function plainDocument(doc, text) {
  if (doc.value === undefined) throw new Error('the input document is empty');
  return doc.json ?? parseYaml(text);
}

function buildActivation(doc, bind, path) {
  if (doc.value === undefined) return { activation: {}, names: [] };
  if (bind) {
    if (doc.json !== undefined && !path) return { activation: `{${JSON.stringify(bind)}:${doc.json}}`, names: [bind] };
    return { activation: { [bind]: at(doc.value, path) }, names: [bind] };
  }
  const v = at(doc.value, path);
  if (v === null || typeof v !== 'object' || Array.isArray(v)) throw new Error('without a variable to bind to, the input must be an object whose keys are the variables');
  return { activation: v, names: Object.keys(v) };
}

// ------------------------------------------------------------------------------------------
// Rendering

function syncBackdrop(issues) {
  const text = el.expr.value;
  const cps = [...text];
  const marks = new Set();
  for (const is of issues) {
    // line/column are 1-based, columns in code points.
    let line = 1;
    let col = 1;
    for (let i = 0; i <= cps.length; i++) {
      if (line === is.line && col === is.column) {
        marks.add(i);
        break;
      }
      if (cps[i] === '\n') {
        line++;
        col = 1;
      } else col++;
    }
  }
  const esc = (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : c);
  let html = '';
  for (let i = 0; i <= cps.length; i++) {
    const c = i < cps.length ? cps[i] : '';
    if (marks.has(i)) html += `<mark>${c === '' || c === '\n' ? ' ' : esc(c)}</mark>${c === '\n' ? '\n' : ''}`;
    else html += esc(c);
  }
  el.backdrop.innerHTML = html + '\n';
  el.backdrop.scrollTop = el.expr.scrollTop;
}

function showStatus(text) {
  el.status.textContent = text;
}

function showErrors(title, items) {
  el.result.hidden = true;
  el.admission.hidden = true;
  el.crd.hidden = true;
  el.errors.hidden = false;
  el.errorTitle.textContent = title;
  el.errorList.replaceChildren(
    ...items.map((it) => {
      const li = document.createElement('li');
      const where = document.createElement('span');
      where.className = 'where';
      where.textContent = it.where ?? '';
      const msg = document.createElement('span');
      msg.className = 'message';
      msg.textContent = (it.where ? ' ' : '') + it.message;
      li.append(where, msg);
      if (it.snippet) {
        const pre = document.createElement('pre');
        pre.textContent = it.snippet;
        li.append(pre);
      }
      if (it.issue) {
        li.classList.add('issue');
        li.title = 'Show in the expression';
        li.addEventListener('click', () => selectIssue(it.issue));
      }
      return li;
    }),
  );
  document.body.dataset.state = 'error';
}

function selectIssue(is) {
  const cps = [...el.expr.value];
  let line = 1;
  let col = 1;
  let units = 0;
  for (let i = 0; i < cps.length; i++) {
    if (line === is.line && col === is.column) break;
    if (cps[i] === '\n') {
      line++;
      col = 1;
    } else col++;
    units += cps[i].length;
  }
  el.expr.focus();
  el.expr.setSelectionRange(units, Math.min(units + 1, el.expr.value.length));
}

function fmtEstimate(ce) {
  if (!ce) return '— (type checking off)';
  const max = ce.max === UINT64_MAX ? `${ce.max} (2^64−1: unbounded input sizes)` : ce.max.toString();
  return ce.min === ce.max ? `${ce.min}` : `${ce.min} … ${max}`;
}

function showResult(prg, res, ms) {
  el.errors.hidden = true;
  el.admission.hidden = true;
  el.crd.hidden = true;
  el.result.hidden = false;
  let text;
  try {
    text = formatText(res.json);
  } catch {
    text = res.json;
  }
  el.value.textContent = text;
  el.value.className = 'value' + (res.json === 'true' ? ' true' : res.json === 'false' ? ' false' : '');
  for (const d of el.result.querySelectorAll('.derived')) d.hidden = el.mode.value === 'cel';
  el.cel.textContent = prg.expression;
  el.type.textContent = prg.outputType;
  el.costEstimate.textContent = fmtEstimate(prg.costEstimate);
  el.costActual.textContent = String(res.cost);
  el.timing.textContent = `${ms.toFixed(ms < 10 ? 2 : 1)} ms (eval in the worker, round trip)`;
  el.json.textContent = res.json;
  document.body.dataset.state = 'done';
}

// ------------------------------------------------------------------------------------------
// Compile and evaluate

let rt;
let current = { key: '', prg: null };
let seq = 0;

/** Compiles (when the expression or environment changed) and evaluates. body[data-started] and
 * body[data-completed] carry the run's number, so that tests can wait for the page to settle. */
async function run() {
  const my = ++seq;
  document.body.dataset.started = String(my);
  try {
    await runOnce(my);
  } finally {
    if (my === seq) document.body.dataset.completed = String(my);
  }
}

async function runOnce(my) {
  const s = readControls();
  document.body.dataset.state = 'running';
  syncBackdrop([]);
  if (s.mode === 'filter' || s.mode === 'when') return runDerived(my, s);
  if (s.mode === 'admission' || s.mode === 'crd') {
    el.docFormat.textContent = '(YAML or JSON)';
    return s.mode === 'admission' ? runAdmission(my, s) : runCRD(my, s);
  }
  const { vars, problems } = parseDecls(s.decls);
  let doc;
  let act;
  try {
    doc = readDocument(s.doc);
    el.docFormat.textContent = doc.format === 'empty' ? '(JSON or YAML)' : `(${doc.format})`;
    act = buildActivation(doc, s.bind, s.at);
  } catch (e) {
    if (problems.length === 0) return showErrors('Input document', [{ message: e.message }]);
  }
  if (problems.length) return showErrors('Declarations', problems.map((p) => ({ message: p })));
  for (const n of act.names) if (!(n in vars)) vars[n] = 'dyn';
  const env = { base: s.base, variables: vars, extensions: s.exts };
  if (s.base === 'kubernetes') {
    if (s.compat) env.compatibilityVersion = s.compat;
    if (s.envType === 'StoredExpressions') env.envType = 'StoredExpressions';
  }
  const key = JSON.stringify([env, s.expr]);
  try {
    showStatus('Compiling…');
    if (current.key !== key) {
      current.prg?.free();
      current = { key, prg: null };
      const prg = await rt.env(env).compile(s.expr, { timeoutMs: EVAL_TIMEOUT_MS });
      if (my !== seq) return prg.free();
      current.prg = prg;
    }
    const prg = current.prg;
    showStatus('Evaluating…');
    let costLimit;
    if (s.costLimit) {
      if (!/^\d+$/.test(s.costLimit)) return showErrors('Cost limit', [{ message: 'the cost limit is a whole number of cost units' }]);
      costLimit = BigInt(s.costLimit);
    }
    const t0 = performance.now();
    const res = await prg.eval(act.activation, { costLimit, timeoutMs: EVAL_TIMEOUT_MS });
    if (my !== seq) return;
    showResult(prg, res, performance.now() - t0);
    showStatus('');
  } catch (e) {
    if (my !== seq) return;
    showFailure(e, true);
  }
}

/** A trigger filter over a CloudEvent, or when expressions over a pipeline context. */
async function runDerived(my, s) {
  let source;
  let input;
  try {
    if (s.mode === 'filter') {
      const f = readDocument(s.expr);
      if (f.value === undefined) return showErrors('Trigger filter', [{ message: 'write a filter, e.g. attributes: {type: com.github.pull.create}' }]);
      source = f.json ?? parseYaml(s.expr);
    } else {
      source = s.expr.split('\n').map((l) => l.trim()).filter((l) => l !== '');
    }
  } catch (e) {
    return showErrors('Trigger filter', [{ message: e.message }]);
  }
  try {
    const doc = readDocument(s.doc);
    el.docFormat.textContent = doc.format === 'empty' ? '(JSON or YAML)' : `(${doc.format})`;
    input = plainDocument(doc, s.doc);
  } catch (e) {
    return showErrors('Input document', [{ message: e.message }]);
  }
  const key = JSON.stringify([s.mode, source]);
  try {
    showStatus('Compiling…');
    if (current.key !== key) {
      current.prg?.free();
      current = { key, prg: null };
      const env = rt.env();
      const prg = s.mode === 'filter' ? await env.compileFilter(source, { timeoutMs: EVAL_TIMEOUT_MS }) : await env.compileWhen(source, { timeoutMs: EVAL_TIMEOUT_MS });
      if (my !== seq) return prg.free();
      current.prg = prg;
    }
    const prg = current.prg;
    showStatus('Evaluating…');
    if (s.costLimit && !/^\d+$/.test(s.costLimit)) return showErrors('Cost limit', [{ message: 'the cost limit is a whole number of cost units' }]);
    const opts = { costLimit: s.costLimit ? BigInt(s.costLimit) : undefined, timeoutMs: EVAL_TIMEOUT_MS };
    const t0 = performance.now();
    const res = s.mode === 'filter' ? await prg.evalEvent(input, opts) : await prg.eval(input, opts);
    if (my !== seq) return;
    showResult(prg, res, performance.now() - t0);
    showStatus('');
  } catch (e) {
    if (my !== seq) return;
    // Issues point into the CEL the module derived, not into the editor: no marks.
    showFailure(e, false);
  }
}

// ------------------------------------------------------------------------------------------
// Admission policies and CRDs: Kubernetes objects in YAML

/** YAML 1.1 as kubectl reads it (sigs.k8s.io/yaml: y/n/yes/no/on/off are booleans), except that
 * timestamps and sexagesimal numbers stay strings, as they do for kubectl's untyped decoding. */
const YAML_OPTIONS = {
  version: '1.1',
  intAsBigInt: true,
  customTags: (tags) => tags.filter((t) => !['tag:yaml.org,2002:timestamp'].includes(t.tag) && t.format !== 'TIME'),
};

/** JSON text of YAML data, integers (bigint) exact. */
function jsonText(v) {
  if (typeof v === 'bigint') return v.toString();
  if (v === null || v === undefined) return 'null';
  if (Array.isArray(v)) return '[' + v.map(jsonText).join(',') + ']';
  if (v instanceof Uint8Array) return JSON.stringify(btoa(String.fromCharCode(...v)));
  if (typeof v === 'object') return '{' + Object.entries(v).map(([k, x]) => JSON.stringify(k) + ':' + jsonText(x)).join(',') + '}';
  if (typeof v === 'number' && !Number.isFinite(v)) throw new Error(`${v} is not a JSON number`);
  return JSON.stringify(v);
}

/**
 * The objects of a YAML (or JSON) text with several documents (`kind: List` expanded, as kubectl
 * does): [{json, info}], info = {group, kind, namespace, name} for pairing with old objects.
 * @throws {Error} naming the document and the YAML error's line.
 */
function readObjects(text, what) {
  const out = [];
  parseAllDocuments(text, YAML_OPTIONS).forEach((d, i) => {
    const err = d.errors[0];
    if (err) throw new Error(`${what}, document ${i + 1}: ${err.message}`);
    const v = d.toJS({ maxAliasCount: 1000 });
    if (v === null || v === undefined) return;
    if (typeof v !== 'object' || Array.isArray(v)) throw new Error(`${what}, document ${i + 1}: not an object`);
    const items = v.kind === 'List' && Array.isArray(v.items) ? v.items : [v];
    for (const o of items) {
      const apiVersion = typeof o?.apiVersion === 'string' ? o.apiVersion : '';
      const meta = o?.metadata ?? {};
      out.push({
        json: jsonText(o),
        info: { group: apiVersion.includes('/') ? apiVersion.split('/')[0] : '', kind: String(o?.kind ?? ''), namespace: String(meta.namespace ?? ''), name: String(meta.name ?? '') },
      });
    }
  });
  return out;
}

/** The stored object each object replaces: the only old object when both are one, else the old
 * object of the same group, kind, namespace and name (no namespace is `default`, as kubectl
 * sends it) — `celwasm validate --old` and `celwasm admit --old` pair them the same way. */
function pairOld(objects, olds) {
  if (objects.length === 1 && olds.length === 1) return [olds[0].json];
  const key = (i, ns) => JSON.stringify([i.group, i.kind, ns || 'default', i.name]);
  const byKey = new Map(olds.map((o) => [key(o.info, o.info.namespace), o.json]));
  return objects.map((o) => byKey.get(key(o.info, o.info.namespace)));
}

const loaded = { 'celwasm-admission': false, 'celwasm-full': false };

/** Loads a module the mode needs into the Worker, saying so (celwasm-admission is ≈115 MB). */
async function loadModule(name) {
  if (loaded[name]) return;
  showStatus(`loading ${name}…`);
  if (name === 'celwasm-admission') await rt.loadAdmission({ timeoutMs: LOAD_TIMEOUT_MS });
  else await rt.loadFull({ timeoutMs: LOAD_TIMEOUT_MS });
  loaded[name] = true;
}

/** 1234567 → 1,234,567 (the CLI's GroupDigits). */
function groupDigits(n) {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}
/** The CLI's FormatCost: 2^64−1 is "unbounded". */
function formatCost(n) {
  return BigInt(n) === UINT64_MAX ? 'unbounded' : groupDigits(n);
}

function showCard(card) {
  el.result.hidden = true;
  el.errors.hidden = true;
  el.admission.hidden = card !== el.admission;
  el.crd.hidden = card !== el.crd;
  document.body.dataset.state = 'done';
}

function timingText(ms, what) {
  return `${ms.toFixed(ms < 10 ? 2 : 1)} ms (${what} in the worker, round trip)`;
}

/** Policies and objects → runtime.admit → one decision per object. */
async function runAdmission(my, s) {
  let documents;
  let objects;
  let olds;
  try {
    documents = readObjects(s.expr, 'Policies').map((o) => o.json);
    objects = readObjects(s.doc, 'Objects');
    olds = readObjects(s.old, 'Old object');
  } catch (e) {
    return showErrors('YAML', [{ message: e.message }]);
  }
  if (objects.length === 0 && olds.length === 0) return showErrors('Objects', [{ message: 'write the object under admission, e.g. a Deployment' }]);
  const op = s.operation;
  let requests;
  if (objects.length === 0) {
    // Only old objects: deletes.
    requests = olds.map((o) => ({ operation: op || 'DELETE', oldObject: o.json }));
  } else {
    const pairs = pairOld(objects, olds);
    requests = objects.map((o, i) =>
      op === 'DELETE' ? { operation: op, oldObject: pairs[i] ?? o.json } : { operation: op, object: o.json, oldObject: op === 'CREATE' ? undefined : pairs[i] },
    );
  }
  const request = { documents, requests, user: s.user || undefined, compatibilityVersion: s.compat || undefined };
  if (s.groups) request.groups = s.groups.split(',').map((g) => g.trim()).filter((g) => g !== '');
  try {
    await loadModule('celwasm-admission');
    if (my !== seq) return;
    showStatus('Admitting…');
    const t0 = performance.now();
    const res = await rt.admit(request, { timeoutMs: K8S_TIMEOUT_MS });
    if (my !== seq) return;
    showAdmission(res, requests, objects.length ? objects : olds, performance.now() - t0);
    showStatus('');
  } catch (e) {
    if (my !== seq) return;
    showStatus('');
    if (e instanceof InvalidPolicyError) {
      // What kube-apiserver answers when the policy or binding is created (`celwasm admit`'s output).
      return showErrors('Invalid policy', [{ where: e.code, message: e.message }, ...e.fieldErrors.map((f) => ({ where: f.field + ':', message: f.message }))]);
    }
    showFailure(e, false);
  }
}

const VERB = { CREATE: 'created', UPDATE: 'configured', DELETE: 'deleted', CONNECT: 'connected' };

function showAdmission(res, requests, objects, ms) {
  el.admTypecheck.hidden = !res.warnings?.length;
  el.admTypecheck.replaceChildren(...(res.warnings ?? []).map((w) => Object.assign(document.createElement('li'), { textContent: 'type checking: ' + w })));
  el.admResults.replaceChildren(
    ...res.results.map((r, i) => {
      const req = requests[i];
      const info = objects[i].info;
      const op = req.operation || (req.oldObject !== undefined ? 'UPDATE' : 'CREATE');
      const box = document.createElement('section');
      box.className = 'adm-result';
      box.dataset.allowed = String(r.allowed);
      const h = document.createElement('h3');
      const name = `${info.kind.toLowerCase()}${info.group ? '.' + info.group : ''}/${info.name}`;
      const dec = document.createElement('span');
      dec.className = 'decision ' + (r.allowed ? 'allowed' : 'denied');
      dec.textContent = r.allowed ? 'allowed' : 'denied';
      h.append(`${op} ${name}: `, dec);
      box.append(h);
      const facts = document.createElement('dl');
      facts.className = 'facts';
      const fact = (k, v, cls) => {
        const dd = Object.assign(document.createElement('dd'), { textContent: v });
        if (cls) dd.className = cls;
        facts.append(Object.assign(document.createElement('dt'), { textContent: k }), dd);
      };
      if (!r.allowed) {
        fact('Reason', `${r.reason ?? ''} (${r.code ?? ''})`, 'reason');
        fact('Message', r.message, 'message');
      } else {
        fact('kubectl', `${name} ${VERB[op] ?? op.toLowerCase()}`);
      }
      for (const w of r.warnings) fact('Warning', w, 'warning');
      for (const k of Object.keys(r.auditAnnotations).sort()) fact('Audit annotation', `${k}: ${r.auditAnnotations[k]}`, 'audit');
      box.append(facts);
      if (r.patchedObject) {
        const d = document.createElement('details');
        d.open = true;
        d.append(Object.assign(document.createElement('summary'), { textContent: r.allowed ? 'Mutated by admission to' : 'Mutated by admission to (then denied)' }));
        d.append(Object.assign(document.createElement('pre'), { className: 'patched', textContent: stringifyYaml(r.patchedObject, { indentSeq: false }) }));
        box.append(d);
      }
      return box;
    }),
  );
  el.admTiming.textContent = timingText(ms, 'admit');
  showCard(el.admission);
}

/** A CRD and objects → the CRD's validate and cost, printed as `celwasm validate` and
 * `celwasm cost -v` print them (cmd/celwasm/crd.go). */
async function runCRD(my, s) {
  let crds;
  let objects;
  let olds;
  try {
    crds = readObjects(s.expr, 'CustomResourceDefinition');
    objects = readObjects(s.doc, 'Objects');
    olds = readObjects(s.old, 'Old object');
  } catch (e) {
    return showErrors('YAML', [{ message: e.message }]);
  }
  if (crds.length !== 1 || crds[0].info.kind !== 'CustomResourceDefinition') {
    return showErrors('CustomResourceDefinition', [{ message: 'write one CustomResourceDefinition (apiextensions.k8s.io/v1)' }]);
  }
  const crdName = crds[0].info.name;
  const pairs = pairOld(objects, olds);
  try {
    await loadModule('celwasm-full');
    if (my !== seq) return;
    showStatus('Validating…');
    const crd = rt.crd(crds[0].json);
    const t0 = performance.now();
    let validateText;
    try {
      const v = await crd.validate(objects.map((o, i) => ({ object: o.json, oldObject: pairs[i] })), { timeoutMs: K8S_TIMEOUT_MS });
      validateText = formatValidation(v);
    } catch (e) {
      if (!(e instanceof CelError) || ['deadline_exceeded', 'canceled', 'trap', 'closed'].includes(e.code)) throw e;
      validateText = formatCRDError(crdName, e);
    }
    if (my !== seq) return;
    showStatus('Estimating costs…');
    let costText;
    try {
      costText = costReport(await crd.cost({ timeoutMs: K8S_TIMEOUT_MS }));
    } catch (e) {
      if (!(e instanceof CelError) || ['deadline_exceeded', 'canceled', 'trap', 'closed'].includes(e.code)) throw e;
      costText = formatCRDError(crdName, e);
    }
    if (my !== seq) return;
    el.crdValidate.textContent = validateText;
    el.crdCost.textContent = costText;
    el.crdTiming.textContent = timingText(performance.now() - t0, 'validate and cost');
    showCard(el.crd);
    showStatus('');
  } catch (e) {
    if (my !== seq) return;
    showFailure(e, false);
  }
}

function invalidList(head, errors) {
  const text = (e) => `${e.field}: ${e.message}`;
  return errors.length === 1 ? head + text(errors[0]) : [head, ...errors.map((e) => '* ' + text(e))].join('\n');
}

/** cmd/celwasm's printCRDError. */
function formatCRDError(name, e) {
  if (e instanceof InvalidCRDError && e.fieldErrors.length) return invalidList(`The CustomResourceDefinition "${name}" is invalid: `, e.fieldErrors);
  return `error: ${e.code}: ${e.message}`;
}

/** cmd/celwasm's validate output: the CRD's warnings, then per object printResult. */
function formatValidation(v) {
  const lines = (v.crd.warnings ?? []).map((w) => `Warning: ${v.crd.name}: ${w}`);
  for (const r of v.results) {
    if (r instanceof CelError) {
      lines.push('error: ' + r.message);
      continue;
    }
    const ref = `${r.kind.toLowerCase()}.${r.group}/${r.name}` + (r.namespace ? ' in ' + r.namespace : '');
    const cost = r.costExceeded ? 'rule cost limit exceeded' : r.celSkipped ? 'rules not run' : `rule cost ${groupDigits(r.cost)}`;
    lines.push(`${ref}: ${r.valid ? 'valid' : 'invalid'} (${r.operation}, ${cost})`);
    for (const w of r.warnings ?? []) lines.push('Warning: ' + w);
    if (r.valid) continue;
    // host/crd.go's Describe: kubectl's message for the rejected object.
    if (r.reason !== 'Invalid' || !r.errors?.length) lines.push(`Error from server (${r.reason}): ${r.message}`);
    else lines.push(invalidList(`The ${r.kind} "${r.name}" is invalid: `, r.errors));
  }
  if (v.results.length === 0) lines.push('(no objects: the CRD is valid)');
  return lines.join('\n');
}

/** cmd/celwasm's printCost with -v (every rule explained). */
function costReport(rep) {
  const w = [`CustomResourceDefinition ${rep.crd.name}`];
  for (const sc of rep.schemas) {
    w.push('', `${sc.path} (versions ${sc.versions.join(', ')}): total estimated cost ${formatCost(sc.totalCost)} of ${groupDigits(sc.totalLimit)}${sc.totalCost > sc.totalLimit ? '  EXCEEDS' : ''}`);
    if (sc.rules.length === 0) {
      w.push('  no x-kubernetes-validations');
      continue;
    }
    for (const rc of sc.rules) {
      const where = rc.node === '' ? '(root)' : rc.node;
      const kind = rc.kind === 'messageExpression' ? ' messageExpression' : '';
      const path = rc.path.startsWith(sc.path + '.') ? rc.path.slice(sc.path.length + 1) : rc.path;
      if (rc.error) {
        w.push(`  ${'-'.padStart(14)}  ${where}${kind}  ${path}`, `      ${rc.expression}`, `      does not compile: ${rc.error.replaceAll('\n', '\n      ')}`);
        continue;
      }
      w.push(`  ${formatCost(rc.cost).padStart(14)}  ${where}${kind}  ${path}${rc.exceeds ? '  EXCEEDS ' + groupDigits(rc.limit) : ''}`, `      ${rc.expression}`);
      if (rc.explanation) w.push(...explanation(rc.explanation));
    }
  }
  if (!rep.valid) w.push('', invalidList(`The CustomResourceDefinition "${rep.crd.name}" is invalid: `, rep.errors ?? []));
  return w.join('\n');
}

function boundText(n, unit) {
  if (n.bound !== undefined) return `${n.boundName} ${n.bound} → up to ${groupDigits(n.maxSize)} ${unit}`;
  if (n.boundName === 'enum') return `enum → up to ${groupDigits(n.maxSize)} ${unit}`;
  if (n.fromRequestSize && n.boundName) return `no ${n.boundName} → up to ${groupDigits(n.maxSize)} ${unit} (what fits in a 3 MiB request)`;
  if (n.fromRequestSize) return `up to ${groupDigits(n.maxSize)} ${unit} (what fits in a 3 MiB request)`;
  return `up to ${groupDigits(n.maxSize)} ${unit}`;
}

/** cmd/celwasm's printExplanation. */
function explanation(e) {
  const w = [`      ${e.summary}`];
  for (const r of e.runs ?? []) w.push(`      runs once per ${r.kind === 'map' ? 'entry' : 'item'} of ${r.path}: ${boundText(r, 'times')}`);
  for (const s of e.sizes ?? []) w.push(`      reads ${s.kind} ${s.path}: ${boundText(s, s.kind === 'list' ? 'items' : s.kind === 'map' ? 'entries' : 'bytes')}`);
  for (const u of e.unknownSizes ?? []) w.push(`      unbounded size: ${u.expression} (passed to ${u.function}, at ${u.line ?? 0}:${u.column ?? 0})`);
  for (const c of (e.calls ?? []).slice(0, 5)) w.push(`      ${c.percent.toFixed(1).padStart(5)}%  ${c.function}  ${c.expression} (at ${c.line}:${c.column})`);
  const now = (f) => (f.current === undefined ? '' : ` (now ${f.current})`);
  for (const f of e.fixes ?? []) w.push(`      fix: ${f.set} ≤ ${f.value} on ${f.path}${now(f)} (estimated cost then ${formatCost(f.cost)})`);
  if (e.combinedFix?.length) {
    w.push(`      fix (together): ${e.combinedFix.map((f) => `${f.set} ≤ ${f.value} on ${f.path}`).join(', ')} (estimated cost then ${formatCost(e.combinedFix.at(-1).cost)})`);
  }
  if (e.noFix) w.push(`      ${e.noFix}`);
  return w;
}

/** Shows a failed run; `markIssues`: compile issues point into the editor's text. */
function showFailure(e, markIssues) {
  showStatus('');
  if (e instanceof CompileError && !markIssues) {
    current = { key: '', prg: null };
    showErrors(
      'Compile error',
      e.issues.length ? e.issues.map((is) => ({ where: 'CEL', message: is.message, snippet: is.snippet })) : [{ message: e.message }],
    );
  } else if (e instanceof CompileError) {
    current = { key: '', prg: null };
    syncBackdrop(e.issues);
    showErrors(
      `Compile error${e.issues.length > 1 ? 's' : ''}`,
      e.issues.map((is) => ({ where: `${is.line}:${is.column}`, message: is.message, snippet: is.snippet, issue: is })),
    );
  } else if (e instanceof CelError) {
    const title = { eval_error: 'Evaluation error', cost_limit_exceeded: 'Cost limit exceeded', invalid_env: 'Invalid environment', deadline_exceeded: 'Timed out', invalid_activation: 'Invalid input', invalid_argument: 'Invalid input', invalid_object: 'Invalid object', bad_request: 'Bad request', load_failed: 'The module did not load' }[e.code] ?? 'Error';
    if (e.code !== 'eval_error' && e.code !== 'cost_limit_exceeded') current = { key: '', prg: null };
    showErrors(title, [{ where: e.code, message: e.message + (e.cost !== undefined ? ` (cost spent: ${e.cost})` : '') }]);
  } else {
    showErrors('Error', [{ message: String(e?.message ?? e) }]);
  }
}

let timer;
async function changed() {
  clearTimeout(timer);
  syncBackdrop([]);
  document.body.dataset.pending = '1';
  timer = setTimeout(async () => {
    history.replaceState(null, '', '#' + (await encodeState(readControls())));
    document.body.dataset.pending = '0';
    run();
  }, 200);
}

// ------------------------------------------------------------------------------------------
// Start

async function start() {
  const groups = new Map();
  examples.forEach((ex, i) => {
    if (!groups.has(ex.group)) {
      const og = document.createElement('optgroup');
      og.label = ex.group;
      groups.set(ex.group, og);
      el.examples.append(og);
    }
    groups.get(ex.group).append(new Option(ex.title, String(i)));
  });
  try {
    rt = await WorkerRuntime.load({ timeoutMs: 30_000 });
  } catch (e) {
    showStatus('');
    return showErrors('The engine did not load', [{ where: e.code, message: e.message }]);
  }
  const v = await rt.version();
  el.version.textContent = `cel-go ${v.celGo} · Kubernetes CEL ${v.kubernetes} · module ${v.module} (ABI ${v.abi})`;
  el.compat.replaceChildren(new Option(`newest (${v.defaultCompatibilityVersion})`, ''), ...[...v.compatibilityVersions].reverse().map((c) => new Option(c, c)));
  el.exts.replaceChildren(
    ...v.extensions.map((x) => {
      const label = document.createElement('label');
      const box = document.createElement('input');
      box.type = 'checkbox';
      box.value = x;
      label.append(box, ' ' + x);
      return label;
    }),
  );
  writeControls((await decodeState(location.hash)) ?? defaultState());
  for (const c of [el.expr, el.decls, el.doc, el.bind, el.at, el.costLimit, el.old, el.user, el.groups]) c.addEventListener('input', changed);
  for (const c of [el.base, el.compat, el.envType, el.operation]) c.addEventListener('change', changed);
  el.mode.addEventListener('change', () => {
    syncMode();
    changed();
  });
  el.exts.addEventListener('change', changed);
  el.expr.addEventListener('scroll', () => (el.backdrop.scrollTop = el.expr.scrollTop));
  el.examples.addEventListener('change', () => {
    const ex = examples[Number(el.examples.value)];
    if (!ex) return;
    writeControls({ ...defaultState(), mode: ex.mode ?? 'cel', expr: ex.expr, doc: ex.doc, bind: ex.bind, at: ex.at, base: ex.base, old: ex.old ?? '', operation: ex.operation ?? '' });
    el.examples.value = '';
    changed();
  });
  el.share.addEventListener('click', async () => {
    history.replaceState(null, '', '#' + (await encodeState(readControls())));
    try {
      await navigator.clipboard.writeText(location.href);
      el.share.textContent = 'Link copied';
    } catch {
      el.share.textContent = 'Link in the address bar';
    }
    setTimeout(() => (el.share.textContent = 'Copy link'), 1500);
  });
  window.addEventListener('hashchange', async () => {
    const s = await decodeState(location.hash);
    if (s) {
      writeControls(s);
      run();
    }
  });
  await run();
}

start();
