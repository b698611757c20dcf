// What the linter and the normaliser need to know about components: a lookup from kind + name
// to the field declaration. Built from the engine registry plus the service-only kinds.
import type { Registry } from '../engine/registry.js';
import { OBSERVABILITY_COMPONENTS } from './observability_components.js';
import type { ComponentKind, FieldLint, FieldSpec, ServiceComponentKind } from './spec.js';
import { COMPONENT_KINDS } from './spec.js';

/** Every kind a config can nest: the stream kinds plus `metrics` and `tracer`. */
export type ConfigKind = ComponentKind | ServiceComponentKind;

/** The part of a ComponentSpec that config checking reads (a ComponentSpec satisfies it). */
export interface ComponentSchema {
  name: string;
  kind: ConfigKind;
  fields: FieldSpec[];
  root?: FieldSpec;
  /** `deprecated` components are flagged by `lint --deprecated`. */
  status?: string;
  /** Extra checks on the normalised config; each is a lint message (a FieldLint at its field's line). */
  lint?(config: unknown): (string | FieldLint)[];
}

export interface SchemaProvider {
  get(kind: ConfigKind, name: string): ComponentSchema | undefined;
}

export function isConfigKind(type: string): type is ConfigKind {
  return (COMPONENT_KINDS as readonly string[]).includes(type) || type === 'metrics' || type === 'tracer';
}

/** Looks components up in the registry, and metrics/tracer types in nekton's own list. */
export function schemaProvider(
  registry: Registry,
  extra: readonly ComponentSchema[] = OBSERVABILITY_COMPONENTS,
) {
  const others = new Map(extra.map((schema) => [`${schema.kind}/${schema.name}`, schema]));
  return {
    get(kind: ConfigKind, name: string): ComponentSchema | undefined {
      if (kind === 'metrics' || kind === 'tracer') return others.get(`${kind}/${name}`);
      return registry.get(kind, name) ?? others.get(`${kind}/${name}`);
    },
  } satisfies SchemaProvider;
}

/** The description of a component's own settings as one field (the `root` or an object). */
export function configFieldOf(schema: ComponentSchema): FieldSpec {
  return (
    schema.root ?? { name: '', type: 'object', kind: 'scalar', description: '', children: schema.fields }
  );
}
