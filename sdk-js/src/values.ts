/**
 * CEL values in JavaScript, and the conversions between them and celwasm's canonical typed JSON
 * (docs/value-encoding.md).
 *
 * | CEL | JavaScript |
 * |---|---|
 * | `null` | `null` |
 * | `bool` | `boolean` |
 * | `int` (int64) | `bigint` (always, also for small values: exact over the whole int64 range) |
 * | `uint` (uint64) | {@link CelUint} (wraps a `bigint`; keeps uint distinct from int) |
 * | `double` | `number` (including `NaN`, `±Infinity`, `-0`) |
 * | `string` | `string` |
 * | `bytes` | `Uint8Array` |
 * | `list` | `Array` |
 * | `map` with only string keys | plain object (own enumerable properties, in canonical key order) |
 * | `map` with any bool/int/uint key | `Map` (keys: `boolean`, `bigint`, {@link CelUint}, `string`) |
 * | `timestamp` / `google.protobuf.Timestamp` | {@link CelTimestamp} (nanosecond precision) |
 * | `duration` / `google.protobuf.Duration` | {@link CelDuration} (nanosecond precision) |
 * | `optional_type(T)` | {@link CelOptional} |
 * | `type` | {@link CelType} |
 * | library objects (`kubernetes.Quantity`, `net.IP`, ...) | {@link CelObject} |
 * | protobuf messages | {@link CelMessage} |
 *
 * @module
 */

import { CelError } from './errors.js';

/** A CEL value as JavaScript sees it (see the module's table). */
export type CelValue =
  | null
  | boolean
  | bigint
  | number
  | string
  | Uint8Array
  | CelUint
  | CelTimestamp
  | CelDuration
  | CelOptional
  | CelType
  | CelObject
  | CelMessage
  | CelValue[]
  | Map<CelMapKey, CelValue>
  | { [key: string]: CelValue };

/** The JavaScript form of a CEL map key (bool, int, uint, string). */
export type CelMapKey = boolean | bigint | CelUint | string;

const UINT64_MAX = (1n << 64n) - 1n;
const INT64_MIN = -(1n << 63n);
const INT64_MAX = (1n << 63n) - 1n;

/**
 * A CEL `uint` (uint64, 0 … 2^64−1). A wrapper, so that uint stays distinct from int (`bigint`)
 * when values travel back into CEL. `Map` keys compare by identity: look up uint keys by iterating.
 */
export class CelUint {
  /** The value, 0 … 18446744073709551615. */
  readonly value: bigint;
  constructor(value: bigint | number | string) {
    let v: bigint;
    try {
      v = BigInt(value);
    } catch {
      throw new CelError('invalid_argument', `not a uint: ${String(value)}`);
    }
    if (v < 0n || v > UINT64_MAX) throw new CelError('invalid_argument', `uint out of range: ${v}`);
    this.value = v;
  }
  /** Decimal digits, e.g. `"5"`. */
  toString(): string {
    return this.value.toString();
  }
  /** Decimal digits (JSON has no uint64). */
  toJSON(): string {
    return this.value.toString();
  }
  valueOf(): bigint {
    return this.value;
  }
}

/** Shorthand for `new CelUint(v)`. */
export function uint(v: bigint | number | string): CelUint {
  return new CelUint(v);
}

const NANOS_PER_SECOND = 1_000_000_000n;
// 0001-01-01T00:00:00Z and 9999-12-31T23:59:59Z in Unix seconds (CEL's timestamp range).
const MIN_TS_SECONDS = -62135596800n;
const MAX_TS_SECONDS = 253402300799n;

function pad(n: number | bigint, width: number): string {
  return n.toString().padStart(width, '0');
}

/** Fraction digits as canonical JSON writes them: none, 3, 6 or 9 — the fewest that hold the value. */
function fraction(nanos: number): string {
  if (nanos === 0) return '';
  if (nanos % 1_000_000 === 0) return '.' + pad(nanos / 1_000_000, 3);
  if (nanos % 1_000 === 0) return '.' + pad(nanos / 1_000, 6);
  return '.' + pad(nanos, 9);
}

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/;

