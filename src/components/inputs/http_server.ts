// The `http_server` input: each request body becomes a message (a batch for multipart bodies);
// the response is sent only once the message is acknowledged (200, or 502 on a nack), and
// carries the sync response when the pipeline produced one.
import { readFile } from 'node:fs/promises';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { nodeHttp, nodeHttps } from '../../base/lazy_builtins.js';
import type { Interpolation } from '../../bloblang/index.js';
import { type ComponentSpec, field } from '../../config/spec.js';
import type { AckFn, GroupAckFn, Input, InputReader, Transaction } from '../../engine/component.js';
import type { BuildContext } from '../../engine/context.js';
import { bodyLimitOf, bodyTooLarge, declaredTooLarge } from '../../http/body_limit.js';
import { HttpError } from '../../http/http-error.js';
import { OWN_SERVER_OPTIONS } from '../../http/own_server.js';
import { type Batch, Message } from '../../message/message.js';
import { durationMs } from '../fields/duration.js';
import { type MetadataFilterConfig, metadataFilter, metadataFilterField } from '../fields/metadata.js';
import { decodeMultipart, encodeMultipart } from '../http/multipart.js';
import { attachResponseStore, ResponseStore } from '../sync_response_store.js';
import { arrivedBody, readWholeBody } from './http_server_body.js';

export interface HttpServerInputConfig {
  address: string;
  path: string;
  ws_path: string;
  ws_welcome_message: string;
  ws_rate_limit_message: string;
  allowed_verbs: string[];
  timeout: string;
  rate_limit: string;
  cert_file: string;
  key_file: string;
  cors: { enabled: boolean; allowed_origins: string[] };
  sync_response: {
    status: string;
    headers: Record<string, string>;
    metadata_headers: MetadataFilterConfig;
  };
  tcp?: { reuse_addr: boolean; reuse_port: boolean };
}

/** Go's canonical header form (`content-type` -> `Content-Type`), which Benthos metadata keys use. */
export function canonicalHeaderKey(key: string): string {
  return key.toLowerCase().replace(/(^|-)([a-z])/g, (_m, sep: string, c: string) => sep + c.toUpperCase());
}

/** Canonical forms of header names seen so far; bounded, since clients choose the names. */
const canonicalKeys = new Map<string, string>();
const CANONICAL_KEYS_MAX = 1024;

function cachedCanonicalKey(key: string): string {
  let canonical = canonicalKeys.get(key);
  if (canonical === undefined) {
    canonical = canonicalHeaderKey(key);
    if (canonicalKeys.size < CANONICAL_KEYS_MAX) canonicalKeys.set(key, canonical);
  }
  return canonical;
}

/** What an ack returns: the answer is written by the time it returns. */
const ANSWERED: Promise<void> = Promise.resolve();

/**
 * A received request: the transaction handed to the engine and the way it is answered. A class on
 * purpose (like every per-request object that waits for the pipeline): V8 pretenures an object
 * literal's allocation site when most of its objects outlive a scavenge, which they do at start-up
 * while the young generation is still small; tenured request objects then keep every younger object
 * they point to alive until the next full GC, and the whole request graph gets promoted.
 */
class PendingRequest implements Transaction {
  /** False once the request was answered (timeout, shutdown): a later ack changes nothing. */
  private open = true;
  /** Neighbours in the reader's list of unanswered requests (arrival order). */
  older: PendingRequest | null = null;
  newer: PendingRequest | null = null;

  constructor(
    private readonly reader: HttpServerReader,
    private readonly res: ServerResponse,
    /** Kept apart from the request: messages that outlive it (buffers) hold only the store. */
    private readonly store: ResponseStore,
    readonly batch: Batch,
    /** performance.now() after which the request is answered 408. */
    readonly deadline: number,
  ) {}

  /**
   * The ack of a request read alone, bound as the engine may call it unbound. A getter: requests
   * read in a group are answered through the group's ack and never need the closure.
   */
  get ack(): AckFn {
    return (err) => {
      try {
        this.answer(err);
      } catch (e) {
        return Promise.reject(e);
      }
      return ANSWERED;
    };
  }

  /**
   * Answers 200 (or the sync response), 502 on a nack; nothing when already answered. Not async:
   * the answer is written at once (no frame and no extra promise per request).
   */
  answer(err: Error | null): void {
    if (!this.settle()) return;
    if (err) sendError(this.res, 502, err.message);
    else this.reader.respond(this.res, this.store);
  }

