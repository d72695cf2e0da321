// Runs the conformance corpus in Node through the package (dist/) and writes
// out/conformance/node.jsonl (conformance/FORMAT.md).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { Runtime } from '../../dist/node.js';
import { corpusDir, outDir, readCorpus, repoRoot } from './corpus.mjs';
import { runCorpus, sha256 } from './runner.mjs';
import { compareWithOthers, expectationsHold } from './compare.mjs';

const dir = corpusDir();
const t0 = performance.now();
const rt = await Runtime.load();
const loaded = performance.now() - t0;
const res = await runCorpus(rt, readCorpus(dir));
mkdirSync(outDir, { recursive: true });
const path = join(outDir, 'node.jsonl');
writeFileSync(path, res.bytes);
const hash = await sha256(res.bytes);
console.log(`node: ${res.lines} tests from ${relative(repoRoot, dir)} in ${((performance.now() - t0) / 1000).toFixed(1)}s (module load ${(loaded / 1000).toFixed(1)}s), ${res.hostErrors} host errors → ${relative(repoRoot, path)}`);
console.log(`node: sha256 ${hash}`);
console.log(`node: expectations met ${res.met}, unmet ${res.unmet}, skipped ${res.skipped}${res.unmetIds.length ? ' (unmet: ' + res.unmetIds.slice(0, 8).join(', ') + (res.unmetIds.length > 8 ? ', …' : '') + ')' : ''}`);
// Every expectation, and byte equality with the Go host's run (required) and the other Go
// runtimes' and Python's (when present). The Chromium run compares itself with this file.
const met = expectationsHold('node', res);
const same = compareWithOthers('node', res.bytes, { required: ['wasmtime'], optional: ['wazero', 'native', 'python'] });
process.exitCode = met && same ? 0 : 1;