/**
 * A CEL `timestamp`: an instant with nanosecond precision, 0001-01-01T00:00:00Z …
 * 9999-12-31T23:59:59.999999999Z (cel-go's range). JavaScript `Date` holds milliseconds only, so
 * celwasm uses this class; {@link CelTimestamp.toDate} and {@link CelTimestamp.fromDate} convert.
 */
export class CelTimestamp {
  /** Nanoseconds since 1970-01-01T00:00:00Z. */
  readonly epochNanoseconds: bigint;
  constructor(epochNanoseconds: bigint) {
    const s = floorDiv(epochNanoseconds, NANOS_PER_SECOND);
    if (s < MIN_TS_SECONDS || s > MAX_TS_SECONDS) {
      throw new CelError('invalid_argument', 'timestamp out of range 0001-01-01T00:00:00Z … 9999-12-31T23:59:59.999999999Z');
    }
    this.epochNanoseconds = epochNanoseconds;
  }
  /** Whole seconds since the epoch (floor), like protobuf's `Timestamp.seconds`. */
  get seconds(): bigint {
    return floorDiv(this.epochNanoseconds, NANOS_PER_SECOND);
  }
  /** Nanoseconds within the second, 0 … 999,999,999, like protobuf's `Timestamp.nanos`. */
  get nanos(): number {
    return Number(this.epochNanoseconds - this.seconds * NANOS_PER_SECOND);
  }
  /** A `Date` (milliseconds; sub-millisecond digits are dropped, rounding toward the past). */
  toDate(): Date {
    return new Date(Number(floorDiv(this.epochNanoseconds, 1_000_000n)));
  }
  /** The canonical RFC 3339 form: UTC, `Z`, 0/3/6/9 fraction digits (`2009-02-13T23:31:30.123Z`). */
  toString(): string {
    const secs = this.seconds;
    const d = new Date(Number(secs) * 1000);
    return (
      pad(d.getUTCFullYear(), 4) + '-' + pad(d.getUTCMonth() + 1, 2) + '-' + pad(d.getUTCDate(), 2) +
      'T' + pad(d.getUTCHours(), 2) + ':' + pad(d.getUTCMinutes(), 2) + ':' + pad(d.getUTCSeconds(), 2) +
      fraction(this.nanos) + 'Z'
    );
  }
  toJSON(): string {
    return this.toString();
  }
  /** From a `Date` (millisecond precision). */
  static fromDate(d: Date): CelTimestamp {
    const ms = d.getTime();
    if (!Number.isFinite(ms)) throw new CelError('invalid_argument', 'invalid Date');
    return new CelTimestamp(BigInt(ms) * 1_000_000n);
  }
  /** Parses RFC 3339 (`2026-01-01T10:00:00.5+02:00`, up to 9 fraction digits). */
  static parse(s: string): CelTimestamp {
    const m = RFC3339.exec(s);
    if (!m) throw new CelError('invalid_argument', `not an RFC 3339 timestamp: ${JSON.stringify(s)}`);
    const d = new Date(0);
    d.setUTCFullYear(+m[1]!, +m[2]! - 1, +m[3]!);
    d.setUTCHours(+m[4]!, +m[5]!, +m[6]!, 0);
    let secs = BigInt(d.getTime() / 1000);
    if (m[9]) {
      const off = (+m[10]! * 60 + +m[11]!) * 60;
      secs += BigInt(m[9] === '+' ? -off : off);
    }
    const nanos = m[7] ? BigInt(m[7].padEnd(9, '0')) : 0n;
    return new CelTimestamp(secs * NANOS_PER_SECOND + nanos);
  }
}

/**
 * A CEL `duration`: a signed span with nanosecond precision. cel-go durations are Go
 * `time.Duration` values, about ±292 years (±2^63−1 ns).
 */