  /** Answers 408 (the timeout passed before the ack). */
  expire(): void {
    if (this.settle()) sendError(this.res, 408, 'Request timed out');
  }

  /** Answers 503 at shutdown: the message never reached the pipeline (or was never acked). */
  refuse(): void {
    if (this.settle()) refuse(this.res);
  }

  /** Marks the request answered; false when it already was. */
  private settle(): boolean {
    if (!this.open) return false;
    this.open = false;
    this.reader.forget(this);
    return true;
  }
}

/** A request whose body is read at the end of the event-loop turn it arrived in (readArrivals). */
class Arrival {
  constructor(
    readonly req: IncomingMessage,
    readonly res: ServerResponse,
    readonly params: Record<string, string>,
  ) {}
}

interface SyncResponse {
  status: Interpolation;
  headers: [string, Interpolation][];
  metadataHeader: ((key: string) => boolean) | null;
}

export class HttpServerReader implements InputReader {
  /** Requests received and not read yet, oldest first. */
  private readonly queue: PendingRequest[] = [];
  /**
   * Requests received and not answered yet, as a list linked through the requests (oldest first;
   * cheaper than a Set on every request). At close every one left is answered 503: it is either
   * still queued, or was handed to a read the engine had abandoned on stop (the engine only closes
   * the reader once every batch it did take is acked, so none of these is being delivered).
   */
  private oldest: PendingRequest | null = null;
  private newest: PendingRequest | null = null;
  private unanswered = 0;
  /** One timer for every request's 408: requests time out in arrival order (same timeout). */
  private expiryTimer: NodeJS.Timeout | null = null;
  private waiter: ((p: PendingRequest | null) => void) | null = null;
  /** Requests whose bodies are read once the poll phase that received them is over. */
  private arrivals: Arrival[] = [];
  /** A read waits and its wake-up is scheduled (see enqueue). */
  private wakeScheduled = false;
  private closed = false;
  private server: Server | null = null;
  private readonly allowedVerbs: Set<string>;
  private readonly timeoutMs: number;

  constructor(
    private readonly config: HttpServerInputConfig,
    private readonly ctx: BuildContext,
    private readonly sync: SyncResponse,
  ) {
    this.allowedVerbs = new Set(config.allowed_verbs.map((v) => v.toUpperCase()));
    this.timeoutMs = durationMs(config.timeout, 'timeout');
  }

  /** The bound address of an own server (`address` set), e.g. for tests binding port 0. */
  boundAddress(): AddressInfo | null {
    const addr = this.server?.address();
    return addr && typeof addr === 'object' ? addr : null;
  }

