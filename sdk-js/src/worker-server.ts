/**
 * The code that runs inside the Worker: a {@link Core} driven by messages from
 * {@link WorkerRuntime}. Internal.
 */

import { Core } from './core.js';
import { CelError, serializeError, type SerializedError } from './errors.js';

/** Page → Worker. */
export type Request =
  | { t: 'init'; module: WebAssembly.Module; memoryLimit?: number }
  | { t: 'initFull'; id: number; module: WebAssembly.Module; memoryLimit?: number }
  | { t: 'initAdmission'; id: number; module: WebAssembly.Module; memoryLimit?: number }
  | { t: 'compile'; id: number; pid: number; req: string }
  | { t: 'eval'; id: number; pid: number; compile?: string; rest: (string | Uint8Array)[] }
  | { t: 'batch'; id: number; pid: number; compile?: string; rest: (string | Uint8Array)[] }
  | { t: 'crd'; id: number; fn: 'validate' | 'cost'; req: string }
  | { t: 'admit'; id: number; req: string }
  | { t: 'free'; pid: number }
  | { t: 'version'; id: number }
  | { t: 'memory'; id: number };

/** Worker → page. */
export type Reply =
  | { t: 'ready' }
  | { t: 'fatal'; error: SerializedError }
  | { id: number; ok: true; result: unknown }
  | { id: number; ok: false; error: SerializedError };

export interface ServerPort {
  post(message: Reply): void;
  onMessage(cb: (message: Request) => void): void;
}

export function serve(port: ServerPort): void {
  let core: Core | undefined;
  // celwasm-full, sent by the page when a request needs it (code needs_module), and the
  // programs compiled there.
  let full: Core | undefined;
  const inFull = new Set<number>();
  const coreOf = (pid: number): Core => {
    if (!inFull.has(pid)) return core!;
    if (!full) throw new CelError('needs_module', 'this program needs the module celwasm-full', { module: 'celwasm-full' });
    return full;
  };
  // celwasm-admission, sent by the page for the first admit.
  let admission: Core | undefined;
  const needAdmission = (): Core => {
    if (!admission) throw new CelError('needs_module', 'this request needs the module celwasm-admission', { module: 'celwasm-admission' });
    return admission;
  };
  const needFull = (): Core => {
    if (!full) throw new CelError('needs_module', 'this request needs the module celwasm-full', { module: 'celwasm-full' });
    return full;
  };
  // A compile request: in the expression module, or in celwasm-full when it answers needs_module.
  const compile = (req: string, pid: number) => {
    if (inFull.has(pid)) return needFull().compile(req, pid);
    try {
      return core!.compile(req, pid);
    } catch (e) {
      if (!(e instanceof CelError) || e.code !== 'needs_module') throw e;
    }
    const out = needFull().compile(req, pid);
    inFull.add(pid);
    return out;
  };
  port.onMessage((m) => {
    if (m.t === 'init') {
      Core.create(m.module, { memoryLimit: m.memoryLimit }).then(
        (c) => {
          core = c;
          port.post({ t: 'ready' });
        },
        (e) => port.post({ t: 'fatal', error: serializeError(e) }),
      );
      return;
    }
    if (m.t === 'initFull' || m.t === 'initAdmission') {
      const isFull = m.t === 'initFull';
      Core.create(m.module, { memoryLimit: m.memoryLimit }).then(
        (c) => {
          if (isFull) full ??= c;
          else admission ??= c;
          port.post({ id: m.id, ok: true, result: null });
        },
        (e) => port.post({ id: m.id, ok: false, error: serializeError(e) }),
      );
      return;
    }
    if (m.t === 'free') {
      if (inFull.delete(m.pid)) full?.free(m.pid);
      else core?.free(m.pid);
      return;
    }
    try {
      if (!core) throw new CelError('unavailable', 'worker not initialised');
      let result: unknown;
      switch (m.t) {
        case 'compile': {
          const { info } = compile(m.req, m.pid);
          result = { outputType: info.outputType, costEstimate: info.costEstimate, expression: info.expression, reads: info.reads };
          break;
        }
        case 'eval': {
          if (m.compile !== undefined && !coreOf(m.pid).has(m.pid)) compile(m.compile, m.pid);
          result = coreOf(m.pid).eval(m.pid, m.rest);
          break;
        }
        case 'batch': {
          // The response bytes, parsed on the page (parseBatchResponse) so that item errors are
          // built there as the same typed errors.
          if (m.compile !== undefined && !coreOf(m.pid).has(m.pid)) compile(m.compile, m.pid);
          result = coreOf(m.pid).evalRaw(m.pid, m.rest, 'eval_batch').slice();
          break;
        }
        case 'crd':
          // The response bytes, parsed on the page (parseValidateResponse, parseCostResponse)
          // so that errors are built there as the same typed errors.
          result = needFull().raw(m.fn, m.req);
          break;
        case 'admit':
          // The response bytes, parsed on the page (parseAdmitResponse), as for crd.
          result = needAdmission().raw('admit', m.req);
          break;
        case 'version':
          result = core.version();
          break;
        case 'memory':
          result = core.memoryBytes();
          break;
      }
      port.post({ id: m.id, ok: true, result });
    } catch (e) {
      port.post({ id: (m as { id: number }).id, ok: false, error: serializeError(e) });
    }
  });
}
