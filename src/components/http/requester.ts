// Sends HTTP requests for the HTTP client components: interpolated URL and headers, auth,
// TLS, timeouts, rate limits, redirects and the retry rules of `retries`, `backoff_on`,
// `drop_on` and `successful_on`.
//
// node:http with a keep-alive agent rather than global fetch: for many small requests it
// avoids fetch's per-request WHATWG Request/Response/stream objects and lets the agent's
// socket pool follow max_in_flight directly.
import type {
  ClientRequest,
  Agent as HttpAgent,
  IncomingHttpHeaders,
  IncomingMessage,
  OutgoingHttpHeaders,
} from 'node:http';
import type { Logger } from 'pino';
import { nodeHttp, nodeHttps } from '../../base/lazy_builtins.js';
import type { Interpolation } from '../../bloblang/index.js';
import { Backoff, sleep } from '../../engine/backoff.js';
import type { BuildContext } from '../../engine/context.js';
import { stopController } from '../../engine/stop_signal.js';
import type { Batch } from '../../message/message.js';
import type { HttpClientConfig } from '../fields/http_client.js';
import { tlsOptions } from '../fields/tls.js';
import { OAuth2Tokens } from './auth/oauth2.js';
import { parseProxyUrl, proxyAgents } from './auth/proxy.js';
import { RequestSigner } from './auth/signer.js';

export interface HttpResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** A request that failed for good; `status` is absent for network errors and timeouts. */
export class HttpRequestError extends Error {
  constructor(
    message: string,
    readonly status?: number,
    readonly body?: Buffer,
    readonly headers?: IncomingHttpHeaders,
  ) {
    super(message);
    this.name = 'HttpRequestError';
  }
}

const MAX_REDIRECTS = 10;

export interface RequesterOptions {
  /**
   * A `drop_on` status fails the request (without retries) instead of resolving null: the
   * reference's http processor flags the message, while the output drops it.
   */
  dropOnFails?: boolean;
}

export class HttpRequester {
  private readonly headers: [string, Interpolation][];
  private readonly timeoutMs: number;
  private readonly retryMs: number;
  private readonly maxBackoffMs: number;
  private readonly successfulOn: Set<number>;
  private readonly backoffOn: Set<number>;
  private readonly dropOn: Set<number>;
  private readonly oauth2: OAuth2Tokens | null = null;
  private readonly logger: Logger;
  private readonly stop = stopController();

  private constructor(
    private readonly config: HttpClientConfig,
    private readonly ctx: BuildContext,
    private readonly httpAgent: HttpAgent,
    private readonly httpsAgent: HttpAgent,
    private readonly options: RequesterOptions,
    private readonly signer: RequestSigner,
    /** TLS options for each https request: set when a proxy agent (not ours) makes the socket. */
    private readonly requestTls: object | undefined,
  ) {
    this.headers = Object.entries(config.headers);
    this.timeoutMs = config.timeout;
    this.retryMs = config.retry_period;
    this.maxBackoffMs = config.max_retry_backoff;
    this.successfulOn = new Set(config.successful_on);
    this.backoffOn = new Set(config.backoff_on);
    this.dropOn = new Set(config.drop_on);
    if (config.oauth2?.enabled) {
      // The token request goes through the same agents (proxy, TLS) as the others.
      this.oauth2 = new OAuth2Tokens(config.oauth2, (url, headers, body) =>
        this.request('POST', url, headers, body),
      );
    }
    this.logger = ctx.logger;
    ctx.signal.addEventListener('abort', () => this.stop.abort(), { once: true });
  }

  static async create(
    config: HttpClientConfig,
    ctx: BuildContext,
    maxSockets: number,
    options: RequesterOptions = {},
  ): Promise<HttpRequester> {
    const signer = await RequestSigner.create(config, ctx.path);
    const tls = await tlsOptions(config.tls);
    const agentOptions = { keepAlive: true, maxSockets: Math.max(1, maxSockets) };
    if (config.proxy_url) {
      const agents = await proxyAgents(parseProxyUrl(config.proxy_url, ctx.path), agentOptions);
      return new HttpRequester(config, ctx, agents.http, agents.https, options, signer, tls ?? {});
    }
    return new HttpRequester(
      config,
      ctx,
      new (nodeHttp().Agent)(agentOptions),
      new (nodeHttps().Agent)({ ...agentOptions, ...tls }),
      options,
      signer,
      undefined,
    );
  }

