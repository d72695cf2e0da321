/** The module worker script for browsers (bundled into dist/worker.js with its dependencies). */

import { serve, type Reply, type Request } from './worker-server.js';

declare const self: { postMessage(m: unknown): void; addEventListener(t: 'message', cb: (e: { data: unknown }) => void): void };

serve({
  post: (m: Reply) => self.postMessage(m),
  onMessage: (cb) => self.addEventListener('message', (e) => cb(e.data as Request)),
});
