// `http`: sends each message (or each batch, as multipart) as an HTTP request and replaces the
// content with the response body. A failed request flags the message and keeps its content.
import { type ConfigOf, defineComponent, field } from '../../config/spec.js';
import type { Processor } from '../../engine/component.js';
import type { BuildContext } from '../../engine/context.js';
import { flagged, processorErrorLog, requireResource } from '../../engine/processor_helpers.js';
import type { Batch, Message } from '../../message/message.js';
import { httpClientFields } from '../fields/http_client.js';
import { authLint } from '../http/auth/lint.js';
import { encodeMultipart } from '../http/multipart.js';
import { HttpRequestError, HttpRequester, type HttpResponse } from '../http/requester.js';
import { extractHeaderMeta, responseBodies } from '../http/response_messages.js';

const fields = [
  ...httpClientFields('POST'),
  field.bool('batch_as_multipart', 'Send message batches as a single multipart/mixed request (RFC 1341).', {
    default: false,
    advanced: true,
  }),
  field.bool(
    'parallel',
    'When processing batched messages, send the messages of the batch in parallel rather than one after another.',
    { default: false },
  ),
] as const;

export type HttpProcessorConfig = ConfigOf<typeof fields>;

export class HttpProcessor implements Processor {
  private readonly logError: (err: Error) => void;

  constructor(
    private readonly requester: HttpRequester,
    private readonly config: HttpProcessorConfig,
    ctx: BuildContext,
  ) {
    this.logError = processorErrorLog(ctx.logger);
  }

  async process(batch: Batch): Promise<Batch[]> {
    if (batch.length === 0) return [];
    let out: Message[];
    if (this.config.batch_as_multipart || batch.length === 1) out = await this.sendWhole(batch);
    else if (this.config.parallel) out = await Promise.all(batch.map((_, i) => this.sendOneToOne(batch, i)));
    else {
      out = [];
      for (let i = 0; i < batch.length; i++) out.push(...(await this.sendOne(batch, i)));
    }
    return [out];
  }

  async close(): Promise<void> {
    this.requester.close();
  }

  /** One request for the whole batch; response part i continues message i (extra parts copy the first). */
  private async sendWhole(batch: Batch): Promise<Message[]> {
    try {
      let sent: HttpResponse | null;
      if (batch.length === 1) sent = await this.requester.send(batch, 0, (batch[0] as Message).bytes());
      else {
        const { body, contentType } = encodeMultipart(
          batch.map((m) => ({ headers: { 'Content-Type': 'application/octet-stream' }, body: m.bytes() })),
        );
        sent = await this.requester.send(batch, 0, body, contentType);
      }
      const res = this.received(sent);
      const bodies = responseBodies(res);
      if (bodies.length === 0)
        throw new Error(`HTTP response from '${this.config.url.render(batch, 0)}' was empty`);
      return bodies.map((body, i) => this.answered(batch[i] ?? (batch[0] as Message), res, body));
    } catch (err) {
      return batch.map((msg) => this.failed(msg, err));
    }
  }

  /** A request per message, sent one after another; a multipart response yields a message per part. */
  private async sendOne(batch: Batch, index: number): Promise<Message[]> {
    const msg = batch[index] as Message;
    try {
      const res = this.received(await this.requester.send(batch, index, msg.bytes()));
      return responseBodies(res).map((body) => this.answered(msg, res, body));
    } catch (err) {
      return [this.failed(msg, err)];
    }
  }

  /** A request per message, sent in parallel: each response must be a single part. */
  private async sendOneToOne(batch: Batch, index: number): Promise<Message> {
    const msg = batch[index] as Message;
    try {
      const res = this.received(await this.requester.send(batch, index, msg.bytes()));
      const bodies = responseBodies(res);
      if (bodies.length !== 1) throw new Error(`unexpected response size: ${bodies.length}`);
      return this.answered(msg, res, bodies[0] as Buffer);
    } catch (err) {
      return this.failed(msg, err);
    }
  }

  /** The requester resolves null only for drop_on without dropOnFails, which this never sets. */
  private received(res: HttpResponse | null): HttpResponse {
    if (!res) throw new Error('request dropped');
    return res;
  }

  private answered(msg: Message, res: HttpResponse, body: Buffer): Message {
    const out = msg.copy();
    out.setBytes(body);
    out.setMeta('http_status_code', res.status);
    extractHeaderMeta(out, res.headers, this.config.extract_headers);
    return out;
  }

  private failed(msg: Message, err: unknown): Message {
    const out = flagged(msg, err);
    if (err instanceof HttpRequestError) {
      if (err.status !== undefined) out.setMeta('http_status_code', err.status);
      extractHeaderMeta(out, err.headers, this.config.extract_headers);
    }
    this.logError(out.error as Error);
    return out;
  }
}

export const spec = defineComponent({
  name: 'http',
  kind: 'processor',
  status: 'stable',
  categories: ['Integration'],
  summary:
    'Performs an HTTP request using a message batch as the request body, and replaces the original message parts with the body of the response.',
  description: `Each message of a batch is sent as its own request (one after another, or all at once with \`parallel\`), or the whole batch as one multipart/mixed request with \`batch_as_multipart\`. The response body replaces the message content; a multipart response yields one message per part. \`url\` and \`headers\` are interpolated per message. To keep the original content and place the response somewhere inside it, wrap this processor in a \`branch\`.

The \`rate_limit\` field names a rate limit resource shared by every component using it. Authentication: \`basic_auth\`, \`oauth\` (OAuth 1.0a HMAC-SHA1 signing), \`oauth2\` (client credentials; the token is reused until it expires) and \`jwt\` (RS256/RS384/RS512/EdDSA); \`proxy_url\` sends requests through an HTTP proxy (CONNECT for https).

## Response codes

Any status from 200 to 299 is a success; \`successful_on\` adds more. Statuses in \`backoff_on\` are retried after growing intervals (up to \`max_retry_backoff\`), other failures after \`retry_period\`, up to \`retries\` times. A status in \`drop_on\` fails the request at once, without retries.

## Metadata

Each resulting message gets the metadata \`http_status_code\`, and the response headers \`extract_headers\` selects (lower-cased).

## Error handling

When a request fails for good, the message goes on with its original content, flagged with the error (and with \`http_status_code\` when the server answered), for \`catch\`, \`try\` or a dead-letter output to handle.`,
  fields,
  examples: [
    {
      title: 'Branched request',
      config: `input:
  stdin: {}
pipeline:
  processors:
    - branch:
        request_map: 'root = ""'
        processors:
          - http:
              url: https://hub.docker.com/v2/repositories/jeffail/benthos
              verb: GET
              headers:
                Content-Type: application/json
        result_map: 'root.repo.status = this'
output:
  stdout: {}
`,
    },
  ],
  lint: (config) => authLint(config),
  async build(config, ctx): Promise<Processor> {
    if (config.rate_limit) requireResource(ctx, 'rate_limit', config.rate_limit);
    // A pool without a socket cap: parallel requests of a batch must not queue behind each other.
    const requester = await HttpRequester.create(config, ctx, Number.POSITIVE_INFINITY, {
      dropOnFails: true,
    });
    return new HttpProcessor(requester, config, ctx);
  },
});