  /**
   * Sends `body` for message `index` of `batch` (whose metadata and interpolations apply) and
   * retries as configured. Resolves with the response, or null when a `drop_on` status dropped it.
   */
  async send(
    batch: Batch,
    index: number,
    body: Uint8Array | null,
    contentType?: string,
  ): Promise<HttpResponse | null> {
    const url = this.config.url.render(batch, index);
    const headers = this.headersFor(batch, index, contentType);
    let backoff: Backoff | null = null;
    let lastError: HttpRequestError = new HttpRequestError('no attempt made');
    for (let attempt = 0; attempt <= this.config.retries; attempt++) {
      if (attempt > 0) {
        let wait = this.retryMs;
        if (lastError.status !== undefined && this.backoffOn.has(lastError.status)) {
          backoff ??= new Backoff({
            initialMs: this.retryMs,
            maxMs: this.maxBackoffMs,
            maxElapsedMs: 0,
            multiplier: 2,
          });
          wait = backoff.next() ?? this.maxBackoffMs;
        }
        if (!(await sleep(wait, this.stop.signal))) break;
      }
      await this.awaitRateLimit();
      let res: HttpResponse;
      try {
        await this.authorize(url, headers, body);
        res = await this.request(this.config.verb, url, headers, body);
      } catch (err) {
        lastError = new HttpRequestError(`${this.config.verb} ${url}: ${(err as Error).message}`);
        this.logger.debug({ err: lastError.message, attempt }, 'HTTP request failed');
        continue;
      }
      if (this.dumpLevel()) this.dump(url, res);
      if (this.succeeded(res.status)) return res;
      if (res.status === 401) this.oauth2?.invalidate();
      lastError = new HttpRequestError(
        `${this.config.verb} ${url}: HTTP status ${res.status}`,
        res.status,
        res.body,
        res.headers,
      );
      if (this.dropOn.has(res.status)) {
        if (this.options.dropOnFails) throw lastError;
        return null;
      }
      this.logger.debug({ err: lastError.message, attempt }, 'HTTP request failed');
    }
    throw lastError;
  }

  /**
   * Opens one request for a streamed response (the `stream` mode of the http_client input): no
   * retries (the engine reconnects with backoff), `timeout` bounds only the wait for the headers.
   * Resolves with the response still flowing; a status that is not a success throws.
   */
  async open(batch: Batch, index: number, body: Uint8Array | null): Promise<IncomingMessage> {
    const url = this.config.url.render(batch, index);
    const headers = this.headersFor(batch, index);
    await this.awaitRateLimit();
    try {
      await this.authorize(url, headers, body);
    } catch (err) {
      throw new HttpRequestError(`${this.config.verb} ${url}: ${(err as Error).message}`);
    }
    const res = await new Promise<IncomingMessage>((resolve, reject) => {
      const { req, timer } = this.start(this.config.verb, new URL(url), headers, body);
      req.on('error', (err) => {
        clearTimeout(timer);
        reject(new HttpRequestError(`${this.config.verb} ${url}: ${err.message}`));
      });
      req.on('response', (r) => {
        clearTimeout(timer);
        resolve(r);
      });
      req.end(body ?? undefined);
    });
    const status = res.statusCode ?? 0;
    if ((status >= 200 && status < 300) || this.successfulOn.has(status)) return res;
    res.resume();
    throw new HttpRequestError(`${this.config.verb} ${url}: HTTP status ${status}`, status);
  }

  /** In the reference's order: drop_on and backoff_on win over successful_on, which wins over 2xx. */
  private succeeded(status: number): boolean {
    if (this.dropOn.has(status) || this.backoffOn.has(status)) return false;
    if (this.successfulOn.has(status)) return true;
    // With redirects not followed, a 3xx is the answer.
    if (!this.config.follow_redirects && status >= 300 && status <= 399) return true;
    return status >= 200 && status <= 299;
  }

  close(): void {
    this.stop.abort();
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }

