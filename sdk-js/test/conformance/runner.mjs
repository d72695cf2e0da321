// The conformance runner shared by Node and Chromium (conformance/FORMAT.md): runs every corpus
// line through celwasm's raw ABI (Runtime.raw) and returns the result file's bytes, plus a check
// of the results against the corpus expectations.
//
// It mirrors the Go runner (conformance/cmd/run): compile and eval requests are the corpus bytes
// exactly as written (eval: `{"program":N` + `,` + the eval object's bytes after its `{`), a
// successful compile response loses its leading `"program":N,`, the program is freed after its
// eval, and a trap is recorded as {"id":ID,"hostError":"trap"} with the instance replaced.

const enc = new TextEncoder();
const dec = new TextDecoder();

/** Skips JSON whitespace from i. */
function ws(b, i) {
  while (i < b.length && (b[i] === 0x20 || b[i] === 0x09 || b[i] === 0x0a || b[i] === 0x0d)) i++;
  return i;
}

/** Returns the index just past the JSON value starting at i (the line is valid JSON). */
function skipValue(b, i) {
  const c = b[i];
  if (c === 0x22) {
    i++;
    while (b[i] !== 0x22) i += b[i] === 0x5c ? 2 : 1;
    return i + 1;
  }
  if (c === 0x7b || c === 0x5b) {
    let depth = 0;
    for (; i < b.length; i++) {
      const d = b[i];
      if (d === 0x22) {
        i = skipValue(b, i) - 1;
      } else if (d === 0x7b || d === 0x5b) {
        depth++;
      } else if (d === 0x7d || d === 0x5d) {
        depth--;
        if (depth === 0) return i + 1;
      }
    }
    throw new Error('unterminated JSON value');
  }
  while (i < b.length && !(b[i] === 0x2c || b[i] === 0x7d || b[i] === 0x5d || b[i] === 0x20 || b[i] === 0x0a || b[i] === 0x0d || b[i] === 0x09)) i++;
  return i;
}

/** The raw bytes of each top-level member of a JSON object line, like Go's json.RawMessage. */
export function members(line) {
  const out = new Map();
  let i = ws(line, 0);
  if (line[i] !== 0x7b) throw new Error('corpus line is not a JSON object');
  i = ws(line, i + 1);
  if (line[i] === 0x7d) return out;
  for (;;) {
    const kEnd = skipValue(line, i);
    const key = JSON.parse(dec.decode(line.subarray(i, kEnd)));
    i = ws(line, kEnd);
    if (line[i] !== 0x3a) throw new Error('expected :');
    i = ws(line, i + 1);
    const vEnd = skipValue(line, i);
    out.set(key, line.subarray(i, vEnd));
    i = ws(line, vEnd);
    if (line[i] === 0x2c) {
      i = ws(line, i + 1);
      continue;
    }
    if (line[i] === 0x7d) return out;
    throw new Error('expected , or }');
  }
}

/** Splits corpus files into lines (bytes), in order. */
export function corpusLines(files) {
  const lines = [];
  for (const f of files) {
    let start = 0;
    for (let i = 0; i <= f.length; i++) {
      if (i === f.length || f[i] === 0x0a) {
        if (i > start) lines.push(f.subarray(start, i));
        start = i + 1;
      }
    }
  }
  return lines;
}

