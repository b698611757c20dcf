// The one service-wide HTTP server: every endpoint of the process (built-ins, streams API, stream
// components) is registered here and served at its path and at `root_path + path`. Stream endpoints
// sit in a second router consulted only when no route of the server's own answers, so a stream can
// never shadow the management API (the reference matches in registration order, API first).
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { nodeHttp } from '../base/lazy_builtins.js';
import type { EndpointHandler } from '../engine/context.js';
import { errorMessage } from '../engine/errors.js';
import type { RouteDoc } from '../engine/route_declaration.js';
import { type ListenAddress, parseListenAddress } from '../listener/address.js';
import { bodyTooLarge, declaredTooLarge, setProcessBodyLimit, tagBodyLimit } from '../listener/body_limit.js';
import { type CorsLayer, createCorsLayer } from '../listener/cors.js';
import { HttpError } from '../listener/http_error.js';
import { listenError } from '../listener/listen_error.js';
import { closeListener, type ListenerTimeouts, openListener } from '../listener/listener.js';
import { sendError } from '../listener/respond.js';
import { markUpgrade } from '../listener/upgrade.js';
import { type AuthVerdict, type BasicAuthenticator, createBasicAuthenticator } from './basic-auth.js';
import { registerBuiltinEndpoints } from './builtin-endpoints.js';
import {
  type HttpConfig,
  type HttpConfigInput,
  resolveHttpConfig,
  timeoutMs,
  validateHttpConfig,
} from './config.js';
import { registerDebugEndpoints, type SanitisedConfigSource } from './debug-endpoints.js';
import { type Endpoint, EndpointTier } from './endpoint_tier.js';
import { openApiDocument } from './openapi.js';
import { createSiteGuard, isLoopbackHost, type SiteGuard } from './site_guard.js';
import { type BuildInfo, buildInfo } from './version.js';

export interface ServerLogger {
  error(obj: object, msg: string): void;
  warn?(msg: string): void;
}

export interface HttpTimeouts extends ListenerTimeouts {
  /** On close(), how long in-flight requests may finish before their connections are cut. */
  closeGraceMs: number;
}

export interface HttpServerOptions {
  config?: HttpConfigInput;
  /** Serves `/metrics` and `/stats`; absent (metrics type `none`) → both 404. */
  metricsHandler?: EndpointHandler;
  /** For `/debug/config/*`: the loaded config with secrets scrubbed. */
  sanitisedConfig?: SanitisedConfigSource;
  logger?: ServerLogger;
  /** Overrides what `/version` reports (defaults to package.json). */
  buildInfo?: BuildInfo;
  /** Overrides the config's `read_header_timeout`/`read_timeout` and the fixed ones (tests). */
  timeouts?: Partial<HttpTimeouts>;
}

/** Not configurable; the header and request limits come from the `http` config section. */
const FIXED_TIMEOUTS = { keepAliveMs: 5_000, closeGraceMs: 10_000 };

export class HttpServer {
  readonly config: HttpConfig;
  /** Built-ins, the streams API, process-level components: always matched first. */
  private readonly own: EndpointTier;
  /** Endpoints of streams' components, matched only where no own route answers. */
  private readonly streams: EndpointTier;
  private readonly cors: CorsLayer | undefined;
  private readonly siteGuard: SiteGuard;
  private readonly auth: BasicAuthenticator | undefined;
  private readonly listenAddress: ListenAddress | undefined;
  private readonly timeouts: HttpTimeouts;
  private readonly logger: ServerLogger | undefined;
  private server: Server | undefined;
  /** The listener's port, once it listens (see the site guard). */
  private boundPort: number | undefined;

  /** Throws a ConfigError with the reference's startup message when the config cannot be served. */
  constructor(options: HttpServerOptions = {}) {
    this.config = resolveHttpConfig(options.config);
    validateHttpConfig(this.config);
    this.own = new EndpointTier(this.config.root_path);
    this.streams = new EndpointTier(this.config.root_path);
    if (this.config.enabled) this.listenAddress = parseListenAddress(this.config.address);
    this.cors = this.config.cors.enabled ? createCorsLayer(this.config.cors) : undefined;
    this.siteGuard = createSiteGuard({
      allowedOrigins: this.config.cors.enabled ? this.config.cors.allowed_origins : [],
      listenHost: this.listenAddress?.host,
      // Cached once listening: server.address() is a getsockname call, and the guard runs on every
      // request to an own route (an http_server input's path in normal mode among them).
      port: () => this.boundPort ?? this.port,
    });
    this.auth = this.config.basic_auth.enabled ? createBasicAuthenticator(this.config.basic_auth) : undefined;
    this.timeouts = {
      headersMs: timeoutMs(this.config, 'read_header_timeout'),
      requestMs: timeoutMs(this.config, 'read_timeout'),
      ...FIXED_TIMEOUTS,
      ...options.timeouts,
    };
    this.logger = options.logger;
    setProcessBodyLimit(this.config.max_body_size);

    const register = this.register.bind(this);
    const build = options.buildInfo ?? buildInfo();
    registerBuiltinEndpoints(register, build, {
      listEndpoints: () => this.endpoints(),
      openApi: () => this.openApi(build.version),
      metricsHandler: options.metricsHandler,
    });
    if (this.config.debug_endpoints)
      registerDebugEndpoints(register, options.sanitisedConfig ?? (() => ({})));
  }

