// The `http_client` input: polls a URL (each response is a message, a multipart response a
// batch) or, with `stream.enabled`, reads one long response and splits it with a scanner.
import type { IncomingHttpHeaders } from 'node:http';
import type { Interpolation } from '../../bloblang/index.js';
import { defineComponent, field } from '../../config/spec.js';
import type { Input, InputReader, Transaction } from '../../engine/component.js';
import { errorMessage, NotConnectedError } from '../../engine/errors.js';
import { type Batch, Message } from '../../message/message.js';
import { httpClientFields } from '../fields/http_client.js';
import type { MetadataKeyFilter } from '../fields/metadata.js';
import { authLint } from '../http/auth/lint.js';
import { decodeMultipart } from '../http/multipart.js';
import {
  HttpRequestError,
  type HttpRequester,
  type HttpResponse,
  HttpRequester as Requester,
} from '../http/requester.js';
import type { Scanner } from '../scanners/scanner.js';
import { ScannedSource } from './scanned_source.js';
import { type ScannerFieldsConfig, scannerFields, scannerResolver } from './scanner_fields.js';

export interface HttpClientReaderOptions {
  /** The request body, rendered against an empty message; null sends none. */
  payload: Interpolation | null;
  dropEmptyBodies: boolean;
  /** Stream mode: splits the one long response; null = polling mode. */
  scanner: Scanner | null;
  /** Stream mode: open a new request when the response ends (else the input ends). */
  reconnect: boolean;
  /** Which response headers become metadata (`extract_headers`). */
  extractHeader: MetadataKeyFilter;
}

/** Interpolations in `url`, `headers` and `payload` see one empty message (as in Benthos). */
const REQUEST_BATCH: Batch = [new Message('')];

/** Nothing to acknowledge upstream: an HTTP response cannot be redelivered (use auto_replay_nacks). */
const noAck = async (): Promise<void> => {};

export class HttpClientReader implements InputReader {
  private source: ScannedSource | null = null;
  /** Polling: the result of the request made by connect(), handed out by the next read. */
  private pending: Transaction | null = null;
  private closed = false;
  private ended = false;

  constructor(
    private readonly requester: HttpRequester,
    private readonly options: HttpClientReaderOptions,
  ) {}

  /**
   * Polling: makes the first request here, so an unreachable server fails the connection (backoff,
   * `/ready` 503) instead of looping on read errors. Stream mode: opens the streamed response.
   */
  async connect(): Promise<void> {
    if (this.options.scanner) {
      const res = await this.requester.open(REQUEST_BATCH, 0, this.payload());
      // Errors reach the scanner while it reads; one between reads (e.g. on close) must not go unhandled.
      res.on('error', () => undefined);
      const meta = this.responseMeta(res.statusCode ?? 0, res.headers);
      this.source = new ScannedSource(this.options.scanner(res, {}), {
        decorate: (msg) => {
          for (const [k, v] of meta) msg.setMeta(k, v);
        },
      });
      return;
    }
    this.pending = await this.poll();
  }

  async read(): Promise<Transaction | null> {
    if (this.closed || this.ended) return null;
    if (this.options.scanner) return this.readStream();
    const first = this.pending;
    this.pending = null;
    if (first) return first;
    for (;;) {
      if (this.closed) return null;
      let txn: Transaction | null;
      try {
        txn = await this.poll();
      } catch (err) {
        // A network failure (no status) means the server is gone: let the engine reconnect.
        if (err instanceof HttpRequestError && err.status === undefined)
          throw new NotConnectedError(err.message);
        throw err;
      }
      if (txn) return txn;
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    const source = this.source;
    this.source = null;
    await source?.close().catch(() => undefined);
    this.requester.close();
  }

  /** One request; null when the response was dropped (`drop_on`, or an empty body). */
  private async poll(): Promise<Transaction | null> {
    const res = await this.requester.send(REQUEST_BATCH, 0, this.payload());
    if (!res) return null;
    if (res.body.byteLength === 0 && this.options.dropEmptyBodies) return null;
    return { batch: this.messagesOf(res), ack: noAck };
  }

  private async readStream(): Promise<Transaction | null> {
    const source = this.source;
    if (!source) throw new NotConnectedError('the stream is not open');
    let txn: Transaction | null;
    try {
      txn = await source.next();
    } catch (err) {
      this.source = null;
      if (this.closed) return null;
      throw new NotConnectedError(`stream broke: ${errorMessage(err)}`);
    }
    if (txn || this.closed) return txn;
    this.source = null;
    if (!this.options.reconnect) {
      this.ended = true;
      return null;
    }
    throw new NotConnectedError('the streamed response ended');
  }

  private payload(): Uint8Array | null {
    const p = this.options.payload;
    return p ? Buffer.from(p.render(REQUEST_BATCH, 0)) : null;
  }

  private messagesOf(res: HttpResponse): Batch {
    const meta = this.responseMeta(res.status, res.headers);
    const contentType = res.headers['content-type'] ?? '';
    const boundary = /^multipart\/[^;]+;.*boundary="?([^";]+)"?/i.exec(contentType)?.[1];
    const bodies = boundary ? decodeMultipart(res.body, boundary) : [res.body];
    return bodies.map((b) => new Message(b, meta, true));
  }

  /** `http_status_code` and the response headers `extract_headers` selects (lower case, first value). */
  private responseMeta(status: number, headers: IncomingHttpHeaders): Map<string, unknown> {
    const meta = new Map<string, unknown>([['http_status_code', status]]);
    const include = this.options.extractHeader;
    if (include) {
      for (const [k, v] of Object.entries(headers)) {
        if (v !== undefined && include(k)) meta.set(k, Array.isArray(v) ? v[0] : v);
      }
    }
    return meta;
  }
}

