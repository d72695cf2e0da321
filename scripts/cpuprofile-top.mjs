// Prints the functions with the most self time (and, with --cum, inclusive
// time) of a V8 .cpuprofile (node --cpu-prof), like `go tool pprof -top`.
//
//   node scripts/cpuprofile-top.mjs FILE.cpuprofile [N]
import { readFileSync } from 'node:fs';

const [file, nArg = '40'] = process.argv.slice(2);
const p = JSON.parse(readFileSync(file, 'utf8'));
const byId = new Map(p.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of p.nodes) for (const c of n.children || []) parent.set(c, n.id);
const self = new Map();
const total = new Map();
const counts = new Map();
for (const s of p.samples) counts.set(s, (counts.get(s) || 0) + 1);
const name = (n) => n.callFrame.functionName || `(${n.callFrame.url || 'anonymous'})`;
let all = 0;
for (const [id, c] of counts) {
  all += c;
  const n = byId.get(id);
  self.set(name(n), (self.get(name(n)) || 0) + c);
  const seen = new Set();
  for (let x = id; x !== undefined; x = parent.get(x)) {
    const nm = name(byId.get(x));
    if (!seen.has(nm)) total.set(nm, (total.get(nm) || 0) + c);
    seen.add(nm);
  }
}
const rows = [...self].sort((a, b) => b[1] - a[1]).slice(0, Number(nArg));
console.log(`${all} samples; self% cum% function`);
for (const [nm, c] of rows) console.log(`${((100 * c) / all).toFixed(1).padStart(5)} ${((100 * total.get(nm)) / all).toFixed(1).padStart(5)} ${nm}`);
