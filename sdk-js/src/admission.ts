/**
 * Admission policies offline (docs/abi.md, "admit"): the admit request as the Go host
 * (host/admission.go) sends it and the parsing of the module's `celwasm_admit` answer. Shared by
 * the main-thread and Worker runtimes.
 *
 * Every decision comes from kube-apiserver's own code inside the module celwasm-admission
 * (k8s.io/apiserver's admission plugins `pkg/admission/plugin/policy/{validating,mutating}`:
 * MutatingAdmissionPolicy, then ValidatingAdmissionPolicy, with their bindings, params, match
 * constraints, variables, messages, audit annotations and validation actions); this package only
 * moves bytes.
 *
 * @module
 */

import { goRawJson } from './crd.js';
import { CelError, errorFromModule } from './errors.js';
import type { AdmitRequest, AdmitResponse, AdmitResult } from './wire.js';

export type { AdmitItem, AdmitRequest, AdmitResponse, AdmitResult, KubeObject } from './wire.js';

/** `encoding/json`'s escaping of `<`, `>`, `&`, U+2028 and U+2029 in strings. */
function goString(s: string): string {
  return JSON.stringify(s).replace(/[<>&\u2028\u2029]/g, (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'));
}

function optionalString(v: unknown, what: string): string {
  if (v === undefined || v === null) return '';
  if (typeof v !== 'string') throw new CelError('invalid_argument', `${what} must be a string`);
  return v;
}

/**
 * The admit request, byte for byte what the Go host's `Runtime.Admit` sends (`json.Marshal` of
 * `wire.AdmitRequest`: objects compacted, empty optional members left out).
 * @throws {CelError} `invalid_argument` for a request that is not of the {@link AdmitRequest}
 *   shape or an object that is neither JSON text nor plain JSON data.
 */
export function admitRequest(request: AdmitRequest): string {
  if (request === null || typeof request !== 'object' || Array.isArray(request)) {
    throw new CelError('invalid_argument', 'the admit request must be {documents, requests, user?, groups?, compatibilityVersion?}');
  }
  const { documents, requests } = request;
  if (!Array.isArray(documents)) throw new CelError('invalid_argument', 'documents must be an array of objects');
  if (!Array.isArray(requests)) throw new CelError('invalid_argument', 'requests must be an array of {operation?, object?, oldObject?, namespace?}');
  const docs = documents.map((d, i) => goRawJson(d, `documents[${i}]`));
  const items = requests.map((it, i) => {
    if (it === null || typeof it !== 'object' || Array.isArray(it)) {
      throw new CelError('invalid_argument', `requests[${i}] must be {operation?, object?, oldObject?, namespace?}`);
    }
    const parts: string[] = [];
    const op = optionalString(it.operation, `requests[${i}].operation`);
    if (op !== '') parts.push('"operation":' + goString(op));
    if (it.object !== undefined && it.object !== null) parts.push('"object":' + goRawJson(it.object, `requests[${i}].object`));
    if (it.oldObject !== undefined && it.oldObject !== null) parts.push('"oldObject":' + goRawJson(it.oldObject, `requests[${i}].oldObject`));
    const ns = optionalString(it.namespace, `requests[${i}].namespace`);
    if (ns !== '') parts.push('"namespace":' + goString(ns));
    return '{' + parts.join(',') + '}';
  });
  let out = '{"documents":[' + docs.join(',') + '],"requests":[' + items.join(',') + ']';
  const user = optionalString(request.user, 'user');
  if (user !== '') out += ',"user":' + goString(user);
  if (request.groups !== undefined && request.groups !== null) {
    if (!Array.isArray(request.groups) || request.groups.some((g) => typeof g !== 'string')) {
      throw new CelError('invalid_argument', 'groups must be an array of strings');
    }
    if (request.groups.length > 0) out += ',"groups":[' + request.groups.map(goString).join(',') + ']';
  }
  const cv = optionalString(request.compatibilityVersion, 'compatibilityVersion');
  if (cv !== '') out += ',"compatibilityVersion":' + goString(cv);
  return out + '}';
}

const decoder = new TextDecoder();

/**
 * Parses an admit response: a module error (`bad_request`, `invalid_policy` with its field
 * errors, `invalid_env`, `canceled`, …) is thrown as its typed error.
 */
export function parseAdmitResponse(b: Uint8Array): AdmitResponse {
  const text = decoder.decode(b);
  let obj: unknown;
  try {
    obj = JSON.parse(text);
  } catch {
    throw new CelError('internal', 'malformed admit response: ' + text.slice(0, 200));
  }
  if (obj === null || typeof obj !== 'object' || Array.isArray(obj)) {
    throw new CelError('internal', 'malformed admit response: ' + text.slice(0, 200));
  }
  const o = obj as Record<string, unknown>;
  if (o.error && typeof o.error === 'object') throw errorFromModule(o.error as Record<string, unknown>);
  if (!Array.isArray(o.results) || o.results.some((r: AdmitResult) => r === null || typeof r !== 'object' || typeof r.allowed !== 'boolean')) {
    throw new CelError('internal', 'malformed admit response: ' + text.slice(0, 200));
  }
  return o as unknown as AdmitResponse;
}
