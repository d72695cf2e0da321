// Locates the conformance corpus and the result files (Node side).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const sdkRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const repoRoot = join(sdkRoot, '..');
export const outDir = process.env.CELWASM_CONFORMANCE_OUT ?? join(repoRoot, 'out', 'conformance');

/** conformance/corpus/*.jsonl when present (the real corpus), else the sample under
 * test/fixtures/corpus; CELWASM_CORPUS overrides. Files in byte order of their names. */
export function corpusDir() {
  if (process.env.CELWASM_CORPUS) return process.env.CELWASM_CORPUS;
  const real = join(repoRoot, 'conformance', 'corpus');
  if (existsSync(real) && readdirSync(real).some((f) => f.endsWith('.jsonl'))) return real;
  return join(sdkRoot, 'test', 'fixtures', 'corpus');
}

export function corpusFiles(dir = corpusDir()) {
  const names = readdirSync(dir).filter((f) => f.endsWith('.jsonl'));
  names.sort((a, b) => (Buffer.from(a) < Buffer.from(b) ? -1 : Buffer.compare(Buffer.from(a), Buffer.from(b))));
  return names.map((n) => join(dir, n));
}

export function readCorpus(dir = corpusDir()) {
  return corpusFiles(dir).map((f) => new Uint8Array(readFileSync(f)));
}