export class CelDuration {
  /** The length in nanoseconds (signed). */
  readonly nanoseconds: bigint;
  constructor(nanoseconds: bigint) {
    if (nanoseconds < INT64_MIN || nanoseconds > INT64_MAX) {
      throw new CelError('invalid_argument', 'duration out of range (±2^63−1 ns)');
    }
    this.nanoseconds = nanoseconds;
  }
  /** The length in milliseconds, as a `number` (fractional; exact up to about 104 days at ns). */
  toMilliseconds(): number {
    return Number(this.nanoseconds) / 1e6;
  }
  /** The canonical form: seconds with 0/3/6/9 fraction digits and `s` (`1.500s`, `-5400s`). */
  toString(): string {
    const neg = this.nanoseconds < 0n;
    const abs = neg ? -this.nanoseconds : this.nanoseconds;
    const secs = abs / NANOS_PER_SECOND;
    const nanos = Number(abs % NANOS_PER_SECOND);
    return (neg ? '-' : '') + secs.toString() + fraction(nanos) + 's';
  }
  toJSON(): string {
    return this.toString();
  }
  /** From milliseconds (a `number`; fractions are kept to the nanosecond). */
  static fromMilliseconds(ms: number): CelDuration {
    if (!Number.isFinite(ms)) throw new CelError('invalid_argument', 'duration must be finite');
    return new CelDuration(BigInt(Math.round(ms * 1e6)));
  }
  /** Parses the canonical/protobuf JSON form `[-]S[.fffffffff]s`. */
  static parse(s: string): CelDuration {
    const m = /^(-?)(\d+)(?:\.(\d{1,9}))?s$/.exec(s);
    if (!m) throw new CelError('invalid_argument', `not a duration in seconds form: ${JSON.stringify(s)}`);
    const ns = BigInt(m[2]!) * NANOS_PER_SECOND + (m[3] ? BigInt(m[3].padEnd(9, '0')) : 0n);
    return new CelDuration(m[1] ? -ns : ns);
  }
}

/** A CEL optional (`optional.of(v)` / `optional.none()`). */
export class CelOptional<T extends CelValue = CelValue> {
  readonly hasValue: boolean;
  /** The value when `hasValue`, else `undefined`. */
  readonly value: T | undefined;
  private constructor(hasValue: boolean, value: T | undefined) {
    this.hasValue = hasValue;
    this.value = value;
  }
  static of<T extends CelValue>(value: T): CelOptional<T> {
    return new CelOptional(true, value);
  }
  static none<T extends CelValue = CelValue>(): CelOptional<T> {
    return new CelOptional<T>(false, undefined);
  }
}

/** A CEL type used as a value (the result of `type(x)`): its name as cel-go prints it (`int`,
 * `list`, `google.protobuf.Timestamp`, a message name). */
export class CelType {
  constructor(readonly name: string) {}
  toString(): string {
    return this.name;
  }
}

/** A value of a library type without a JSON mapping, such as `kubernetes.Quantity`, `net.IP`,
 * `net.CIDR`, `kubernetes.URL`, `kubernetes.Semver`: the CEL type name and, when the value has
 * one, its string form (which the type's constructor reads back: `quantity("1Gi")`). As an input,
 * `value` may also be an object: the declarative authorizer table of a variable declared
 * `kubernetes.authorization.Authorizer` (docs/value-encoding.md). */
export class CelObject {
  constructor(readonly type: string, readonly value?: string | Readonly<Record<string, unknown>>) {}
}

/** A protobuf message: its full name and its protobuf JSON mapping (protojson, parsed). */
export class CelMessage {
  constructor(readonly type: string, readonly json: unknown) {}
}

function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return (a % b !== 0n && (a < 0n) !== (b < 0n)) ? q - 1n : q;
}

// ---------------------------------------------------------------------------------------------
// base64 (standard alphabet, padded), without Buffer so that it runs in browsers too.

export function bytesToBase64(b: Uint8Array): string {
  let s = '';
  const chunk = 0x8000;
  for (let i = 0; i < b.length; i += chunk) {
    s += String.fromCharCode.apply(null, b.subarray(i, i + chunk) as unknown as number[]);
  }
  return btoa(s);
}

