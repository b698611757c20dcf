// The metrics exporters and tracers a service config may name, with their fields: the reference's
// (extracted into reference/observability.json), described in nekton's words, and linted for what
// nekton runs (observability_support.ts).
import { DURATION_FIELDS, observabilityLint } from './observability_support.js';
import { fieldsFromReference, REFERENCE, type ReferenceComponent } from './reference_fields.js';
import type { ComponentSchema } from './schema.js';
import { applyOverrides } from './service_overrides.js';

function schemasOf(
  kind: 'metrics' | 'tracer',
  byName: Record<string, ReferenceComponent>,
): ComponentSchema[] {
  return Object.entries(byName).map(([name, component]) => {
    const durations = DURATION_FIELDS.filter((path) => path.startsWith(`${kind}.${name}.`)).map((path) => ({
      path: path.slice(kind.length + name.length + 2),
      set: { check: 'duration' as const },
    }));
    const fields = fieldsFromReference(applyOverrides(component.fields, durations), `${kind}.${name}.`);
    return { name, kind, fields, lint: observabilityLint(kind, name, fields) };
  });
}

export const OBSERVABILITY_COMPONENTS: ComponentSchema[] = [
  ...schemasOf('metrics', REFERENCE.metrics),
  ...schemasOf('tracer', REFERENCE.tracer),
];
