// Turns the reference's field facts (src/config/reference/observability.json, extracted by
// scripts/extract-reference-fields.mjs) into FieldSpecs, with nekton's own descriptions
// (src/config/reference/descriptions.json) looked up by field path.
import descriptions from './reference/descriptions.json' with { type: 'json' };
import reference from './reference/observability.json' with { type: 'json' };
import type { FieldKind, FieldSpec, FieldType } from './spec.js';

/** A field as the extracted data holds it: a FieldSpec without a description. */
export interface ReferenceField {
  name: string;
  type: string;
  kind: string;
  default?: unknown;
  options?: string[];
  children?: ReferenceField[];
  optional?: boolean;
  advanced?: boolean;
  deprecated?: boolean;
  secret?: boolean;
  interpolated?: boolean;
  bloblang?: boolean;
  /** nekton's own: checked by lint beyond its type (set by an override, never by the data). */
  check?: 'duration';
}

export interface ReferenceComponent {
  status: string;
  fields: ReferenceField[];
}

interface ReferenceData {
  metrics: Record<string, ReferenceComponent>;
  tracer: Record<string, ReferenceComponent>;
  service: ReferenceField[];
}

export const REFERENCE = reference as unknown as ReferenceData;

const DESCRIPTIONS: Record<string, string> = descriptions;

/**
 * The key of descriptions.json that describes the field at `path` (`tracer.redpanda.tls.enabled`):
 * the exact path, else the longest `*.suffix` key, so shared blocks (tls, tcp, credentials) are
 * described once.
 */
export function descriptionKeyOf(path: string): string | undefined {
  if (Object.hasOwn(DESCRIPTIONS, path)) return path;
  const parts = path.split('.');
  for (let start = 1; start < parts.length; start++) {
    const shared = `*.${parts.slice(start).join('.')}`;
    if (Object.hasOwn(DESCRIPTIONS, shared)) return shared;
  }
  return undefined;
}

/** nekton's description of the field at `path`; empty when none is written (a test forbids that). */
export function describe(path: string): string {
  const key = descriptionKeyOf(path);
  return key === undefined ? '' : DESCRIPTIONS[key];
}

/** Every key of descriptions.json, for the test that none is stale. */
export const DESCRIPTION_KEYS: readonly string[] = Object.keys(DESCRIPTIONS).filter(
  (k) => !k.startsWith('_'),
);

const FLAGS = ['optional', 'advanced', 'deprecated', 'secret', 'interpolated', 'bloblang'] as const;

/** The FieldSpec of a reference field whose path is `prefix` + its name. */
export function fieldFromReference(field: ReferenceField, prefix: string): FieldSpec {
  const path = prefix + field.name;
  const spec: FieldSpec = {
    name: field.name,
    type: field.type as FieldType,
    kind: field.kind as FieldKind,
    description: describe(path),
  };
  if ('default' in field) spec.default = field.default;
  if (field.options) spec.options = [...field.options];
  for (const flag of FLAGS) if (field[flag]) spec[flag] = true;
  if (field.check) spec.check = field.check;
  if (field.children) spec.children = fieldsFromReference(field.children, `${path}.`);
  return spec;
}

export function fieldsFromReference(fields: readonly ReferenceField[], prefix = ''): FieldSpec[] {
  return fields.map((field) => fieldFromReference(field, prefix));
}