export function base64ToBytes(s: string): Uint8Array {
  const bin = atob(s);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Canonical typed JSON → JavaScript.

/**
 * Decodes canonical typed JSON (the `json` of an {@link EvalResult}) into JavaScript values (see
 * the table at the top of this module). Canonical JSON carries numbers as strings, so nothing is
 * rounded.
 *
 * @throws {CelError} `invalid_argument` for JSON that is not canonical typed JSON.
 */
export function decodeValue(json: string): CelValue {
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch (e) {
    throw new CelError('invalid_argument', 'not JSON: ' + (e as Error).message);
  }
  return fromTyped(raw);
}

function defineKey(o: Record<string, CelValue>, k: string, v: CelValue): void {
  if (k === '__proto__') Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
  else o[k] = v;
}

function bad(what: string): never {
  throw new CelError('invalid_argument', 'malformed canonical value: ' + what);
}

/** Converts already-parsed canonical typed JSON into JavaScript values. */
export function fromTyped(v: unknown): CelValue {
  if (v === null || typeof v === 'boolean' || typeof v === 'string') return v;
  if (Array.isArray(v)) return v.map(fromTyped);
  if (typeof v !== 'object') bad(typeof v);
  const o = v as Record<string, unknown>;
  let tag: string | undefined;
  for (const k in o) {
    if (tag !== undefined) bad('object with more than one member');
    tag = k;
  }
  if (tag === undefined) bad('empty object');
  const body = o[tag];
  switch (tag) {
    case 'int':
      if (typeof body === 'string') return BigInt(body);
      break;
    case 'uint':
      if (typeof body === 'string') return new CelUint(BigInt(body));
      break;
    case 'double':
      if (typeof body === 'string') return Number(body);
      break;
    case 'bytes':
      if (typeof body === 'string') return base64ToBytes(body);
      break;
    case 'timestamp':
      if (typeof body === 'string') return CelTimestamp.parse(body);
      break;
    case 'duration':
      if (typeof body === 'string') return CelDuration.parse(body);
      break;
    case 'type':
      if (typeof body === 'string') return new CelType(body);
      break;
    case 'optional':
      if (Array.isArray(body) && body.length <= 1) {
        return body.length === 0 ? CelOptional.none() : CelOptional.of(fromTyped(body[0]));
      }
      break;
    case 'map':
      if (Array.isArray(body)) {
        const entries: [CelValue, CelValue][] = [];
        let allStrings = true;
        for (const pair of body) {
          if (!Array.isArray(pair) || pair.length !== 2) bad('map entry');
          const k = fromTyped(pair[0]);
          if (typeof k !== 'string') allStrings = false;
          entries.push([k, fromTyped(pair[1])]);
        }
        if (allStrings) {
          const out: Record<string, CelValue> = {};
          for (const [k, val] of entries) defineKey(out, k as string, val);
          return out;
        }
        return new Map(entries as [CelMapKey, CelValue][]);
      }
      break;
    case 'object':
      if (body && typeof body === 'object') {
        const b = body as { type?: unknown; value?: unknown };
        if (typeof b.type === 'string') return new CelObject(b.type, typeof b.value === 'string' ? b.value : undefined);
      }
      break;
    case 'message':
      if (body && typeof body === 'object') {
        const b = body as { type?: unknown; json?: unknown };
        if (typeof b.type === 'string') return new CelMessage(b.type, b.json);
      }
      break;
  }
  return bad(`"${tag}" value`);
}

// ---------------------------------------------------------------------------------------------
// JavaScript → canonical typed JSON (for typedActivation).

/** Compares strings by Unicode code point (canonical map order), not by UTF-16 code unit. */
function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) {
      // Surrogates (U+D800–DFFF) encode code points above U+FFFF: they sort after U+E000–FFFF.
      const xs = x >= 0xd800 && x <= 0xdfff;
      const ys = y >= 0xd800 && y <= 0xdfff;
      if (xs !== ys) return xs ? 1 : -1;
      return x - y;
    }
  }
  return a.length - b.length;
}

/** A CEL type name parsed just enough to direct conversions. */
export interface TypeHint {
  kind: string; // int, uint, double, bool, string, bytes, timestamp, duration, list, map, optional, null, dyn, other
  args?: TypeHint[];
}

const DYN: TypeHint = { kind: 'dyn' };

