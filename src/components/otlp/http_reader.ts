// The otlp_http input's reader: an own listener serving /v1/traces, /v1/logs and /v1/metrics.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzip } from 'node:zlib';
import type { ConfigOf } from '../../config/spec.js';
import type { InputReader, Transaction } from '../../engine/component.js';
import type { BuildContext } from '../../engine/context.js';
import { readWholeBody } from '../../listener/body.js';
import { HttpError } from '../../listener/http_error.js';
import { closeListener, openListener } from '../../listener/listener.js';
import { sendError } from '../../listener/respond.js';
import type { Signal } from './codec.js';
import type { otlpHttpInputFields } from './fields.js';
import { ClosingError, OtlpReceiver } from './receiver.js';

type Config = ConfigOf<typeof otlpHttpInputFields>;

const SIGNAL_OF_PATH: Record<string, Signal> = {
  '/v1/traces': 'trace',
  '/v1/logs': 'log',
  '/v1/metrics': 'metric',
};

export class OtlpHttpReader implements InputReader {
  private readonly receiver: OtlpReceiver;
  private server: Server | null = null;

  constructor(
    private readonly config: Config,
    private readonly ctx: BuildContext,
  ) {
    this.receiver = new OtlpReceiver(config.encoding);
  }

  boundAddress(): AddressInfo | null {
    const addr = this.server?.address();
    return addr && typeof addr === 'object' ? addr : null;
  }

  async connect(): Promise<void> {
    if (this.server) return;
    const { address, tls } = this.config;
    this.server = await openListener({
      address,
      ...(tls.enabled ? { certFile: tls.cert_file, keyFile: tls.key_file } : {}),
      timeouts: { requestMs: this.config.read_timeout },
      exclusive: !this.config.tcp?.reuse_port,
      onRequest: (req, res) => {
        this.handle(req, res).catch((err: unknown) => {
          this.ctx.logger.warn({ err }, 'otlp_http input: request failed');
          sendError(res, 500, 'Internal error');
        });
      },
      listenError: (err) => new Error(`otlp_http input: listen on ${address}: ${err.message}`),
      onServerError: (err) => this.ctx.logger.error({ err }, 'otlp_http input: server error'),
    });
  }

  read(): Promise<Transaction | null> {
    return this.receiver.read();
  }

  readBuffered(): Transaction | undefined {
    return this.receiver.readBuffered();
  }

  async close(): Promise<void> {
    this.receiver.close();
    const server = this.server;
    this.server = null;
    if (server) await closeListener(server, 1_000);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const signal = SIGNAL_OF_PATH[(req.url ?? '/').split('?')[0] ?? ''];
    if (signal === undefined) return drain(req, res, 404, 'Not found');
    if (req.method !== 'POST') return drain(req, res, 405, 'Method not allowed');
    const token = this.config.auth_token;
    if (token && req.headers.authorization !== `Bearer ${token}`) return drain(req, res, 401, 'Unauthorized');
    const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
    const json = type === 'application/json';
    if (!json && type !== 'application/x-protobuf') {
      return drain(req, res, 415, 'Unsupported content type: use application/x-protobuf or application/json');
    }
    const encoding = (req.headers['content-encoding'] ?? '').toLowerCase();
    if (encoding !== '' && encoding !== 'identity' && encoding !== 'gzip') {
      return drain(req, res, 415, `Unsupported content encoding ${encoding}`);
    }
    const limit = this.config.max_body_size;
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > limit) return drain(req, res, 413, 'Request body too large');
    let body: Buffer;
    try {
      body = await new Promise<Buffer>((resolve, reject) => readWholeBody(req, limit, resolve, reject));
      if (encoding === 'gzip') body = await gunzipBounded(body, limit);
    } catch (err) {
      if (err instanceof HttpError) return drain(req, res, err.status, err.message);
      return sendError(res, 400, `Reading the request body: ${(err as Error).message}`);
    }
    if (this.config.rate_limit) {
      const wait = await this.ctx.resources.useRateLimit(this.config.rate_limit, (rl) => rl.access());
      if (wait > 0) {
        res.setHeader('Retry-After', String(Math.ceil(wait / 1000)));
        return sendError(res, 429, 'Too many requests');
      }
    }
    let outcome: Promise<Error | null>;
    try {
      outcome = this.receiver.submit(signal, body, json, this.config.write_timeout);
    } catch (err) {
      return sendError(res, 400, `Malformed OTLP request: ${(err as Error).message}`);
    }
    const err = await outcome;
    if (err) {
      if (!(err instanceof ClosingError)) this.ctx.logger.debug({ err }, 'otlp_http input: delivery failed');
      return sendError(res, 503, `Delivery failed: ${err.message}`);
    }
    res.statusCode = 200;
    if (json) {
      res.setHeader('Content-Type', 'application/json');
      res.end('{}');
    } else {
      res.setHeader('Content-Type', 'application/x-protobuf');
      res.end();
    }
  }
}

/** Answers without reading the body (the rest flows past unread). */
function drain(req: IncomingMessage, res: ServerResponse, status: number, message: string): void {
  req.resume();
  sendError(res, status, message);
}

function gunzipBounded(body: Buffer, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    gunzip(body, { maxOutputLength: limit }, (err, out) => {
      if (!err) resolve(out);
      else if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') {
        reject(new HttpError(413, 'Request body too large'));
      } else reject(new HttpError(400, `Bad gzip body: ${err.message}`));
    });
  });
}
