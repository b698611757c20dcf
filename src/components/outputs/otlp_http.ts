// The `otlp_http` output: each batch is sent as OTLP/HTTP export requests (one per signal present).
import type { ConfigOf } from '../../config/spec.js';
import { defineComponent } from '../../config/spec.js';
import type { Output, OutputWriter } from '../../engine/component.js';
import type { Batch } from '../../message/message.js';
import { requestsOf } from '../otlp/batches.js';
import { encodeProtobuf, HTTP_PATHS } from '../otlp/codec.js';
import { otlpHttpOutputFields } from '../otlp/fields.js';
import { OtlpPoster } from '../otlp/http_post.js';

const fields = otlpHttpOutputFields();
type Config = ConfigOf<typeof fields>;

class OtlpHttpWriter implements OutputWriter {
  private readonly base: string;
  private poster: OtlpPoster | null = null;
  constructor(private readonly config: Config) {
    this.base = config.endpoint.replace(/\/+$/, '');
  }

  async connect(): Promise<void> {
    this.poster ??= await OtlpPoster.create(this.config.tls, this.config.follow_redirects);
  }

  async write(batch: Batch): Promise<void> {
    const poster = this.poster;
    if (!poster) throw new Error('otlp_http output: not connected');
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
      const body = json ? Buffer.from(JSON.stringify(request)) : encodeProtobuf(signal, request);
      const url = `${this.base}${HTTP_PATHS[signal]}`;
      const res = await poster.post(url, headers, body, this.config.timeout || 30_000);
      if (res.status < 200 || res.status > 299) {
        throw new Error(`otlp_http output: ${url} answered ${res.status}: ${res.body.slice(0, 200)}`);
      }
    }
  }

  async close(): Promise<void> {
    this.poster?.close();
    this.poster = null;
  }
}

export const spec = defineComponent({
  name: 'otlp_http',
  kind: 'output',
  status: 'stable',
  categories: ['Services'],
  summary: 'Sends OpenTelemetry traces, logs and metrics to an OTLP/HTTP endpoint.',
  description:
    'Each batch becomes one export request per signal it holds, POSTed to `endpoint` + `/v1/traces`, `/v1/logs` or `/v1/metrics`. A message is a redpanda.otel.v1 JSON object (what the OTLP inputs emit with `encoding: json`), an OTLP JSON request or an OTLP protobuf request; its signal is its `signal_type` metadata, else read from its OTLP JSON keys. A message that is neither fails the batch, as does any answer but 2xx. Not supported (lint refuses them): `proxy_url`, `oauth`, `oauth2`, `jwt`; `tcp` options are accepted but not applied; `disable_http2` changes nothing (nekton speaks HTTP/1.1).',
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