export const spec = defineComponent({
  name: 'http_client',
  kind: 'input',
  status: 'stable',
  categories: ['Network'],
  summary: 'Polls an HTTP server, or reads one streamed response, and turns the responses into messages.',
  description:
    'In polling mode each request is sent as soon as the previous response was read (slow it down with `rate_limit`); every response body is a message (a multipart response a batch), empty bodies are skipped with `drop_empty_bodies`, and the retry rules (`retries`, `backoff_on`, `drop_on`, `successful_on`) apply as in the `http_client` output. With `stream.enabled` one request is held open and its body split by `stream.scanner` (one message per line by default); when the response ends a new request is made if `stream.reconnect`, else the input ends. Metadata: `http_status_code` and the response headers selected by `extract_headers` (lower-case keys). An unreachable server fails the connection: `/ready` answers 503 and nekton retries with backoff. HTTP responses cannot be redelivered, so nacked messages are replayed inside nekton (`auto_replay_nacks`). Authentication: `basic_auth`, `oauth` (OAuth 1.0a HMAC-SHA1 signing), `oauth2` (client credentials; the token is reused until it expires) and `jwt` (RS256/RS384/RS512/EdDSA); `proxy_url` sends requests through an HTTP proxy (CONNECT for https).',
  fields: [
    ...httpClientFields('GET'),
    field.interpolated('payload', 'A body to send with each request.', { optional: true }),
    field.bool('drop_empty_bodies', 'Skip responses with an empty body.', { default: true, advanced: true }),
    field.object(
      'stream',
      'Read one long (streamed) response instead of polling.',
      [
        field.bool('enabled', 'Whether to read a streamed response.', { default: false }),
        field.bool('reconnect', 'Open a new request whenever the response ends.', { default: true }),
        ...scannerFields(),
      ],
      { optional: true },
    ),
    field.bool('auto_replay_nacks', 'Re-deliver nacked messages inside nekton instead of failing them.', {
      default: true,
    }),
  ],
  examples: [
    {
      title: 'Poll an API once every 5 seconds',
      config: `input:
  http_client:
    url: http://localhost:8080/items
    verb: GET
    headers:
      Accept: application/json
    rate_limit: every_5s
    extract_headers:
      include_prefixes: [ x-ratelimit- ]
rate_limit_resources:
  - label: every_5s
    local:
      count: 1
      interval: 5s
output:
  stdout: {}
`,
    },
    {
      title: 'Read a line-delimited stream of events',
      config: `input:
  http_client:
    url: http://localhost:8080/events
    stream:
      enabled: true
      reconnect: true
      scanner:
        lines: {}
output:
  stdout: {}
`,
    },
  ],
  lint: (config) => authLint(config),
  async build(config, ctx): Promise<Input> {
    const requester = await Requester.create(config, ctx, 1);
    const stream = config.stream;
    // scannerFields() is declared untyped (FieldSpec[]), so its part of `stream` is named here.
    const scanner = stream?.enabled
      ? await (
          await scannerResolver(
            stream as unknown as ScannerFieldsConfig,
            ctx,
            `${ctx.path}.http_client.stream`,
          )
        )('')
      : null;
    const reader = new HttpClientReader(requester, {
      payload: config.payload ?? null,
      dropEmptyBodies: config.drop_empty_bodies,
      scanner,
      reconnect: stream?.reconnect ?? true,
      extractHeader: config.extract_headers,
    });
    return ctx.wrapReader(reader, { autoReplayNacks: config.auto_replay_nacks });
  },
});
