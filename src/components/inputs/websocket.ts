// The `websocket` input: a websocket client whose received frames are messages; reconnects when
// the connection drops.
import type { Agent } from 'node:http';
import type WebSocket from 'ws';
import { type ConfigOf, defineComponent, type FieldSpec, field } from '../../config/spec.js';
import type { Input, InputReader, Transaction } from '../../engine/component.js';
import { errorMessage, NotConnectedError } from '../../engine/errors.js';
import { Message } from '../../message/message.js';
import { authFields, type BasicAuthConfig } from '../fields/http_client.js';
import { type TlsConfig, tlsField, tlsOptions } from '../fields/tls.js';
import type { JwtSettings } from '../http/auth/jwt.js';
import { authLint } from '../http/auth/lint.js';
import type { OAuth1Credentials } from '../http/auth/oauth1.js';
import { parseProxyUrl, tunnelAgent } from '../http/auth/proxy.js';
import { RequestSigner } from '../http/auth/signer.js';
import { BoundedMessageQueue } from './socket_stream.js';

// Loaded on first connect: ws costs start-up time for configs that never use it.
let WebSocketClient: typeof WebSocket | undefined;

const a = { advanced: true } as const;
const QUEUE_CAPACITY = 1024;
const CONNECT_TIMEOUT_MS = 10_000;

const typedAs = <T, N extends string>(spec: FieldSpec) => spec as FieldSpec<N, T>;
const authField = <T, N extends string>(name: N) =>
  typedAs<T | undefined, N>(authFields().find((f) => f.name === name) as FieldSpec);

const websocketFields = [
  field.string('url', 'The URL to connect to (`ws://` or `wss://`).', {
    examples: ['ws://localhost:4195/get/ws'],
  }),
  field.string('proxy_url', 'An HTTP proxy to connect through (a CONNECT tunnel).', {
    optional: true,
    ...a,
  }),
  field.string('open_message', 'A message to send once connected, before reading.', { optional: true, ...a }),
  field.enum('open_message_type', 'The frame type of `open_message`.', ['binary', 'text'], {
    default: 'binary',
    ...a,
  }),
  field.int(
    'max_message_size',
    'The largest frame accepted, in bytes; 0 keeps the client default (100 MiB).',
    {
      default: 0,
      ...a,
    },
  ),
  field.bool('auto_replay_nacks', 'Re-deliver nacked messages inside nekton instead of dropping them.', {
    default: true,
  }),
  typedAs<TlsConfig, 'tls'>(tlsField()),
  field.object(
    'connection',
    'Connection settings.',
    [
      field.int('max_retries', 'Reconnection attempts before giving up (nekton retries without limit).', {
        optional: true,
        ...a,
      }),
    ],
    { optional: true, ...a },
  ),
  authField<{ enabled: boolean } & OAuth1Credentials, 'oauth'>('oauth'),
  authField<BasicAuthConfig, 'basic_auth'>('basic_auth'),
  authField<{ enabled: boolean } & JwtSettings, 'jwt'>('jwt'),
] as const;

type WebsocketInputConfig = ConfigOf<typeof websocketFields>;

interface Connection {
  socket: WebSocket;
  queue: BoundedMessageQueue;
  why: string;
}

export class WebsocketReader implements InputReader {
  private connection: Connection | null = null;
  private pending: WebSocket | null = null;
  private closed = false;

  constructor(
    private readonly config: WebsocketInputConfig,
    private readonly signer: RequestSigner,
    private readonly agent: Agent | undefined,
  ) {}

  async connect(): Promise<void> {
    if (this.connection) return;
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
    WebSocketClient ??= (await import('ws')).default;
    if (this.closed) throw new Error('websocket: input closed');
    const socket = new WebSocketClient(url, {
      headers,
      handshakeTimeout: CONNECT_TIMEOUT_MS,
      ...(this.agent ? { agent: this.agent } : {}),
      ...(this.config.max_message_size > 0 ? { maxPayload: this.config.max_message_size } : {}),
      ...(tls ?? {}),
    });
    socket.on('error', () => undefined);
    // Handlers go on before the handshake ends: frames sent with the upgrade response come at once.
    const connection: Connection = { socket, queue: new BoundedMessageQueue(QUEUE_CAPACITY), why: '' };
    socket.on('message', (data: Buffer | ArrayBuffer | Buffer[]) => {
      const bytes = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as ArrayBuffer);
      const queued = connection.queue.push([new Message(bytes)]);
      // Full: stop reading frames (TCP then slows the server) until there is room again.
      if (connection.queue.size >= QUEUE_CAPACITY) {
        socket.pause();
        void queued.then(() => socket.resume());
      }
    });
    socket.once('close', (code, reason) => {
      connection.why = `connection closed (${code}${reason.length ? ` ${reason.toString()}` : ''})`;
      connection.queue.finish();
    });
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
      throw new Error('websocket: input closed');
    }
    if (this.config.open_message) {
      const binary = this.config.open_message_type === 'binary';
      await new Promise<void>((resolve, reject) =>
        socket.send(this.config.open_message as string, { binary }, (err) =>
          err ? reject(new Error(`websocket: failed to send open message: ${err.message}`)) : resolve(),
        ),
      ).catch((err: unknown) => {
        socket.terminate();
        throw err;
      });
    }
    this.connection = connection;
  }

  async read(): Promise<Transaction | null> {
    const connection = this.connection;
    if (!connection) throw new NotConnectedError(`websocket ${this.config.url}: not connected`);
    const txn = await connection.queue.next();
    if (txn) return txn;
    if (this.closed) return null;
    if (this.connection === connection) this.connection = null;
    throw new NotConnectedError(`websocket ${this.config.url}: ${connection.why || 'connection closed'}`);
  }

  readBuffered(): Transaction | undefined {
    return this.connection?.queue.nextBuffered();
  }

  async close(): Promise<void> {
    this.closed = true;
    this.pending?.terminate();
    this.pending = null;
    const connection = this.connection;
    this.connection = null;
    connection?.queue.end();
    connection?.socket.terminate();
  }
}

export const spec = defineComponent({
  name: 'websocket',
  kind: 'input',
  status: 'stable',
  categories: ['Network'],
  summary: 'Connects to a websocket server and consumes each frame it sends as a message.',
  description: `Once connected, \`open_message\` (if set) is sent as a \`binary\` or \`text\` frame, then every frame received becomes a message. When the connection drops, the frames already received are delivered and nekton reconnects with backoff (without limit: \`connection.max_retries\` is accepted but not applied).

A websocket cannot be told that a message failed, so with \`auto_replay_nacks\` (the default) failed messages are retried inside nekton. At most 1024 frames wait to be read; beyond that the socket is paused, so TCP slows the server down. The handshake carries \`basic_auth\`, a \`jwt\` bearer token or an \`oauth\` (1.0a) signature of its GET; \`proxy_url\` connects through an HTTP proxy's CONNECT tunnel.`,
  fields: websocketFields,
  examples: [
    {
      title: 'Subscribe, then consume frames',
      config: `input:
  websocket:
    url: ws://localhost:8080/feed
    open_message: '{"subscribe":"prices"}'
    open_message_type: text
output:
  stdout: {}
`,
    },
  ],
  lint: (config) => authLint(config),
  build: async (config, ctx): Promise<Input> => {
    const signer = await RequestSigner.create(config, ctx.path);
    const agent = config.proxy_url ? await tunnelAgent(parseProxyUrl(config.proxy_url, ctx.path)) : undefined;
    return ctx.wrapReader(new WebsocketReader(config, signer, agent), {
      autoReplayNacks: config.auto_replay_nacks,
    });
  },
});
