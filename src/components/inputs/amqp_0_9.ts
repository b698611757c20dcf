// The `amqp_0_9` input: consumes a queue of an AMQP 0.9.1 broker (RabbitMQ), acknowledging each
// message only once it was delivered, and nacking (requeueing) it when delivery failed.
import type { Channel, ChannelModel, ConsumeMessage } from 'amqplib';
import type { Logger } from 'pino';
import { type ComponentSpec, field } from '../../config/spec.js';
import type { GroupAckFn, Input, InputReader, Transaction } from '../../engine/component.js';
import type { BuildContext } from '../../engine/context.js';
import { errorMessage, NotConnectedError } from '../../engine/errors.js';
import { type Batch, Message } from '../../message/message.js';
import { compileConfigPatterns, type Pattern } from '../../regexp/index.js';
import { connectionName, dialAny } from '../amqp/connection.js';
import { closeQuietly } from '../connection/close_quietly.js';
import { expandUrls } from '../connection/urls.js';
import { type TlsConfig, tlsField } from '../fields/tls.js';
import { DeliveryQueue } from './delivery_queue.js';

export interface AmqpInputConfig {
  urls: string[];
  queue: string;
  queue_declare?: {
    enabled: boolean;
    durable: boolean;
    auto_delete: boolean;
    arguments?: Record<string, string>;
  };
  bindings_declare?: { exchange: string; key: string }[];
  consumer_tag: string;
  auto_ack: boolean;
  nack_reject_patterns: string[];
  prefetch_count: number;
  prefetch_size: number;
  tls: TlsConfig;
}

// Queue arguments RabbitMQ only accepts as numbers or booleans; the config gives strings.
const NUMERIC_QUEUE_ARGUMENTS = new Set([
  'x-max-length',
  'x-max-length-bytes',
  'x-message-ttl',
  'x-expires',
  'x-max-priority',
  'x-stream-max-segment-size-bytes',
  'x-queue-version',
  'x-consumer-timeout',
  'x-delivery-limit',
  'x-initial-cluster-size',
]);
const BOOLEAN_QUEUE_ARGUMENTS = new Set(['x-single-active-consumer']);

export function queueArguments(args: Record<string, string> | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(args ?? {})) {
    if (NUMERIC_QUEUE_ARGUMENTS.has(key) && /^-?\d+$/.test(value.trim())) out[key] = Number(value);
    else if (BOOLEAN_QUEUE_ARGUMENTS.has(key) && /^(true|false)$/i.test(value.trim()))
      out[key] = value.trim().toLowerCase() === 'true';
    else out[key] = value;
  }
  return out;
}

/** Header values as the reference writes them into metadata: strings, nested tables flattened into `parent_child` keys. */
function setHeaderMeta(msg: Message, key: string, value: unknown): void {
  const metaKey = key.replaceAll('-', '_');
  let text: string;
  if (value === null || value === undefined) return;
  if (typeof value === 'string') text = value;
  else if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint')
    text = String(value);
  else if (Buffer.isBuffer(value)) text = value.toString('utf8');
  else if (Array.isArray(value)) {
    value.forEach((v, i) => {
      setHeaderMeta(msg, `${metaKey}_${i}`, v);
    });
    return;
  } else if (typeof value === 'object') {
    const tagged = value as { '!'?: string; value?: unknown };
    if (tagged['!'] === 'timestamp')
      text = new Date(Number(tagged.value) * 1000).toISOString().replace('.000Z', 'Z');
    else if (tagged['!'] === 'decimal') {
      const { places, digits } = tagged.value as { places: number; digits: number };
      const s = String(digits).padStart(places + 1, '0');
      text = places > 0 ? `${s.slice(0, s.length - places)}.${s.slice(s.length - places)}` : s;
    } else {
      for (const [k, v] of Object.entries(value)) setHeaderMeta(msg, `${metaKey}_${k}`, v);
      return;
    }
  } else return;
  if (text !== '') msg.setMeta(metaKey, text);
}

