// Guest-side CPU profile of the reference cases: node --cpu-prof over a module
// built with its name section (make profile), calling the exports directly
// (node:wasi, no SDK), so the profile shows the module's Go functions.
//
//   node --cpu-prof --cpu-prof-dir=DIR scripts/profile-guest.mjs MODULE CASES.json [export]
//
// CASES.json: [{"name","expression","variable","activation"}] (written by
// `go test ./wasm/abi -run TestWriteRefCases`). export: "eval" (the JSON
// request, default) or "eval_activation" (docs/abi.md, the integer envelope).
import { readFileSync } from 'node:fs';
import { WASI } from 'node:wasi';

const [modPath, casesPath, exp = 'eval'] = process.argv.slice(2);
const only = process.env.PROFILE_CASES ? process.env.PROFILE_CASES.split(',') : null;
const cases = JSON.parse(readFileSync(casesPath, 'utf8')).filter((c) => !only || only.includes(c.name));
const wasi = new WASI({ version: 'preview1', args: ['celwasm'], env: {} });
const { instance } = await WebAssembly.instantiate(readFileSync(modPath), { wasi_snapshot_preview1: wasi.wasiImport });
wasi.initialize(instance);
const ex = instance.exports;
const enc = new TextEncoder();
const dec = new TextDecoder();
const cap = 1 << 20;
const buf = ex.celwasm_alloc(cap);

function call(fn, ...args) {
  const r = fn(...args);
  const ptr = Number(r >> 32n), len = Number(r & 0xffffffffn);
  return dec.decode(new Uint8Array(ex.memory.buffer, ptr, len));
}
function put(s) {
  const b = enc.encode(s);
  new Uint8Array(ex.memory.buffer, buf, cap).set(b);
  return b.length;
}

// Each case runs for PROFILE_SECONDS (default 3) so that start-up is a small part of its profile.
const seconds = Number(process.env.PROFILE_SECONDS || 3);
for (const c of cases) {
  const creq = JSON.stringify({ expression: c.expression, env: { variables: [{ name: c.variable, type: 'dyn' }] } });
  const cr = JSON.parse(call(ex.celwasm_compile, buf, put(creq)));
  if (!cr.program) throw new Error(`compile ${c.name}: ${JSON.stringify(cr)}`);
  const act = JSON.stringify(c.activation);
  let first;
  let n = 0;
  const t0 = process.hrtime.bigint();
  const end = t0 + BigInt(Math.round(seconds * 1e9));
  if (exp === 'eval_activation') {
    const len = put(act);
    const r = ex.celwasm_eval_activation(cr.program, 0, 0, buf, len);
    first = r < 0x100000000n ? `packed ${r >> 30n === 2n} cost ${r & 0x3fffffffn}` : call(() => r);
    while (process.hrtime.bigint() < end) {
      for (let i = 0; i < 100; i++) ex.celwasm_eval_activation(cr.program, 0, 0, buf, len);
      n += 100;
    }
  } else {
    const len = put(`{"program":${cr.program},"activation":${act}}`);
    first = call(() => ex.celwasm_eval(buf, len));
    while (process.hrtime.bigint() < end) {
      for (let i = 0; i < 100; i++) ex.celwasm_eval(buf, len);
      n += 100;
    }
  }
  const us = Number(process.hrtime.bigint() - t0) / 1000 / n;
  console.log(`${c.name}: ${us.toFixed(2)} µs per call (${n} calls), first response ${first}`);
}
