// The `otlp_http` output: each batch is sent as OTLP/HTTP export requests (one per signal present).
import type { ConfigOf } from '../../config/spec.js';
import { defineComponent } from '../../config/spec.js';
import type { Output, OutputWriter } from '../../engine/component.js';
import type { Batch } from '../../message/message.js';
import { requestsOf } from '../otlp/batches.js';
import { encodeProtobuf, HTTP_PATHS } from '../otlp/codec.js';
import { otlpHttpOutputFields } from '../otlp/fields.js';

const fields = otlpHttpOutputFields();
type Config = ConfigOf<typeof fields>;

class OtlpHttpWriter implements OutputWriter {
  private readonly base: string;
  constructor(private readonly config: Config) {
    this.base = config.endpoint.replace(/\/+$/, '');
  }

  async connect(): Promise<void> {}

  async write(batch: Batch): Promise<void> {
    const requests = requestsOf(batch);
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(this.config.headers)) headers[k] = v.render(batch, 0);
    const json = this.config.content_type === 'json';
    headers['Content-Type'] = json ? 'application/json' : 'application/x-protobuf';
    const basic = this.config.basic_auth;
    if (basic?.enabled) {
      headers.Authorization = `Basic ${Buffer.from(`${basic.username}:${basic.password}`).toString('base64')}`;
    }
    for (const [signal, request] of requests) {
      const body = json ? JSON.stringify(request) : encodeProtobuf(signal, request);
      const url = `${this.base}${HTTP_PATHS[signal]}`;
      const res = await fetch(url, {
        method: 'POST',
        headers,
        body,
        redirect: this.config.follow_redirects ? 'follow' : 'manual',
        signal: AbortSignal.timeout(this.config.timeout || 30_000),
      });
      const text = await res.text().catch(() => '');
      if (res.status < 200 || res.status > 299) {
        throw new Error(`otlp_http output: ${url} answered ${res.status}: ${text.slice(0, 200)}`);
      }
    }
  }

  async close(): Promise<void> {}
}

export const spec = defineComponent({
  name: 'otlp_http',
  kind: 'output',
  status: 'stable',
  categories: ['Services'],
  summary: 'Sends OpenTelemetry traces, logs and metrics to an OTLP/HTTP endpoint.',
  description:
    'Each batch becomes one export request per signal it holds, POSTed to `endpoint` + `/v1/traces`, `/v1/logs` or `/v1/metrics`. A message is a redpanda.otel.v1 JSON object (what the OTLP inputs emit with `encoding: json`), an OTLP JSON request or an OTLP protobuf request; its signal is its `signal_type` metadata, else read from its OTLP JSON keys. A message that is neither fails the batch, as does any answer but 2xx. Not supported (lint refuses them): `proxy_url`, `oauth`, `oauth2`, `jwt`; client TLS certificates and `tcp` options are accepted but not applied (the platform defaults are used).',
  fields,
  lint: (config) => {
    const problems: string[] = [];
    if (config.proxy_url) problems.push('proxy_url is not supported by nekton');
    if (config.oauth?.enabled) problems.push('oauth is not supported by nekton');
    if (config.oauth2?.enabled) problems.push('oauth2 is not supported by nekton');
    if (config.jwt.enabled) problems.push('jwt is not supported by nekton');
    return problems;
  },
  examples: [
    {
      title: 'Forward telemetry to a collector',
      config: `input:
  otlp_grpc:
    address: 0.0.0.0:4317
output:
  otlp_http:
    endpoint: http://localhost:4318
`,
    },
  ],
  build(config, ctx): Output {
    return ctx.wrapWriter(new OtlpHttpWriter(config), { maxInFlight: config.max_in_flight });
  },
});
