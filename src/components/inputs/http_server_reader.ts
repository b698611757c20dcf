// The `http_server` input's reader: requests (on its own listener or the shared server) queue as
// transactions for the engine, and each is answered once its message is acknowledged.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { GroupAckFn, InputReader, Transaction } from '../../engine/component.js';
import type { BuildContext } from '../../engine/context.js';
import { arrivedBody, readWholeBody } from '../../listener/body.js';
import { bodyLimitOf, bodyTooLarge, declaredTooLarge } from '../../listener/body_limit.js';
import { type CorsLayer, createCorsLayer } from '../../listener/cors.js';
import { HttpError } from '../../listener/http_error.js';
import { closeListener, openListener } from '../../listener/listener.js';
import { sendError } from '../../listener/respond.js';
import type { Batch } from '../../message/message.js';
import { attachResponseStore, ResponseStore } from '../sync_response_store.js';
import type { HttpServerInputConfig } from './http_server_fields.js';
import { messagesOf } from './http_server_messages.js';
import {
  ANSWERED,
  Arrival,
  batchOf,
  PendingRequest,
  type RequestBook,
  refuse,
} from './http_server_request.js';
import { type SyncResponse, sendSyncResponse } from './http_server_sync.js';

/** At close, how long requests still in flight on an own listener may finish. */
const CLOSE_GRACE_MS = 10_000;

export class HttpServerReader implements InputReader, RequestBook {
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
  /**
   * performance.now() at the start of readArrivals, for the deadlines of the requests it queues
   * (one clock read per turn, not per request); -1 outside it (a body that arrived later).
   */
  private turnStart = -1;
  /** A read waits and its wake-up is scheduled (see enqueue). */
  private wakeScheduled = false;
  private closed = false;
  private server: Server | null = null;
  private readonly allowedVerbs: Set<string>;
  private readonly timeoutMs: number;
  private readonly cors: CorsLayer | null;

  constructor(
    private readonly config: HttpServerInputConfig,
    private readonly ctx: BuildContext,
    private readonly sync: SyncResponse,
  ) {
    this.allowedVerbs = new Set(config.allowed_verbs.map((v) => v.toUpperCase()));
    this.timeoutMs = config.timeout;
    this.cors = config.cors.enabled ? createCorsLayer(config.cors) : null;
  }

  /** The bound address of an own server (`address` set), e.g. for tests binding port 0. */
  boundAddress(): AddressInfo | null {
    const addr = this.server?.address();
    return addr && typeof addr === 'object' ? addr : null;
  }

  async connect(): Promise<void> {
    if (!this.config.address || this.server) return;
    const { address, cert_file, key_file } = this.config;
    this.server = await openListener({
      address,
      certFile: cert_file,
      keyFile: key_file,
      exclusive: !this.config.tcp?.reuse_port,
      onRequest: (req, res) => {
        const path = (req.url ?? '/').split('?')[0];
        const limit = bodyLimitOf(req);
        if (path !== this.config.path) sendError(res, 404, 'Not found');
        else if (declaredTooLarge(req, limit)) this.badRequest(res, bodyTooLarge(limit));
        else void this.handle(req, res, {});
      },
      listenError: (err) => new Error(`http_server input: listen on ${address}: ${err.message}`),
      onServerError: (err) => this.ctx.logger.error({ err }, 'http_server input: server error'),
    });
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
    // Every request left was just answered 503 with Connection: close: nothing stays busy long.
    if (server) await closeListener(server, CLOSE_GRACE_MS);
  }

  /** The endpoint handler (shared server or own server). */
  handle(
    req: IncomingMessage,
    res: ServerResponse,
    params: Record<string, string>,
  ): Promise<void> | undefined {
    if (this.cors?.(req, res)) return;
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
    this.turnStart = performance.now();
    try {
      for (let i = 0; i < arrivals.length; i++) this.readArrival(arrivals[i]!);
    } finally {
      this.turnStart = -1;
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
    const now = this.turnStart >= 0 ? this.turnStart : performance.now();
    const pending = new PendingRequest(this, res, store, batch, now + this.timeoutMs);
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
    sendSyncResponse(res, store, this.sync, this.ctx.logger);
  }
}