  private headersFor(batch: Batch, index: number, contentType?: string): OutgoingHttpHeaders {
    const headers: OutgoingHttpHeaders = {};
    if (contentType) headers['content-type'] = contentType;
    for (const [k, v] of this.headers) headers[k] = v.render(batch, index);
    const msg = batch[index];
    const includeMeta = this.config.metadata;
    if (includeMeta && msg) {
      for (const [k, v] of msg.metadata()) if (includeMeta(k)) headers[k] = String(v);
    }
    return headers;
  }

  /**
   * Sets the Authorization header of one attempt: OAuth 1 signs each with a new nonce, and an
   * OAuth 2 token (which wins, as in the reference) may have expired since the last.
   */
  private async authorize(url: string, headers: OutgoingHttpHeaders, body: Uint8Array | null): Promise<void> {
    if (this.oauth2) {
      headers.authorization = await this.oauth2.authorization();
      return;
    }
    if (!this.signer.active) return;
    const type = Object.entries(headers).find(([k]) => k.toLowerCase() === 'content-type')?.[1];
    const form =
      body && /application\/x-www-form-urlencoded/i.test(String(type ?? ''))
        ? Buffer.from(body).toString()
        : undefined;
    const value = this.signer.authorization(this.config.verb, new URL(url), form);
    if (value) headers.authorization = value;
  }

  private async awaitRateLimit(): Promise<void> {
    const name = this.config.rate_limit;
    if (!name) return;
    for (;;) {
      const wait = await this.ctx.resources.useRateLimit(name, (rl) => rl.access());
      if (wait <= 0) return;
      if (!(await sleep(wait, this.stop.signal))) return;
    }
  }

  /** Sends one request through the agent of its scheme; it is destroyed once `timer` fires. */
  private start(
    verb: string,
    target: URL,
    headers: OutgoingHttpHeaders,
    body: Uint8Array | null,
  ): { req: ClientRequest; timer: NodeJS.Timeout } {
    const isHttps = target.protocol === 'https:';
    const send = isHttps ? nodeHttps().request : nodeHttp().request;
    const req = send(target, {
      ...(isHttps ? this.requestTls : undefined),
      method: verb,
      headers: body ? { ...headers, 'content-length': body.byteLength } : headers,
      agent: isHttps ? this.httpsAgent : this.httpAgent,
      signal: this.stop.signal,
    });
    const timer = setTimeout(
      () => req.destroy(new Error(`timed out after ${this.timeoutMs}ms`)),
      this.timeoutMs,
    );
    return { req, timer };
  }

  private request(
    verb: string,
    url: string,
    headers: OutgoingHttpHeaders,
    body: Uint8Array | null,
    redirects = 0,
  ): Promise<HttpResponse> {
    return new Promise((resolve, reject) => {
      const target = new URL(url);
      const { req, timer } = this.start(verb, target, headers, body);
      req.on('error', (err) => {
        clearTimeout(timer);
        reject(err);
      });
      req.on('response', (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', (err) => {
          clearTimeout(timer);
          reject(err);
        });
        res.on('end', () => {
          clearTimeout(timer);
          const status = res.statusCode ?? 0;
          const location = res.headers.location;
          if (this.config.follow_redirects && location && status >= 301 && status <= 308 && status !== 304) {
            if (redirects >= MAX_REDIRECTS) return reject(new Error('stopped after 10 redirects'));
            // 301/302/303 turn into a GET without a body, as browsers and Go's client do.
            const keepMethod = status === 307 || status === 308;
            const next = new URL(location, target).toString();
            const nextHeaders = { ...headers };
            if (!keepMethod) delete nextHeaders['content-type'];
            this.request(
              keepMethod ? verb : 'GET',
              next,
              nextHeaders,
              keepMethod ? body : null,
              redirects + 1,
            ).then(resolve, reject);
            return;
          }
          resolve({
            status,
            headers: res.headers,
            body: chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks),
          });
        });
      });
      req.end(body ?? undefined);
    });
  }

  private dumpLevel(): string {
    return this.config.dump_request_log_level.toLowerCase();
  }

  private dump(url: string, res: HttpResponse): void {
    const level = this.dumpLevel() as 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal';
    this.logger[level]({ url, status: res.status, headers: res.headers }, 'HTTP request dump');
  }
}
