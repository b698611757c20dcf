// The reader of the amqp_1 input: one receiving link with `credit` messages of link credit; each
// message is settled once the output delivered it (accepted) or failed it (released, so the
// broker delivers it again), and every settlement gives the broker one credit back.

import type { Logger } from 'pino';
import type { Delivery, EventContext, Receiver, Message as RheaMessage } from 'rhea';
import type { InputReader, Transaction } from '../../engine/component.js';
import { errorMessage, NotConnectedError } from '../../engine/errors.js';
import { DeliveryQueue } from '../inputs/delivery_queue.js';
import { type Amqp1Link, closeConnection, describeFailure, dialAny, FAILURE_EVENTS } from './connection.js';
import type { Amqp1InputConfig } from './input_fields.js';
import { receivedMessage } from './received.js';

interface Received {
  message: RheaMessage;
  delivery: Delivery;
}

interface Consumer {
  link: Amqp1Link;
  receiver: Receiver;
  deliveries: DeliveryQueue<Received>;
  open: boolean;
}

export class Amqp1Reader implements InputReader {
  private consumer: Consumer | null = null;
  private closed = false;

  constructor(
    private readonly config: Omit<Amqp1InputConfig, 'urls'> & { urls: string[] },
    private readonly logger: Logger,
    /** The container id the broker shows for the connection. */
    private readonly containerId: string,
  ) {}

  async connect(): Promise<void> {
    await this.drop();
    const link = await dialAny(this.config.urls, this.config.tls, this.config.sasl, this.containerId);
    const { connection, address } = link;
    const deliveries = new DeliveryQueue<Received>();
    let receiver: Receiver | null = null;
    // Until the link is open a failure refuses connect(); afterwards it ends the reads.
    let refuse: ((err: Error) => void) | null = null;
    const consumer: Consumer = { link, receiver: null as unknown as Receiver, deliveries, open: true };
    const onFailure = (ctx: EventContext) => {
      const why = describeFailure(ctx);
      if (refuse) return refuse(new Error(why));
      if (!consumer.open) return;
      consumer.open = false;
      deliveries.fail(new NotConnectedError(`amqp_1 ${address}: ${why}`));
    };
    for (const event of FAILURE_EVENTS) connection.on(event, onFailure);
    try {
      await new Promise<void>((resolve, reject) => {
        refuse = reject;
        receiver = connection.open_receiver({
          source: { address: this.config.source_address },
          autoaccept: false,
          // Credit is given by hand: `credit` at first, then one per settled message.
          credit_window: 0,
        });
        receiver.on('message', (ctx: EventContext) => {
          if (ctx.message && ctx.delivery) deliveries.push({ message: ctx.message, delivery: ctx.delivery });
        });
        receiver.once('receiver_open', () => resolve());
      });
    } catch (err) {
      consumer.open = false;
      await closeConnection(connection);
      throw new Error(
        `amqp_1 ${address}: cannot consume from ${this.config.source_address}: ${errorMessage(err)}`,
      );
    } finally {
      refuse = null;
    }
    consumer.receiver = receiver as unknown as Receiver;
    consumer.receiver.add_credit(this.config.credit);
    if (this.closed) {
      consumer.open = false;
      await closeConnection(connection);
      return;
    }
    this.consumer = consumer;
  }

  async read(): Promise<Transaction | null> {
    const consumer = this.consumer;
    if (!consumer) {
      if (this.closed) return null;
      throw new NotConnectedError('amqp_1: not connected');
    }
    const next = await consumer.deliveries.next();
    if (next === null) return null;
    return this.handOut(consumer, next);
  }

  /** The next message the broker already sent (within the link credit), without a promise. */
  readBuffered(): Transaction | undefined {
    const consumer = this.consumer;
    const next = consumer?.open ? consumer.deliveries.take() : undefined;
    return next && this.handOut(consumer!, next);
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.drop();
  }

  private handOut(consumer: Consumer, received: Received): Transaction {
    let settled = false;
    return {
      batch: [receivedMessage(received.message, this.config.read_header)],
      ack: async (err) => {
        if (settled) return;
        settled = true;
        this.settle(consumer, received.delivery, err);
      },
    };
  }

  private settle(consumer: Consumer, delivery: Delivery, err: Error | null): void {
    if (!consumer.open) {
      // The link these came from is gone: the broker delivers its unsettled messages again.
      this.logger.debug('amqp_1: link closed before settling a message; the broker will redeliver it');
      return;
    }
    try {
      // `released`, not `modified`: RabbitMQ 3.x ends the session on a `modified` outcome.
      if (err) delivery.release();
      else delivery.accept();
      consumer.receiver.add_credit(1);
    } catch (e) {
      this.logger.warn(
        `amqp_1: failed to settle a message: ${errorMessage(e)}; the broker will redeliver it`,
      );
    }
  }

  private async drop(): Promise<void> {
    const consumer = this.consumer;
    this.consumer = null;
    if (!consumer) return;
    consumer.open = false;
    consumer.deliveries.end();
    await closeConnection(consumer.link.connection);
  }
}
