// A JSON document read into a protobufjs message object following the proto3 JSON mapping the
// reference (protojson) reads: fields by JSON or proto name, unknown fields an error (unless
// discarded), 64-bit integers as numbers or strings, enums by name or number, bytes as base64,
// well-known types in their special forms.
import type protobuf from 'protobufjs';
import { longNow, protobufNow } from '../../base/lazy_packages.js';
import { JsonNumber } from '../../bloblang/library.js';
import { type CompiledReader, compileReader } from './protobuf_json_codegen.js';
import { parseDuration, parseTimestamp } from './protobuf_time.js';
import { jsonName, mapKeyType, SPECIAL_FORMS, valueField, WRAPPER_TYPES } from './protobuf_to_json.js';

type Obj = Record<string, unknown>;

const isObject = (v: unknown): v is Obj =>
  typeof v === 'object' &&
  v !== null &&
  !Array.isArray(v) &&
  !(v instanceof Uint8Array) &&
  !(v instanceof JsonNumber);

const describe = (v: unknown): string =>
  v instanceof JsonNumber ? v.text : JSON.stringify(v, (_k, x) => (typeof x === 'bigint' ? x.toString() : x));

const INT_RANGES: Record<string, [bigint, bigint]> = {
  int32: [-(2n ** 31n), 2n ** 31n - 1n],
  sint32: [-(2n ** 31n), 2n ** 31n - 1n],
  sfixed32: [-(2n ** 31n), 2n ** 31n - 1n],
  uint32: [0n, 2n ** 32n - 1n],
  fixed32: [0n, 2n ** 32n - 1n],
  int64: [-(2n ** 63n), 2n ** 63n - 1n],
  sint64: [-(2n ** 63n), 2n ** 63n - 1n],
  sfixed64: [-(2n ** 63n), 2n ** 63n - 1n],
  uint64: [0n, 2n ** 64n - 1n],
  fixed64: [0n, 2n ** 64n - 1n],
};

/** An integer given as a JSON number or a string of one (exponents allowed if the value is whole). */
function integer(type: string, v: unknown, where: string): bigint {
  let n: bigint | undefined;
  if (typeof v === 'bigint') n = v;
  else if (typeof v === 'number' && Number.isInteger(v)) n = BigInt(v);
  else if (typeof v === 'string' && /^-?\d+$/.test(v.trim()) && v.trim() === v) n = BigInt(v);
  else if (typeof v === 'string' && v.trim() === v && v !== '' && Number.isInteger(Number(v)))
    n = BigInt(Number(v));
  const range = INT_RANGES[type]!;
  if (n === undefined || n < range[0] || n > range[1])
    throw new Error(`invalid value for ${type} field ${where}: ${describe(v)}`);
  return n;
}

function float(type: string, v: unknown, where: string): number {
  let n: number | undefined;
  if (typeof v === 'number') n = v;
  else if (typeof v === 'bigint') n = Number(v);
  else if (v instanceof JsonNumber) n = Number(v.text);
  else if (v === 'NaN') n = Number.NaN;
  else if (v === 'Infinity') n = Number.POSITIVE_INFINITY;
  else if (v === '-Infinity') n = Number.NEGATIVE_INFINITY;
  else if (typeof v === 'string' && v.trim() === v && v !== '' && !Number.isNaN(Number(v))) n = Number(v);
  if (n === undefined || (typeof v !== 'string' && !Number.isFinite(n)))
    throw new Error(`invalid value for ${type} field ${where}: ${describe(v)}`);
  if (
    type === 'float' &&
    Number.isFinite(n) &&
    !Number.isFinite(Math.fround(n)) &&
    Math.abs(n) > 3.4028234663852886e38
  )
    throw new Error(`invalid value for float field ${where}: ${describe(v)}`);
  return n;
}

function bytes(v: unknown, where: string): Uint8Array {
  // Standard or URL-safe base64, padded or not.
  if (typeof v !== 'string' || !/^[A-Za-z0-9+/\-_]*={0,2}$/.test(v) || v.replace(/=+$/, '').length % 4 === 1)
    throw new Error(`invalid value for bytes field ${where}: ${describe(v)}`);
  return new Uint8Array(Buffer.from(v.replace(/-/g, '+').replace(/_/g, '/'), 'base64'));
}

type ReadFn = (v: unknown, where: string) => unknown;

