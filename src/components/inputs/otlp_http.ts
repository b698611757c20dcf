// The `otlp_http` input: an OTLP/HTTP receiver (/v1/traces, /v1/logs, /v1/metrics, protobuf or
// JSON bodies); each request becomes one batch with a message per span, log record or metric.
import { defineComponent } from '../../config/spec.js';
import type { Input } from '../../engine/component.js';
import { otlpHttpInputFields } from '../otlp/fields.js';
import { OtlpHttpReader } from '../otlp/http_reader.js';
import { MESSAGE_SHAPE, schemaRegistryProblems } from '../otlp/notes.js';

export { OtlpHttpReader } from '../otlp/http_reader.js';

export const spec = defineComponent({
  name: 'otlp_http',
  kind: 'input',
  status: 'stable',
  categories: ['Network', 'Services'],
  summary: 'Receives OpenTelemetry traces, logs and metrics over OTLP/HTTP (protobuf or JSON).',
  description: `Serves \`/v1/traces\`, \`/v1/logs\` and \`/v1/metrics\` (POST, \`application/x-protobuf\` or \`application/json\`, optionally gzip). ${MESSAGE_SHAPE} A request is answered 200 once its messages are delivered, 503 when delivery failed or took longer than \`write_timeout\` (OTLP clients retry a 503), 400 for a malformed body, 413 past \`max_body_size\`, 415 for another content type, 401 without the \`auth_token\`, 429 when \`rate_limit\` refuses.`,
  fields: otlpHttpInputFields,
  lint: (config) => schemaRegistryProblems(config.schema_registry),
  examples: [
    {
      title: 'Spans from an OpenTelemetry SDK, one JSON message each',
      config: `input:
  otlp_http:
    address: 0.0.0.0:4318
pipeline:
  processors:
    - mapping: 'root = {"span": this.name, "service": this.resource.attributes.index(0).value.string_value}'
output:
  stdout: {}
`,
    },
  ],
  build(config, ctx): Input {
    return ctx.wrapReader(new OtlpHttpReader(config, ctx));
  },
});