function setMeta(msg: Message, key: string, value: string | number | boolean | undefined): void {
  if (value === undefined) return;
  const text = String(value);
  if (text !== '') msg.setMeta(key, text);
}

export function deliveryToMessage(delivery: ConsumeMessage): Message {
  const msg = new Message(delivery.content);
  const p = delivery.properties;
  const f = delivery.fields;
  for (const [k, v] of Object.entries(p.headers ?? {})) setHeaderMeta(msg, k, v);
  setMeta(msg, 'amqp_content_type', p.contentType);
  setMeta(msg, 'amqp_content_encoding', p.contentEncoding);
  if (p.deliveryMode) setMeta(msg, 'amqp_delivery_mode', p.deliveryMode);
  // The reference's client reports an absent priority as 0.
  setMeta(msg, 'amqp_priority', p.priority ?? 0);
  setMeta(msg, 'amqp_correlation_id', p.correlationId);
  setMeta(msg, 'amqp_reply_to', p.replyTo);
  setMeta(msg, 'amqp_expiration', p.expiration);
  setMeta(msg, 'amqp_message_id', p.messageId);
  if (p.timestamp) setMeta(msg, 'amqp_timestamp', p.timestamp);
  setMeta(msg, 'amqp_type', p.type);
  setMeta(msg, 'amqp_user_id', p.userId);
  setMeta(msg, 'amqp_app_id', p.appId);
  setMeta(msg, 'amqp_consumer_tag', f.consumerTag);
  setMeta(msg, 'amqp_delivery_tag', f.deliveryTag);
  setMeta(msg, 'amqp_redelivered', f.redelivered);
  setMeta(msg, 'amqp_exchange', f.exchange);
  setMeta(msg, 'amqp_routing_key', f.routingKey);
  return msg;
}

/**
 * Settles deliveries with the broker. Acks that extend the run of settled tags from the lowest
 * up are sent together as one `multiple` ack once the current callbacks are done (next tick: the
 * confirms of one reply settle several groups at once), as a hand-written consumer acks a prefetch
 * window; others go one by one at once, so a delivery still in flight
 * is never covered by a multiple ack and a slow one never holds back the acks of the rest.
 */
class Settler {
  /** Every delivery tag up to here is settled with the broker. */
  private sent = 0;
  /** The highest delivery of the acks waiting for the flush: they are exactly (sent, its tag]. */
  private runEnd: ConsumeMessage | null = null;
  /** Tags above `sent` settled one by one. */
  private readonly above = new Set<number>();
  private flushing = false;

  constructor(
    private readonly channel: Channel,
    private readonly onError: (err: unknown) => void,
  ) {}

  /** `deliveries` are distinct and unsettled; `requeue` undefined acks, else nacks. */
  settle(deliveries: readonly ConsumeMessage[], requeue?: boolean): void {
    if (requeue === undefined && this.extendRun(deliveries)) return;
    for (const d of deliveries) {
      if (requeue === undefined) this.channel.ack(d);
      else this.channel.nack(d, false, requeue);
      this.above.add(d.fields.deliveryTag);
    }
    if (!this.runEnd) this.advance();
  }

  /** Sends the pending multiple ack now (before the channel closes). */
  flush(): void {
    const end = this.runEnd;
    if (!end) return;
    this.runEnd = null;
    this.channel.ack(end, true);
    this.sent = end.fields.deliveryTag;
    this.advance();
  }

  /** Adds the deliveries to the pending run when they continue it without a gap. */
  private extendRun(deliveries: readonly ConsumeMessage[]): boolean {
    let low = Number.POSITIVE_INFINITY;
    let high = deliveries[0]!;
    for (const d of deliveries) {
      const tag = d.fields.deliveryTag;
      if (tag < low) low = tag;
      if (tag > high.fields.deliveryTag) high = d;
    }
    const edge = this.runEnd ? this.runEnd.fields.deliveryTag : this.sent;
    if (low !== edge + 1 || high.fields.deliveryTag - low !== deliveries.length - 1) return false;
    this.runEnd = high;
    if (!this.flushing) {
      this.flushing = true;
      process.nextTick(() => {
        this.flushing = false;
        try {
          this.flush();
        } catch (err) {
          this.onError(err);
        }
      });
    }
    return true;
  }