/** What `message` needs of one field, worked out once per field. */
interface FieldPlan {
  field: protobuf.Field;
  /** A null value is a value (google.protobuf.Value or NullValue, not in a list or map). */
  nullIsValue: boolean;
  /** Its oneof, when that has other members. */
  oneof: protobuf.OneOf | null;
  /** Reads the field's value (as `field` does), or null to take the general path (`field`). */
  read: ReadFn | null;
}

/**
 * What `message` needs of a type, worked out once: protobufjs computes `fullName` on every read,
 * and most checks are the same for every message of a type.
 */
interface TypePlan {
  google: boolean;
  byName: Map<string, FieldPlan>;
  /** Some field has a JSON name other than its proto name, so one object can name it twice. */
  aliases: boolean;
  /** The generated reader (protobuf_json_codegen.ts), for types without oneofs of several fields. */
  fast: CompiledReader | null;
}

const INT32_TYPES = new Set(['int32', 'sint32', 'sfixed32']);
const UINT32_TYPES = new Set(['uint32', 'fixed32']);

/** The fast reader of one plain scalar value (a list's element too); the same results and errors as `singular`. */
function scalarReader(field: protobuf.Field): ReadFn | null {
  if (field.map || field.resolvedType) return null;
  const type = field.type;
  if (INT32_TYPES.has(type))
    return (v, where) => (typeof v === 'number' && (v | 0) === v ? v | 0 : Number(integer(type, v, where)));
  if (UINT32_TYPES.has(type))
    return (v, where) => (typeof v === 'number' && v >>> 0 === v ? v >>> 0 : Number(integer(type, v, where)));
  if (type === 'double')
    return (v, where) => (typeof v === 'number' && Number.isFinite(v) ? v : float(type, v, where));
  if (type === 'string')
    return (v, where) => {
      if (typeof v !== 'string') throw new Error(`invalid value for string field ${where}: ${describe(v)}`);
      return v;
    };
  return null;
}

export class ProtoJsonReader {
  private readonly plans = new Map<protobuf.Type, TypePlan>();

  constructor(
    private readonly root: protobuf.Root,
    private readonly discardUnknown: boolean,
  ) {}

  /**
   * Set while a document is read again by the general path after the generated one threw: that
   * one reports the first problem in the document's order (and nested types are not read twice).
   */
  private exact = false;

  private plan(type: protobuf.Type): TypePlan {
    const byName = new Map<string, FieldPlan>();
    let aliases = false;
    const fastFields: Parameters<typeof compileReader>[0][number][] = [];
    for (const field of type.fieldsArray) {
      const resolvedName = field.resolvedType?.fullName;
      const plan: FieldPlan = {
        field,
        nullIsValue:
          (resolvedName === '.google.protobuf.Value' || resolvedName === '.google.protobuf.NullValue') &&
          !field.repeated &&
          !field.map,
        oneof: field.partOf && field.partOf.oneof.length > 1 ? field.partOf : null,
        read: this.reader(field),
      };
      byName.set(field.name, plan);
      byName.set(jsonName(field), plan);
      if (jsonName(field) !== field.name) aliases = true;
      fastFields.push({
        name: field.name,
        alias: jsonName(field) === field.name ? null : jsonName(field),
        nullIsValue: plan.nullIsValue,
        read: plan.read ?? ((v, key) => this.field(field, v, key)),
      });
    }
    const google = type.fullName.startsWith('.google.protobuf.');
    const oneofs = [...byName.values()].some((f) => f.oneof !== null);
    const fast = google || oneofs ? null : compileReader(fastFields);
    const plan = { google, byName, aliases, fast };
    this.plans.set(type, plan);
    return plan;
  }

  /**
   * The reader of a field's value, worked out once (maps take the general path): lists and nested
   * messages skip `field`'s and `singular`'s checks of the field's kind on every value.
   */
  private reader(field: protobuf.Field): ReadFn | null {
    if (field.map) return null;
    const resolved = field.resolvedType;
    const one: ReadFn =
      resolved instanceof protobufNow().Type
        ? (v) => this.read(resolved, v)
        : (scalarReader(field) ?? ((v, where) => this.singular(field, v, where)));
    if (!field.repeated) return one;
    return (value, key) => {
      if (!Array.isArray(value)) throw new Error(`invalid value for list field ${key}: ${describe(value)}`);
      const out: unknown[] = [];
      for (let i = 0; i < value.length; i++) {
        const converted = one(value[i], key);
        if (converted !== undefined) out.push(converted);
      }
      return out;
    };
  }