  async connect(): Promise<void> {
    if (!this.config.address || this.server) return;
    const handler = (req: IncomingMessage, res: ServerResponse) => {
      const path = (req.url ?? '/').split('?')[0];
      const limit = bodyLimitOf(req);
      if (path !== this.config.path) sendError(res, 404, 'Not found');
      else if (declaredTooLarge(req, limit)) this.badRequest(res, bodyTooLarge(limit));
      else void this.handle(req, res, {});
    };
    const server =
      this.config.cert_file || this.config.key_file
        ? nodeHttps().createServer(
            {
              ...OWN_SERVER_OPTIONS,
              cert: await readFile(this.config.cert_file),
              key: await readFile(this.config.key_file),
            },
            handler,
          )
        : nodeHttp().createServer(OWN_SERVER_OPTIONS, handler);
    const { host, port } = splitAddress(this.config.address);
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen({ host, port, exclusive: !this.config.tcp?.reuse_port }, () => {
        server.off('error', reject);
        resolve();
      });
    });
    this.server = server;
  }

  read(): Promise<Transaction | null> {
    const next = this.queue.shift();
    if (next) return Promise.resolve(next);
    if (this.closed) return Promise.resolve(null);
    return new Promise((resolve) => {
      this.waiter = resolve;
    });
  }

  /** A request already waiting, without a promise (the engine's fast path). */
  readBuffered(): Transaction | undefined {
    return this.queue.shift();
  }

  /**
   * Up to `max` waiting requests as one group (one engine dispatch, one output call, one ack for
   * all). Unlike scanned sources it also hands out a group of one: that is still cheaper for the
   * engine than a read.
   */
  readBufferedGroup(max: number): { batches: Batch[]; ack: GroupAckFn } | undefined {
    const queue = this.queue;
    if (queue.length === 0) return undefined;
    const taken = queue.length <= max ? queue.splice(0) : queue.splice(0, max);
    const batches = taken.map(batchOf);
    const ack: GroupAckFn = (err, settled) => {
      let failure: unknown = null;
      // `settled` keeps the group's order: search on from the last one found.
      let from = 0;
      for (let s = 0; s < settled.length; s++) {
        let i = batches.indexOf(settled[s]!, from);
        if (i < 0) i = batches.indexOf(settled[s]!);
        if (i < 0) continue;
        from = i + 1;
        try {
          taken[i]!.answer(err);
        } catch (e) {
          failure ??= e;
        }
      }
      return failure === null ? ANSWERED : Promise.reject(failure);
    };
    return { batches, ack };
  }

  /** How many received requests wait for their answer (queued or in the pipeline). */
  pendingRequests(): number {
    return this.unanswered;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.waiter?.(null);
    this.waiter = null;
    this.queue.length = 0;
    if (this.expiryTimer) clearTimeout(this.expiryTimer);
    this.expiryTimer = null;
    for (let pending = this.oldest; pending !== null; pending = this.oldest) pending.refuse();
    const server = this.server;
    this.server = null;
    if (server) {
      server.closeIdleConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  }

  /** The endpoint handler (shared server or own server). */
  handle(
    req: IncomingMessage,
    res: ServerResponse,
    params: Record<string, string>,
  ): Promise<void> | undefined {
    if (this.config.cors.enabled && this.applyCors(req, res)) return;
    if (this.closed) {
      sendError(res, 503, 'Server closing');
      return;
    }
    if (!this.allowedVerbs.has(req.method ?? '')) {
      sendError(res, 405, 'Incorrect method');
      return;
    }
    if (this.config.rate_limit) return this.handleLimited(req, res, params);
    return this.accept(req, res, params);
  }

  private async handleLimited(
    req: IncomingMessage,
    res: ServerResponse,
    params: Record<string, string>,
  ): Promise<void> {
    try {
      const wait = await this.ctx.resources.useRateLimit(this.config.rate_limit, (rl) => rl.access());
      if (wait > 0) {
        res.setHeader('Retry-After', String(Math.floor(wait / 1000)));
        return sendError(res, 429, 'Too Many Requests');
      }
    } catch (err) {
      this.ctx.logger.warn({ err }, 'failed to access rate limit');
      return sendError(res, 502, 'Server error');
    }
    return this.accept(req, res, params);
  }

  /**
   * Reads the body once this turn of the event loop has received everything it will, then queues
   * the request for the pipeline. A small body comes in the same packets as the headers, so by then
   * it waits in the request's buffer and is taken at once: no listeners, no closures, no promise.
   */
  private accept(req: IncomingMessage, res: ServerResponse, params: Record<string, string>): undefined {
    if (this.arrivals.push(new Arrival(req, res, params)) === 1) setImmediate(this.readArrivals);
    return undefined;
  }

  private readonly readArrivals = (): void => {
    const arrivals = this.arrivals;
    this.arrivals = [];
    // One wake-up for all of them, at the end (enqueue schedules none meanwhile).
    const wakeScheduled = this.wakeScheduled;
    this.wakeScheduled = true;
    try {
      for (let i = 0; i < arrivals.length; i++) this.readArrival(arrivals[i]!);
    } finally {
      this.wakeScheduled = wakeScheduled;
      if (!wakeScheduled) this.wake();
    }
  };

  private readArrival({ req, res, params }: Arrival): void {
    try {
      const body = arrivedBody(req);
      if (body !== undefined && body.length > bodyLimitOf(req)) {
        this.badRequest(res, bodyTooLarge(bodyLimitOf(req)));
        return;
      }
      if (body !== undefined) {
        this.received(req, res, params, body);
        return;
      }
      // Still arriving (a large body or a slow client): read whole, up to `http.max_body_size`
      // (the reference has no limit; a body over 4 GiB crashed the process).
      readWholeBody(
        req,
        bodyLimitOf(req),
        (whole) => this.received(req, res, params, whole),
        (err) => this.badRequest(res, err),
      );
    } catch (err) {
      this.badRequest(res, err);
    }
  }

  /** Turns a whole body into the request's messages and queues them. */
  private received(
    req: IncomingMessage,
    res: ServerResponse,
    params: Record<string, string>,
    body: Buffer,
  ): void {
    let batch: Batch;
    try {
      batch = messagesOf(req, body, params);
    } catch (err) {
      this.badRequest(res, err);
      return;
    }
    this.enqueue(res, batch);
  }

  private badRequest(res: ServerResponse, err: unknown): void {
    if (err instanceof HttpError && err.status === 413) {
      // The unread rest of the body is not worth draining: close once answered.
      if (!res.headersSent) res.setHeader('Connection', 'close');
      sendError(res, 413, err.message);
      return;
    }
    this.ctx.logger.warn({ err }, 'request read failed');
    sendError(res, 400, 'Bad request');
  }

  /** Hands the request's message to a waiting read, or queues it for the next one. */
  private enqueue(res: ServerResponse, batch: Batch): void {
    // Closed while the body was arriving: nothing will read this message any more.
    if (this.closed) {
      refuse(res);
      return;
    }
    // No 'close' listener to spot a client that left: Node emits a request's 'close' once its body
    // is read (before this point), not when the client goes. Answering a gone client is a no-op.
    const store = new ResponseStore();
    attachResponseStore(batch, store);
    const pending = new PendingRequest(this, res, store, batch, performance.now() + this.timeoutMs);
    this.remember(pending);
    if (!this.expiryTimer) this.armExpiry(this.timeoutMs);
    this.queue.push(pending);
    // A waiting read is woken once the requests that arrived in this turn of the event loop are
    // all queued (setImmediate runs right after the poll phase that read them): the engine then
    // takes them as one group, and their answers leave in one burst. Waking it at once made every
    // request its own trip through the engine (W3: ~25 µs of CPU per request against ~18).
    if (this.waiter !== null && !this.wakeScheduled) {
      this.wakeScheduled = true;
      setImmediate(this.wake);
    }
  }

  private readonly wake = (): void => {
    this.wakeScheduled = false;
    const waiter = this.waiter;
    // Closed meanwhile, or the requests timed out before any read.
    if (waiter === null || this.queue.length === 0) return;
    this.waiter = null;
    waiter(this.queue.shift()!);
  };

  private remember(pending: PendingRequest): void {
    pending.older = this.newest;
    if (this.newest === null) this.oldest = pending;
    else this.newest.newer = pending;
    this.newest = pending;
    this.unanswered++;
  }

  /** Drops an answered request from the bookkeeping (PendingRequest calls it once). */
  forget(pending: PendingRequest): void {
    const { older, newer } = pending;
    if (older === null) this.oldest = newer;
    else older.newer = newer;
    if (newer === null) this.newest = older;
    else newer.older = older;
    pending.older = null;
    pending.newer = null;
    this.unanswered--;
  }

  private armExpiry(ms: number): void {
    this.expiryTimer = setTimeout(this.expireDue, ms);
    // Pending requests hold their sockets open anyway; the timer alone keeps nothing alive.
    this.expiryTimer.unref();
  }

  /** Answers 408 to every request past its deadline, then waits for the next one's. */
  private readonly expireDue = (): void => {
    this.expiryTimer = null;
    const now = performance.now();
    for (let pending = this.oldest; pending !== null; pending = this.oldest) {
      if (pending.deadline > now) {
        this.armExpiry(Math.ceil(pending.deadline - now));
        return;
      }
      // Timed out before any read took it: it must not be handed out any more.
      const queued = this.queue.indexOf(pending);
      if (queued >= 0) this.queue.splice(queued, 1);
      pending.expire();
    }
  };

  /** Sends the answer to an acked request (PendingRequest calls it). */
  respond(res: ServerResponse, store: ResponseStore): void {
    // Answers are sent whole with `end` (no writeHead first), so they carry a Content-Length, as
    // the reference's do, rather than a chunked encoding.
    const results = store.messages();
    if (results.length === 0) {
      res.end();
      return;
    }
    for (const [k, v] of this.sync.headers) res.setHeader(k, headerValue(v.render(results, 0)));
    const statusText = this.sync.status.render(results, 0);
    const status = Number(statusText);
    if (!Number.isInteger(status) || status < 100 || status > 999) {
      this.ctx.logger.error({ status: statusText }, 'sync response status is not a number');
      res.statusCode = 502;
      res.end();
      return;
    }
    for (const msg of results) {
      if (!this.sync.metadataHeader) break;
      for (const [k, v] of msg.metadata())
        if (this.sync.metadataHeader(k)) res.setHeader(k, headerValue(String(v)));
    }
    res.statusCode = status;
    if (results.length === 1) {
      res.end((results[0] as Message).bytes());
      return;
    }
    const { body, contentType } = encodeMultipart(
      results.map((m) => ({ headers: { 'Content-Type': 'application/octet-stream' }, body: m.bytes() })),
    );
    res.setHeader('Content-Type', contentType);
    res.end(body);
  }

  /** Returns true when the request was a CORS preflight and is answered. */
  private applyCors(req: IncomingMessage, res: ServerResponse): boolean {
    const origin = req.headers.origin;
    const allowed = this.config.cors.allowed_origins;
    if (origin && (allowed.includes('*') || allowed.includes(origin))) {
      res.setHeader('Access-Control-Allow-Origin', allowed.includes('*') ? '*' : origin);
      res.setHeader('Vary', 'Origin');
    }
    if (req.method === 'OPTIONS' && req.headers['access-control-request-method']) {
      res.setHeader('Access-Control-Allow-Methods', [...this.allowedVerbs].join(', '));
      const requested = req.headers['access-control-request-headers'];
      if (requested) res.setHeader('Access-Control-Allow-Headers', requested);
      res.writeHead(204).end();
      return true;
    }
    return false;
  }
}

