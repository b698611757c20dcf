// The `http_server` output: clients pull messages. A GET on `path` receives one batch, a request
// on `stream_path` a chunked response that carries every batch as it comes, and a websocket on
// `ws_path` one websocket message per message. A batch is acknowledged once written to a client.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { WebSocket, WebSocketServer } from 'ws';
import { type ConfigOf, defineComponent, field } from '../../config/spec.js';
import type { Output, OutputWriter } from '../../engine/component.js';
import { stopController } from '../../engine/stop_signal.js';
import { type CorsLayer, createCorsLayer } from '../../listener/cors.js';
import { closeListener, openListener } from '../../listener/listener.js';
import { sendError } from '../../listener/respond.js';
import { upgradeOf } from '../../listener/upgrade.js';
import { type Batch, serialiseBatch } from '../../message/message.js';
import { listenerTlsCorsFields } from '../fields/http_listener.js';
import { BatchHandoff, type Offer } from '../http/handoff.js';
import { encodeMultipart } from '../http/multipart.js';

const a = { advanced: true };

export const httpServerOutputFields = [
  field.string('address', 'Listen on this address with an own server instead of the shared one.', {
    default: '',
    examples: ['0.0.0.0:8081'],
  }),
  field.string('path', 'The endpoint that answers each request with one message.', { default: '/get' }),
  field.string('stream_path', 'The endpoint that streams messages in one chunked response.', {
    default: '/get/stream',
  }),
  field.string('ws_path', 'The websocket endpoint.', { default: '/get/ws' }),
  field.array(
    field.string('allowed_verbs', 'HTTP methods accepted on `path` and `stream_path`.', {
      default: ['GET'],
      examples: [['GET', 'POST']],
    }),
  ),
  field.duration('timeout', 'How long a request on `path` waits for a message before a 408.', {
    default: '5s',
    ...a,
  }),
  ...listenerTlsCorsFields(),
] as const;

/** What the output's factory receives (`timeout` in ms). */
export type HttpServerOutputConfig = ConfigOf<typeof httpServerOutputFields>;

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

export class HttpServerWriter implements OutputWriter {
  private readonly handoff = new BatchHandoff();
  private readonly allowedVerbs: Set<string>;
  private readonly timeoutMs: number;
  private readonly cors: CorsLayer | null;
  /** Created on connect (ws is loaded then: ~50 ms of start-up saved for configs without it). */
  private wss: WebSocketServer | null = null;
  /** Aborted on close: ends open stream responses and websocket loops. */
  private readonly stop = stopController();
  private server: Server | null = null;
  private streamClients = 0;

  constructor(private readonly config: HttpServerOutputConfig) {
    this.allowedVerbs = new Set(config.allowed_verbs.map((v) => v.toUpperCase()));
    this.timeoutMs = config.timeout;
    this.cors = config.cors.enabled ? createCorsLayer(config.cors) : null;
  }

  /** The endpoints to serve: path → handler, for an own server or the shared one. */
  endpoints(): [path: string, description: string, handler: Handler][] {
    const out: [string, string, Handler][] = [];
    const { path, stream_path, ws_path } = this.config;
    if (path) out.push([path, 'Read one message (batch) per request.', this.withCors(this.serveGet)]);
    if (stream_path)
      out.push([stream_path, 'Read a continuous stream of messages.', this.withCors(this.serveStream)]);
    if (ws_path) out.push([ws_path, 'Read messages over a websocket.', this.serveWsRequest]);
    return out;
  }

  /** How many stream and websocket clients are being served right now. */
  activeStreamClients(): number {
    return this.streamClients;
  }

  /** The bound address of an own server (`address` set), e.g. for tests binding port 0. */
  boundAddress(): AddressInfo | null {
    const addr = this.server?.address();
    return addr && typeof addr === 'object' ? addr : null;
  }

  async connect(): Promise<void> {
    if (this.config.ws_path && !this.wss) {
      const { WebSocketServer } = await import('ws');
      this.wss ??= new WebSocketServer({ noServer: true });
    }
    if (!this.config.address || this.server) return;
    const routes = new Map(this.endpoints().map(([p, , h]) => [p, h]));
    const { address, cert_file, key_file, ws_path } = this.config;
    this.server = await openListener({
      address,
      certFile: cert_file,
      keyFile: key_file,
      onRequest: (req, res) => {
        const route = routes.get((req.url ?? '/').split('?')[0] ?? '/');
        if (route) route(req, res);
        else sendError(res, 404, 'Not found');
      },
      onUpgrade: (req, socket, head) => {
        const wss = this.wss;
        if (wss && ws_path && (req.url ?? '/').split('?')[0] === ws_path) {
          wss.handleUpgrade(req, socket, head, (ws) => void this.serveWs(ws));
        } else socket.destroy();
      },
      listenError: (err) => new Error(`http_server output: listen on ${address}: ${err.message}`),
    });
  }

  write(batch: Batch): Promise<void> {
    // Encoded here, where a failure fails the write: a client's handler would throw it uncaught.
    try {
      serialiseBatch(batch);
    } catch (err) {
      return Promise.reject(err);
    }
    return this.handoff.offer(batch);
  }

  async close(): Promise<void> {
    this.handoff.close(new Error('http_server output closed before a client took the message'));
    this.stop.abort();
    if (this.wss) {
      for (const ws of this.wss.clients) ws.terminate();
      this.wss.close();
    }
    const server = this.server;
    this.server = null;
    // Stream clients were told to stop above: cut every connection at once.
    if (server) await closeListener(server, 0);
  }

