// The `schema` of `parquet_encode` as Parquet schema elements, and each row's values coerced to
// what its columns hold. Columns of a group are ordered by name, as the reference's writer orders
// them. A `repeated` column is written as a standard three-level LIST (`name.list.element`), the
// layout hyparquet-writer supports; readers see the same array of values.
import type { SchemaElement } from 'hyparquet';
import { Timestamp } from '../../message/value.js';

export const COLUMN_TYPES = [
  'BOOLEAN',
  'INT32',
  'INT64',
  'FLOAT',
  'DOUBLE',
  'BYTE_ARRAY',
  'UTF8',
  'TIMESTAMP',
  'BSON',
  'ENUM',
  'JSON',
  'UUID',
] as const;

export type ColumnType = (typeof COLUMN_TYPES)[number];
export type TimestampUnit = 'NANOSECOND' | 'MICROSECOND' | 'MILLISECOND';

export interface Column {
  name: string;
  type: ColumnType | null;
  repeated: boolean;
  optional: boolean;
  fields: Column[];
}

/**
 * A column as written in the config (`fields` children are raw, defaults not yet filled).
 * `checkType` false leaves the type of this column (not of its children) to the field's own lint.
 */
export function readColumn(raw: unknown, path: string, checkType = true): Column {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw new Error(`${path}: expected an object`);
  const obj = raw as Record<string, unknown>;
  if (typeof obj.name !== 'string' || obj.name === '') throw new Error(`${path}: a column needs a name`);
  const fields = Array.isArray(obj.fields)
    ? obj.fields.map((f, i) => readColumn(f, `${path}.fields.${i}`))
    : [];
  const typeText = obj.type === undefined || obj.type === null ? null : String(obj.type).toUpperCase();
  if (fields.length === 0 && checkType) {
    if (typeText === null) throw new Error(`field ${obj.name} type of '' not recognised`);
    if (!(COLUMN_TYPES as readonly string[]).includes(typeText))
      throw new Error(`field ${obj.name} type of '${typeText}' not recognised`);
  }
  const repeated = obj.repeated === true;
  const optional = obj.optional === true;
  if (repeated && optional) throw new Error(`column ${obj.name} cannot be both repeated and optional`);
  return { name: obj.name, type: typeText as ColumnType | null, repeated, optional, fields };
}

const UNIT = { NANOSECOND: 'NANOS', MICROSECOND: 'MICROS', MILLISECOND: 'MILLIS' } as const;

function leafElement(type: ColumnType, unit: TimestampUnit): SchemaElement {
  switch (type) {
    case 'BOOLEAN':
      return { name: '', type: 'BOOLEAN' };
    case 'INT32':
      return { name: '', type: 'INT32', logical_type: { type: 'INTEGER', bitWidth: 32, isSigned: true } };
    case 'INT64':
      return { name: '', type: 'INT64', logical_type: { type: 'INTEGER', bitWidth: 64, isSigned: true } };
    case 'FLOAT':
      return { name: '', type: 'FLOAT' };
    case 'DOUBLE':
      return { name: '', type: 'DOUBLE' };
    case 'BYTE_ARRAY':
      return { name: '', type: 'BYTE_ARRAY' };
    case 'UTF8':
      return { name: '', type: 'BYTE_ARRAY', converted_type: 'UTF8', logical_type: { type: 'STRING' } };
    case 'TIMESTAMP':
      return {
        name: '',
        type: 'INT64',
        logical_type: { type: 'TIMESTAMP', isAdjustedToUTC: true, unit: UNIT[unit] },
      };
    case 'BSON':
      return { name: '', type: 'BYTE_ARRAY', converted_type: 'BSON', logical_type: { type: 'BSON' } };
    case 'ENUM':
      return { name: '', type: 'BYTE_ARRAY', converted_type: 'ENUM', logical_type: { type: 'ENUM' } };
    case 'JSON':
      return { name: '', type: 'BYTE_ARRAY', converted_type: 'JSON', logical_type: { type: 'JSON' } };
    case 'UUID':
      return { name: '', type: 'FIXED_LEN_BYTE_ARRAY', type_length: 16, logical_type: { type: 'UUID' } };
  }
}

