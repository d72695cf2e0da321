// A small static HTTP server on 127.0.0.1 for the browser tests: the package root (dist/,
// node_modules/, test/), the corpus under /corpus/, and result uploads under /out/.
import { createServer } from 'node:http';
import { createReadStream, existsSync, readdirSync, statSync } from 'node:fs';
import { extname, join, normalize, sep } from 'node:path';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.jsonl': 'application/jsonl',
  '.wasm': 'application/wasm',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.yaml': 'text/yaml; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
};

/**
 * Serves `mounts` (URL prefix → directory). `onUpload(name, bytes)` receives PUT /out/<name>.
 * Resolves to { url, close() }.
 */
export function serve(mounts, { onUpload } = {}) {
  const entries = Object.entries(mounts).sort((a, b) => b[0].length - a[0].length);
  const server = createServer((req, res) => {
    const url = new URL(req.url, 'http://x');
    const path = decodeURIComponent(url.pathname);
    if (req.method === 'PUT' && path.startsWith('/out/') && onUpload) {
      const chunks = [];
      req.on('data', (c) => chunks.push(c));
      req.on('end', () => {
        onUpload(path.slice(5), Buffer.concat(chunks));
        res.writeHead(204).end();
      });
      return;
    }
    for (const [prefix, dir] of entries) {
      if (!path.startsWith(prefix)) continue;
      const rel = path.slice(prefix.length);
      let file = normalize(join(dir, rel));
      if (file !== dir && !file.startsWith(dir.endsWith(sep) ? dir : dir + sep)) break;
      if (existsSync(file) && statSync(file).isDirectory()) {
        if (url.searchParams.has('list')) {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify(readdirSync(file).sort()));
          return;
        }
        file = join(file, 'index.html');
      }
      if (!existsSync(file)) break;
      res.writeHead(200, {
        'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
        'content-length': statSync(file).size,
        'cache-control': 'no-store',
      });
      createReadStream(file).pipe(res);
      return;
    }
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found: ' + path);
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      resolve({ url: `http://127.0.0.1:${port}`, close: () => new Promise((r) => server.close(r)) });
    });
  });
}