  /** json as the protobufjs object of `type` (ready for `type.encode`). */
  message(type: protobuf.Type, json: unknown): Obj {
    try {
      return this.read(type, json);
    } catch {
      // The generated readers convert in the schema's order: the general path says which
      // problem comes first in the document, as it always did.
      this.exact = true;
      try {
        return this.read(type, json);
      } finally {
        this.exact = false;
      }
    }
  }

  private read(type: protobuf.Type, json: unknown): Obj {
    const plan = this.plans.get(type) ?? this.plan(type);
    if (plan.google) {
      const special = this.wellKnown(type, json);
      if (special !== undefined) return special;
    }
    if (!isObject(json))
      throw new Error(`invalid value for message ${type.fullName.slice(1)}: ${describe(json)}`);
    if (plan.fast !== null && !this.exact) {
      const out = plan.fast(json);
      if (out !== null) return out;
    }
    const out: Obj = {};
    const seen = plan.aliases ? new Set<protobuf.Field>() : null;
    let oneofsSet: Set<protobuf.OneOf> | null = null;
    for (const key of Object.keys(json)) {
      const value = json[key];
      const f = plan.byName.get(key);
      if (!f) {
        if (this.discardUnknown) continue;
        throw new Error(`unknown field "${key}"`);
      }
      const field = f.field;
      if (seen) {
        if (seen.has(field)) throw new Error(`duplicate field "${key}"`);
        seen.add(field);
      }
      if (value === null && !f.nullIsValue) continue;
      if (f.oneof) {
        oneofsSet ??= new Set();
        if (oneofsSet.has(f.oneof))
          throw new Error(
            `error parsing "${key}", oneof ${type.fullName.slice(1)}.${f.oneof.name} is already set`,
          );
        oneofsSet.add(f.oneof);
      }
      const converted = f.read ? f.read(value, key) : this.field(field, value, key);
      if (converted !== undefined) out[field.name] = converted;
    }
    return out;
  }

  private field(field: protobuf.Field, value: unknown, key: string): unknown {
    if (field.map) {
      if (!isObject(value)) throw new Error(`invalid value for map field ${key}: ${describe(value)}`);
      const out: Obj = {};
      for (const [k, v] of Object.entries(value)) {
        if (v === null && field.resolvedType?.fullName !== '.google.protobuf.Value')
          throw new Error(`invalid value for map field ${key}: null`);
        const converted = this.singular(field, v, key);
        if (converted !== undefined) out[this.mapKey(mapKeyType(field), k, key)] = converted;
      }
      return out;
    }
    if (field.repeated) {
      if (!Array.isArray(value)) throw new Error(`invalid value for list field ${key}: ${describe(value)}`);
      const out: unknown[] = [];
      for (const v of value) {
        const converted = this.singular(field, v, key);
        if (converted !== undefined) out.push(converted);
      }
      return out;
    }
    return this.singular(field, value, key);
  }

  private mapKey(keyType: string, k: string, key: string): string {
    if (keyType === 'string') return k;
    if (keyType === 'bool') {
      if (k !== 'true' && k !== 'false') throw new Error(`invalid map key for field ${key}: "${k}"`);
      return k;
    }
    if (!/^-?\d+$/.test(k)) throw new Error(`invalid map key for field ${key}: "${k}"`);
    return integer(keyType, k, key).toString();
  }

