// Evaluates one program a million times (CELWASM_SOAK_EVALS) on a Node Runtime, every input
// different and every result checked; prints the guest's linear memory and the process RSS after
// a warm-up (the first quarter) and at the end as one JSON line (make soak; docs/reliability.md).
import { Runtime } from '../../dist/node.js';

const evals = Number(process.env.CELWASM_SOAK_EVALS ?? 1_000_000);
const rt = await Runtime.load();
const prg = rt.env({ variables: { self: 'dyn' } }).compile("self.items.filter(i, i.ok).map(i, i.name + '-' + string(self.id))");
const warm = Math.floor(evals / 4);
const step = Math.max(1, Math.floor(evals / 10));
let guestWarm = 0, rssWarm = 0;
for (let i = 0; i < evals; i++) {
  const act = `{"self":{"id":${i},"items":[{"name":"a","ok":true},{"name":"b${i}","ok":${i % 2 === 0}},{"name":"c","ok":false}]}}`;
  const json = prg.eval(act).json;
  const want = i % 2 === 0 ? `["a-${i}","b${i}-${i}"]` : `["a-${i}"]`;
  if (json !== want) {
    console.error(`eval ${i}: got ${json}, want ${want}`);
    process.exit(1);
  }
  if (i + 1 === warm) [guestWarm, rssWarm] = [rt.memoryBytes(), process.memoryUsage().rss];
  if ((i + 1) % step === 0) console.error(`soak node: ${i + 1} evaluations, guest ${rt.memoryBytes()} bytes, RSS ${process.memoryUsage().rss} bytes`);
}
console.log(JSON.stringify({ host: 'node', evals, guestWarm, guestEnd: rt.memoryBytes(), rssWarm, rssEnd: process.memoryUsage().rss }));
rt.close();
