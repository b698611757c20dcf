// A decoded protobuf message as a JSON value, following the proto3 JSON mapping the reference
// (protojson) writes: lowerCamelCase names, fields at their zero value left out, 64-bit integers
// as strings, enums by name, bytes as base64, well-known types in their special forms. The
// `decode` operator asks for "structured" values instead: 64-bit integers as numbers, bytes as
// bytes and timestamps as timestamps.
import type protobuf from 'protobufjs';
import { longNow, protobufNow } from '../../base/lazy_packages.js';
import { Timestamp } from '../../bloblang/library.js';
import { type CompiledWriter, compileWriter, type WriterKind } from './protobuf_json_codegen.js';
import { formatDuration, formatTimestamp } from './protobuf_time.js';

export interface ToJsonOptions {
  useProtoNames: boolean;
  useEnumNumbers: boolean;
  structured: boolean;
}

const LONG_TYPES = new Set(['int64', 'uint64', 'sint64', 'fixed64', 'sfixed64']);

/** The key type of a map field (protobufjs types it on MapField only). */
export const mapKeyType = (field: protobuf.Field): string => (field as unknown as protobuf.MapField).keyType;

/**
 * The name a google.protobuf.Value field has in the loaded schema: protobufjs's bundled copy
 * names them in camelCase (nullValue), a parsed .proto file as written (null_value).
 */
export function valueField(type: protobuf.Type, protoName: string): string {
  if (type.fields[protoName]) return protoName;
  return protoName.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());
}

const jsonNames = new WeakMap<protobuf.Field, string>();

/** protoc's JSON name: underscores dropped, the letter after each one upper-cased. */
export function jsonName(field: protobuf.Field): string {
  let name = jsonNames.get(field);
  if (name === undefined) {
    const explicit = field.options?.json_name;
    name =
      typeof explicit === 'string'
        ? explicit
        : field.name.replace(/_([a-z0-9]?)/g, (_m, c: string) => c.toUpperCase());
    jsonNames.set(field, name);
  }
  return name;
}

const isLong = (v: unknown): v is { low: number; high: number; unsigned: boolean } =>
  typeof v === 'object' && v !== null && 'low' in v && 'high' in v;

function longToJs(v: unknown, unsigned: boolean, structured: boolean): unknown {
  let value = String(v ?? 0);
  if (isLong(v)) {
    const long = longNow().fromValue(v);
    value = (unsigned ? long.toUnsigned() : long.toSigned()).toString();
  }
  if (!structured) return value;
  const big = BigInt(value);
  return big >= BigInt(Number.MIN_SAFE_INTEGER) && big <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(big) : big;
}

/** The shortest decimal that reads back as the same float32 (as Go formats a float32). */
function float32(v: number): number {
  if (!Number.isFinite(v) || v === 0) return v;
  for (let digits = 1; digits <= 9; digits++) {
    const candidate = Number(v.toPrecision(digits));
    if (Math.fround(candidate) === v) return candidate;
  }
  return v;
}

function floatToJs(v: number, single: boolean, structured: boolean): unknown {
  const n = single ? float32(v) : v;
  if (structured || Number.isFinite(n)) return n;
  return Number.isNaN(n) ? 'NaN' : n > 0 ? 'Infinity' : '-Infinity';
}

const toNumber = (v: unknown): number => (isLong(v) ? longNow().fromValue(v).toNumber() : Number(v ?? 0));

function isZero(longType: boolean, v: unknown): boolean {
  if (v === null || v === undefined) return true;
  if (isLong(v)) return v.low === 0 && v.high === 0;
  if (typeof v === 'number') return v === 0 && !Object.is(v, -0);
  if (typeof v === 'string') return v === '' || (longType && v === '0');
  if (typeof v === 'boolean') return !v;
  // protobufjs's default for bytes is an empty array.
  if (v instanceof Uint8Array || Array.isArray(v)) return v.length === 0;
  return false;
}

type Write = (v: unknown) => unknown;

/**
 * How a field is written: map, list, message (written when set), optional scalar (written when it
 * is an own property: protobufjs's defaults sit on the prototype), scalar (when not zero).
 */
enum Mode {
  Map,
  List,
  Message,
  Optional,
  NonZero,
}

interface FieldPlan {
  field: protobuf.Field;
  name: string;
  key: string;
  mode: Mode;
  /** Whether a value of this singular scalar field is its zero value (left out). */
  isZero: (v: unknown) => boolean;
  write: Write;
}

/** The zero test of a scalar field's values, the common types without isZero's checks of type. */
function zeroTest(field: protobuf.Field): (v: unknown) => boolean {
  if (field.type === 'string') return (v) => v === '' || v === null || v === undefined;
  if (field.resolvedType !== null || LONG_TYPES.has(field.type) || field.type === 'bytes')
    return (v) => isZero(LONG_TYPES.has(field.type), v);
  // -0 is not a zero value: protojson writes it.
  return (v) => (typeof v === 'number' ? v === 0 && 1 / v > 0 : isZero(false, v));
}

