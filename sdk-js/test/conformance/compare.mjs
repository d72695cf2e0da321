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
 * Compares a result file with other hosts' result files in out/conformance. A file is compared
 * when it holds the same tests (same ids in the same order) and was written with the current
 * module (not older than build/celwasm.wasm); then it must be byte-identical. A `required` file
 * (the Go host's, which the Makefile writes first) that is missing, stale or from another corpus
 * fails; an `optional` one (other SDK hosts, present only when they ran) is then reported and
 * skipped. Returns false on any failure.
 */
export function compareWithOthers(host, bytes, { required = ['wasmtime'], optional = [] } = {}) {
  let ok = true;
  let compared = 0;
  const mine = ids(bytes).join('\n');
  const wasm = join(repoRoot, 'build', 'celwasm.wasm');
  const moduleTime = existsSync(wasm) ? statSync(wasm).mtimeMs : 0;
  const skip = (other, why) => {
    if (required.includes(other)) {
      ok = false;
      console.log(`${host}: FAIL: ${other}.jsonl ${why}; the Go host's results are required (make -C sdk-js go-results)`);
    } else {
      console.log(`${host}: ${other}.jsonl ${why}; not compared`);
    }
  };
  for (const other of [...required, ...optional]) {
    if (other === host) continue;
    const path = join(outDir, `${other}.jsonl`);
    if (!existsSync(path)) {
      skip(other, 'is missing');
      continue;
    }
    if (statSync(path).mtimeMs < moduleTime) {
      skip(other, 'is older than build/celwasm.wasm');
      continue;
    }
    const theirs = readFileSync(path);
    if (ids(theirs).join('\n') !== mine) {
      skip(other, 'is from another corpus (different ids)');
      continue;
    }
    compared++;
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
  if (compared === 0) {
    ok = false;
    console.log(`${host}: FAIL: compared with no other host`);
  }
  return ok;
}

/** Whether a run met every expectation without host errors (printing why not). */
export function expectationsHold(host, res) {
  if (res.unmet === 0 && res.hostErrors === 0) return true;
  console.log(`${host}: FAIL: ${res.unmet} unmet expectations, ${res.hostErrors} host errors`);
  return false;
}
