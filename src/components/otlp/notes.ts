// Texts and lint checks the OTLP components share.

export const MESSAGE_SHAPE =
  "Each span, log record and metric becomes its own message (a request arrives as one batch), with the metadata `signal_type` (`trace`, `log` or `metric`) and `encoding`. With `encoding: json` a message is the reference's `redpanda.otel.v1` object in protojson form (proto field names, enum numbers, ids and other bytes as base64, 64-bit integers as strings): the item's own fields beside `resource`, `resource_schema_url`, `scope` and `scope_schema_url`. With `encoding: protobuf` nekton differs from the reference: the message is a one-item OTLP protobuf export request (keeping resource and scope), not the `redpanda.otel.v1` protobuf. The OTLP outputs take either back.";

/** `schema_registry` is for the reference's redpanda.otel.v1 encoding, which nekton does not emit. */
export function schemaRegistryProblems(schemaRegistry: { url?: string | undefined } | undefined): string[] {
  return !schemaRegistry?.url
    ? []
    : [
        'schema_registry is not supported: nekton emits OTLP JSON or protobuf, not the redpanda.otel.v1 schema',
      ];
}