  /** Mounts handler at `path` and `root_path + path`; an existing registration of `path` is replaced. */
  register(path: string, description: string, handler: EndpointHandler, doc?: RouteDoc): void {
    this.own.add({ path, description, handler, doc });
  }

  /** Like register, for a stream's endpoint: every route registered with `register` wins over it. */
  registerStreamEndpoint(path: string, description: string, handler: EndpointHandler, doc?: RouteDoc): void {
    this.streams.add({ path, description, handler, doc });
  }

  /** The server's own route (not a stream's) that answers a request for `path`, if any. */
  ownRouteFor(path: string): string | undefined {
    return this.own.match(path)?.value.path;
  }

  /** Removes one path registered with `register` (both mounts); returns whether it existed. */
  unregister(path: string): boolean {
    return this.own.remove(path);
  }

  /** Removes one path registered with `registerStreamEndpoint`; returns whether it existed. */
  unregisterStreamEndpoint(path: string): boolean {
    return this.streams.remove(path);
  }

  /**
   * Removes `prefix` and every path below it, segment-wise: `/foo` removes `/foo` and `/foo/ready`, not
   * `/foobar`. Returns how many paths were removed.
   */
  unregisterPrefix(prefix: string): number {
    const below = prefix.endsWith('/') ? prefix : `${prefix}/`;
    let removed = 0;
    for (const path of this.own.paths()) {
      if (path === prefix || path.startsWith(below)) removed += this.unregister(path) ? 1 : 0;
    }
    return removed;
  }

  /** Registered paths (un-prefixed) → description, keys sorted like Go's encoding/json. */
  endpoints(): Record<string, string> {
    const out: Record<string, string> = {};
    for (const route of this.routes()) out[route.path] = route.description;
    return out;
  }

  /** The OpenAPI 3.1 document of the routes registered now. */
  openApi(version = buildInfo().version): Record<string, unknown> {
    return openApiDocument(this.routes(), { version, rootPath: this.config.root_path });
  }

  /** Every registered route (un-prefixed), sorted by path; an own route hides a stream's. */
  routes(): Endpoint[] {
    const paths = new Set([...this.own.paths(), ...this.streams.paths()]);
    return [...paths].sort().map((path) => (this.own.get(path) ?? this.streams.get(path)) as Endpoint);
  }

  /** Opens the listener (no-op with `enabled: false`). Port 0 picks a free port; see `port`. */
  async listen(): Promise<void> {
    if (!this.listenAddress || this.server) return;
    const tls = this.isTls ? { certFile: this.config.cert_file, keyFile: this.config.key_file } : {};
    this.server = await openListener({
      address: this.config.address,
      ...tls,
      timeouts: this.timeouts,
      onRequest: this.handle,
      onUpgrade: this.handleUpgrade,
      listenError: (err) => listenError(err, this.config.address),
      onServerError: (err) => this.logger?.error({ err }, 'http server error'),
    });
    this.boundPort = this.port;
    this.warnIfApiIsOpen();
  }

  /** The streams API on a reachable address with no auth lets anyone on the network run configs. */
  private warnIfApiIsOpen(): void {
    if (!this.own.get('/streams') || this.auth || isLoopbackHost(this.listenAddress?.host)) return;
    this.logger?.warn?.(
      `the streams API listens on ${this.config.address} without http.basic_auth: anyone who can reach it can run configs (which may read files and env); bind to 127.0.0.1 or enable basic auth`,
    );
  }

  /** The bound address once listening. */
  address(): AddressInfo | undefined {
    const address = this.server?.address();
    return address && typeof address === 'object' ? address : undefined;
  }

  get port(): number | undefined {
    return this.address()?.port;
  }

  get isTls(): boolean {
    return this.config.cert_file !== '' && this.config.key_file !== '';
  }

  /** Stops accepting, closes idle keep-alive connections, and cuts busy ones after the grace period. */
  async close(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    this.boundPort = undefined;
    await closeListener(server, this.timeouts.closeGraceMs);
  }

