// Picks fields out of an existing spec by name, so components that share the kafka_franz field
// set (redpanda...) declare only what differs and never drift from it.
import type { ComponentSpec, FieldSpec } from '../../config/spec.js';

export function fieldsNamed(
  spec: Pick<ComponentSpec<never, never>, 'kind' | 'name' | 'fields'>,
  names: readonly string[],
): FieldSpec[] {
  return names.map((name) => {
    const found = spec.fields.find((f) => f.name === name);
    if (!found) throw new Error(`${spec.kind} ${spec.name} has no field ${name}`);
    return found;
  });
}

/** The kafka connection fields with `seed_brokers` optional, as the redpanda components declare them. */
export function withOptionalSeedBrokers(fields: FieldSpec[]): FieldSpec[] {
  return fields.map((f) => (f.name === 'seed_brokers' ? { ...f, optional: true } : f));
}
