// The writer of the `amqp_0_9` output: publishes on a confirm channel; a batch counts as written
// only once the broker confirmed every message of it.
import type { ConfirmChannel, ConsumeMessage, Options } from 'amqplib';
import { formatDuration } from '../../config/duration.js';
import type { OutputWriter } from '../../engine/component.js';
import { errorMessage, NotConnectedError } from '../../engine/errors.js';
import { LostConnection } from '../../engine/lost_connection.js';
import { type Batch, Message } from '../../message/message.js';
import { closeQuietly } from '../connection/close_quietly.js';
import { dialAny } from './connection.js';
import { type AmqpOutputConfig, type TemplateName, templateNames } from './output_fields.js';
import {
  checkReturned,
  corkDrainWrites,
  drained,
  holdWrites,
  type Outgoing,
  type Publisher,
  socketOf,
} from './publisher.js';
import { queueArguments } from './queue_arguments.js';

/** A channel the broker closed over a refused command (AMQP soft errors 403, 404, 406), not a lost link. */
const SOFT_CHANNEL_ERROR = /^channel error: .*\b(403|404|406) \(/;

export class AmqpWriter implements OutputWriter {
  private publisher: Publisher | null = null;
  /** The values of the templates without interpolations. */
  private readonly fixed: Partial<Record<TemplateName, string>> = {};

  constructor(
    private readonly config: AmqpOutputConfig,
    private readonly connectionName = 'nekton amqp_0_9 output',
  ) {
    for (const name of templateNames) {
      const template = config[name];
      if (template.isStatic) this.fixed[name] = template.render([], 0);
    }
  }

  /** Set by close(): a connect() still dialling then hangs up instead of keeping the link. */
  private closed = false;
  private readonly lost = new LostConnection();
  readonly onConnectionLost = this.lost.listen;

  async connect(): Promise<void> {
    await this.drop();
    const link = await dialAny(this.config.urls, this.config.tls, this.connectionName);
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
      corkDrainWrites(publisher);
      const declare = this.config.exchange_declare;
      if (declare?.enabled) {
        await channel.assertExchange(this.config.exchange.render([new Message('')], 0), declare.type, {
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
        holdWrites(publisher);
        await drained(publisher);
      }
    }
    holdWrites(publisher);
    // A channel that closes leaves its confirms unsettled: wake up and reconnect instead.
    const onClose = () => confirms.fail(this.notConnected(publisher));
    publisher.channel.once('close', onClose);
    let timer: NodeJS.Timeout | undefined;
    if (this.config.timeout > 0)
      timer = setTimeout(
        () =>
          confirms.fail(
            new Error(
              `amqp_0_9 ${publisher.link.address}: no publisher confirm within ${formatDuration(this.config.timeout * 1e6)}`,
            ),
          ),
        this.config.timeout,
      );
    try {
      await confirms.all;
    } finally {
      clearTimeout(timer);
      publisher.channel.off('close', onClose);
    }
    checkReturned(publisher, sent);
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

  private outgoing(batch: Batch, i: number, msg: Message): Outgoing {
    return {
      exchange: this.render('exchange', batch, i),
      key: this.render('key', batch, i),
      content: Buffer.from(msg.bytes()),
      options: this.publishOptions(batch, i, msg),
    };
  }

  /** A template's value for message i (static ones rendered once, at construction). */
  private render(name: TemplateName, batch: Batch, i: number): string {
    return this.fixed[name] ?? this.config[name].render(batch, i);
  }

  private publishOptions(batch: Batch, i: number, msg: Message): Options.Publish {
    const t = (name: TemplateName) => this.render(name, batch, i) || undefined;
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