  /** The request entry point (public so the server can be embedded or driven directly). */
  readonly handle = (req: IncomingMessage, res: ServerResponse): void => {
    try {
      tagBodyLimit(req, this.config.max_body_size);
      if (this.cors?.(req, res)) return;
      if (declaredTooLarge(req, this.config.max_body_size)) throw bodyTooLarge(this.config.max_body_size);
      const path = requestPath(req.url);
      if (path === undefined) {
        sendError(res, 400, 'Bad Request');
        return;
      }
      const own = this.own.match(path);
      // Stream endpoints (http_server inputs...) keep their own CORS rules; the server's own routes
      // (API, playground, built-ins) take no request a web page sent from elsewhere.
      const refusal = own ? this.siteGuard(req) : undefined;
      if (refusal !== undefined) {
        if (mayHaveBody(req)) res.setHeader('Connection', 'close');
        sendError(res, 403, `Forbidden: ${refusal}`);
        return;
      }
      const match = own ?? this.streams.match(path);
      // Behind auth an unknown path is 401 like a known one: 401 against 404 would list stream ids.
      const handler = match ? match.value.handler : notFound;
      this.authorizeThenInvoke(handler, req, res, match ? match.params : {});
    } catch (err) {
      this.fail(res, err);
    }
  };

  /**
   * An upgrade (websocket) request goes through the same CORS, routing and auth; the endpoint takes
   * the socket with upgradeOf(req), and any plain answer it gives closes the connection.
   */
  private readonly handleUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer): void => {
    // (The listener already drops a socket that errors before ws takes it over.)
    const res = new (nodeHttp().ServerResponse)(req);
    res.assignSocket(socket as Socket);
    res.shouldKeepAlive = false;
    res.on('finish', () => socket.end());
    markUpgrade(req, socket, head);
    this.handle(req, res);
  };

  private authorizeThenInvoke(
    handler: EndpointHandler,
    req: IncomingMessage,
    res: ServerResponse,
    params: Record<string, string>,
  ): void {
    if (!this.auth) {
      this.invoke(handler, req, res, params);
      return;
    }
    const verdict = this.auth.check(req);
    if (typeof verdict !== 'string') {
      verdict.then(
        (v) => this.afterAuth(v, handler, req, res, params),
        (err) => this.fail(res, err),
      );
      return;
    }
    this.afterAuth(verdict, handler, req, res, params);
  }

  private afterAuth(
    verdict: AuthVerdict,
    handler: EndpointHandler,
    req: IncomingMessage,
    res: ServerResponse,
    params: Record<string, string>,
  ): void {
    if (verdict === 'ok') {
      this.invoke(handler, req, res, params);
    } else if (verdict === 'busy') {
      res.setHeader('Retry-After', '1');
      sendError(res, 429, 'Too Many Requests');
    } else {
      // A body an unauthenticated client is still sending is not worth reading: close after the 401.
      if (mayHaveBody(req)) res.setHeader('Connection', 'close');
      res.setHeader('WWW-Authenticate', (this.auth as BasicAuthenticator).challenge);
      sendError(res, 401, 'Unauthorized');
    }
  }

  private invoke(
    handler: EndpointHandler,
    req: IncomingMessage,
    res: ServerResponse,
    params: Record<string, string>,
  ): void {
    try {
      const result = handler(req, res, params);
      if (result) result.then(undefined, (err: unknown) => this.fail(res, err));
    } catch (err) {
      this.fail(res, err);
    }
  }

  /** A failing handler never takes the process down: HttpError → its status, anything else → 500. */
  private fail(res: ServerResponse, err: unknown): void {
    if (res.headersSent || res.writableEnded) {
      res.destroy();
      return;
    }
    if (err instanceof HttpError) {
      // The unread rest of an oversized body is not worth draining: drop the connection after replying.
      if (err.status === 413) res.setHeader('Connection', 'close');
      sendError(res, err.status, err.message);
      return;
    }
    this.logger?.error({ err }, `http handler failed: ${errorMessage(err)}`);
    sendError(res, 500, 'Internal Server Error');
  }
}

/** The request announced a body (which nobody will read when it is refused). */
function mayHaveBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

const notFound: EndpointHandler = (_req, res) => sendError(res, 404, '404 page not found');

/** The decoded path of a request target (origin-form or absolute-form), or undefined if malformed. */
function requestPath(url: string | undefined): string | undefined {
  if (url === undefined) return '/';
  let end = url.indexOf('?');
  if (end < 0) end = url.length;
  let path = url.slice(0, end);
  if (!path.startsWith('/')) {
    try {
      path = new URL(url).pathname;
    } catch {
      return undefined;
    }
  }
  if (!path.includes('%')) return path;
  try {
    return decodeURIComponent(path);
  } catch {
    return undefined;
  }
}
