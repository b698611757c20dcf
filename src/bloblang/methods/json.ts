// JSON methods: parse_json, format_json and json_schema (validated with ajv).
import { createRequire } from 'node:module';
import type { Ajv, ErrorObject, ValidateFunction } from 'ajv';
import type { Value } from '../library.js';
import { bytesToString, stringToBytes, toJson, toJsonIndented } from '../value.js';
import { GoJsonError, parseGoJson } from './json_go.js';
import { argString, fail, method, p, targetString } from './support.js';

method('parse_json', [p.bool('use_number', { optional: true })], (t, a) => {
  try {
    return parseGoJson(targetString(t), a[0] === true);
  } catch (e) {
    if (e instanceof GoJsonError) throw fail(`failed to parse value as JSON: ${e.message}`);
    throw e;
  }
});

/** Go's json encoder escapes <, > and & unless told not to; they only occur inside strings. */
function escapeHtml(json: string): string {
  return json.replace(/[<>&]/g, (c) => (c === '<' ? '\\u003c' : c === '>' ? '\\u003e' : '\\u0026'));
}

method(
  'format_json',
  [
    p.str('indent', { default: '    ' }),
    p.bool('no_indent', { default: false }),
    p.bool('escape_html', { default: true }),
  ],
  (t, a) => {
    const indent = a[0] === undefined ? '    ' : argString(a, 0);
    const noIndent = a[1] === true;
    const escapeSpecials = a[2] !== false;
    const json = noIndent ? toJson(t) : toJsonIndented(t, indent);
    return stringToBytes(escapeSpecials ? escapeHtml(json) : json);
  },
);

// json_schema ------------------------------------------------------------------

// Required on first use: ajv costs ~40 ms of start-up for mappings that never validate.
const require = createRequire(import.meta.url);
let ajv: Ajv | undefined;
function validator(): Ajv {
  ajv ??= new (require('ajv') as { Ajv: typeof Ajv }).Ajv({ allErrors: true, strict: false });
  return ajv;
}
const schemaCache = new Map<string, ValidateFunction>();

function compile(schemaText: string): ValidateFunction {
  let fn = schemaCache.get(schemaText);
  if (!fn) {
    let schema: unknown;
    try {
      schema = JSON.parse(schemaText);
    } catch (e) {
      throw fail(`failed to parse json schema definition: ${(e as Error).message}`);
    }
    try {
      fn = validator().compile(schema as object);
    } catch (e) {
      throw fail(`failed to parse json schema definition: ${(e as Error).message}`);
    }
    if (schemaCache.size > 100) schemaCache.clear();
    schemaCache.set(schemaText, fn);
  }
  return fn;
}

/** JSON type name as gojsonschema reports it (integers are "integer"). */
function jsonType(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  if (typeof v === 'bigint') return 'integer';
  if (typeof v === 'boolean') return 'boolean';
  if (typeof v === 'string') return 'string';
  return 'object';
}

/** Renders an ajv error in the shape of the reference's gojsonschema messages. */
function describeError(e: ErrorObject, root: unknown): string {
  const segs = e.instancePath
    .split('/')
    .slice(1)
    .map((s) => s.replaceAll('~1', '/').replaceAll('~0', '~'));
  const field = segs.length === 0 ? '(root)' : segs.join('.');
  let value: unknown = root;
  for (const s of segs) value = (value as Record<string, unknown>)?.[s];
  const params = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'type':
      return `${field} invalid type. expected: ${params.type}, given: ${jsonType(value)}`;
    case 'required':
      return `${field} ${params.missingProperty} is required`;
    case 'enum':
      return `${field} ${field} must be one of the following: ${(params.allowedValues as unknown[]).map((x) => JSON.stringify(x)).join(', ')}`;
    case 'additionalProperties':
      return `${field} additional property ${params.additionalProperty} is not allowed`;
    case 'minimum':
      return `${field} must be greater than or equal to ${params.limit}`;
    case 'maximum':
      return `${field} must be less than or equal to ${params.limit}`;
    case 'minLength':
      return `${field} string length must be greater than or equal to ${params.limit}`;
    case 'maxLength':
      return `${field} string length must be less than or equal to ${params.limit}`;
    case 'pattern':
      return `${field} does not match pattern '${params.pattern}'`;
    default:
      return `${field} ${e.message ?? 'is invalid'}`;
  }
}

/** JSON Schema validation needs plain JSON: bytes as strings, timestamps as text. */
function toPlainJson(v: Value): unknown {
  return JSON.parse(toJson(v));
}

method('json_schema', [p.str('schema')], (t, a) => {
  const validate = compile(argString(a, 0));
  const doc = toPlainJson(t instanceof Uint8Array ? bytesToString(t) : t);
  if (validate(doc)) return t;
  const errors = (validate.errors ?? []).map((e) => describeError(e, doc));
  throw fail(errors.join('\n'));
});
