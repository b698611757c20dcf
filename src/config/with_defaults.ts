// A config as written, with every field the specs give a default filled in, in spec order:
// what `nekton echo` prints and `nekton create` starts from. Components keep the reference's
// `{<type>: {...}, label, processors}` form (a `type` key is dropped); keys the specs do not know
// are kept after the known ones, so nothing the user wrote disappears.
import { inferComponentType } from './infer_type.js';
import { type ConfigKind, configFieldOf, isConfigKind, type SchemaProvider } from './schema.js';
import type { FieldSpec } from './spec.js';
import { canLabel } from './wrapper_fields.js';

type PlainObject = Record<string, unknown>;
const isObject = (v: unknown): v is PlainObject => typeof v === 'object' && v !== null && !Array.isArray(v);

export interface DefaultsOptions {
  provider: SchemaProvider;
  /** Fields left out when the value does not hold them (`create --small` drops advanced ones). */
  omit?: (spec: FieldSpec) => boolean;
  /** A required field without a default gets its first example (`create`), or is left out. */
  examples?: boolean;
  /** Every component gets a `label` key (empty when it has none), as the reference's `create` prints. */
  labels?: boolean;
}

/** The fields of one object (the service config's top level, or a component's settings). */
export function withDefaults(
  fields: readonly FieldSpec[],
  value: PlainObject,
  options: DefaultsOptions,
): PlainObject {
  const out: PlainObject = {};
  const known = new Set<string>();
  for (const spec of fields) {
    known.add(spec.name);
    if (Object.hasOwn(value, spec.name)) {
      out[spec.name] = fillField(spec, value[spec.name], options);
      continue;
    }
    if (spec.deprecated || options.omit?.(spec)) continue;
    const missing = valueWhenMissing(spec, options);
    if (missing !== undefined) out[spec.name] = fillField(spec, missing, options);
  }
  for (const [key, item] of Object.entries(value)) if (!known.has(key)) out[key] = item;
  return out;
}

/** One component written as `{<type>: {...}}` (or with `type:`), its settings completed. */
export function componentWithDefaults(kind: ConfigKind, value: unknown, options: DefaultsOptions): unknown {
  if (!isObject(value)) return value;
  const explicit = typeof value.type === 'string' ? value.type : undefined;
  const inferred = inferComponentType(options.provider, kind, Object.keys(value), explicit);
  const schema = inferred.ok ? options.provider.get(kind, inferred.name) : undefined;
  if (!inferred.ok || !schema) return value;
  const out: PlainObject = {};
  const labelled = options.labels && canLabel(kind);
  if (labelled || Object.hasOwn(value, 'label')) out.label = value.label ?? '';
  const settingsKey =
    value[inferred.name] === undefined && value.plugin !== undefined ? 'plugin' : inferred.name;
  const settingsSpec = configFieldOf(schema);
  const settings = value[settingsKey] ?? valueWhenMissing(settingsSpec, options) ?? null;
  out[settingsKey] = fillField(settingsSpec, settings, options);
  for (const [key, item] of Object.entries(value)) {
    if (key === 'type' || key === 'label' || key === settingsKey) continue;
    out[key] =
      key === 'processors' && Array.isArray(item)
        ? item.map((p) => componentWithDefaults('processor', p, options))
        : item;
  }
  return out;
}

function fillField(spec: FieldSpec, value: unknown, options: DefaultsOptions): unknown {
  if (spec.kind === 'array' || spec.kind === '2darray') {
    if (!Array.isArray(value)) return value;
    const inner: FieldSpec = { ...spec, kind: spec.kind === '2darray' ? 'array' : 'scalar' };
    return value.map((item) => fillField(inner, item, options));
  }
  if (spec.kind === 'map') {
    if (!isObject(value)) return value;
    const inner: FieldSpec = { ...spec, kind: 'scalar' };
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fillField(inner, v, options)]));
  }
  if (isConfigKind(spec.type)) return componentWithDefaults(spec.type, value, options);
  if (spec.children && (isObject(value) || value === null))
    return withDefaults(spec.children, value ?? {}, options);
  return value;
}

/** What a field the value lacks becomes: its default, an object of its children's defaults, or nothing. */
function valueWhenMissing(spec: FieldSpec, options: DefaultsOptions): unknown {
  if (spec.default !== undefined) return structuredClone(spec.default);
  if (spec.optional) return undefined;
  if (spec.kind === 'array' || spec.kind === '2darray') return [];
  if (spec.kind === 'map') return {};
  if (spec.children) return {};
  if (options.examples && spec.examples && spec.examples.length > 0) return structuredClone(spec.examples[0]);
  return undefined;
}
