// Checked config values -> what factories receive: defaults filled per FieldSpec, nested
// components turned into ComponentConfig (with their config path), the raw form kept.
import type { ComponentConfig } from '../engine/context.js';
import { inferComponentType } from './infer_type.js';
import type { Lint } from './lint.js';
import {
  type ComponentSchema,
  type ConfigKind,
  configFieldOf,
  isConfigKind,
  type SchemaProvider,
} from './schema.js';
import type { FieldSpec } from './spec.js';
import { failAt, problemAt } from './value_problems.js';
import { type LineIndex, pathKey } from './yaml_document.js';

export interface NormaliseContext {
  readonly provider: SchemaProvider;
  /** Positions in the source document, when the value came from one. */
  readonly lines?: LineIndex;
  /** Set by normaliseAll (value_problems.ts): problems are collected here and the walk goes on. */
  readonly problems?: Lint[];
}

/** Where a value sits: its path in the document (for lines) and its config path (for metrics). */
export interface ValueLocation {
  readonly docPath: readonly (string | number)[];
  readonly configPath: string;
}

type PlainObject = Record<string, unknown>;

export function isPlainObject(value: unknown): value is PlainObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function fail(ctx: NormaliseContext, at: ValueLocation, message: string): never {
  return failAt(ctx, at.docPath, message);
}

function problem<T>(ctx: NormaliseContext, at: ValueLocation, message: string, fallback: T): T {
  return problemAt(ctx, at.docPath, message, fallback);
}

function child(at: ValueLocation, segment: string | number): ValueLocation {
  return { docPath: [...at.docPath, segment], configPath: `${at.configPath}.${segment}` };
}

function clone<T>(value: T): T {
  return value === undefined ? value : structuredClone(value);
}

function describe(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value === 'object' ? 'object' : typeof value;
}

/** Normalises one component written as `{<type>: {...}, label, processors}` or with `type: <name>`. */
export function normaliseComponent(
  kind: ConfigKind,
  value: unknown,
  at: ValueLocation,
  ctx: NormaliseContext,
): ComponentConfig {
  if (!isPlainObject(value)) fail(ctx, at, `expected object value for ${kind}, got ${describe(value)}`);
  const explicit = typeof value.type === 'string' ? value.type : undefined;
  const keys = Object.keys(value);
  const inferred = inferComponentType(ctx.provider, kind, keys, explicit);
  if (!inferred.ok) fail(ctx, at, inferred.error);
  const name = inferred.name;
  const schema = ctx.provider.get(kind, name);
  if (!schema) fail(ctx, at, `${kind} type '${name}' was not recognised`);

  const settingsKey = value[name] === undefined && value.plugin !== undefined ? 'plugin' : name;
  const config = normaliseSettings(schema, value[settingsKey], child(at, settingsKey), ctx);

  const written = value.label ?? '';
  const label =
    typeof written === 'string'
      ? written
      : problem(ctx, child(at, 'label'), 'field label: expected string value', '');

  let processors: ComponentConfig[] = [];
  if (
    (kind === 'input' || kind === 'output') &&
    value.processors !== undefined &&
    value.processors !== null
  ) {
    const list = Array.isArray(value.processors)
      ? value.processors
      : problem(ctx, child(at, 'processors'), 'field processors: expected array value', []);
    const listAt = child(at, 'processors');
    processors = list.map((p, i) => normaliseComponent('processor', p, child(listAt, i), ctx));
  }
  return { type: name, label, config, processors, path: at.configPath, raw: clone(value) };
}

/** A component's own settings (the value under its name) with defaults filled in. */
export function normaliseSettings(
  schema: ComponentSchema,
  settings: unknown,
  at: ValueLocation,
  ctx: NormaliseContext,
): unknown {
  return normaliseField(configFieldOf(schema), settings, at, ctx);
}

/** Whether an object field has a child that must be written (no default, not optional). */
function hasRequiredChild(spec: FieldSpec): boolean {
  return (spec.children ?? []).some(
    (c) =>
      c.default === undefined &&
      !c.optional &&
      !c.deprecated &&
      c.kind === 'scalar' &&
      !c.children &&
      c.type !== 'object' &&
      c.type !== 'unknown',
  );
}

