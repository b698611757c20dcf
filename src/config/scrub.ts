// The one config scrubber for every read path (API stream and resource reads, debug dumps):
// secret fields read `!!!SECRET_SCRUBBED!!!`, and credentials embedded in any other value (URL
// and DSN passwords, header values) are hidden the same way. Empty values and pure `${ENV}`
// references are left as they are: they name a secret without holding it.
import { inferComponentType } from './infer_type.js';
import { type ConfigKind, configFieldOf, isConfigKind, type SchemaProvider } from './schema.js';
import { SCRUBBED, scrubEmbeddedSecrets, scrubSecretValue } from './secret_text.js';
import { SERVICE_FIELDS, streamFields } from './service_spec.js';
import type { FieldSpec } from './spec.js';
import { wrapperFields } from './wrapper_fields.js';

export { SCRUBBED, scrubSecretText } from './secret_text.js';

type PlainObject = Record<string, unknown>;
const isObject = (v: unknown): v is PlainObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The scrubbed form of one secret scalar. */
export function scrubValue(value: unknown): unknown {
  if (value === null || value === undefined) return '';
  return typeof value === 'string' ? scrubSecretValue(value) : SCRUBBED;
}

export function scrubField(spec: FieldSpec, value: unknown, provider: SchemaProvider): unknown {
  if (spec.kind === 'array' || spec.kind === '2darray') {
    if (!Array.isArray(value)) return value;
    const inner: FieldSpec = { ...spec, kind: spec.kind === '2darray' ? 'array' : 'scalar' };
    return value.map((item) => scrubField(inner, item, provider));
  }
  if (spec.kind === 'map') {
    if (!isObject(value)) return value;
    const inner: FieldSpec = { ...spec, kind: 'scalar' };
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, scrubField(inner, v, provider)]));
  }
  if (isConfigKind(spec.type)) return scrubComponentFields(spec.type, value, provider);
  if (spec.children) return isObject(value) ? scrubFields(spec.children, value, provider) : value;
  return spec.secret ? scrubValue(value) : value;
}

export function scrubFields(
  fields: readonly FieldSpec[],
  value: PlainObject,
  provider: SchemaProvider,
): PlainObject {
  const byName = new Map(fields.map((f) => [f.name, f]));
  const out: PlainObject = {};
  for (const [key, item] of Object.entries(value)) {
    const spec = byName.get(key);
    out[key] = spec ? scrubField(spec, item, provider) : item;
  }
  return out;
}

/** A component as written (`{memory: {...}, label: x}`), secret fields and embedded credentials hidden. */
export function scrubComponent(kind: ConfigKind, value: unknown, provider: SchemaProvider): unknown {
  return scrubEmbeddedSecrets(scrubComponentFields(kind, value, provider));
}

/** Secret fields only; unknown types pass through unchanged. */
function scrubComponentFields(kind: ConfigKind, value: unknown, provider: SchemaProvider): unknown {
  if (!isObject(value)) return value;
  const explicit = typeof value.type === 'string' ? value.type : undefined;
  const inferred = inferComponentType(provider, kind, Object.keys(value), explicit);
  if (!inferred.ok) return value;
  const schema = provider.get(kind, inferred.name);
  if (!schema) return value;
  const out: PlainObject = { ...value };
  const configField = configFieldOf(schema);
  for (const key of [inferred.name, 'plugin']) {
    if (key in value) out[key] = scrubField(configField, value[key], provider);
  }
  const reserved = wrapperFields(kind);
  for (const key of Object.keys(value)) {
    const spec = reserved.get(key);
    if (spec && key !== 'plugin') out[key] = scrubField(spec, value[key], provider);
  }
  return out;
}

/** A stream config as written. */
export function scrubStreamConfig(value: unknown, provider: SchemaProvider): unknown {
  return scrubEmbeddedSecrets(isObject(value) ? scrubFields(streamFields(), value, provider) : value);
}

/** A whole service config as written. */
export function scrubServiceConfig(value: unknown, provider: SchemaProvider): unknown {
  return scrubEmbeddedSecrets(isObject(value) ? scrubFields(SERVICE_FIELDS, value, provider) : value);
}
