// Runs the adversarial corpus (conformance/adversarial/cases.jsonl, docs/reliability.md) on a
// Runtime or a WorkerRuntime (every call awaited): each case's one expected outcome, a value or
// an error code, and the canary (case 0) on the same runtime after every case. Node and Chromium.

const enc = new TextEncoder();

/** A case's text: [[piece, count], ...] (a piece is a string or {hex}) or a string. Text that is
 * not UTF-8 comes back as bytes (a Uint8Array activation is JSON text as bytes). */
export function expand(p) {
  if (typeof p === 'string') return p;
  if (p.every(([piece]) => typeof piece === 'string')) return p.map(([piece, n]) => piece.repeat(n)).join('');
  const parts = p.map(([piece, n]) => {
    const b = typeof piece === 'string' ? enc.encode(piece) : Uint8Array.from(piece.hex.match(/../g), (h) => parseInt(h, 16));
    const out = new Uint8Array(b.length * n);
    for (let i = 0; i < n; i++) out.set(b, i * b.length);
    return out;
  });
  const all = new Uint8Array(parts.reduce((s, x) => s + x.length, 0));
  let o = 0;
  for (const x of parts) { all.set(x, o); o += x.length; }
  return all;
}

async function outcome(rt, c) {
  let prg;
  try {
    prg = await rt.env({ variables: c.variables }).compile(expand(c.expression));
  } catch (e) {
    return { code: e.code ?? `untyped: ${e}` };
  }
  try {
    const res = await prg.eval(expand(c.activation), c.costLimit !== undefined ? { costLimit: c.costLimit } : undefined);
    return { value: JSON.parse(res.json) };
  } catch (e) {
    return { code: e.code ?? `untyped: ${e}` };
  } finally {
    prg.free();
  }
}

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

/** Runs every case of the corpus text; resolves to { ran, failures: [strings] }. */
export async function runAdversarial(rt, text, { onCase } = {}) {
  const cases = text.split('\n').filter((l) => l).map((l) => JSON.parse(l));
  if (cases.length < 50 || cases[0].id !== 'canary') throw new Error(`corpus: ${cases.length} cases, first ${cases[0]?.id}`);
  const failures = [];
  for (const c of cases.slice(1)) {
    const got = await outcome(rt, c);
    const want = c.expect;
    if ('error' in want ? got.code !== want.error : got.code !== undefined || !same(got.value, want.value)) {
      failures.push(`${c.id}: got ${JSON.stringify(got)}, want ${JSON.stringify(want)}`);
    }
    const canary = await outcome(rt, cases[0]);
    if (!same(canary, { value: cases[0].expect.value })) {
      failures.push(`after ${c.id} the canary got ${JSON.stringify(canary)}`);
      break;
    }
    await onCase?.(c.id);
  }
  return { ran: cases.length - 1, failures };
}
