// Builds the playground into playground/dist: a static page. `celwasm` resolves to this package
// exactly as an installed copy would (package.json "exports", browser conditions), so the build
// also proves the package works in a Vite app: the .wasm asset and the module worker are emitted
// from the package's `new URL('…', import.meta.url)` references.
import { defineConfig } from 'vite';
import { fileURLToPath } from 'node:url';

const here = (p) => fileURLToPath(new URL(p, import.meta.url));

export default defineConfig({
  root: here('.'),
  base: './',
  resolve: { alias: [{ find: /^celwasm$/, replacement: here('../dist/browser.js') }] },
  build: {
    outDir: here('dist'),
    emptyOutDir: true,
    target: 'es2022',
    chunkSizeWarningLimit: 2048,
    assetsInlineLimit: 0,
    reportCompressedSize: false,
  },
  worker: { format: 'es' },
  server: { fs: { allow: [here('../..')] } },
  logLevel: 'warn',
});