const byName = (a: Column, b: Column) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/** The column's elements, depth first: its own first, then its children's. */
function columnElements(col: Column, unit: TimestampUnit): SchemaElement[] {
  const inner: SchemaElement[] =
    col.fields.length > 0
      ? [
          { name: '', num_children: col.fields.length },
          ...[...col.fields].sort(byName).flatMap((f) => columnElements(f, unit)),
        ]
      : [leafElement(col.type as ColumnType, unit)];
  const [head, ...rest] = inner as [SchemaElement, ...SchemaElement[]];
  if (col.repeated) {
    return [
      {
        name: col.name,
        repetition_type: 'REQUIRED',
        converted_type: 'LIST',
        logical_type: { type: 'LIST' },
        num_children: 1,
      },
      { name: 'list', repetition_type: 'REPEATED', num_children: 1 },
      { ...head, name: 'element', repetition_type: 'REQUIRED' },
      ...rest,
    ];
  }
  return [{ ...head, name: col.name, repetition_type: col.optional ? 'OPTIONAL' : 'REQUIRED' }, ...rest];
}

/** The file's schema elements: the root, then every column by name. */
export function schemaElements(columns: readonly Column[], unit: TimestampUnit): SchemaElement[] {
  const sorted = [...columns].sort(byName);
  return [{ name: 'root', num_children: sorted.length }, ...sorted.flatMap((c) => columnElements(c, unit))];
}

export function sortedColumns(columns: readonly Column[]): Column[] {
  return [...columns].sort(byName);
}

//------------------------------------------------------------------------------

const encoder = new TextEncoder();
const NS_PER_UNIT = { NANOSECOND: 1n, MICROSECOND: 1_000n, MILLISECOND: 1_000_000n } as const;

function asNumber(v: unknown, col: Column): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  if (v !== null && typeof v === 'object' && 'toNumber' in v) return (v as { toNumber(): number }).toNumber();
  throw new Error(`column ${col.name}: cannot write ${typeName(v)} as ${col.type}`);
}

function typeName(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (v instanceof Uint8Array) return 'bytes';
  return typeof v;
}

/** Nanoseconds since the epoch of an RFC 3339 time, keeping digits past the millisecond. */
function parseRfc3339(text: string, col: Column): bigint {
  const ms = Date.parse(text);
  if (!/^\d{4}-\d\d-\d\dT/.test(text) || Number.isNaN(ms))
    throw new Error(`column ${col.name}: parsing string RFC3339 timestamp: ${JSON.stringify(text)}`);
  const fraction = /T[\d:]+\.(\d+)/.exec(text)?.[1] ?? '';
  const seconds = BigInt(Math.floor(ms / 1000));
  return seconds * 1_000_000_000n + BigInt(fraction.slice(0, 9).padEnd(9, '0'));
}

function timestamp(v: unknown, col: Column, unit: TimestampUnit): bigint {
  if (v instanceof Timestamp) return v.epochNs / NS_PER_UNIT[unit];
  if (v instanceof Date) return (BigInt(v.getTime()) * 1_000_000n) / NS_PER_UNIT[unit];
  if (typeof v === 'string') return parseRfc3339(v, col) / NS_PER_UNIT[unit];
  // Numbers are taken as already in the column's unit, as the reference takes them.
  return BigInt(Math.trunc(asNumber(v, col)));
}

function bytes(v: unknown, col: Column): Uint8Array {
  if (v instanceof Uint8Array) return v;
  if (typeof v === 'string') return encoder.encode(v);
  throw new Error(`column ${col.name}: cannot write ${typeName(v)} as ${col.type}`);
}