const SIMPLE: Record<string, string> = {
  int: 'int', uint: 'uint', double: 'double', bool: 'bool', string: 'string', bytes: 'bytes',
  null_type: 'null', dyn: 'dyn', any: 'dyn',
  timestamp: 'timestamp', 'google.protobuf.Timestamp': 'timestamp',
  duration: 'duration', 'google.protobuf.Duration': 'duration',
  'google.protobuf.Int64Value': 'int', 'google.protobuf.Int32Value': 'int',
  'google.protobuf.UInt64Value': 'uint', 'google.protobuf.UInt32Value': 'uint',
  'google.protobuf.DoubleValue': 'double', 'google.protobuf.FloatValue': 'double',
  'google.protobuf.BoolValue': 'bool', 'google.protobuf.StringValue': 'string',
  'google.protobuf.BytesValue': 'bytes', 'google.protobuf.Value': 'dyn',
};

/** Parses a CEL type name (`map(string, list(int))`) into a {@link TypeHint}; unknown → `other`. */
export function parseTypeName(name: string): TypeHint {
  let i = 0;
  const s = name;
  function ws() {
    while (i < s.length && s[i] === ' ') i++;
  }
  function parse(): TypeHint {
    ws();
    const start = i;
    while (i < s.length && /[A-Za-z0-9_.]/.test(s[i]!)) i++;
    const id = s.slice(start, i);
    ws();
    const args: TypeHint[] = [];
    if (s[i] === '(') {
      i++;
      for (;;) {
        args.push(parse());
        ws();
        if (s[i] === ',') {
          i++;
          continue;
        }
        if (s[i] === ')') {
          i++;
          break;
        }
        return { kind: 'other' };
      }
    }
    if (id === 'list' && args.length === 1) return { kind: 'list', args };
    if (id === 'map' && args.length === 2) return { kind: 'map', args };
    if ((id === 'optional_type' || id === 'optional') && args.length === 1) return { kind: 'optional', args };
    if (id === 'google.protobuf.Struct' && args.length === 0) return { kind: 'map', args: [{ kind: 'string' }, DYN] };
    if (id === 'google.protobuf.ListValue' && args.length === 0) return { kind: 'list', args: [DYN] };
    const k = SIMPLE[id];
    return k && args.length === 0 ? { kind: k } : { kind: 'other' };
  }
  try {
    const t = parse();
    return i === s.length || s.slice(i).trim() === '' ? t : { kind: 'other' };
  } catch {
    return { kind: 'other' };
  }
}

export function isPlainObject(v: object): v is Record<string, unknown> {
  const p = Object.getPrototypeOf(v);
  return p === Object.prototype || p === null;
}

/**
 * Whether `v` survives `JSON.stringify` unchanged as the module reads plain JSON: `null`,
 * booleans, strings, finite numbers other than `-0`, and arrays/plain objects of those.
 */
export function isPlainJson(v: unknown, depth = 0): boolean {
  switch (typeof v) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(v) && !Object.is(v, -0);
    case 'object':
      if (v === null) return true;
      if (depth > 10_000) return false;
      if (Array.isArray(v)) {
        for (let i = 0; i < v.length; i++) if (!isPlainJson(v[i], depth + 1)) return false;
        return true;
      }
      if (!isPlainObject(v) || typeof (v as { toJSON?: unknown }).toJSON === 'function') return false;
      for (const k in v) if (!isPlainJson((v as Record<string, unknown>)[k], depth + 1)) return false;
      return true;
    default:
      return false;
  }
}

function doubleString(x: number): string {
  if (Object.is(x, -0)) return '-0';
  return String(x); // NaN, Infinity, -Infinity and ECMAScript Number::toString
}

function jsonString(s: string): string {
  return JSON.stringify(s);
}

function invalid(path: string, msg: string): never {
  throw new CelError('invalid_argument', `${path}: ${msg}`);
}

function toBigIntChecked(v: unknown, path: string, min: bigint, max: bigint, what: string): bigint {
  let b: bigint;
  if (typeof v === 'bigint') b = v;
  else if (typeof v === 'number') {
    if (!Number.isInteger(v)) invalid(path, `${v} is not an integer (${what})`);
    b = BigInt(v);
  } else if (v instanceof CelUint) b = v.value;
  else if (typeof v === 'string' && /^-?\d+$/.test(v)) b = BigInt(v);
  else return invalid(path, `cannot convert ${describe(v)} to ${what}`);
  if (b < min || b > max) invalid(path, `${b} is out of range for ${what}`);
  return b;
}

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (typeof v === 'object') return (v as object).constructor?.name ?? 'object';
  return typeof v;
}