/**
 * What `message` needs of a type, worked out once: protobufjs computes `fullName` on every read
 * and the field checks are the same for every message of a type.
 */
interface TypePlan {
  google: boolean;
  fields: FieldPlan[];
  /** The generated writer (protobuf_json_codegen.ts); null when a name rules it out. */
  fast: CompiledWriter | null;
}

const KINDS: Record<Mode, WriterKind> = {
  [Mode.Map]: 'map',
  [Mode.List]: 'list',
  [Mode.Message]: 'message',
  [Mode.Optional]: 'optional',
  [Mode.NonZero]: 'nonzero',
};

export class ProtoJsonWriter {
  private readonly plans = new Map<protobuf.Type, TypePlan>();

  constructor(
    private readonly root: protobuf.Root,
    private readonly options: ToJsonOptions,
  ) {}

  message(type: protobuf.Type, msg: Record<string, unknown>): unknown {
    const plan = this.plans.get(type) ?? this.plan(type);
    if (plan.google) {
      const special = this.wellKnown(type, msg);
      if (special !== undefined) return special;
    }
    if (plan.fast !== null) return plan.fast(msg);
    const out: Record<string, unknown> = {};
    const fields = plan.fields;
    for (let i = 0; i < fields.length; i++) {
      const f = fields[i]!;
      const v = msg[f.name];
      switch (f.mode) {
        case Mode.NonZero:
          if (!f.isZero(v)) out[f.key] = f.write(v);
          break;
        case Mode.Message:
          if (v !== null && v !== undefined) out[f.key] = f.write(v);
          break;
        case Mode.Map: {
          const obj = this.map(f, v);
          if (obj !== undefined) out[f.key] = obj;
          break;
        }
        case Mode.List: {
          const list = (v ?? []) as unknown[];
          if (list.length > 0) out[f.key] = list.map(f.write);
          break;
        }
        default:
          if (v !== null && v !== undefined && Object.hasOwn(msg, f.name)) out[f.key] = f.write(v);
      }
    }
    return out;
  }

  private plan(type: protobuf.Type): TypePlan {
    const fields = type.fieldsArray.map(
      (field): FieldPlan => ({
        field,
        name: field.name,
        key: this.options.useProtoNames ? field.name : jsonName(field),
        mode: field.map
          ? Mode.Map
          : field.repeated
            ? Mode.List
            : field.resolvedType instanceof protobufNow().Type
              ? Mode.Message
              : field.hasPresence
                ? Mode.Optional
                : Mode.NonZero,
        isZero: zeroTest(field),
        write: this.writer(field),
      }),
    );
    const google = type.fullName.startsWith('.google.protobuf.');
    const fast = google
      ? null
      : compileWriter(
          fields.map((f) => ({
            name: f.name,
            key: f.key,
            kind: KINDS[f.mode],
            isZero: f.isZero,
            write: f.mode === Mode.Map ? (v: unknown) => this.map(f, v) : f.write,
          })),
        );
    const plan = { google, fields, fast };
    this.plans.set(type, plan);
    return plan;
  }

