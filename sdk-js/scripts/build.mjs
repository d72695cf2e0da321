// Builds dist/: TypeScript → ESM + .d.ts, the browser entry and the browser worker each bundled
// into one self-contained file, and the modules copied from ../build/celwasm.wasm, ../build/celwasm-full.wasm and
// ../build/celwasm-admission.wasm (made by `make wasm` at the repository root).
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
const wasm = process.env.CELWASM_WASM ?? join(root, '..', 'build', 'celwasm.wasm');
const fullWasm = process.env.CELWASM_FULL_WASM ?? join(root, '..', 'build', 'celwasm-full.wasm');
const admissionWasm = process.env.CELWASM_ADMISSION_WASM ?? join(root, '..', 'build', 'celwasm-admission.wasm');

for (const w of [wasm, fullWasm, admissionWasm]) {
  if (!existsSync(w)) {
    console.error(`build: ${w} is missing; run "make wasm" at the repository root first`);
    process.exit(1);
  }
}
rmSync(dist, { recursive: true, force: true });
execFileSync(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(root, 'tsconfig.json')], { stdio: 'inherit' });

const bundle = (entry, outfile) =>
  build({
    entryPoints: [join(dist, entry)],
    outfile: join(dist, outfile),
    allowOverwrite: true,
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    legalComments: 'inline',
    logLevel: 'warning',
  });
// The browser entry is one file with its dependency inside: a page without a bundler imports it
// with no import map, in one request instead of seventeen (RATIONALE.md, "The browser entry is one
// file"). Node keeps the separate files.
await bundle('browser.js', 'browser.js');
// A module worker cannot use the page's import map or bare specifiers: bundle it.
await bundle('worker-browser.js', 'worker.js');
rmSync(join(dist, 'worker-browser.js'));
rmSync(join(dist, 'worker-browser.d.ts'));

mkdirSync(dist, { recursive: true });
copyFileSync(wasm, join(dist, 'celwasm.wasm'));
copyFileSync(fullWasm, join(dist, 'celwasm-full.wasm'));
copyFileSync(admissionWasm, join(dist, 'celwasm-admission.wasm'));
const size = (name) => `${name} ${statSync(join(dist, name)).size} bytes`;
console.log(`build: dist/ ready (${['celwasm.wasm', 'celwasm-full.wasm', 'celwasm-admission.wasm'].map(size).join(', ')})`);
