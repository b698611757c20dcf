// The `http_client` output: sends each message (or each batch, as multipart) as an HTTP request.
import { type ConfigOf, defineComponent, field } from '../../config/spec.js';
import { partialError } from '../../engine/batch_error.js';
import type { Output, OutputWriter } from '../../engine/component.js';
import type { BuildContext } from '../../engine/context.js';
import { asError } from '../../engine/errors.js';
import { type Batch, Message } from '../../message/message.js';
import { batchingField } from '../fields/batching.js';
import { httpClientFields } from '../fields/http_client.js';
import { authLint } from '../http/auth/lint.js';
import { encodeMultipart, type MultipartPart } from '../http/multipart.js';
import { type HttpRequester, type HttpResponse, HttpRequester as Requester } from '../http/requester.js';
import { responseStoreOf } from '../sync_response_store.js';

const a = { advanced: true };

const fields = [
  ...httpClientFields('POST'),
  field.bool(
    'batch_as_multipart',
    'Send a batch as one multipart/mixed request instead of a request per message.',
    {
      default: false,
      ...a,
    },
  ),
  field.bool(
    'propagate_response',
    'Return the response body to the input as a sync response (e.g. http_server).',
    {
      default: false,
      ...a,
    },
  ),
  field.int('max_in_flight', 'The most requests (batches) in flight at once.', { default: 64 }),
  batchingField(),
  field.array(
    field.object(
      'multipart',
      'Build each request as multipart/form-data from these parts instead of the message body.',
      [
        field.interpolated('content_type', 'The part content type.', {
          default: '',
          ...a,
          examples: ['application/json'],
        }),
        field.interpolated('content_disposition', 'The part content disposition.', {
          default: '',
          ...a,
          // biome-ignore lint/suspicious/noTemplateCurlyInString: Bloblang interpolation, not a JS template
          examples: ['form-data; name="bin"; filename=\'${! @AttachmentName }\''],
        }),
        field.interpolated('body', 'The part body.', {
          default: '',
          ...a,
          // biome-ignore lint/suspicious/noTemplateCurlyInString: Bloblang interpolation, not a JS template
          examples: ['${! this.data.part1 }'],
        }),
      ],
      { default: [], ...a },
    ),
  ),
] as const;

export type HttpClientOutputConfig = ConfigOf<typeof fields>;

export class HttpClientWriter implements OutputWriter {
  constructor(
    private readonly requester: HttpRequester,
    private readonly config: HttpClientOutputConfig,
  ) {}

  async connect(): Promise<void> {}

  async write(batch: Batch): Promise<void> {
    if (this.config.multipart.length > 0) {
      const parts: MultipartPart[] = this.config.multipart.map((p) => {
        const headers: Record<string, string> = {};
        const type = p.content_type.render(batch, 0);
        const disposition = p.content_disposition.render(batch, 0);
        if (type) headers['Content-Type'] = type;
        if (disposition) headers['Content-Disposition'] = disposition;
        return { headers, body: Buffer.from(p.body.render(batch, 0)) };
      });
      const { body, contentType } = encodeMultipart(parts, 'form-data');
      this.propagate(batch, 0, await this.requester.send(batch, 0, body, contentType));
      return;
    }
    if (batch.length === 1) {
      this.propagate(batch, 0, await this.requester.send(batch, 0, (batch[0] as Message).bytes()));
      return;
    }
    if (this.config.batch_as_multipart) {
      const { body, contentType } = encodeMultipart(
        batch.map((m) => ({ headers: { 'Content-Type': 'application/octet-stream' }, body: m.bytes() })),
      );
      this.propagate(batch, 0, await this.requester.send(batch, 0, body, contentType));
      return;
    }
    // Individual requests in parallel. The failed ones are named (a BatchError): only they are
    // retried or nacked, the messages whose request succeeded are not sent again.
    const results = await Promise.allSettled(batch.map((m, i) => this.requester.send(batch, i, m.bytes())));
    const failed: number[] = [];
    let reason: unknown;
    for (let i = 0; i < results.length; i++) {
      const result = results[i]!;
      if (result.status === 'fulfilled') this.propagate(batch, i, result.value);
      else {
        failed.push(i);
        reason ??= result.reason;
      }
    }
    if (failed.length > 0) throw partialError(batch, failed, asError(reason));
  }

  async close(): Promise<void> {
    this.requester.close();
  }

  /** With propagate_response, the response answers the request that produced the message (sync response). */
  private propagate(batch: Batch, index: number, res: HttpResponse | null): void {
    if (!this.config.propagate_response || !res) return;
    const store = responseStoreOf(batch[index] as Message);
    if (!store) return;
    const msg = new Message(res.body);
    msg.setMeta('http_status_code', res.status);
    const extractHeader = this.config.extract_headers;
    if (extractHeader) {
      for (const [k, v] of Object.entries(res.headers)) {
        if (v !== undefined && extractHeader(k)) msg.setMeta(k, Array.isArray(v) ? v[0] : v);
      }
    }
    store.add([msg]);
  }
}

export const spec = defineComponent({
  name: 'http_client',
  kind: 'output',
  status: 'stable',
  categories: ['Network'],
  summary: 'Sends messages to an HTTP server, one request per message or per batch.',
  description:
    'A request succeeds on a 2xx status or one listed in `successful_on`. Statuses in `drop_on` drop the message without retrying; `backoff_on` statuses are retried with an exponential backoff, other failures after `retry_period`, up to `retries` times. Batches are sent as parallel requests, or as one multipart request with `batch_as_multipart`. Authentication: `basic_auth`, `oauth` (OAuth 1.0a HMAC-SHA1 signing), `oauth2` (client credentials; the token is reused until it expires) and `jwt` (RS256/RS384/RS512/EdDSA); `proxy_url` sends requests through an HTTP proxy (CONNECT for https).',
  fields,
  examples: [
    {
      title: 'POST each message, retrying rate-limited requests',
      config: `input:
  stdin: {}
output:
  http_client:
    url: http://localhost:8080/ingest
    verb: POST
    headers:
      Content-Type: application/json
    retries: 5
    backoff_on: [ 429, 503 ]
    drop_on: [ 400 ]
    max_in_flight: 16
`,
    },
  ],
  lint: (config) => authLint(config),
  async build(config, ctx: BuildContext): Promise<Output> {
    const requester = await Requester.create(config, ctx, config.max_in_flight);
    return ctx.wrapWriter(new HttpClientWriter(requester, config), {
      maxInFlight: config.max_in_flight,
      batching: config.batching,
    });
  },
});