/** A field's value with defaults filled; undefined when absent and optional without default. */
export function normaliseField(
  spec: FieldSpec,
  value: unknown,
  at: ValueLocation,
  ctx: NormaliseContext,
): unknown {
  if (value === undefined) {
    if (spec.default !== undefined) return normaliseField(spec, clone(spec.default), at, ctx);
    if (spec.kind !== 'scalar') return spec.kind === 'map' ? {} : [];
    // An absent optional object that cannot be built (a child is required) stays absent, as in
    // the reference: its required children are required only when the object is given.
    if (spec.children)
      return spec.optional && hasRequiredChild(spec) ? undefined : normaliseField(spec, {}, at, ctx);
    if (spec.optional || spec.deprecated) return undefined;
    // A missing component stops the walk: the code after it reads components as objects.
    if (isConfigKind(spec.type)) fail(ctx, at, `field ${spec.name} is required`);
    if (spec.type === 'object' || spec.type === 'unknown') return spec.type === 'object' ? {} : undefined;
    return problem(ctx, at, `field ${spec.name} is required`, undefined);
  }
  switch (spec.kind) {
    case '2darray':
    case 'array': {
      if (value === null) return [];
      if (!Array.isArray(value)) return problem(ctx, at, `field ${spec.name}: expected array value`, []);
      const inner: FieldSpec = {
        ...spec,
        kind: spec.kind === '2darray' ? 'array' : 'scalar',
        default: undefined,
      };
      return value.map((item, i) => normaliseField(inner, item, child(at, i), ctx));
    }
    case 'map': {
      if (value === null) return {};
      if (!isPlainObject(value))
        return problem(ctx, at, `field ${spec.name}: expected object value, got ${describe(value)}`, {});
      const inner: FieldSpec = { ...spec, kind: 'scalar', default: undefined };
      const out: PlainObject = {};
      for (const [key, item] of Object.entries(value))
        out[key] = normaliseField(inner, item, child(at, key), ctx);
      return out;
    }
    default:
      return normaliseScalar(spec, value, at, ctx);
  }
}

function normaliseScalar(spec: FieldSpec, value: unknown, at: ValueLocation, ctx: NormaliseContext): unknown {
  if (isConfigKind(spec.type)) {
    if (value === null) {
      if (spec.default !== undefined) return normaliseField(spec, clone(spec.default), at, ctx);
      if (spec.optional) return undefined;
      fail(ctx, at, `field ${spec.name} is required`);
    }
    return normaliseComponent(spec.type, value, at, ctx);
  }
  if (spec.children) {
    if (value === null) value = {};
    if (!isPlainObject(value))
      return problem(ctx, at, `field ${spec.name}: expected object value, got ${describe(value)}`, {});
    const out: PlainObject = {};
    for (const childSpec of spec.children) {
      const filled = normaliseField(childSpec, value[childSpec.name], child(at, childSpec.name), ctx);
      if (filled !== undefined) out[childSpec.name] = filled;
    }
    return out;
  }
  return coerceLeaf(spec, value, at, ctx);
}

/** Go decodes a null into the zero value of the field's type; numbers and bools read as strings. */
function coerceLeaf(spec: FieldSpec, value: unknown, at: ValueLocation, ctx: NormaliseContext): unknown {
  const wrong = (): unknown =>
    problem(ctx, at, `field ${spec.name}: expected ${spec.type} value, got ${describe(value)}`, value);
  switch (spec.type) {
    case 'string':
      if (value === null) return '';
      if (typeof value === 'string') return value;
      if (typeof value === 'number' || typeof value === 'bigint')
        return ctx.lines?.get(pathKey(at.docPath))?.numberText ?? String(value);
      if (typeof value === 'boolean') return String(value);
      return wrong();
    case 'int':
      if (value === null) return 0;
      if (typeof value === 'bigint') return Number(value);
      if (typeof value === 'number' && Number.isInteger(value)) return value;
      return wrong();
    case 'float':
      if (value === null) return 0;
      if (typeof value === 'number') return value;
      if (typeof value === 'bigint') return Number(value);
      return wrong();
    case 'bool':
      if (value === null) return false;
      if (typeof value === 'boolean') return value;
      return wrong();
    case 'object':
      if (value === null) return {};
      if (!isPlainObject(value)) return wrong();
      return clone(value);
    default:
      return clone(value);
  }
}
