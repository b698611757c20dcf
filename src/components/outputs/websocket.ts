// The `websocket` output: a websocket client that sends each message as one frame (binary) to
// `url`. A write counts as done once the frame was handed to the socket; a lost connection makes
// the engine reconnect and send the batch again.
import type { Agent } from 'node:http';
import type WebSocket from 'ws';

// Loaded on first connect: ws costs ~50 ms of start-up for configs that never use it.
let WebSocketClient: typeof WebSocket | undefined;

import { type ConfigOf, defineComponent, type FieldSpec, field } from '../../config/spec.js';
import type { Output, OutputWriter } from '../../engine/component.js';
import { errorMessage, NotConnectedError } from '../../engine/errors.js';
import { LostConnection } from '../../engine/lost_connection.js';
import type { Batch } from '../../message/message.js';
import { authFields, type BasicAuthConfig } from '../fields/http_client.js';
import { type TlsConfig, tlsField, tlsOptions } from '../fields/tls.js';
import type { JwtSettings } from '../http/auth/jwt.js';
import { authLint } from '../http/auth/lint.js';
import type { OAuth1Credentials } from '../http/auth/oauth1.js';
import { parseProxyUrl, tunnelAgent } from '../http/auth/proxy.js';
import { RequestSigner } from '../http/auth/signer.js';

const a = { advanced: true };

/** A shared field (not declared with typed builders yet) with the value type its factory reads. */
const typedAs = <T, N extends string>(spec: FieldSpec) => spec as FieldSpec<N, T>;
const authField = <T, N extends string>(name: N) =>
  typedAs<T | undefined, N>(authFields().find((f) => f.name === name) as FieldSpec);

const websocketFields = [
  field.string('url', 'The URL to connect to (`ws://` or `wss://`).', {
    examples: ['ws://localhost:4195/post/ws'],
  }),
  field.string('proxy_url', 'An HTTP proxy to connect through (a CONNECT tunnel).', {
    optional: true,
    ...a,
  }),
  typedAs<TlsConfig, 'tls'>(tlsField()),
  authField<{ enabled: boolean } & OAuth1Credentials, 'oauth'>('oauth'),
  authField<BasicAuthConfig, 'basic_auth'>('basic_auth'),
  authField<{ enabled: boolean } & JwtSettings, 'jwt'>('jwt'),
] as const;

type WebsocketOutputConfig = ConfigOf<typeof websocketFields>;

const CONNECT_TIMEOUT_MS = 10_000;

class WebsocketWriter implements OutputWriter {
  private socket: WebSocket | null = null;
  /** The socket still in its handshake, so close() can abort it instead of leaving a handle. */
  private pending: WebSocket | null = null;
  private closed = false;
  private readonly lost = new LostConnection();
  readonly onConnectionLost = this.lost.listen;

  constructor(
    private readonly config: WebsocketOutputConfig,
    private readonly signer: RequestSigner,
    private readonly agent: Agent | undefined,
  ) {}

  async connect(): Promise<void> {
    this.drop();
    let url: URL;
    try {
      url = new URL(this.config.url);
    } catch {
      throw new Error(`websocket: ${JSON.stringify(this.config.url)} is not a valid URL`);
    }
    // The handshake is a GET: OAuth 1 signs that (the reference signs an empty method).
    const authorization = this.signer.authorization('GET', url);
    const headers: Record<string, string> = authorization ? { authorization } : {};
    const tls = await tlsOptions(this.config.tls);
    if (this.closed) throw new Error('websocket: output closed');
    WebSocketClient ??= (await import('ws')).default;
    if (this.closed) throw new Error('websocket: output closed');
    const socket = new WebSocketClient(url, {
      headers,
      handshakeTimeout: CONNECT_TIMEOUT_MS,
      ...(this.agent ? { agent: this.agent } : {}),
      ...(tls ?? {}),
    });
    // Errors after the handshake show as a closed socket on the next write; never unhandled.
    socket.on('error', () => undefined);
    this.pending = socket;
    try {
      await new Promise<void>((resolve, reject) => {
        socket.once('open', () => resolve());
        socket.once('error', (err) => reject(new Error(`websocket ${url.origin}: ${errorMessage(err)}`)));
        socket.once('unexpected-response', (_req, res) => {
          socket.terminate();
          reject(new Error(`websocket ${url.origin}: the server answered HTTP ${res.statusCode}`));
        });
      });
    } finally {
      if (this.pending === socket) this.pending = null;
    }
    if (this.closed) {
      socket.terminate();
      throw new Error('websocket: output closed');
    }
    this.socket = socket;
    // An idle output learns of a dropped connection only here: tell the engine (/ready, reconnect).
    socket.once('close', () => {
      if (this.socket === socket && !this.closed)
        this.lost.report(new Error(`websocket ${url.origin}: connection closed`));
    });
  }

  async write(batch: Batch): Promise<void> {
    const socket = this.socket;
    if (!socket || socket.readyState !== socket.OPEN) {
      this.drop();
      throw new NotConnectedError(`websocket ${this.config.url}: connection closed`);
    }
    await Promise.all(
      batch.map(
        (msg) =>
          new Promise<void>((resolve, reject) =>
            socket.send(msg.bytes(), { binary: true }, (err) =>
              err
                ? reject(new NotConnectedError(`websocket ${this.config.url}: ${errorMessage(err)}`))
                : resolve(),
            ),
          ),
      ),
    );
  }

  async close(): Promise<void> {
    this.closed = true;
    // Aborting a handshake in progress makes connect() reject at once.
    this.pending?.terminate();
    this.pending = null;
    this.drop();
  }

  private drop(): void {
    const socket = this.socket;
    this.socket = null;
    socket?.terminate();
  }
}

export const spec = defineComponent({
  name: 'websocket',
  kind: 'output',
  status: 'stable',
  categories: ['Network'],
  summary: 'Sends each message as a binary frame over a websocket connection to a server.',
  description:
    "A write is done once its frames were handed to the socket: websockets have no acknowledgement, so a message sent just before the connection drops can be lost unless the server answers at a higher level. A lost connection makes nekton reconnect with backoff. The handshake carries `basic_auth`, a `jwt` bearer token or an `oauth` (1.0a) signature of its GET; `proxy_url` connects through an HTTP proxy's CONNECT tunnel.",
  fields: websocketFields,
  examples: [
    {
      title: 'Forward lines to a websocket server',
      config: `input:
  stdin: {}
output:
  websocket:
    url: ws://localhost:8080/ingest
`,
    },
  ],
  lint: (config) => authLint(config),
  build: async (config, ctx): Promise<Output> => {
    const signer = await RequestSigner.create(config, ctx.path);
    const agent = config.proxy_url ? await tunnelAgent(parseProxyUrl(config.proxy_url, ctx.path)) : undefined;
    return ctx.wrapWriter(new WebsocketWriter(config, signer, agent));
  },
});