  private readonly serveGet: Handler = (req, res) => {
    if (!this.allowedVerbs.has(req.method ?? '')) return sendError(res, 405, 'Incorrect method');
    const wait = AbortSignal.any([this.clientGone(res), AbortSignal.timeout(this.timeoutMs)]);
    void this.handoff.take(wait).then((offer) => {
      if (!offer) {
        if (!res.destroyed) sendError(res, 408, 'Timed out waiting for message');
        return;
      }
      if (res.destroyed) return offer.giveBack();
      const { body, contentType } = bodyOf(offer.batch);
      res.writeHead(200, { 'Content-Type': contentType });
      res.end(body, () => offer.delivered());
      res.once('close', () => offer.giveBack()); // no-op once delivered
    });
  };

  private readonly serveStream: Handler = (req, res) => {
    if (!this.allowedVerbs.has(req.method ?? '')) return sendError(res, 405, 'Incorrect method');
    res.writeHead(200, { 'Content-Type': 'application/octet-stream' });
    res.flushHeaders();
    const gone = this.clientGone(res);
    void this.pump(gone, async (offer) => {
      // A client that just went away may still be the first in line: its write never completes.
      return new Promise<boolean>((resolve) => {
        if (res.destroyed) return resolve(false);
        const onClose = () => resolve(false);
        res.once('close', onClose);
        res.write(streamChunkOf(offer.batch), (err) => {
          res.off('close', onClose);
          resolve(!err);
        });
      });
    }).finally(() => res.end());
  };

  private readonly serveWsRequest: Handler = (req, res) => {
    const upgrade = upgradeOf(req);
    if (!upgrade) return sendError(res, 426, 'Expected a websocket upgrade');
    const wss = this.wss;
    if (!wss) return sendError(res, 503, 'Not connected yet');
    res.detachSocket(upgrade.socket as Socket);
    wss.handleUpgrade(req, upgrade.socket, upgrade.head, (ws) => void this.serveWs(ws));
  };

  private async serveWs(ws: WebSocket): Promise<void> {
    const closed = new AbortController();
    ws.once('close', () => closed.abort());
    await this.pump(AbortSignal.any([closed.signal, this.stop.signal]), async (offer) => {
      for (const msg of offer.batch) {
        if (ws.readyState !== ws.OPEN) return false;
        const ok = await new Promise<boolean>((resolve) => ws.send(msg.bytes(), (err) => resolve(!err)));
        if (!ok) return false;
      }
      return true;
    });
    if (ws.readyState === ws.OPEN) ws.close(1001, 'server closing');
  }

  /** Sends batches to one client until it goes away; a batch it failed to take goes to the next. */
  private async pump(gone: AbortSignal, send: (offer: Offer) => Promise<boolean>): Promise<void> {
    this.streamClients++;
    try {
      for (;;) {
        const offer = await this.handoff.take(gone);
        if (!offer) return;
        if (await send(offer)) offer.delivered();
        else {
          offer.giveBack();
          return;
        }
      }
    } finally {
      this.streamClients--;
    }
  }

  /** Fires when the response closes (the client disconnected) or the output closes. */
  private clientGone(res: ServerResponse): AbortSignal {
    const gone = new AbortController();
    res.once('close', () => gone.abort());
    return AbortSignal.any([gone.signal, this.stop.signal]);
  }

  private withCors(handler: Handler): Handler {
    const cors = this.cors;
    if (!cors) return handler;
    return (req, res) => {
      if (!cors(req, res)) handler(req, res);
    };
  }
}

/** One message as is; a batch as multipart/mixed (as Benthos answers a GET). */
function bodyOf(batch: Batch): { body: Uint8Array; contentType: string } {
  if (batch.length === 1)
    return { body: (batch[0] as Batch[number]).bytes(), contentType: 'application/octet-stream' };
  return encodeMultipart(
    batch.map((m) => ({ headers: { 'Content-Type': 'application/octet-stream' }, body: m.bytes() })),
  );
}

/** As Benthos writes a stream: a single message as is, a batch joined by newlines plus one more. */
function streamChunkOf(batch: Batch): Uint8Array {
  if (batch.length === 1) return (batch[0] as Batch[number]).bytes();
  const parts: Uint8Array[] = [];
  for (const m of batch) parts.push(m.bytes(), NEWLINE);
  return Buffer.concat(parts);
}

const NEWLINE = Buffer.from('\n');

export const spec = defineComponent({
  name: 'http_server',
  kind: 'output',
  status: 'stable',
  categories: ['Network'],
  summary: 'Serves messages to HTTP clients: one per GET, a continuous stream, or a websocket.',
  description:
    'With an empty `address` the endpoints live on the shared HTTP server (under `/<stream id>` in streams mode); otherwise on an own server at `address`. A GET (or another verb of `allowed_verbs`) on `path` waits up to `timeout` for a message and answers it (a batch as multipart/mixed), or 408. A request on `stream_path` receives every message as it comes in one chunked response (a batch as lines), and a websocket client on `ws_path` one websocket message per message. Writes block until a client takes the message, which is acknowledged once it was written to that client; a message whose client disconnects first goes to the next client. Messages still waiting at shutdown are nacked.',
  fields: httpServerOutputFields,
  examples: [
    {
      title: 'Serve generated messages to pulling clients',
      config: `input:
  generate:
    interval: 1s
    mapping: 'root = {"at": now()}'
output:
  http_server:
    path: /latest
    stream_path: /latest/stream
    ws_path: /latest/ws
`,
    },
  ],
  build(config, ctx): Output {
    const writer = new HttpServerWriter(config);
    if (!config.address) {
      for (const [path, description, handler] of writer.endpoints()) {
        ctx.registerEndpoint(path, description, handler);
      }
    }
    return ctx.wrapWriter(writer);
  },
});