const batchOf = (pending: PendingRequest): Batch => pending.batch;

/**
 * A header value as Go's net/http writes it: line breaks become spaces, and the text goes out as
 * its UTF-8 bytes. Node refuses both (it throws on `\n` and on characters above U+00FF), which
 * left the request unanswered.
 */
function headerValue(value: string): string {
  const flat = value.replace(/[\r\n]/g, ' ');
  if (!/[^\t\x20-\x7e]/.test(flat)) return flat;
  return Buffer.from(flat.replace(/[\x00-\x08\x0a-\x1f\x7f]/g, ''), 'utf8').toString('latin1');
}

function sendError(res: ServerResponse, status: number, text: string): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  res.statusCode = status;
  res.setHeader('Content-Type', 'text/plain; charset=utf-8');
  res.end(`${text}\n`);
}

/** 503 on shutdown, closing the connection so the server's close() does not wait for keep-alive. */
function refuse(res: ServerResponse): void {
  if (!res.headersSent) res.setHeader('Connection', 'close');
  sendError(res, 503, 'Server closing');
}

function splitAddress(address: string): { host: string | undefined; port: number } {
  const i = address.lastIndexOf(':');
  const host = i > 0 ? address.slice(0, i).replace(/^\[|\]$/g, '') : undefined;
  return { host: host === '0.0.0.0' || host === '' ? undefined : host, port: Number(address.slice(i + 1)) };
}

