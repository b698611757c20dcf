// Texts and lint checks the OTLP components share.

export const MESSAGE_SHAPE =
  "Each span, log record and metric becomes its own message (a request of one arrives as one batch), with the metadata `signal_type` (`trace`, `log` or `metric`). Unlike the reference, which emits its `redpanda.otel.v1` protobuf shape, the content is a one-item OTLP export request that keeps the item's resource and scope: OTLP JSON (`encoding: json`, ids as hex, 64-bit integers as strings) or OTLP protobuf (`encoding: protobuf`). The OTLP outputs take these messages (or any OTLP JSON/protobuf request) back.";

/** `schema_registry` is for the reference's redpanda.otel.v1 encoding, which nekton does not emit. */
export function schemaRegistryProblems(schemaRegistry: { url?: string | undefined } | undefined): string[] {
  return !schemaRegistry?.url
    ? []
    : [
        'schema_registry is not supported: nekton emits OTLP JSON or protobuf, not the redpanda.otel.v1 schema',
      ];
}
