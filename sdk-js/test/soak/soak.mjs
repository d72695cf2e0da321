// Evaluates one program a million times (CELWASM_SOAK_EVALS) on a Node Runtime, every input
// different and every result checked; prints the guest's linear memory and the process RSS after
// a warm-up (the first half) and at the end, and the highest RSS sampled after the warm-up (every
// tenth of the run), as one JSON line (make soak; docs/reliability.md).
//
// The warm-up is the first half, not the first quarter of the other hosts: V8 sizes its young
// generation from the allocation rate and reached its final size (new space 2 × 16 MiB, +16 MiB
// RSS) between 250,000 and 400,000 evaluations in the runs measured for docs/reliability.md, so
// the first quarter ended before the heap had settled. After it, RSS rises and falls with the old
// generation (short-lived garbage the scavenger promotes, freed at each mark-compact); the peak
// shows the top of that cycle, which the end figure alone may miss.
import { Runtime } from '../../dist/node.js';

const evals = Number(process.env.CELWASM_SOAK_EVALS ?? 1_000_000);
const rt = await Runtime.load();
const prg = rt.env({ variables: { self: 'dyn' } }).compile("self.items.filter(i, i.ok).map(i, i.name + '-' + string(self.id))");
const warm = Math.floor(evals / 2);
const step = Math.max(1, Math.floor(evals / 10));
let guestWarm = 0, rssWarm = 0, rssPeak = 0;
for (let i = 0; i < evals; i++) {
  const act = `{"self":{"id":${i},"items":[{"name":"a","ok":true},{"name":"b${i}","ok":${i % 2 === 0}},{"name":"c","ok":false}]}}`;
  const json = prg.eval(act).json;
  const want = i % 2 === 0 ? `["a-${i}","b${i}-${i}"]` : `["a-${i}"]`;
  if (json !== want) {
    console.error(`eval ${i}: got ${json}, want ${want}`);
    process.exit(1);
  }
  if (i + 1 === warm) [guestWarm, rssWarm] = [rt.memoryBytes(), process.memoryUsage().rss];
  if ((i + 1) % step === 0) {
    const m = process.memoryUsage();
    if (i + 1 >= warm) rssPeak = Math.max(rssPeak, m.rss);
    console.error(`soak node: ${i + 1} evaluations, guest ${rt.memoryBytes()} bytes, RSS ${m.rss} bytes, V8 heap ${m.heapTotal} bytes (${m.heapUsed} used)`);
  }
}
const rssEnd = process.memoryUsage().rss;
console.log(JSON.stringify({ host: 'node', evals, warmEvals: warm, guestWarm, guestEnd: rt.memoryBytes(), rssWarm, rssEnd, rssPeak: Math.max(rssPeak, rssEnd) }));
rt.close();
