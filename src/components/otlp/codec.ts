// OTLP requests to messages and back: a request (protobuf or OTLP JSON) is split into one part per
// span, log record or metric, each a one-item request of its signal that keeps its resource and
// scope; a part becomes a message as the reference's redpanda.otel.v1 JSON object or as OTLP
// protobuf, and messages are merged back into one request per signal for the outputs. The protobuf
// types are the ones generated from the OTLP .proto files, shipped by
// @opentelemetry/otlp-transformer 0.57 (installed under the alias `otlp-transformer-proto`).
import { createRequire } from 'node:module';

export type Signal = 'trace' | 'log' | 'metric';
export const SIGNALS: readonly Signal[] = ['trace', 'log', 'metric'];

/** The OTLP/HTTP path of each signal. */
export const HTTP_PATHS: Record<Signal, string> = {
  trace: '/v1/traces',
  log: '/v1/logs',
  metric: '/v1/metrics',
};

/** The OTLP/gRPC method path of each signal. */
export const GRPC_PATHS: Record<Signal, string> = {
  trace: '/opentelemetry.proto.collector.trace.v1.TraceService/Export',
  log: '/opentelemetry.proto.collector.logs.v1.LogsService/Export',
  metric: '/opentelemetry.proto.collector.metrics.v1.MetricsService/Export',
};

interface ProtoType {
  decode(bytes: Uint8Array): unknown;
  encode(message: unknown): { finish(): Uint8Array };
  fromObject(value: unknown): unknown;
  toObject(message: unknown, options: Record<string, unknown>): Record<string, unknown>;
}

interface Shape {
  /** resourceSpans / resourceLogs / resourceMetrics */
  resources: string;
  /** scopeSpans / scopeLogs / scopeMetrics */
  scopes: string;
  /** spans / logRecords / metrics */
  items: string;
  type: ProtoType;
}

let shapes: Record<Signal, Shape> | null = null;

function shapeOf(signal: Signal): Shape {
  if (shapes === null) {
    const require = createRequire(import.meta.url);
    // biome-ignore lint/suspicious/noExplicitAny: generated protobufjs namespace
    const root = require('otlp-transformer-proto/build/src/generated/root.js') as any;
    const collector = root.opentelemetry.proto.collector;
    shapes = {
      trace: {
        resources: 'resourceSpans',
        scopes: 'scopeSpans',
        items: 'spans',
        type: collector.trace.v1.ExportTraceServiceRequest,
      },
      log: {
        resources: 'resourceLogs',
        scopes: 'scopeLogs',
        items: 'logRecords',
        type: collector.logs.v1.ExportLogsServiceRequest,
      },
      metric: {
        resources: 'resourceMetrics',
        scopes: 'scopeMetrics',
        items: 'metrics',
        type: collector.metrics.v1.ExportMetricsServiceRequest,
      },
    };
  }
  return shapes[signal];
}

/** OTLP JSON carries these bytes fields as hex (every other bytes field as base64). */
const HEX_FIELDS = new Set(['traceId', 'spanId', 'parentSpanId']);

type Json = Record<string, unknown>;

function convertIds(value: unknown, convert: (s: string) => string): void {
  if (Array.isArray(value)) {
    for (const v of value) convertIds(v, convert);
    return;
  }
  if (value === null || typeof value !== 'object') return;
  const obj = value as Json;
  for (const key of Object.keys(obj)) {
    const v = obj[key];
    if (typeof v === 'string' && HEX_FIELDS.has(key)) obj[key] = convert(v);
    else if (typeof v === 'object') convertIds(v, convert);
  }
}

const base64ToHex = (s: string) => Buffer.from(s, 'base64').toString('hex');
const hexToBase64 = (s: string) => {
  if (!/^(?:[0-9a-fA-F]{2})*$/.test(s)) throw new Error(`invalid hex id ${JSON.stringify(s)}`);
  return Buffer.from(s, 'hex').toString('base64');
};

const TO_OBJECT = { longs: String, enums: Number, bytes: String, defaults: false, json: true };

/** A decoded protobuf message as OTLP JSON. */
function toOtlpJson(type: ProtoType, message: unknown): Json {
  const obj = type.toObject(message, TO_OBJECT);
  convertIds(obj, base64ToHex);
  return obj;
}

/** OTLP JSON to a protobuf message (a deep copy: the argument is not changed). */
function fromOtlpJson(type: ProtoType, value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new Error('an OTLP request must be a JSON object');
  }
  const copy = structuredClone(value);
  convertIds(copy, hexToBase64);
  return type.fromObject(copy);
}

/** Decodes a request body into OTLP JSON (normalised); throws on a malformed body. */
export function decodeRequest(signal: Signal, body: Uint8Array, json: boolean): Json {
  const { type } = shapeOf(signal);
  if (json) return toOtlpJson(type, fromOtlpJson(type, JSON.parse(Buffer.from(body).toString('utf8'))));
  return toOtlpJson(type, type.decode(body));
}

/** Decodes a request body into its protobuf message; throws on a malformed body. */
export function decodeToMessage(signal: Signal, body: Uint8Array, json: boolean): Json {
  const { type } = shapeOf(signal);
  if (json) return fromOtlpJson(type, JSON.parse(Buffer.from(body).toString('utf8'))) as Json;
  return type.decode(body) as Json;
}

/** A decoded message as a plain object with protojson values (bytes as base64, 64-bit as strings). */
export function rawObject(signal: Signal, message: Json): Json {
  return shapeOf(signal).type.toObject(message, TO_OBJECT);
}

/** A protobuf message, or a part of one from splitRequest, as protobuf bytes. */
export function encodeMessage(signal: Signal, message: Json): Uint8Array {
  return shapeOf(signal).type.encode(message).finish();
}