  private advance(): void {
    while (this.above.delete(this.sent + 1)) this.sent++;
  }
}

interface Consumer {
  connection: ChannelModel;
  channel: Channel;
  deliveries: DeliveryQueue<ConsumeMessage>;
  settler: Settler;
  open: boolean;
}

export class AmqpReader implements InputReader {
  private readonly urls: string[];
  private readonly rejectPatterns: Pattern[];
  private consumer: Consumer | null = null;
  private closed = false;

  constructor(
    private readonly config: AmqpInputConfig,
    private readonly logger: Logger,
    /** Shown by the broker (`rabbitmqctl list_connections client_properties`). */
    private readonly connectionName = 'nekton amqp_0_9 input',
  ) {
    this.urls = expandUrls(config.urls);
    if (this.urls.length === 0) throw new Error('amqp_0_9: urls must name at least one broker');
    this.rejectPatterns = compileConfigPatterns(
      config.nack_reject_patterns,
      'amqp_0_9: nack_reject_patterns',
    );
    if (config.prefetch_size > 0)
      logger.warn('prefetch_size is not supported by RabbitMQ nor by the client; it is ignored');
  }

  async connect(): Promise<void> {
    await this.drop();
    const { connection, address } = await dialAny(this.urls, this.config.tls, this.connectionName);
    const deliveries = new DeliveryQueue<ConsumeMessage>();
    const consumer: Consumer = {
      connection,
      channel: null as unknown as Channel,
      deliveries,
      settler: null as unknown as Settler,
      open: true,
    };
    const lost = (why: string) => {
      if (!consumer.open) return;
      consumer.open = false;
      deliveries.fail(new NotConnectedError(`amqp_0_9 ${address}: ${why}`));
    };
    // Listeners first: an unhandled 'error' event would crash the process.
    connection.on('error', (err: Error) => lost(`connection error: ${err.message}`));
    connection.on('close', (err?: Error) => lost(`connection closed${err ? `: ${err.message}` : ''}`));
    try {
      const channel = await connection.createChannel();
      consumer.channel = channel;
      consumer.settler = new Settler(channel, (err) => {
        // A channel already lost fails its acks too; the broker redelivers those messages.
        if (consumer.open)
          this.logger.warn(
            `amqp_0_9: failed to ack messages: ${errorMessage(err)}; the broker will redeliver them`,
          );
      });
      channel.on('error', (err: Error) => lost(`channel error: ${err.message}`));
      channel.on('close', () => lost('channel closed'));
      await this.setUp(channel);
      await channel.consume(
        this.config.queue,
        (delivery) => {
          // null: the broker cancelled the consumer (queue deleted...): reconnect and consume again.
          if (delivery === null) lost(`consumer of queue ${this.config.queue} cancelled by the broker`);
          else deliveries.push(delivery);
        },
        {
          noAck: this.config.auto_ack,
          ...(this.config.consumer_tag ? { consumerTag: this.config.consumer_tag } : {}),
        },
      );
    } catch (err) {
      consumer.open = false;
      await closeQuietly(connection);
      throw new Error(`amqp_0_9 ${address}: cannot consume queue ${this.config.queue}: ${errorMessage(err)}`);
    }
    if (this.closed) {
      consumer.open = false;
      await closeQuietly(connection);
      return;
    }
    this.consumer = consumer;
  }

  async read(): Promise<Transaction | null> {
    const consumer = this.consumer;
    if (!consumer) {
      if (this.closed) return null;
      throw new NotConnectedError('amqp_0_9: not connected');
    }
    const delivery = await consumer.deliveries.next();
    if (delivery === null) return null;
    return this.handOut(consumer, delivery);
  }

