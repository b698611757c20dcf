// The `amqp_0_9` output: publishes to an exchange of an AMQP 0.9.1 broker (RabbitMQ) on a
// confirm channel; a batch counts as written only once the broker confirmed every message of it.
import { Writable } from 'node:stream';
import type { ChannelModel, ConfirmChannel, ConsumeMessage, Options } from 'amqplib';
import type { Interpolation } from '../../bloblang/index.js';
import { type ComponentSpec, field } from '../../config/spec.js';
import type { Output, OutputWriter } from '../../engine/component.js';
import type { BuildContext } from '../../engine/context.js';
import { errorMessage, NotConnectedError } from '../../engine/errors.js';
import { LostConnection } from '../../engine/lost_connection.js';
import { type Batch, Message } from '../../message/message.js';
import { type AmqpConnection, connectionName, dialAny } from '../amqp/connection.js';
import { closeQuietly } from '../connection/close_quietly.js';
import { expandUrls } from '../connection/urls.js';
import { durationMs } from '../fields/duration.js';
import { type TlsConfig, tlsField } from '../fields/tls.js';
import { queueArguments } from '../inputs/amqp_0_9.js';

/** A channel the broker closed over a refused command (AMQP soft errors 403, 404, 406), not a lost link. */
const SOFT_CHANNEL_ERROR = /^channel error: .*\b(403|404|406) \(/;

export interface AmqpOutputConfig {
  urls: string[];
  exchange: string;
  exchange_declare?: { enabled: boolean; type: string; durable: boolean; arguments?: Record<string, string> };
  key: string;
  type: string;
  content_type: string;
  content_encoding: string;
  correlation_id: string;
  reply_to: string;
  expiration: string;
  message_id: string;
  user_id: string;
  app_id: string;
  metadata: { exclude_prefixes: string[] };
  priority: string;
  max_in_flight: number;
  persistent: boolean;
  mandatory: boolean;
  immediate: boolean;
  timeout: string;
  tls: TlsConfig;
}

/** The interpolated fields, parsed once. */
type Templates = Record<
  | 'exchange'
  | 'key'
  | 'type'
  | 'content_type'
  | 'content_encoding'
  | 'correlation_id'
  | 'reply_to'
  | 'expiration'
  | 'message_id'
  | 'user_id'
  | 'app_id'
  | 'priority',
  Interpolation
>;

interface Publisher {
  link: AmqpConnection;
  channel: ConfirmChannel;
  open: boolean;
  /** Why the channel went away, for the NotConnectedError of writes caught by it. */
  lostReason: string;
  /** Messages the broker returned as unroutable (`mandatory`), checked by the write that sent them. */
  returned: ConsumeMessage[];
  /** The connection's socket, when amqplib exposes it (see holdWrites). */
  socket: Writable | null;
  /** Whether holdWrites has the socket corked. */
  corked: boolean;
  /** Frames were published while corked, after the muxer may have run: hold one more turn. */
  heldAgain: boolean;
}

/** The socket under an amqplib connection (an internal of amqplib: null if it ever moves). */
function socketOf(model: ChannelModel): Writable | null {
  const stream = (model as unknown as { connection?: { stream?: unknown } }).connection?.stream;
  return stream instanceof Writable ? stream : null;
}

/** One message ready to publish. */
interface Outgoing {
  exchange: string;
  key: string;
  content: Buffer;
  options: Options.Publish;
}

export class AmqpWriter implements OutputWriter {
  private readonly urls: string[];
  private readonly timeoutMs: number;
  private publisher: Publisher | null = null;
  /** The values of the templates without interpolations. */
  private readonly fixed: Partial<Record<keyof Templates, string>> = {};

  constructor(
    private readonly config: AmqpOutputConfig,
    private readonly templates: Templates,
    private readonly connectionName = 'nekton amqp_0_9 output',
  ) {
    this.urls = expandUrls(config.urls);
    if (this.urls.length === 0) throw new Error('amqp_0_9: urls must name at least one broker');
    this.timeoutMs = durationMs(config.timeout, 'timeout');
    for (const [name, template] of Object.entries(templates) as [keyof Templates, Interpolation][])
      if (template.isStatic) this.fixed[name] = template.render([], 0);
  }

  /** Set by close(): a connect() still dialling then hangs up instead of keeping the link. */
  private closed = false;
  private readonly lost = new LostConnection();
  readonly onConnectionLost = this.lost.listen;

  async connect(): Promise<void> {
    await this.drop();
    const link = await dialAny(this.urls, this.config.tls, this.connectionName);
    const { connection, address } = link;
    const publisher: Publisher = {
      link,
      channel: null as unknown as ConfirmChannel,
      open: true,
      lostReason: '',
      returned: [],
      socket: socketOf(connection),
      corked: false,
      heldAgain: false,
    };
    const lost = (why: string) => {
      if (!publisher.open) return;
      publisher.open = false;
      publisher.lostReason = why;
    };
    // An idle output learns of a loss only here: tell the engine (/ready, reconnect), once the
    // connection is fully closed (reconnecting on 'error' would wait on a close in progress).
    const closed = () => {
      if (this.publisher === publisher && !this.closed)
        this.lost.report(new Error(`amqp_0_9 ${address}: ${publisher.lostReason || 'connection closed'}`));
    };
    // Listeners first: an unhandled 'error' event would crash the process.
    connection.on('error', (err: Error) => lost(`connection error: ${err.message}`));
    connection.on('close', (err?: Error) => {
      lost(`connection closed${err ? `: ${err.message}` : ''}`);
      closed();
    });
    try {
      const channel = await connection.createConfirmChannel();
      publisher.channel = channel;
      // Every write in flight waits on 'close' (confirms, and 'drain' under backpressure): up to
      // two listeners per write is expected, not a leak, so Node's default warning at 10 is raised.
      channel.setMaxListeners(2 * Math.max(1, this.config.max_in_flight) + 10);
      channel.on('error', (err: Error) => lost(`channel error: ${err.message}`));
      channel.on('close', () => lost('channel closed'));
      channel.on('return', (msg: ConsumeMessage) => publisher.returned.push(msg));
      this.corkDrainWrites(publisher);
      const declare = this.config.exchange_declare;
      if (declare?.enabled) {
        await channel.assertExchange(this.templates.exchange.render([new Message('')], 0), declare.type, {
          durable: declare.durable,
          arguments: queueArguments(declare.arguments),
        });
      }
    } catch (err) {
      publisher.open = false;
      await closeQuietly(connection);
      throw new Error(`amqp_0_9 ${address}: cannot open a publishing channel: ${errorMessage(err)}`);
    }
    if (this.closed) {
      publisher.open = false;
      await closeQuietly(connection);
      return;
    }
    this.publisher = publisher;
  }

  write(batch: Batch): Promise<void> {
    return this.publish([batch]);
  }

  /** Publishes every message of the batches, then waits for all their confirms at once. */
  writeGroup(batches: readonly Batch[]): Promise<void> {
    return this.publish(batches);
  }

  private async publish(batches: readonly Batch[]): Promise<void> {
    const publisher = this.publisher;
    if (!publisher?.open) throw this.notConnected(publisher);
    // Render everything first: a bad value fails the write before anything is published.
    const sent: Outgoing[] = [];
    for (const batch of batches)
      for (let i = 0; i < batch.length; i++) sent.push(this.outgoing(batch, i, batch[i]!));
    if (sent.length === 0) return;
    const confirms = this.confirmer(publisher, sent.length);
    for (const { exchange, key, content, options } of sent) {
      let ok: boolean;
      try {
        ok = publisher.channel.publish(exchange, key, content, options, confirms.callback);
      } catch (err) {
        // amqplib throws synchronously once the channel is closed.
        if (!publisher.open) throw this.notConnected(publisher);
        throw err;
      }
      // Respect the socket's backpressure before publishing more.
      if (!ok) {
        this.holdWrites(publisher);
        await this.drained(publisher);
      }
    }
    this.holdWrites(publisher);
    // A channel that closes leaves its confirms unsettled: wake up and reconnect instead.
    const onClose = () => confirms.fail(this.notConnected(publisher));
    publisher.channel.once('close', onClose);
    let timer: NodeJS.Timeout | undefined;
    if (this.timeoutMs > 0)
      timer = setTimeout(
        () =>
          confirms.fail(
            new Error(
              `amqp_0_9 ${publisher.link.address}: no publisher confirm within ${this.config.timeout}`,
            ),
          ),
        this.timeoutMs,
      );
    try {
      await confirms.all;
    } finally {
      clearTimeout(timer);
      publisher.channel.off('close', onClose);
    }
    this.checkReturned(publisher, sent);
  }

  /**
   * One promise for the confirms of `count` publishes (a callback and a counter, not a promise per
   * message): resolves when all are confirmed, rejects at the first nack or failure.
   */
  private confirmer(publisher: Publisher, count: number) {
    let left = count;
    let resolve!: () => void;
    let reject!: (err: Error) => void;
    const all = new Promise<void>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    // Rejections are awaited later (or never, when publishing itself failed).
    all.catch(() => undefined);
    const callback = (err: unknown) => {
      if (!err) {
        if (--left === 0) resolve();
        return;
      }
      // amqplib fails the confirms of a closing channel too: that one means reconnect and resend.
      const message = err instanceof Error ? err.message : String(err);
      if (message === 'message nacked')
        reject(new Error(`amqp_0_9 ${publisher.link.address}: the broker nacked the message`));
      else reject(this.notConnected(publisher, message));
    };
    return { all, callback, fail: reject };
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.drop();
  }

  /**
   * amqplib writes every frame with its own socket write, one syscall each (a quarter of the CPU
   * in W4). Its muxer writes in a setImmediate, so holding the socket corked until the immediate
   * after it turns the frames published now into one writev. Only one hold at a time, always
   * released a turn later, so concurrent writes never keep the socket corked.
   */
  private holdWrites(publisher: Publisher): void {
    const socket = publisher.socket;
    if (!socket) return;
    if (publisher.corked) {
      publisher.heldAgain = true;
      return;
    }
    publisher.corked = true;
    socket.cork();
    process.nextTick(() => setImmediate(() => this.releaseWrites(publisher, socket)));
  }

  private releaseWrites(publisher: Publisher, socket: Writable): void {
    publisher.corked = false;
    socket.uncork();
    if (!publisher.heldAgain) return;
    publisher.heldAgain = false;
    this.holdWrites(publisher);
  }

  /**
   * After the socket drains, the muxer writes the frames it held back one by one in its 'drain'
   * listener: cork around that listener too (prepended, so it runs first).
   */
  private corkDrainWrites(publisher: Publisher): void {
    const socket = publisher.socket;
    socket?.prependListener('drain', () => {
      if (publisher.corked) return;
      socket.cork();
      process.nextTick(() => socket.uncork());
    });
  }

  /** Resolves on 'drain', or once the channel is gone (the confirms then fail the write). */
  private drained(publisher: Publisher): Promise<void> {
    if (!publisher.open) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const done = () => {
        publisher.channel.off('drain', done);
        publisher.channel.off('close', done);
        resolve();
      };
      publisher.channel.once('drain', done);
      publisher.channel.once('close', done);
    });
  }

  /** The broker returns an unroutable `mandatory` message before it confirms it: fail the write that sent it. */
  private checkReturned(publisher: Publisher, sent: Outgoing[]): void {
    if (publisher.returned.length === 0) return;
    for (const [i, r] of publisher.returned.entries()) {
      const match = sent.find(
        (s) =>
          s.exchange === r.fields.exchange && s.key === r.fields.routingKey && s.content.equals(r.content),
      );
      if (!match) continue;
      publisher.returned.splice(i, 1);
      const reply = r.fields as unknown as { replyCode?: number; replyText?: string };
      throw new Error(
        `amqp_0_9 ${publisher.link.address}: message to exchange '${match.exchange}' with key '${match.key}' was returned: ${reply.replyCode ?? ''} ${reply.replyText ?? 'unroutable'}`.trim(),
      );
    }
  }

  private outgoing(batch: Batch, i: number, msg: Message): Outgoing {
    return {
      exchange: this.render('exchange', batch, i),
      key: this.render('key', batch, i),
      content: Buffer.from(msg.bytes()),
      options: this.publishOptions(batch, i, msg),
    };
  }

  /** A template's value for message i (static ones rendered once, at construction). */
  private render(name: keyof Templates, batch: Batch, i: number): string {
    return this.fixed[name] ?? this.templates[name].render(batch, i);
  }

  private publishOptions(batch: Batch, i: number, msg: Message): Options.Publish {
    const t = (name: keyof Templates) => this.render(name, batch, i) || undefined;
    const options: Options.Publish = {
      contentType: t('content_type'),
      contentEncoding: t('content_encoding'),
      type: t('type'),
      correlationId: t('correlation_id'),
      replyTo: t('reply_to'),
      expiration: t('expiration'),
      messageId: t('message_id'),
      userId: t('user_id'),
      appId: t('app_id'),
      deliveryMode: this.config.persistent ? 2 : 1,
      mandatory: this.config.mandatory,
      headers: this.headers(msg),
    };
    if (this.config.immediate) (options as Record<string, unknown>).immediate = true;
    const priority = this.render('priority', batch, i);
    if (priority !== '') {
      const n = Number(priority);
      if (!Number.isInteger(n) || n < 0 || n > 9)
        throw new Error(`amqp_0_9: priority must be an integer from 0 to 9, got '${priority}'`);
      options.priority = n;
    }
    return options;
  }

  private headers(msg: Message): Record<string, unknown> {
    const excluded = this.config.metadata.exclude_prefixes;
    const headers: Record<string, unknown> = {};
    for (const [k, v] of msg.metadata()) {
      if (excluded.some((p) => k.startsWith(p))) continue;
      headers[k] = typeof v === 'string' ? v : v instanceof Uint8Array ? Buffer.from(v) : JSON.stringify(v);
    }
    return headers;
  }

  /**
   * Why a write failed when the channel went away. The broker closing the channel over the write
   * itself (a soft error: 404 no such exchange, 403 access refused...) is a failed write, nacked
   * and replayed with backoff; reconnecting at once and publishing the same message again would
   * only loop (about 20 times a second, seen with an exchange that does not exist).
   */
  private notConnected(publisher: Publisher | null, fallback = 'channel closed'): Error {
    if (!publisher) return new NotConnectedError('amqp_0_9: not connected');
    const why = `amqp_0_9 ${publisher.link.address}: ${publisher.lostReason || fallback}`;
    if (SOFT_CHANNEL_ERROR.test(publisher.lostReason)) return new Error(why);
    return new NotConnectedError(why);
  }

  private async drop(): Promise<void> {
    const publisher = this.publisher;
    this.publisher = null;
    if (!publisher) return;
    publisher.open = false;
    await closeQuietly(publisher.link.connection);
  }
}