/** `new URL(url, base).pathname` without the parse when the target is a plain path (no query). */
const PLAIN_PATH = /^\/(?!\/)[\w\-/]*$/;

const MULTIPART = /^multipart\/[^;]+;.*boundary="?([^";]+)"?/i;

function messagesOf(req: IncomingMessage, body: Buffer, params: Record<string, string>): Batch {
  const headers = req.headers;
  const contentType = headers['content-type'];
  // The regular expression only for what may be multipart (it starts with an m).
  const boundary =
    contentType !== undefined && (contentType.charCodeAt(0) | 0x20) === 0x6d
      ? MULTIPART.exec(contentType)?.[1]
      : undefined;
  const target = req.url ?? '/';
  const url = PLAIN_PATH.test(target) ? null : new URL(target, 'http://localhost');
  // One metadata map shared (copy-on-write) by every part of the request.
  const meta = new Map<string, unknown>();
  meta.set('http_server_user_agent', headers['user-agent'] ?? '');
  meta.set('http_server_request_path', url ? url.pathname : target);
  meta.set('http_server_verb', req.method ?? '');
  const remoteIp = req.socket.remoteAddress;
  if (remoteIp) meta.set('http_server_remote_ip', remoteIp);
  for (const k in headers) {
    const v = headers[k];
    if (v !== undefined) meta.set(cachedCanonicalKey(k), Array.isArray(v) ? v[0] : v);
  }
  if (url)
    for (const [k, v] of url.searchParams)
      if (!meta.has(k) || !url.searchParams.getAll(k).indexOf(v)) meta.set(k, v);
  for (const k in params) meta.set(k, params[k]);
  if (headers.cookie !== undefined) {
    for (const cookie of headers.cookie.split(';')) {
      const eq = cookie.indexOf('=');
      if (eq > 0) meta.set(cookie.slice(0, eq).trim(), cookie.slice(eq + 1).trim());
    }
  }
  if (!boundary) return [new Message(body, meta, true)];
  return decodeMultipart(body, boundary).map((b) => new Message(b, meta, true));
}

