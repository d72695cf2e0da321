// Compares a result file with the other hosts' result files in out/conformance (same corpus).
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { outDir, repoRoot } from './corpus.mjs';

const hex = (b) => createHash('sha256').update(b).digest('hex');

function ids(bytes) {
  return Buffer.from(bytes)
    .toString('utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => /^\{"id":("(?:[^"\\]|\\.)*")/.exec(l)?.[1]);
}

/**
 * For each other host's file that holds the same tests (same ids in the same order) and was
 * written with the current module (not older than build/celwasm.wasm), requires byte equality.
 * Other files are reported and ignored. Returns false on a mismatch.
 */
export function compareWithOthers(host, bytes, others = ['wazero', 'wasmtime', 'native', 'python', 'node', 'chromium']) {
  let ok = true;
  const mine = ids(bytes).join('\n');
  const wasm = join(repoRoot, 'build', 'celwasm.wasm');
  const moduleTime = existsSync(wasm) ? statSync(wasm).mtimeMs : 0;
  for (const other of others) {
    if (other === host) continue;
    const path = join(outDir, `${other}.jsonl`);
    if (!existsSync(path)) continue;
    if (statSync(path).mtimeMs < moduleTime) {
      console.log(`${host}: ${other}.jsonl is older than build/celwasm.wasm; not compared`);
      continue;
    }
    const theirs = readFileSync(path);
    if (ids(theirs).join('\n') !== mine) {
      console.log(`${host}: ${other}.jsonl is from another corpus (different ids); not compared`);
      continue;
    }
    if (Buffer.compare(Buffer.from(bytes), theirs) === 0) {
      console.log(`${host}: identical to ${other}.jsonl (sha256 ${hex(theirs)})`);
    } else {
      ok = false;
      const a = Buffer.from(bytes).toString('utf8').split('\n');
      const b = theirs.toString('utf8').split('\n');
      const diff = [];
      a.forEach((l, k) => l !== b[k] && diff.push(k));
      const i = diff[0];
      console.log(`${host}: DIFFERS from ${other}.jsonl (sha256 ${hex(bytes)} vs ${hex(theirs)}) on ${diff.length} lines: ` +
        diff.slice(0, 12).map((k) => /"id":("[^"]*")/.exec(a[k])?.[1]).join(', ') + (diff.length > 12 ? ', …' : '') +
        `\n  first, line ${i + 1}:\n  ${host}:  ${a[i]?.slice(0, 400)}\n  ${other}: ${b[i]?.slice(0, 400)}`);
    }
  }
  return ok;
}
