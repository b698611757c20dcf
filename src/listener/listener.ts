// The one way nekton opens an HTTP listener (the main server, and http_server inputs and outputs
// with an own `address`): TLS from cert/key files, slow-client deadlines, and one socket error
// policy, so that no client (a reset, a half-open upgrade) can ever crash the process.
import { readFile } from 'node:fs/promises';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { nodeHttp, nodeHttps } from '../base/lazy_builtins.js';
import { parseListenAddress } from './address.js';

export interface ListenerTimeouts {
  /** Time allowed to receive the request headers (slow-loris guard); 0 = no limit. */
  headersMs: number;
  /** Time allowed to receive the whole request; 0 = no limit. */
  requestMs: number;
  /** How long an idle keep-alive connection stays open. */
  keepAliveMs: number;
}

/** The main server's defaults (`http.read_header_timeout` / `read_timeout`), for every listener. */
export const DEFAULT_TIMEOUTS: ListenerTimeouts = {
  headersMs: 10_000,
  requestMs: 60_000,
  keepAliveMs: 5_000,
};

export interface ListenerOptions {
  /** Go-style `host:port`; port 0 picks a free port. */
  address: string;
  /** TLS when either is set (both are then read; a missing one fails the listen). */
  certFile?: string;
  keyFile?: string;
  timeouts?: Partial<ListenerTimeouts>;
  /** False lets several processes bind the port (`tcp.reuse_port`). */
  exclusive?: boolean;
  onRequest: (req: IncomingMessage, res: ServerResponse) => void;
  /** Takes an upgrade (websocket) request; without it every upgrade socket is dropped. */
  onUpgrade?: (req: IncomingMessage, socket: Duplex, head: Buffer) => void;
  /** Turns a failed listen into the caller's error (the port is taken...). */
  listenError: (err: Error) => unknown;
  /** Where errors of the server after it listens go. */
  onServerError?: (err: Error) => void;
}

/** Opens the listener; resolves once it accepts connections. */
export async function openListener(options: ListenerOptions): Promise<Server> {
  const server = await createServer(options);
  const timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts };
  server.headersTimeout = timeouts.headersMs;
  server.requestTimeout = timeouts.requestMs;
  server.keepAliveTimeout = timeouts.keepAliveMs;
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    // Node hands an upgraded socket over with no 'error' listener: a reset would be uncaught and
    // kill the process. Whoever takes the socket over (ws) adds its own; this one just drops it.
    socket.on('error', () => socket.destroy());
    if (options.onUpgrade) options.onUpgrade(req, socket, head);
    else socket.destroy();
  });
  const { host, port } = parseListenAddress(options.address);
  await new Promise<void>((resolve, reject) => {
    const failed = (err: Error) => reject(options.listenError(err));
    server.once('error', failed);
    server.listen({ host, port, exclusive: options.exclusive ?? false }, () => {
      server.off('error', failed);
      resolve();
    });
  });
  server.on('error', options.onServerError ?? (() => undefined));
  return server;
}

/**
 * Stops accepting, closes idle keep-alive connections, and cuts busy ones after `graceMs` (0: at
 * once). Resolves once every connection is gone.
 */
export function closeListener(server: Server, graceMs: number): Promise<void> {
  return new Promise<void>((resolve) => {
    const force = setTimeout(() => server.closeAllConnections(), graceMs);
    force.unref();
    server.close(() => {
      clearTimeout(force);
      resolve();
    });
    if (graceMs === 0) server.closeAllConnections();
    else server.closeIdleConnections();
  });
}

async function createServer(options: ListenerOptions): Promise<Server> {
  const timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts };
  const serverOptions = { connectionsCheckingInterval: checkingIntervalMs(timeouts) };
  if (!options.certFile && !options.keyFile) return nodeHttp().createServer(serverOptions, options.onRequest);
  const [cert, key] = await Promise.all([readFile(options.certFile ?? ''), readFile(options.keyFile ?? '')]);
  return nodeHttps().createServer({ ...serverOptions, cert, key }, options.onRequest);
}

/** How often Node checks the header/request deadlines: at most 5s, finer for shorter limits. */
function checkingIntervalMs({ headersMs, requestMs }: ListenerTimeouts): number {
  const limits = [headersMs, requestMs].filter((ms) => ms > 0);
  return Math.max(10, Math.min(5_000, ...limits));
}