  /** The next delivery the broker already sent (prefetch), without a promise. */
  readBuffered(): Transaction | undefined {
    const consumer = this.consumer;
    const delivery = consumer?.open ? consumer.deliveries.take() : undefined;
    return delivery && this.handOut(consumer!, delivery);
  }

  /** Every delivery already sent (up to `max`), each a batch of one, settled through one ack. */
  readBufferedGroup(max: number): { batches: Batch[]; ack: GroupAckFn } | undefined {
    const consumer = this.consumer;
    if (!consumer?.open || consumer.deliveries.size < 2) return undefined;
    const deliveries = consumer.deliveries.takeMany(max);
    const batches = deliveries.map((d) => [deliveryToMessage(d)]);
    let index: Map<Batch, number> | null = null;
    const ack: GroupAckFn = async (err, settled) => {
      // Every batch is settled once: a settled set as large as the group is the whole group.
      if (settled.length === batches.length) return this.settle(consumer, deliveries, err);
      index ??= new Map(batches.map((b, i) => [b, i]));
      const some: ConsumeMessage[] = [];
      for (const batch of settled) {
        const at = index.get(batch);
        if (at !== undefined) some.push(deliveries[at]!);
      }
      if (some.length > 0) this.settle(consumer, some, err);
    };
    return { batches, ack };
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.drop();
  }

  private async setUp(channel: Channel): Promise<void> {
    const declare = this.config.queue_declare;
    if (declare?.enabled) {
      await channel.assertQueue(this.config.queue, {
        durable: declare.durable,
        autoDelete: declare.auto_delete,
        arguments: queueArguments(declare.arguments),
      });
    }
    for (const binding of this.config.bindings_declare ?? [])
      await channel.bindQueue(this.config.queue, binding.exchange, binding.key);
    await channel.prefetch(this.config.prefetch_count);
  }

  private handOut(consumer: Consumer, delivery: ConsumeMessage): Transaction {
    return {
      batch: [deliveryToMessage(delivery)],
      ack: async (err) => this.settle(consumer, [delivery], err),
    };
  }

  private settle(consumer: Consumer, deliveries: readonly ConsumeMessage[], err: Error | null): void {
    if (this.config.auto_ack) return;
    if (!consumer.open) {
      // The channel these came from is gone; the broker redelivers them on its own.
      this.logger.debug('amqp_0_9: channel closed before settling a message; the broker will redeliver it');
      return;
    }
    try {
      if (!err) consumer.settler.settle(deliveries);
      else {
        const reject = this.rejectPatterns.some((re) => re.test(err.message));
        consumer.settler.settle(deliveries, !reject);
      }
    } catch (e) {
      this.logger.warn(
        `amqp_0_9: failed to settle message: ${errorMessage(e)}; the broker will redeliver it`,
      );
    }
  }

  private async drop(): Promise<void> {
    const consumer = this.consumer;
    this.consumer = null;
    if (!consumer) return;
    // Acks still waiting for the end of the turn go out before the channel closes.
    if (consumer.open && !this.config.auto_ack) {
      try {
        consumer.settler.flush();
      } catch {
        // The channel is gone: the broker redelivers those messages.
      }
    }
    consumer.open = false;
    consumer.deliveries.end();
    // Even after a channel-level failure the connection itself may still be open.
    await closeQuietly(consumer.connection);
  }
}

const a = { advanced: true };

