// Guest-side CPU profile of the proxy-wasm filter (make profile-proxywasm):
// node --cpu-prof over the filter built with its name section, driven by a
// minimal proxy-wasm host in this file (the ABI 0.2.1 calls the filter makes:
// configuration, request headers, properties, metrics), so that the profile
// names the filter's Go functions. Envoy has no profiler for its Wasm VMs;
// this runs the same module under V8, outside Envoy's host boundary.
//
//   node --cpu-prof --cpu-prof-dir=DIR scripts/profile-proxywasm.mjs MODULE POLICIES.json CONFIG_NAME
//
// POLICIES.json: host/envoy/cmd/envoy-bench/policies.json, the Envoy benchmark's
// configurations; CONFIG_NAME: "true" (one rule, `true`) or "policy" (its
// 4-rule policy). Each request is the callbacks Envoy makes for a GET without
// a body: context create, request headers, response headers, done, log, delete.
// Prints µs per request (median of 5 rounds) and the host calls per request.
import { readFileSync } from 'node:fs';
import { WASI } from 'node:wasi';

const [modPath, policiesPath, configName] = process.argv.slice(2);
const configs = JSON.parse(readFileSync(policiesPath, 'utf8'));
if (!(configName in configs)) throw new Error(`unknown config ${configName}: want ${Object.keys(configs)}`);
const enc = new TextEncoder();
const dec = new TextDecoder();
const config = enc.encode(JSON.stringify(configs[configName]));

// The request of the Envoy benchmark, as Envoy serializes it: property paths
// joined by NUL, strings as bytes; header maps as proxy-wasm pairs.
const properties = new Map(Object.entries({
  'request\0method': 'GET', 'request\0path': '/api/items?page=3', 'request\0url_path': '/api/items',
  'source\0address': '127.0.0.1:40000', 'destination\0address': '127.0.0.1:10000',
}).map(([k, v]) => [k, enc.encode(v)]));
const headers = [[':authority', '127.0.0.1:10000'], [':path', '/api/items?page=3'], [':method', 'GET'], [':scheme', 'http'],
  ['user-agent', 'Go-http-client/1.1'], ['x-team', 'core'], ['accept-encoding', 'gzip'], ['x-request-id', 'abc-123']];
function pairs(list) {
  const kv = list.map(([k, v]) => [enc.encode(k), enc.encode(v)]);
  const size = kv.reduce((n, [k, v]) => n + 8 + k.length + v.length + 2, 4);
  const b = new Uint8Array(size);
  const dv = new DataView(b.buffer);
  dv.setUint32(0, kv.length, true);
  let o = 4;
  for (const [k, v] of kv) { dv.setUint32(o, k.length, true); dv.setUint32(o + 4, v.length, true); o += 8; }
  for (const [k, v] of kv) { b.set(k, o); o += k.length + 1; b.set(v, o); o += v.length + 1; }
  return b;
}
const headerPairs = pairs(headers);

let ex;
const calls = { property: 0, headerMap: 0 };
// Returns data the way a proxy-wasm host does: in a buffer the guest
// allocates (proxy_on_memory_allocate), its address and size written at the
// guest's pointers.
function give(data, retData, retSize) {
  const p = ex.proxy_on_memory_allocate(data.length);
  new Uint8Array(ex.memory.buffer).set(data, p);
  const dv = new DataView(ex.memory.buffer);
  dv.setUint32(retData, p, true);
  dv.setUint32(retSize, data.length, true);
  return 0;
}
const OK = 0, NOT_FOUND = 1;
const env = {
  proxy_log: (level, p, n) => {
    if (level >= 3) console.error(`filter log ${level}: ${dec.decode(new Uint8Array(ex.memory.buffer, p, n))}`);
    return OK;
  },
  proxy_get_buffer_bytes: (type, start, max, retData, retSize) => give(config, retData, retSize),
  proxy_get_header_map_pairs: (type, retData, retSize) => { calls.headerMap++; return give(headerPairs, retData, retSize); },
  proxy_replace_header_map_value: () => OK,
  proxy_remove_header_map_value: () => OK,
  proxy_get_property: (p, n, retData, retSize) => {
    calls.property++;
    const v = properties.get(dec.decode(new Uint8Array(ex.memory.buffer, p, n)));
    return v === undefined ? NOT_FOUND : give(v, retData, retSize);
  },
  proxy_send_local_response: () => OK,
  proxy_define_metric: (type, p, n, retID) => { new DataView(ex.memory.buffer).setUint32(retID, 1, true); return OK; },
  proxy_increment_metric: () => OK,
};
const wasi = new WASI({ version: 'preview1', args: ['celwasm'], env: {} });
const { instance } = await WebAssembly.instantiate(readFileSync(modPath), { wasi_snapshot_preview1: wasi.wasiImport, env });
wasi.initialize(instance);
ex = instance.exports;
const root = 1;
ex.proxy_on_context_create(root, 0);
ex.proxy_on_vm_start(root, 0);
if (!ex.proxy_on_configure(root, config.length)) throw new Error(`the filter refused the ${configName} configuration`);

let id = root + 1;
function requests(n) {
  for (let i = 0; i < n; i++, id++) {
    ex.proxy_on_context_create(id, root);
    if (ex.proxy_on_request_headers(id, headers.length, 1) !== 0) throw new Error('the request was not continued');
    ex.proxy_on_response_headers(id, 0, 0);
    ex.proxy_on_done(id);
    ex.proxy_on_log(id);
    ex.proxy_on_delete(id);
  }
}
// Each round runs for PROFILE_SECONDS / 5 (default 3 s in all) after a warm-up.
const seconds = Number(process.env.PROFILE_SECONDS || 3);
requests(1000);
const rounds = [];
for (let r = 0; r < 5; r++) {
  let n = 0;
  const t0 = process.hrtime.bigint();
  let t = t0;
  while (t - t0 < BigInt(seconds * 2e8)) { requests(100); n += 100; t = process.hrtime.bigint(); }
  rounds.push(Number(t - t0) / 1e3 / n);
}
rounds.sort((a, b) => a - b);
calls.property = calls.headerMap = 0;
requests(1);
console.log(`${configName}: ${rounds[2].toFixed(2)} µs per request (median of 5 rounds); host calls per request: ` +
  `${calls.property} proxy_get_property, ${calls.headerMap} proxy_get_header_map_pairs`);
