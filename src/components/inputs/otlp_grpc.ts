// The `otlp_grpc` input: an OTLP/gRPC receiver (the Trace, Logs and Metrics services); each call
// becomes one batch with a message per span, log record or metric.
import { defineComponent } from '../../config/spec.js';
import type { Input } from '../../engine/component.js';
import { otlpGrpcInputFields } from '../otlp/fields.js';
import { OtlpGrpcReader } from '../otlp/grpc_reader.js';
import { MESSAGE_SHAPE, schemaRegistryProblems } from '../otlp/notes.js';

export { OtlpGrpcReader } from '../otlp/grpc_reader.js';

export const spec = defineComponent({
  name: 'otlp_grpc',
  kind: 'input',
  status: 'stable',
  categories: ['Network', 'Services'],
  summary: 'Receives OpenTelemetry traces, logs and metrics over OTLP/gRPC.',
  description: `Serves the OTLP \`TraceService\`, \`LogsService\` and \`MetricsService\` \`Export\` calls. ${MESSAGE_SHAPE} A call succeeds once its messages are delivered; it fails UNAVAILABLE when delivery failed (OTLP clients retry it), INVALID_ARGUMENT for a malformed request, RESOURCE_EXHAUSTED past \`max_recv_msg_size\` or when \`rate_limit\` refuses, UNAUTHENTICATED without the \`auth_token\`.`,
  fields: otlpGrpcInputFields,
  lint: (config) => schemaRegistryProblems(config.schema_registry),
  examples: [
    {
      title: 'Logs from an OpenTelemetry SDK over gRPC',
      config: `input:
  otlp_grpc:
    address: 0.0.0.0:4317
output:
  stdout: {}
`,
    },
  ],
  build(config, ctx): Input {
    return ctx.wrapReader(new OtlpGrpcReader(config, ctx));
  },
});