function bytesOf(v: unknown): Uint8Array | undefined {
  if (v instanceof Uint8Array) return v;
  if (v instanceof ArrayBuffer) return new Uint8Array(v);
  if (ArrayBuffer.isView(v)) return new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
  return undefined;
}

/**
 * Encodes a JavaScript value as canonical typed JSON (docs/value-encoding.md), guided by the CEL
 * type it is declared with (pass `'dyn'` for none). Used for `typedActivation`; with `'dyn'` the
 * output for a value decoded from a result is byte-identical to that result's `json` (messages
 * aside, whose protobuf JSON is written by `JSON.stringify`).
 *
 * Natural mapping (under `dyn`): `bigint` → int (int64 range), {@link CelUint} → uint, a `number` →
 * int when integral (as `JSON.stringify` would write it without a fraction or exponent), else
 * double; `-0`, `NaN` and `±Infinity` → double; `Uint8Array`/`ArrayBuffer` → bytes; `Date` and
 * {@link CelTimestamp} → timestamp; {@link CelDuration} → duration; `Map` and plain objects → map;
 * arrays → list; {@link CelOptional}, {@link CelType}, {@link CelObject}, {@link CelMessage} → their
 * kinds; `undefined` members of objects are left out, `undefined` in arrays is `null`. A declared
 * type converts: `int`/`uint`/`double` accept numbers, bigints and decimal strings; `timestamp`
 * accepts `Date` and RFC 3339 strings; `duration` accepts canonical duration strings (`"1.5s"`) and
 * numbers of milliseconds; `bytes`
 * accepts base64 strings; `optional_type(T)` wraps a non-null value in `optional.of` and `null` is
 * `optional.none()`; `map(K, V)` converts object member names to `K`.
 *
 * @throws {CelError} `invalid_argument` when a value cannot be represented (a bigint outside int64,
 * a function, a symbol, a cycle deeper than 10,000 levels).
 */
export function toTypedJson(v: unknown, type: string | TypeHint = DYN, path = 'value'): string {
  const hint = typeof type === 'string' ? parseTypeName(type) : type;
  return enc(v, hint, path, 0);
}