/** One one-item request per span / log record / metric, in order, keeping resource and scope. */
export function splitRequest(signal: Signal, request: Json): Json[] {
  const { resources, scopes, items } = shapeOf(signal);
  const out: Json[] = [];
  for (const rs of (request[resources] as Json[] | undefined) ?? []) {
    const { [scopes]: scopeList, ...resourcePart } = rs;
    for (const ss of (scopeList as Json[] | undefined) ?? []) {
      const { [items]: itemList, ...scopePart } = ss;
      for (const item of (itemList as unknown[] | undefined) ?? []) {
        out.push({ [resources]: [{ ...resourcePart, [scopes]: [{ ...scopePart, [items]: [item] }] }] });
      }
    }
  }
  return out;
}

/** A request (OTLP JSON) as protobuf bytes. */
export function encodeProtobuf(signal: Signal, request: Json): Uint8Array {
  const { type } = shapeOf(signal);
  return type.encode(fromOtlpJson(type, request)).finish();
}

/** Merges one-item (or any) requests of a signal into one request. */
export function mergeRequests(signal: Signal, requests: readonly Json[]): Json {
  const { resources } = shapeOf(signal);
  const all: unknown[] = [];
  for (const r of requests) {
    const list = r[resources];
    if (Array.isArray(list)) for (const x of list) all.push(x);
  }
  return { [resources]: all };
}

/**
 * A message's content as an OTLP JSON request of `signal`: a redpanda.otel.v1 JSON object (what the
 * inputs emit with `encoding: json`), an OTLP JSON request, or an OTLP protobuf request.
 */
export function parseMessage(signal: Signal, bytes: Uint8Array): Json {
  let i = 0;
  while (
    i < bytes.length &&
    (bytes[i] === 0x20 || bytes[i] === 0x0a || bytes[i] === 0x0d || bytes[i] === 0x09)
  )
    i++;
  if (bytes[i] !== 0x7b /* { */) return decodeRequest(signal, bytes, false);
  const value: unknown = JSON.parse(Buffer.from(bytes).toString('utf8'));
  const { type } = shapeOf(signal);
  if (
    signalOfJson(value) === undefined &&
    value !== null &&
    typeof value === 'object' &&
    !Array.isArray(value)
  ) {
    return toOtlpJson(type, fromOtlpJson(type, fromRedpandaJson(signal, value as Json)));
  }
  return toOtlpJson(type, fromOtlpJson(type, value));
}

/** The signal of a message without `signal_type` metadata, from its OTLP JSON keys. */
export function signalOfJson(value: unknown): Signal | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  if ('resourceSpans' in value) return 'trace';
  if ('resourceLogs' in value) return 'log';
  if ('resourceMetrics' in value) return 'metric';
  return undefined;
}

// The reference's `redpanda.otel.v1` JSON shape (protojson with proto names and enum numbers): one
// object per span / log record / metric, the item's own fields beside `resource`,
// `resource_schema_url`, `scope` and `scope_schema_url`; ids and other bytes as base64.

const snakeNames = new Map<string, string>();
/** camelCase to snake_case, memoised (OTLP has a few dozen field names). */
function snake(key: string): string {
  let name = snakeNames.get(key);
  if (name === undefined) {
    name = key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
    if (snakeNames.size < 1024) snakeNames.set(key, name);
  }
  return name;
}
const camel = (key: string) => key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

function renameKeys(value: unknown, rename: (key: string) => string): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    const out = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) out[i] = renameKeys(value[i], rename);
    return out;
  }
  const out: Json = {};
  const obj = value as Json;
  for (const k in obj) {
    const v = obj[k];
    if (v !== undefined) out[rename(k)] = renameKeys(v, rename);
  }
  return out;
}

/**
 * A one-item part (splitRequest) of a rawObject, whose bytes are base64 already, as the reference's
 * redpanda.otel.v1 JSON object. One pass that builds new objects: nothing is cloned first.
 */
export function toRedpandaJson(signal: Signal, oneItem: Json): Json {
  const { resources, scopes, items } = shapeOf(signal);
  const rs = (oneItem[resources] as Json[])[0] as Json;
  const ss = (rs[scopes] as Json[])[0] as Json;
  const item = (ss[items] as Json[])[0] as Json;
  const out: Json = {};
  if (rs.resource !== undefined) out.resource = renameKeys(rs.resource, snake);
  if (rs.schemaUrl !== undefined) out.resource_schema_url = rs.schemaUrl;
  if (ss.scope !== undefined) out.scope = renameKeys(ss.scope, snake);
  if (ss.schemaUrl !== undefined) out.scope_schema_url = ss.schemaUrl;
  for (const k in item) {
    const v = item[k];
    if (v !== undefined) out[snake(k)] = renameKeys(v, snake);
  }
  return out;
}

/** A redpanda.otel.v1 JSON object (or the same with camelCase keys) as a one-item OTLP JSON request. */
export function fromRedpandaJson(signal: Signal, value: Json): Json {
  const { resources, scopes, items } = shapeOf(signal);
  const flat = renameKeys(value, camel) as Json;
  convertIds(flat, base64ToHex);
  const { resource, resourceSchemaUrl, scope, scopeSchemaUrl, ...item } = flat;
  return {
    [resources]: [
      {
        ...(resource === undefined ? {} : { resource }),
        ...(resourceSchemaUrl === undefined ? {} : { schemaUrl: resourceSchemaUrl }),
        [scopes]: [
          {
            ...(scope === undefined ? {} : { scope }),
            ...(scopeSchemaUrl === undefined ? {} : { schemaUrl: scopeSchemaUrl }),
            [items]: [item],
          },
        ],
      },
    ],
  };
}
