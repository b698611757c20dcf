// The reader of the `amqp_0_9` input: consumes a queue, acknowledging each message only once it
// was delivered and nacking (requeueing) it when delivery failed.
import type { Channel, ChannelModel, ConsumeMessage } from 'amqplib';
import type { Logger } from 'pino';
import { compileConfigPatterns } from '../../config/config_patterns.js';
import type { GroupAckFn, InputReader, Transaction } from '../../engine/component.js';
import { errorMessage, NotConnectedError } from '../../engine/errors.js';
import type { Batch } from '../../message/message.js';
import type { Pattern } from '../../regexp/index.js';
import { closeQuietly } from '../connection/close_quietly.js';
import { DeliveryQueue } from '../inputs/delivery_queue.js';
import { dialAny } from './connection.js';
import { deliveryToMessage } from './delivery_message.js';
import type { AmqpInputConfig } from './input_fields.js';
import { queueArguments } from './queue_arguments.js';
import { Settler } from './settler.js';

interface Consumer {
  connection: ChannelModel;
  channel: Channel;
  deliveries: DeliveryQueue<ConsumeMessage>;
  settler: Settler;
  open: boolean;
}

export class AmqpReader implements InputReader {
  private readonly rejectPatterns: Pattern[];
  private consumer: Consumer | null = null;
  private closed = false;

  constructor(
    private readonly config: AmqpInputConfig,
    private readonly logger: Logger,
    /** Shown by the broker (`rabbitmqctl list_connections client_properties`). */
    private readonly connectionName = 'nekton amqp_0_9 input',
  ) {
    this.rejectPatterns = compileConfigPatterns(
      config.nack_reject_patterns,
      'amqp_0_9: nack_reject_patterns',
    );
    if (config.prefetch_size > 0)
      logger.warn('prefetch_size is not supported by RabbitMQ nor by the client; it is ignored');
  }

  async connect(): Promise<void> {
    await this.drop();
    const { connection, address } = await dialAny(this.config.urls, this.config.tls, this.connectionName);
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
      if (binding) await channel.bindQueue(this.config.queue, binding.exchange, binding.key);
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