function enc(v: unknown, t: TypeHint, path: string, depth: number): string {
  if (depth > 10_000) invalid(path, 'nesting deeper than 10,000');
  if (v === undefined) v = null;
  const k = t.kind;
  if (k === 'optional') {
    if (v instanceof CelOptional) {
      return v.hasValue ? `{"optional":[${enc(v.value, t.args![0]!, path, depth + 1)}]}` : '{"optional":[]}';
    }
    return v === null ? '{"optional":[]}' : `{"optional":[${enc(v, t.args![0]!, path, depth + 1)}]}`;
  }
  if (v === null) return 'null';
  switch (k) {
    case 'int':
      if (typeof v !== 'boolean') return `{"int":"${toBigIntChecked(v, path, INT64_MIN, INT64_MAX, 'int')}"}`;
      break;
    case 'uint':
      if (typeof v !== 'boolean') return `{"uint":"${toBigIntChecked(v, path, 0n, UINT64_MAX, 'uint')}"}`;
      break;
    case 'double':
      if (typeof v === 'number') return `{"double":"${doubleString(v)}"}`;
      if (typeof v === 'bigint') return `{"double":"${doubleString(Number(v))}"}`;
      if (v instanceof CelUint) return `{"double":"${doubleString(Number(v.value))}"}`;
      if (typeof v === 'string') {
        const x = v === 'NaN' ? NaN : Number(v);
        if (v.trim() !== '' && (!Number.isNaN(x) || v === 'NaN')) return `{"double":"${doubleString(x)}"}`;
      }
      break;
    case 'timestamp':
      if (typeof v === 'string') return `{"timestamp":"${CelTimestamp.parse(v).toString()}"}`;
      break;
    case 'duration':
      if (typeof v === 'string') return `{"duration":"${CelDuration.parse(v).toString()}"}`;
      if (typeof v === 'number') return `{"duration":"${CelDuration.fromMilliseconds(v).toString()}"}`;
      break;
    case 'bytes':
      if (typeof v === 'string') return `{"bytes":"${bytesToBase64(base64ToBytes(v.replace(/-/g, '+').replace(/_/g, '/')))}"}`;
      break;
  }
  // Natural mapping (dyn, or a declared type the value already has).
  switch (typeof v) {
    case 'boolean':
      return v ? 'true' : 'false';
    case 'string':
      return jsonString(v);
    case 'bigint':
      if (v < INT64_MIN || v > INT64_MAX) invalid(path, `${v} is outside int64 (use uint() for uint64)`);
      return `{"int":"${v}"}`;
    case 'number':
      if (Number.isInteger(v) && !Object.is(v, -0)) {
        const s = String(v);
        if (!s.includes('e') && Math.abs(v) < 2 ** 63) return `{"int":"${s}"}`;
      }
      return `{"double":"${doubleString(v)}"}`;
    case 'object':
      break;
    default:
      return invalid(path, `cannot encode a ${typeof v}`);
  }
  const o = v as object;
  if (o instanceof CelUint) return `{"uint":"${o.value}"}`;
  if (o instanceof CelTimestamp) return `{"timestamp":"${o.toString()}"}`;
  if (o instanceof Date) return `{"timestamp":"${CelTimestamp.fromDate(o).toString()}"}`;
  if (o instanceof CelDuration) return `{"duration":"${o.toString()}"}`;
  if (o instanceof CelType) return `{"type":${jsonString(o.name)}}`;
  if (o instanceof CelObject) {
    return `{"object":{"type":${jsonString(o.type)}${o.value !== undefined ? `,"value":${JSON.stringify(o.value)}` : ''}}}`;
  }
  if (o instanceof CelMessage) return `{"message":{"type":${jsonString(o.type)},"json":${JSON.stringify(o.json ?? {})}}}`;
  if (o instanceof CelOptional) {
    return o.hasValue ? `{"optional":[${enc(o.value, DYN, path, depth + 1)}]}` : '{"optional":[]}';
  }
  const b = bytesOf(o);
  if (b) return `{"bytes":"${bytesToBase64(b)}"}`;
  if (Array.isArray(o)) {
    const et = t.kind === 'list' ? t.args![0]! : DYN;
    const parts = new Array<string>(o.length);
    for (let i = 0; i < o.length; i++) parts[i] = enc(o[i], et, `${path}[${i}]`, depth + 1);
    return '[' + parts.join(',') + ']';
  }
  const kt = t.kind === 'map' ? t.args![0]! : DYN;
  const vt = t.kind === 'map' ? t.args![1]! : DYN;
  const entries: [SortKey, string, string][] = [];
  if (o instanceof Map) {
    for (const [key, val] of o) {
      const ks = encKey(key, kt, path);
      entries.push([ks[0], ks[1], enc(val, vt, `${path}[${ks[1]}]`, depth + 1)]);
    }
  } else if (isPlainObject(o)) {
    for (const key of Object.keys(o)) {
      const val = (o as Record<string, unknown>)[key];
      if (val === undefined) continue;
      const ks = encKey(key, kt, path);
      entries.push([ks[0], ks[1], enc(val, vt, `${path}.${key}`, depth + 1)]);
    }
  } else {
    return invalid(path, `cannot encode ${describe(o)}`);
  }
  entries.sort((a, b) => compareSortKeys(a[0], b[0]));
  return '{"map":[' + entries.map((e) => `[${e[1]},${e[2]}]`).join(',') + ']}';
}

type SortKey = [rank: number, value: bigint | string | number];

