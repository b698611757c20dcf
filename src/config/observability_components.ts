// The metrics exporters and tracers a service config may name, with their fields: the reference's
// (extracted into reference/observability.json), described in nekton's words.
import { fieldsFromReference, REFERENCE, type ReferenceComponent } from './reference_fields.js';
import type { ComponentSchema } from './schema.js';

function schemasOf(
  kind: 'metrics' | 'tracer',
  byName: Record<string, ReferenceComponent>,
): ComponentSchema[] {
  return Object.entries(byName).map(([name, component]) => ({
    name,
    kind,
    fields: fieldsFromReference(component.fields, `${kind}.${name}.`),
  }));
}

export const OBSERVABILITY_COMPONENTS: ComponentSchema[] = [
  ...schemasOf('metrics', REFERENCE.metrics),
  ...schemasOf('tracer', REFERENCE.tracer),
];
