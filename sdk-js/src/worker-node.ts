/** The worker_threads script for Node. */

import { parentPort } from 'node:worker_threads';
import { serve, type Request } from './worker-server.js';

const port = parentPort!;
serve({
  post: (m) => port.postMessage(m),
  onMessage: (cb) => port.on('message', (m) => cb(m as Request)),
});