const a = { advanced: true };
const ai = { advanced: true, interpolated: true };

export const spec: ComponentSpec<AmqpOutputConfig, Output> = {
  name: 'amqp_0_9',
  kind: 'output',
  status: 'stable',
  categories: ['Services'],
  summary: 'Publishes messages to an exchange of an AMQP 0.9.1 broker such as RabbitMQ.',
  description:
    'Publishes on a confirm channel: a batch is written once the broker has confirmed every message of it, and a broker nack, a returned `mandatory` message or a `timeout` fails the batch so the input nacks it (or a `retry`/`fallback` takes over). A lost connection is re-established with backoff and the batch published again.\n\n' +
    'Message metadata is sent as headers, except keys starting with one of `metadata.exclude_prefixes`. `immediate` is not supported by RabbitMQ 3+: it closes the connection.',
  fields: [
    field.array(
      field.string(
        'urls',
        'Brokers to connect to, tried in order until one accepts; an entry may hold several URLs separated by commas.',
        { examples: [['amqp://guest:guest@127.0.0.1:5672/']] },
      ),
    ),
    field.string('exchange', 'The exchange to publish to (`""` is the default exchange).', {
      interpolated: true,
    }),
    field.object(
      'exchange_declare',
      'Declare the exchange on connect (if it exists, its settings must match).',
      [
        field.bool('enabled', 'Whether to declare the exchange.', { default: false, ...a }),
        field.string('type', 'The exchange type.', {
          default: 'direct',
          ...a,
          options: ['direct', 'fanout', 'topic', 'headers', 'x-custom'],
        }),
        field.bool('durable', 'Whether the declared exchange survives a broker restart.', {
          default: true,
          ...a,
        }),
        field.map(
          field.string('arguments', 'Exchange arguments, e.g. `alternate-exchange`.', {
            optional: true,
            ...a,
            examples: [{ 'alternate-exchange': 'my-ae' }],
          }),
        ),
      ],
      { optional: true, ...a },
    ),
    field.string('key', 'The routing key of each message.', {
      default: '',
      interpolated: true,
      // biome-ignore lint/suspicious/noTemplateCurlyInString: Bloblang interpolation, not a JS template
      examples: ['orders.${! json("kind") }'],
    }),
    field.string('type', 'The message type property.', { default: '', interpolated: true }),
    field.string('content_type', 'The content type property.', {
      default: 'application/octet-stream',
      ...ai,
    }),
    field.string('content_encoding', 'The content encoding property.', { default: '', ...ai }),
    field.string('correlation_id', 'The correlation id property.', { default: '', ...ai }),
    field.string('reply_to', 'The reply-to property.', { default: '', ...ai }),
    field.string('expiration', 'The per-message TTL in milliseconds, as a string.', { default: '', ...ai }),
    field.string('message_id', 'The message id property.', { default: '', ...ai }),
    field.string('user_id', 'The user id property (RabbitMQ checks it against the connection user).', {
      default: '',
      ...ai,
    }),
    field.string('app_id', 'The application id property.', { default: '', ...ai }),
    field.object('metadata', 'Which metadata is sent as headers.', [
      field.array(
        field.string('exclude_prefixes', 'Metadata keys starting with any of these are not sent.', {
          default: [],
        }),
      ),
    ]),
    field.string('priority', 'The message priority, 0 to 9 (empty: none).', {
      default: '',
      ...ai,
      // biome-ignore lint/suspicious/noTemplateCurlyInString: Bloblang interpolation, not a JS template
      examples: ['0', '${! meta("amqp_priority") }'],
    }),
    field.int('max_in_flight', 'The most batches being published at once.', { default: 64 }),
    field.bool('persistent', 'Publish persistent messages (delivery mode 2) that survive a broker restart.', {
      default: false,
      ...a,
    }),
    field.bool('mandatory', 'Fail a message the broker cannot route to any queue.', {
      default: false,
      ...a,
    }),
    field.bool('immediate', 'Set the immediate flag (not supported by RabbitMQ).', { default: false, ...a }),
    field.string(
      'timeout',
      'How long to wait for the broker to confirm a batch before failing it; empty waits indefinitely.',
      { default: '', ...a, examples: ['10s'] },
    ),
    tlsField(),
  ],
  examples: [
    {
      title: 'Publish to a topic exchange with a routing key from the message',
      config: `input:
  generate:
    count: 3
    interval: ''
    mapping: 'root = {"kind": "created", "id": counter()}'
output:
  amqp_0_9:
    urls: [ amqp://guest:guest@127.0.0.1:5672/ ]
    exchange: orders
    exchange_declare:
      enabled: true
      type: topic
    key: 'orders.\${! json("kind") }'
    persistent: true
    timeout: 10s
`,
    },
  ],
  build(config, ctx: BuildContext) {
    const names = [
      'exchange',
      'key',
      'type',
      'content_type',
      'content_encoding',
      'correlation_id',
      'reply_to',
      'expiration',
      'message_id',
      'user_id',
      'app_id',
      'priority',
    ] as const;
    const templates = Object.fromEntries(
      names.map((n) => [n, ctx.interpolation(config[n], n)]),
    ) as unknown as Templates;
    const writer = new AmqpWriter(config, templates, connectionName(ctx));
    return ctx.wrapWriter(writer, { maxInFlight: config.max_in_flight });
  },
};
