// The `otlp_grpc` output: each batch is sent as OTLP/gRPC Export calls (one per signal present).
import { readFile } from 'node:fs/promises';
import type * as Grpc from '@grpc/grpc-js';
import type { ConfigOf } from '../../config/spec.js';
import { defineComponent } from '../../config/spec.js';
import type { Output, OutputWriter } from '../../engine/component.js';
import type { Batch } from '../../message/message.js';
import { requestsOf } from '../otlp/batches.js';
import { encodeProtobuf, GRPC_PATHS } from '../otlp/codec.js';
import { otlpGrpcOutputFields } from '../otlp/fields.js';
import { grpcNow } from '../otlp/grpc_module.js';

const fields = otlpGrpcOutputFields();
type Config = ConfigOf<typeof fields>;

const raw = (b: Buffer) => b;
const GZIP = 2; // grpc.compressionAlgorithms.gzip

class OtlpGrpcWriter implements OutputWriter {
  private client: Grpc.Client | null = null;
  constructor(private readonly config: Config) {}

  async connect(): Promise<void> {
    if (this.client) return;
    const tls = this.config.tls;
    const target = this.config.endpoint.replace(/^[a-z]+:\/\//i, '').replace(/\/+$/, '');
    let credentials = grpcNow().credentials.createInsecure();
    if (tls?.enabled || /^https:/i.test(this.config.endpoint)) {
      const cert = tls?.cert_file ? await readFile(tls.cert_file) : null;
      const key = tls?.key_file ? await readFile(tls.key_file) : null;
      credentials = grpcNow().credentials.createSsl(null, key, cert, {
        ...(tls?.skip_cert_verify ? { checkServerIdentity: () => undefined, rejectUnauthorized: false } : {}),
      });
    }
    this.client = new (grpcNow().Client)(target, credentials, {
      ...(this.config.compression === 'gzip' ? { 'grpc.default_compression_algorithm': GZIP } : {}),
    });
  }

  async write(batch: Batch): Promise<void> {
    const client = this.client;
    if (!client) throw new Error('otlp_grpc output: not connected');
    const requests = requestsOf(batch);
    const metadata = new (grpcNow().Metadata)();
    for (const [k, v] of Object.entries(this.config.headers))
      metadata.set(k.toLowerCase(), v.render(batch, 0));
    for (const [signal, request] of requests) {
      const body = Buffer.from(encodeProtobuf(signal, request));
      await new Promise<void>((resolve, reject) => {
        client.makeUnaryRequest(
          GRPC_PATHS[signal],
          raw,
          raw,
          body,
          metadata,
          { deadline: Date.now() + (this.config.timeout || 30_000) },
          (err) =>
            err ? reject(new Error(`otlp_grpc output: ${signal} export failed: ${err.message}`)) : resolve(),
        );
      });
    }
  }

  async close(): Promise<void> {
    this.client?.close();
    this.client = null;
  }
}

export const spec = defineComponent({
  name: 'otlp_grpc',
  kind: 'output',
  status: 'stable',
  categories: ['Services'],
  summary: 'Sends OpenTelemetry traces, logs and metrics to an OTLP/gRPC endpoint.',
  description:
    'Each batch becomes one `Export` call per signal it holds (TraceService, LogsService, MetricsService). A message is a redpanda.otel.v1 JSON object (what the OTLP inputs emit with `encoding: json`), an OTLP JSON request or an OTLP protobuf request; its signal is its `signal_type` metadata, else read from its OTLP JSON keys. A message that is neither fails the batch, as does any status but OK. `oauth2` is not supported (lint refuses it); `tcp` options are accepted but not applied.',
  fields,
  lint: (config) => (config.oauth2?.enabled ? ['oauth2 is not supported by nekton'] : []),
  examples: [
    {
      title: 'Forward telemetry to a collector over gRPC',
      config: `input:
  otlp_http:
    address: 0.0.0.0:4318
output:
  otlp_grpc:
    endpoint: localhost:4317
`,
    },
  ],
  build(config, ctx): Output {
    return ctx.wrapWriter(new OtlpGrpcWriter(config), { maxInFlight: config.max_in_flight });
  },
});