export const spec: ComponentSpec<AmqpInputConfig, Input> = {
  name: 'amqp_0_9',
  kind: 'input',
  status: 'stable',
  categories: ['Services'],
  summary: 'Consumes a queue of an AMQP 0.9.1 broker such as RabbitMQ.',
  description:
    'Each message is acknowledged once it was delivered by the output; when delivery fails it is nacked and requeued (or dropped/dead-lettered when the error matches `nack_reject_patterns`). A lost connection is re-established with backoff; unacknowledged messages are then redelivered by the broker with `amqp_redelivered` set.\n\n' +
    'Metadata: `amqp_content_type`, `amqp_content_encoding`, `amqp_delivery_mode`, `amqp_priority`, `amqp_correlation_id`, `amqp_reply_to`, `amqp_expiration`, `amqp_message_id`, `amqp_timestamp`, `amqp_type`, `amqp_user_id`, `amqp_app_id`, `amqp_consumer_tag`, `amqp_delivery_tag`, `amqp_redelivered`, `amqp_exchange`, `amqp_routing_key`, and every message header (dashes become underscores; nested tables become `parent_child` keys). Values are strings.\n\n' +
    'TLS is used for `amqps://` URLs, and for every URL when `tls.enabled` is set. `prefetch_size` is accepted but ignored: RabbitMQ does not implement it.',
  fields: [
    field.array(
      field.string(
        'urls',
        'Brokers to connect to, tried in order until one accepts; an entry may hold several URLs separated by commas.',
        {
          examples: [
            ['amqp://guest:guest@127.0.0.1:5672/'],
            ['amqp://127.0.0.1:5672/,amqp://127.0.0.2:5672/'],
          ],
        },
      ),
    ),
    field.string('queue', 'The queue to consume from.'),
    field.object(
      'queue_declare',
      'Declare the queue on connect (if it exists, its settings must match).',
      [
        field.bool('enabled', 'Whether to declare the queue.', { default: false, ...a }),
        field.bool('durable', 'Whether the declared queue survives a broker restart.', {
          default: true,
          ...a,
        }),
        field.bool('auto_delete', 'Whether the declared queue is deleted once its last consumer goes.', {
          default: false,
          ...a,
        }),
        field.map(
          field.string(
            'arguments',
            'Queue arguments (`x-queue-type`, `x-max-length`, `x-message-ttl`...); numeric and boolean ones are converted.',
            { optional: true, ...a, examples: [{ 'x-queue-type': 'quorum', 'x-max-length': '1000' }] },
          ),
        ),
      ],
      { optional: true, ...a },
    ),
    field.array(
      field.object(
        'bindings_declare',
        'Bindings of the queue to exchanges, declared on connect.',
        [
          field.string('exchange', 'The exchange to bind the queue to.', { default: '', ...a }),
          field.string('key', 'The binding (routing) key.', { default: '', ...a }),
        ],
        { optional: true, ...a, examples: [[{ exchange: 'orders', key: 'created' }]] },
      ),
    ),
    field.string('consumer_tag', 'The consumer tag; empty lets the broker choose one.', { default: '' }),
    field.bool(
      'auto_ack',
      'Let the broker consider messages acknowledged as soon as they are sent: faster, but messages are lost if delivery fails.',
      { default: false, ...a },
    ),
    field.array(
      field.string(
        'nack_reject_patterns',
        'Regular expressions over the delivery error: a match rejects the message without requeueing it (it goes to the dead-letter exchange if one is set).',
        { default: [], ...a, regexp: true, examples: [['^reject me please:.+$']] },
      ),
    ),
    field.int('prefetch_count', 'The most unacknowledged messages the broker sends at a time.', {
      default: 10,
    }),
    field.int(
      'prefetch_size',
      'The most unacknowledged bytes at a time (not implemented by RabbitMQ; ignored).',
      {
        default: 0,
        ...a,
      },
    ),
    tlsField(),
  ],
  examples: [
    {
      title: 'Consume a durable queue bound to an exchange',
      config: `input:
  amqp_0_9:
    urls: [ amqp://guest:guest@127.0.0.1:5672/ ]
    queue: orders
    queue_declare:
      enabled: true
      durable: true
    bindings_declare:
      - exchange: amq.direct
        key: orders
    prefetch_count: 50
output:
  stdout: {}
`,
    },
  ],
  build(config, ctx: BuildContext) {
    return ctx.wrapReader(new AmqpReader(config, ctx.logger, connectionName(ctx)));
  },
};