const a = { advanced: true };

export const spec: ComponentSpec<HttpServerInputConfig, Input> = {
  name: 'http_server',
  kind: 'input',
  status: 'stable',
  categories: ['Network'],
  summary: 'Receives messages as HTTP requests: each request body is a message, multipart bodies a batch.',
  description:
    'With an empty `address` the endpoints live on the shared HTTP server (under the stream id in streams mode). A request is answered once its message is delivered: 200 (or the sync response the pipeline produced with a `sync_response` output), 502 when delivery failed, 408 after `timeout`. Metadata: `http_server_user_agent`, `http_server_request_path`, `http_server_verb`, `http_server_remote_ip`, every header (first value, canonical case), query parameter, path parameter and cookie. Websocket endpoints (`ws_path`) are not served yet.',
  fields: [
    field.string('address', 'Listen on this address with an own server instead of the shared one.', {
      default: '',
      examples: ['0.0.0.0:8080'],
    }),
    field.string('path', 'The endpoint path for requests.', { default: '/post' }),
    field.string('ws_path', 'The endpoint path for websocket connections.', { default: '/post/ws' }),
    field.string('ws_welcome_message', 'Sent to each websocket client when it connects.', {
      default: '',
      ...a,
    }),
    field.string('ws_rate_limit_message', 'Sent to a websocket client that hits the rate limit.', {
      default: '',
      ...a,
    }),
    field.array(
      field.string('allowed_verbs', 'HTTP methods accepted on `path`.', {
        default: ['POST'],
        examples: [['POST', 'PUT']],
      }),
    ),
    field.string('timeout', 'How long a request waits for its message to be delivered before a 408.', {
      default: '5s',
    }),
    field.string('rate_limit', 'A `rate_limit` resource; requests over the limit get a 429.', {
      default: '',
    }),
    field.string('cert_file', 'A TLS certificate file (own server only).', { default: '', ...a }),
    field.string('key_file', 'The TLS key file of `cert_file`.', { default: '', ...a }),
    field.object(
      'cors',
      'Cross-origin resource sharing headers.',
      [
        field.bool('enabled', 'Whether to answer CORS requests.', { default: false, ...a }),
        field.array(
          field.string('allowed_origins', 'Origins allowed to send requests; `*` allows any.', {
            default: [],
            ...a,
          }),
        ),
      ],
      a,
    ),
    field.object(
      'sync_response',
      'How the response is built when the pipeline returns a sync response.',
      [
        field.string('status', 'The response status code.', {
          default: '200',
          interpolated: true,
          ...a,
          // biome-ignore lint/suspicious/noTemplateCurlyInString: Bloblang interpolation, not a JS template
          examples: ['${! meta("status").or("200") }'],
        }),
        field.map(
          field.string('headers', 'Response headers.', {
            default: { 'Content-Type': 'application/octet-stream' },
            interpolated: true,
            ...a,
          }),
        ),
        metadataFilterField('metadata_headers', 'Metadata of the response message to send as headers.'),
      ],
      a,
    ),
    field.object(
      'tcp',
      'Socket options of an own server.',
      [
        field.bool('reuse_addr', 'Allow binding an address in TIME_WAIT.', { default: false, ...a }),
        field.bool('reuse_port', 'Let several processes bind the same port.', { default: false, ...a }),
      ],
      { optional: true, ...a },
    ),
  ],
  examples: [
    {
      title: 'An uppercasing HTTP service',
      config: `input:
  http_server:
    address: 0.0.0.0:8080
    path: /upper
pipeline:
  processors:
    - mapping: 'root = content().uppercase()'
output:
  sync_response: {}
`,
    },
  ],
  build(config, ctx) {
    const sync: SyncResponse = {
      status: ctx.interpolation(config.sync_response.status, 'sync_response.status'),
      headers: Object.entries(config.sync_response.headers).map(([k, v]) => [
        k,
        ctx.interpolation(v, `sync_response.headers.${k}`),
      ]),
      metadataHeader: metadataFilter(config.sync_response.metadata_headers),
    };
    const reader = new HttpServerReader(config, ctx, sync);
    if (!config.address && config.path) {
      ctx.registerEndpoint(config.path, 'Post a message into the stream.', (req, res, params) =>
        reader.handle(req, res, params),
      );
    }
    return ctx.wrapReader(reader);
  },
};