function compareSortKeys(a: SortKey, b: SortKey): number {
  if (a[0] !== b[0]) return a[0] - b[0];
  if (typeof a[1] === 'string') return compareCodePoints(a[1], b[1] as string);
  const x = a[1] as bigint, y = b[1] as bigint;
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Encodes a map key: returns its sort key and its canonical JSON. Object member names convert
 * to the declared key type (`map(int, V)` reads `"1"` as 1), as the module does for plain JSON. */
function encKey(key: unknown, kt: TypeHint, path: string): [SortKey, string] {
  if (typeof key === 'string') {
    if (kt.kind === 'int') {
      const b = toBigIntChecked(key, path, INT64_MIN, INT64_MAX, 'int');
      return [[1, b], `{"int":"${b}"}`];
    }
    if (kt.kind === 'uint') {
      const b = toBigIntChecked(key, path, 0n, UINT64_MAX, 'uint');
      return [[2, b], `{"uint":"${b}"}`];
    }
    if (kt.kind === 'bool' && (key === 'true' || key === 'false')) return [[0, key === 'true' ? 1 : 0], key];
    return [[3, key], jsonString(key)];
  }
  if (typeof key === 'boolean') return [[0, key ? 1 : 0], key ? 'true' : 'false'];
  if (key instanceof CelUint) return [[2, key.value], `{"uint":"${key.value}"}`];
  if (typeof key === 'bigint' || typeof key === 'number') {
    if (kt.kind === 'uint') {
      const b = toBigIntChecked(key, path, 0n, UINT64_MAX, 'uint');
      return [[2, b], `{"uint":"${b}"}`];
    }
    const b = toBigIntChecked(key, path, INT64_MIN, INT64_MAX, 'int map key');
    return [[1, b], `{"int":"${b}"}`];
  }
  return invalid(path, `map keys are bool, int, uint or string, got ${describe(key)}`);
}

// ---------------------------------------------------------------------------------------------
// Text form (docs/value-encoding.md, "Text form"): CEL literal syntax for people.

const OBJECT_CONSTRUCTORS: Record<string, string> = {
  'kubernetes.Quantity': 'quantity',
  'kubernetes.URL': 'url',
  'kubernetes.Semver': 'semver',
  'net.IP': 'ip',
  'net.CIDR': 'cidr',
};

/**
 * Renders canonical typed JSON as CEL literal text for people (`1`, `2u`, `3.0`, `"s"`, `b"\xff"`,
 * `timestamp("…")`, `[1, 2]`, `{"a": 1}`, `optional.of(1)`, `quantity("1Gi")`): the same bytes as
 * every celwasm CLI's `-o text`.
 */
export function formatText(json: string): string {
  return text(JSON.parse(json));
}

function text(v: unknown): string {
  if (v === null) return 'null';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'string') return quoteString(v);
  if (Array.isArray(v)) return '[' + v.map(text).join(', ') + ']';
  if (typeof v !== 'object') bad(typeof v);
  const o = v as Record<string, unknown>;
  const tag = Object.keys(o)[0];
  if (tag === undefined) bad('empty object');
  const body = o[tag];
  const s = typeof body === 'string' ? body : '';
  switch (tag) {
    case 'int':
      return s;
    case 'uint':
      return s + 'u';
    case 'double':
      if (s === 'NaN' || s.endsWith('Infinity')) return `double("${s}")`;
      return /[.e]/.test(s) ? s : s + '.0';
    case 'bytes':
      return quoteBytes(base64ToBytes(s));
    case 'timestamp':
    case 'duration':
      return `${tag}("${s}")`;
    case 'type':
      return s;
    case 'optional': {
      const l = body as unknown[];
      return l.length === 0 ? 'optional.none()' : `optional.of(${text(l[0])})`;
    }
    case 'map':
      return '{' + (body as unknown[][]).map((p) => `${text(p[0])}: ${text(p[1])}`).join(', ') + '}';
    case 'object': {
      const b = body as { type?: string; value?: string };
      const fn = OBJECT_CONSTRUCTORS[b.type ?? ''];
      return fn && typeof b.value === 'string' ? `${fn}(${quoteString(b.value)})` : `<${b.type}>`;
    }
    case 'message': {
      const b = body as { type?: string; json?: unknown };
      return `${b.type}(${JSON.stringify(b.json)})`;
    }
  }
  return bad(`unknown tag "${tag}"`);
}

function quoteString(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (ch === '"') out += '\\"';
    else if (ch === '\\') out += '\\\\';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (c < 0x20) out += '\\u' + c.toString(16).padStart(4, '0');
    else out += ch;
  }
  return out + '"';
}

function quoteBytes(b: Uint8Array): string {
  let out = 'b"';
  for (const c of b) {
    if (c === 0x22) out += '\\"';
    else if (c === 0x5c) out += '\\\\';
    else if (c >= 0x20 && c < 0x7f) out += String.fromCharCode(c);
    else out += '\\x' + c.toString(16).padStart(2, '0');
  }
  return out + '"';
}
