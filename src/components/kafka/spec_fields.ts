// Picks fields out of an existing field list by name, so components that share the kafka_franz
// field set (redpanda...) declare only what differs and never drift from it. Types are kept, so
// the picking component's config is still inferred from its fields.
import type { AnyField } from '../../config/spec.js';

export function fieldsNamed<F extends AnyField, const N extends F['name']>(
  fields: readonly F[],
  names: readonly N[],
): Extract<F, { name: N }>[] {
  return names.map((name) => {
    const found = fields.find((f) => f.name === name);
    if (!found) throw new Error(`no field ${name} to pick`);
    return found as Extract<F, { name: N }>;
  });
}

/** The kafka connection fields with `seed_brokers` optional, as the redpanda components declare them. */
export function withOptionalSeedBrokers<F extends AnyField>(fields: readonly F[]): F[] {
  return fields.map((f) => (f.name === 'seed_brokers' ? { ...f, optional: true } : f));
}

/**
 * The producer settings the redpanda output declares and the top-level `redpanda` section shares
 * with redpanda_common (picked from kafka_franz's output fields, in the reference's order).
 */
export const PRODUCER_SETTINGS = [
  'partitioner',
  'idempotent_write',
  'acks',
  'compression',
  'allow_auto_topic_creation',
  'timeout',
  'max_message_bytes',
  'broker_write_max_bytes',
  'max_buffered_records',
  'max_buffered_bytes',
  'max_in_flight_requests',
  'record_retries',
  'record_delivery_timeout',
] as const;
