/**
 * celwasm: CEL (cel-go with the Kubernetes CEL libraries) compiled once to WebAssembly, giving
 * the same results, byte for byte, as every other celwasm host (Go, Python, the CLI).
 *
 * ```ts
 * import { Runtime } from 'celwasm';
 * const rt = await Runtime.load();
 * const prg = rt.env({ variables: { self: 'dyn' } }).compile('self.replicas <= self.maxReplicas');
 * prg.eval({ self: { replicas: 3, maxReplicas: 5 } }).value; // true
 * ```
 *
 * @module
 */

export { Runtime, Env, Program, CRD, type EvalResult, type BatchResult, type RuntimeOptions, type VersionInfo, type CostEstimate } from './runtime.js';
export { WorkerRuntime, WorkerEnv, WorkerProgram, WorkerCRD, type WorkerRuntimeOptions, type CallOptions } from './worker-client.js';
export {
  type EnvOptions, type EnvSpec, type Extension, type FunctionDecl, type Activation, type EvalOptions,
  type CloudEventFilter, type CloudEvent, type BatchItems, type Reads, type ReadTree,
} from './env.js';
export {
  type KubeObject, type CRDObject, type ValidateOptions, type CostOptions, type CRDInfo, type RuleRef, type FieldError,
  type ObjectResult, type ObjectOutcome, type CRDValidation, type CRDCostReport, type SchemaCost, type RuleCost,
  type CostExplanation, type BoundNode, type UnknownSize, type CallCost, type BoundFix,
} from './crd.js';
export { type AdmitRequest, type AdmitItem, type AdmitResponse, type AdmitResult } from './admission.js';
export {
  CelError, CompileError, EvalError, InvalidCRDError, InvalidPolicyError,
  type ErrorCode, type ModuleErrorCode, type HostErrorCode, type Issue,
} from './errors.js';
export {
  CelUint, uint, CelTimestamp, CelDuration, CelOptional, CelType, CelObject, CelMessage,
  decodeValue, toTypedJson, formatText,
  type CelValue, type CelMapKey,
} from './values.js';
export type { WasmSource } from './platform.js';
export type { InstanceOptions } from './instance.js';
export { DEFAULT_MEMORY_LIMIT } from './instance.js';

import { Runtime, type RuntimeOptions } from './runtime.js';
import { WorkerRuntime, type WorkerRuntimeOptions } from './worker-client.js';

/** Loads the module and returns a {@link Runtime} (same as `Runtime.load`). */
export function loadRuntime(options?: RuntimeOptions): Promise<Runtime> {
  return Runtime.load(options);
}

/** Loads the module into a Worker and returns a {@link WorkerRuntime} (same as `WorkerRuntime.load`). */
export function loadWorkerRuntime(options?: WorkerRuntimeOptions): Promise<WorkerRuntime> {
  return WorkerRuntime.load(options);
}
