// Worker runtimes in parallel (worker_threads), beside a main-thread Runtime: every call is
// in flight at once across the Workers, and every result is checked against its own input.
// CELWASM_CONCURRENCY_EVALS sets the evaluations per Worker (default 2,000).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Runtime, WorkerRuntime } from '../../dist/node.js';

const per = Number(process.env.CELWASM_CONCURRENCY_EVALS ?? 2000);

test('four WorkerRuntimes and a Runtime evaluate in parallel; no result is mixed with another input', async () => {
  const workers = await Promise.all([0, 1, 2, 3].map(() => WorkerRuntime.load()));
  const main = await Runtime.load();
  try {
    const expr = "[dyn(n * 3), dyn(s + '!')]";
    const vars = { variables: { n: 'int', s: 'string' } };
    const programs = await Promise.all(workers.map((w) => w.env(vars).compile(expr)));
    const local = main.env(vars).compile(expr);
    const check = (k, i, json) => {
      const n = k * 1_000_000 + i;
      assert.equal(json, `[{"int":"${n * 3}"},"t${k}-${i}!"]`, `runtime ${k} eval ${i}`);
    };
    let done = 0;
    const batch = 100;
    for (let start = 0; start < per; start += batch) {
      const calls = [];
      programs.forEach((p, k) => {
        for (let i = start; i < Math.min(per, start + batch); i++) {
          calls.push(p.eval({ n: k * 1_000_000 + i, s: `t${k}-${i}` }).then((r) => { check(k, i, r.json); done++; }));
        }
      });
      for (let i = start; i < Math.min(per, start + batch); i++) {
        check(4, i, local.eval({ n: 4_000_000 + i, s: `t4-${i}` }).json);
        done++;
      }
      await Promise.all(calls);
    }
    assert.equal(done, per * 5);
  } finally {
    for (const w of workers) w.close();
    main.close();
  }
});