function uuid(v: unknown, col: Column): Uint8Array {
  if (v instanceof Uint8Array) return v;
  const hex = typeof v === 'string' ? v.replace(/^urn:uuid:/, '').replace(/[{}-]/g, '') : '';
  if (!/^[0-9a-fA-F]{32}$/.test(hex))
    throw new Error(`column ${col.name}: parsing string as UUID: ${JSON.stringify(v)}`);
  return Uint8Array.from(Buffer.from(hex, 'hex'));
}

function jsonReplacer(this: unknown, key: string, x: unknown): unknown {
  const original = (this as Record<string, unknown>)[key];
  if (typeof original === 'bigint') return Number(original);
  if (original instanceof Uint8Array) return new TextDecoder().decode(original);
  if (original instanceof Timestamp) return new Date(Number(original.epochNs / 1_000_000n)).toISOString();
  return x;
}

function leaf(v: unknown, col: Column, unit: TimestampUnit): unknown {
  switch (col.type as ColumnType) {
    case 'BOOLEAN':
      if (typeof v !== 'boolean')
        throw new Error(`column ${col.name}: cannot write ${typeName(v)} as BOOLEAN`);
      return v;
    case 'INT32':
      return Math.trunc(asNumber(v, col)) | 0;
    case 'INT64':
      return typeof v === 'bigint' ? v : BigInt(Math.trunc(asNumber(v, col)));
    case 'FLOAT':
    case 'DOUBLE':
      return asNumber(v, col);
    case 'UTF8':
      return v instanceof Uint8Array
        ? new TextDecoder().decode(v)
        : typeof v === 'string'
          ? v
          : String(bytes(v, col));
    case 'BYTE_ARRAY':
    case 'BSON':
    case 'ENUM':
      return bytes(v, col);
    case 'TIMESTAMP':
      return timestamp(v, col, unit);
    case 'JSON':
      // hyparquet-writer writes the JSON text of the value; give it plain JSON values.
      return JSON.parse(JSON.stringify(v, jsonReplacer));
    case 'UUID':
      return uuid(v, col);
  }
}

/** The zero value a required column takes when a row lacks it (as the reference's writer does). */
function zero(col: Column, unit: TimestampUnit): unknown {
  if (col.repeated) return [];
  if (col.fields.length > 0) return coerceGroup(col.fields, {}, unit);
  switch (col.type as ColumnType) {
    case 'BOOLEAN':
      return false;
    case 'INT64':
    case 'TIMESTAMP':
      return 0n;
    case 'INT32':
    case 'FLOAT':
    case 'DOUBLE':
      return 0;
    case 'UTF8':
      return '';
    case 'UUID':
      return new Uint8Array(16);
    default:
      return new Uint8Array(0);
  }
}

function single(v: unknown, col: Column, unit: TimestampUnit): unknown {
  if (col.fields.length === 0) return leaf(v, col, unit);
  if (!v || typeof v !== 'object' || Array.isArray(v) || v instanceof Uint8Array)
    throw new Error(`column ${col.name}: expected an object, got ${typeName(v)}`);
  return coerceGroup(col.fields, v as Record<string, unknown>, unit);
}

export function coerceValue(v: unknown, col: Column, unit: TimestampUnit): unknown {
  if (v === null || v === undefined) return col.optional ? null : zero(col, unit);
  if (col.repeated) {
    if (!Array.isArray(v))
      throw new Error(`column ${col.name}: a repeated column needs an array, got ${typeName(v)}`);
    return v.map((item) => single(item, { ...col, repeated: false }, unit));
  }
  return single(v, col, unit);
}

function coerceGroup(columns: readonly Column[], row: Record<string, unknown>, unit: TimestampUnit) {
  const out: Record<string, unknown> = {};
  for (const col of columns) out[col.name] = coerceValue(row[col.name], col, unit);
  return out;
}