function concat(parts) {
  let n = 0;
  for (const p of parts) n += p.length;
  const out = new Uint8Array(n);
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

const PROGRAM_PREFIX = enc.encode('{"program":');

function startsWith(b, p) {
  if (b.length < p.length) return false;
  for (let i = 0; i < p.length; i++) if (b[i] !== p[i]) return false;
  return true;
}

/** {"program":N,REST → [N, {REST]; otherwise null. */
function stripHandle(resp) {
  if (!startsWith(resp, PROGRAM_PREFIX)) return null;
  let i = PROGRAM_PREFIX.length;
  let n = 0;
  const s = i;
  while (i < resp.length && resp[i] >= 0x30 && resp[i] <= 0x39) n = n * 10 + (resp[i++] - 0x30);
  if (i === s || resp[i] !== 0x2c) return null;
  return [n, concat([enc.encode('{'), resp.subarray(i + 1)])];
}

function trimSpace(b) {
  let s = 0;
  let e = b.length;
  while (s < e && (b[s] === 0x20 || b[s] === 0x09 || b[s] === 0x0a || b[s] === 0x0d)) s++;
  while (e > s && (b[e - 1] === 0x20 || b[e - 1] === 0x09 || b[e - 1] === 0x0a || b[e - 1] === 0x0d)) e--;
  return b.subarray(s, e);
}

/** Calls fn; on 'unavailable' (a browser main thread that refused to instantiate synchronously
 * after a trap) waits for the replacement and tries again. */
async function withInstance(rt, fn) {
  for (;;) {
    try {
      return fn();
    } catch (e) {
      if (e && e.code === 'unavailable') {
        await rt.ready();
        continue;
      }
      throw e;
    }
  }
}

/** Whether the results of one test meet the corpus expectation (conformance/FORMAT.md). */
function meets(expect, expectText, compileResp, evalResp) {
  const c = JSON.parse(compileResp);
  if (expect.compileError) return !!c.error;
  if (c.error) return false;
  if (expect.type !== undefined && c.outputType !== expect.type) return false;
  if (expect.costEstimate) {
    // Exact: these numbers go up to 2^64-1, beyond what JSON.parse keeps.
    const re = /"costEstimate":\{"min":(\d+),"max":(\d+)\}/;
    const m = re.exec(compileResp);
    const want = re.exec(expectText);
    if (!m || !want || m[1] !== want[1] || m[2] !== want[2]) return false;
  }
  if (evalResp === null) return expect.value === undefined && !expect.evalError;
  const e = JSON.parse(evalResp);
  if (expect.evalError) return !!e.error;
  if (e.error) return false;
  if (expect.cost !== undefined && BigInt(expect.cost) !== BigInt(/"cost":(\d+)\}$/.exec(evalResp)[1])) return false;
  if (expect.value !== undefined) return JSON.stringify(e.value) === JSON.stringify(expect.value);
  return true;
}

/**
 * Runs the corpus. `files` are the corpus files' bytes in order; `rt` is a celwasm Runtime.
 * Returns { bytes, lines, met, unmet, skipped, hostErrors, unmetIds }.
 */
export async function runCorpus(rt, files, { onProgress } = {}) {
  const lines = corpusLines(files);
  const out = [];
  const nl = enc.encode('\n');
  let met = 0;
  let unmet = 0;
  let skipped = 0;
  let hostErrors = 0;
  const unmetIds = [];
  for (let n = 0; n < lines.length; n++) {
    if (onProgress && n % 250 === 0) await onProgress(n, lines.length);
    const m = members(lines[n]);
    const id = JSON.parse(dec.decode(m.get('id')));
    const idJson = enc.encode(JSON.stringify(id));
    if (m.has('skip')) {
      skipped++;
      out.push(enc.encode('{"id":'), idJson, enc.encode(',"skip":true}'), nl);
      continue;
    }
    const expectText = m.has('expect') ? dec.decode(m.get('expect')) : '{}';
    const expect = JSON.parse(expectText);
    let compileOut;
    let evalOut = null;
    try {
      const resp = await withInstance(rt, () => rt.raw('compile', m.get('compile')));
      const stripped = stripHandle(resp);
      compileOut = stripped ? stripped[1] : resp;
      if (stripped && m.has('eval')) {
        const ev = trimSpace(m.get('eval'));
        const head = enc.encode('{"program":' + stripped[0]);
        const req = ev.length > 2 ? concat([head, enc.encode(','), ev.subarray(1)]) : concat([head, enc.encode('}')]);
        evalOut = await withInstance(rt, () => rt.raw('eval', req));
        rt.rawFree(stripped[0]);
      }
    } catch (e) {
      if (!e || e.code !== 'trap') throw e;
      hostErrors++;
      unmet++;
      unmetIds.push(id);
      out.push(enc.encode('{"id":'), idJson, enc.encode(',"hostError":"trap"}'), nl);
      continue;
    }
    out.push(enc.encode('{"id":'), idJson, enc.encode(',"compile":'), compileOut, enc.encode(',"eval":'), evalOut ?? enc.encode('null'), enc.encode('}'), nl);
    if (meets(expect, expectText, dec.decode(compileOut), evalOut === null ? null : dec.decode(evalOut))) met++;
    else {
      unmet++;
      unmetIds.push(id);
    }
  }
  return { bytes: concat(out), lines: lines.length, met, unmet, skipped, hostErrors, unmetIds };
}

/** Hex sha256 of bytes (Web Crypto: Node ≥ 20 and browsers). */
export async function sha256(bytes) {
  const d = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  return Array.from(d, (x) => x.toString(16).padStart(2, '0')).join('');
}