  /** One value; undefined when it is to be left out (an unknown enum name being discarded). */
  private singular(field: protobuf.Field, v: unknown, where: string): unknown {
    const resolved = field.resolvedType;
    if (resolved instanceof protobufNow().Type) return this.read(resolved, v);
    if (resolved instanceof protobufNow().Enum) {
      if (resolved.fullName === '.google.protobuf.NullValue') {
        if (v !== null) throw new Error(`invalid value for enum field ${where}: ${describe(v)}`);
        return 0;
      }
      if (typeof v === 'string') {
        const n = resolved.values[v];
        if (n !== undefined) return n;
        if (this.discardUnknown) return undefined;
        throw new Error(`invalid value for enum field ${where}: ${describe(v)}`);
      }
      if (typeof v === 'number' || typeof v === 'bigint') return Number(integer('int32', v, where));
      throw new Error(`invalid value for enum field ${where}: ${describe(v)}`);
    }
    switch (field.type) {
      case 'double':
      case 'float':
        return float(field.type, v, where);
      case 'int32':
      case 'sint32':
      case 'sfixed32':
      case 'uint32':
      case 'fixed32':
        return Number(integer(field.type, v, where));
      case 'int64':
      case 'sint64':
      case 'sfixed64':
      case 'uint64':
      case 'fixed64': {
        const n = integer(field.type, v, where);
        const unsigned = field.type === 'uint64' || field.type === 'fixed64';
        return longNow().fromString(n.toString(), unsigned);
      }
      case 'bool':
        if (typeof v !== 'boolean') throw new Error(`invalid value for bool field ${where}: ${describe(v)}`);
        return v;
      case 'string':
        if (typeof v !== 'string') throw new Error(`invalid value for string field ${where}: ${describe(v)}`);
        return v;
      case 'bytes':
        return bytes(v, where);
      default:
        throw new Error(`unsupported field type ${field.type} of ${where}`);
    }
  }

  private wellKnown(type: protobuf.Type, json: unknown): Obj | undefined {
    const name = type.fullName.slice('.google.protobuf.'.length);
    const bad = () => new Error(`invalid google.protobuf.${name} value ${describe(json)}`);
    if (WRAPPER_TYPES.has(name)) return { value: this.singular(type.fields.value!, json, 'value') };
    switch (name) {
      case 'Timestamp':
      case 'Duration': {
        if (typeof json !== 'string') throw bad();
        const { seconds, nanos } = name === 'Timestamp' ? parseTimestamp(json) : parseDuration(json);
        return { seconds: longNow().fromNumber(seconds), nanos };
      }
      case 'Empty':
        if (!isObject(json) || Object.keys(json).length > 0) throw bad();
        return {};
      case 'FieldMask':
        if (typeof json !== 'string') throw bad();
        return {
          paths:
            json === '' ? [] : json.split(',').map((p) => p.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)),
        };
      case 'Struct': {
        if (!isObject(json)) throw bad();
        const valueType = this.root.lookupType('.google.protobuf.Value');
        const fields: Obj = {};
        for (const [k, v] of Object.entries(json)) fields[k] = this.read(valueType, v);
        return { fields };
      }
      case 'ListValue': {
        if (!Array.isArray(json)) throw bad();
        const valueType = this.root.lookupType('.google.protobuf.Value');
        return { values: json.map((v) => this.read(valueType, v)) };
      }
      case 'Value':
        return this.value(type, json);
      case 'Any':
        return this.any(json);
      default:
        return undefined;
    }
  }

  private value(type: protobuf.Type, json: unknown): Obj {
    const one = (name: string, v: unknown): Obj => ({ [valueField(type, name)]: v });
    if (json === null) return one('null_value', 0);
    if (typeof json === 'boolean') return one('bool_value', json);
    if (typeof json === 'string') return one('string_value', json);
    if (typeof json === 'number' || typeof json === 'bigint') return one('number_value', Number(json));
    if (json instanceof JsonNumber) return one('number_value', Number(json.text));
    if (Array.isArray(json))
      return one('list_value', this.read(this.root.lookupType('.google.protobuf.ListValue'), json));
    return one('struct_value', this.read(this.root.lookupType('.google.protobuf.Struct'), json));
  }

  private any(json: unknown): Obj {
    if (!isObject(json)) throw new Error(`invalid google.protobuf.Any value ${describe(json)}`);
    if (Object.keys(json).length === 0) return {};
    const url = json['@type'];
    if (typeof url !== 'string' || url === '') throw new Error('google.protobuf.Any: missing "@type" field');
    let inner: protobuf.Type;
    try {
      inner = this.root.lookupType(`.${url.slice(url.lastIndexOf('/') + 1)}`);
    } catch {
      throw new Error(`unable to resolve "${url}": not found`);
    }
    const { '@type': _type, ...rest } = json;
    let body: unknown = rest;
    if (SPECIAL_FORMS.has(inner.fullName)) {
      if (!Object.hasOwn(rest, 'value') || Object.keys(rest).length !== 1)
        throw new Error(`google.protobuf.Any of ${url}: expected a single "value" field`);
      body = rest.value;
    }
    const value = inner.encode(this.read(inner, body)).finish();
    return { type_url: url, value };
  }
}