  /** A map field's JSON object, keys sorted; undefined when the map is empty (left out). */
  private map(f: FieldPlan, v: unknown): Record<string, unknown> | undefined {
    const entries = Object.entries((v ?? {}) as Record<string, unknown>);
    if (entries.length === 0) return undefined;
    const obj: Record<string, unknown> = {};
    for (const [k, value] of entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      obj[this.mapKey(f.field, k)] = f.write(value);
    return obj;
  }

  private mapKey(field: protobuf.Field, key: string): string {
    // protobufjs keeps 64-bit keys as 8-character hashes of their bits.
    if (LONG_TYPES.has(mapKeyType(field)) && key.length === 8 && !/^-?\d+$/.test(key)) {
      const unsigned = mapKeyType(field) === 'uint64' || mapKeyType(field) === 'fixed64';
      return protobufNow().util.LongBits.fromHash(key).toLong(unsigned).toString();
    }
    return key;
  }

  private singular(field: protobuf.Field, v: unknown): unknown {
    return this.writer(field)(v);
  }

  /** The function writing one value of `field` (a list's element, a map's value). */
  private writer(field: protobuf.Field): Write {
    const { structured } = this.options;
    const resolved = field.resolvedType;
    if (resolved instanceof protobufNow().Type)
      return (v) => this.message(resolved, v as Record<string, unknown>);
    if (resolved instanceof protobufNow().Enum) {
      if (resolved.fullName === '.google.protobuf.NullValue') return () => null;
      if (this.options.useEnumNumbers) return toNumber;
      return (v) => {
        const n = toNumber(v);
        return resolved.valuesById[n] ?? n;
      };
    }
    switch (field.type) {
      case 'double':
        return (v) =>
          typeof v === 'number' && Number.isFinite(v) ? v : floatToJs(toNumber(v), false, structured);
      case 'float':
        return (v) => floatToJs(toNumber(v), true, structured);
      case 'int64':
      case 'sint64':
      case 'sfixed64':
        return (v) => longToJs(v, false, structured);
      case 'uint64':
      case 'fixed64':
        return (v) => longToJs(v, true, structured);
      case 'bytes':
        return (v) => {
          const bytes = v instanceof Uint8Array ? v : new Uint8Array(0);
          return structured
            ? bytes
            : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
        };
      case 'bool':
        return (v) => Boolean(v);
      case 'string':
        return (v) => (typeof v === 'string' ? v : String(v ?? ''));
      default:
        return (v) => (typeof v === 'number' ? v : toNumber(v));
    }
  }

  /** The special JSON forms of Google's well-known types; undefined for any other type. */
  private wellKnown(type: protobuf.Type, msg: Record<string, unknown>): unknown {
    const name = type.fullName.slice('.google.protobuf.'.length);
    const seconds = () => toNumber(msg.seconds);
    const nanos = () => toNumber(msg.nanos);
    if (WRAPPER_TYPES.has(name)) return this.singular(type.fields.value!, msg.value);
    switch (name) {
      case 'Timestamp':
        if (this.options.structured)
          return new Timestamp(BigInt(seconds()) * 1_000_000_000n + BigInt(nanos()));
        return formatTimestamp(seconds(), nanos());
      case 'Duration':
        return formatDuration(seconds(), nanos());
      case 'Empty':
        return {};
      case 'FieldMask':
        return ((msg.paths ?? []) as string[])
          .map((p) => p.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase()))
          .join(',');
      case 'Struct': {
        const out: Record<string, unknown> = {};
        const valueType = this.root.lookupType('.google.protobuf.Value');
        for (const [k, v] of Object.entries((msg.fields ?? {}) as Record<string, Record<string, unknown>>))
          out[k] = this.message(valueType, v);
        return out;
      }
      case 'ListValue': {
        const valueType = this.root.lookupType('.google.protobuf.Value');
        return ((msg.values ?? []) as Record<string, unknown>[]).map((v) => this.message(valueType, v));
      }
      case 'Value':
        return this.value(type, msg);
      case 'Any':
        return this.any(msg);
      default:
        return undefined;
    }
  }

  private value(type: protobuf.Type, msg: Record<string, unknown>): unknown {
    const get = (name: string) => {
      const key = valueField(type, name);
      return Object.hasOwn(msg, key) && msg[key] !== null && msg[key] !== undefined ? msg[key] : undefined;
    };
    const number = get('number_value');
    if (number !== undefined) {
      const n = toNumber(number);
      if (!Number.isFinite(n)) throw new Error(`invalid google.protobuf.Value: ${n} is not a JSON number`);
      return n;
    }
    const text = get('string_value');
    if (text !== undefined) return text;
    const bool = get('bool_value');
    if (bool !== undefined) return bool;
    const struct = get('struct_value');
    if (struct !== undefined)
      return this.message(this.root.lookupType('.google.protobuf.Struct'), struct as never);
    const list = get('list_value');
    if (list !== undefined)
      return this.message(this.root.lookupType('.google.protobuf.ListValue'), list as never);
    if (get('null_value') !== undefined) return null;
    throw new Error('google.protobuf.Value: none of the oneof fields is set');
  }

  private any(msg: Record<string, unknown>): unknown {
    const url = String(msg.type_url ?? '');
    if (url === '') return {};
    const inner = this.root.lookupTypeOrEnum(`.${url.slice(url.lastIndexOf('/') + 1)}`);
    if (!(inner instanceof protobufNow().Type))
      throw new Error(`unable to resolve "${url}": not a message type`);
    const decoded = inner.decode((msg.value as Uint8Array) ?? new Uint8Array(0)) as unknown as Record<
      string,
      unknown
    >;
    const body = this.message(inner, decoded);
    if (SPECIAL_FORMS.has(inner.fullName)) return { '@type': url, value: body };
    return { '@type': url, ...(body as Record<string, unknown>) };
  }
}

/** The well-known wrappers of one scalar (`value`): their JSON form is that scalar's, both ways. */
export const WRAPPER_TYPES: ReadonlySet<string> = new Set([
  'DoubleValue',
  'FloatValue',
  'Int64Value',
  'UInt64Value',
  'Int32Value',
  'UInt32Value',
  'BoolValue',
  'StringValue',
  'BytesValue',
]);

/** Well-known types with a JSON form of their own: inside an Any it goes under "value". */
export const SPECIAL_FORMS = new Set(
  ['Timestamp', 'Duration', ...WRAPPER_TYPES, 'Empty', 'FieldMask', 'Struct', 'ListValue', 'Value'].map(
    (n) => `.google.protobuf.${n}`,
  ),
);
