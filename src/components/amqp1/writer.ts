// The writer of the amqp_1 output: one sending link; a batch counts as written only once the
// broker settled every message of it as accepted. A rejected, released or modified message fails
// the batch, as does the broker refusing the link over a message (a plain error: the input nacks
// it); a lost connection fails it as not connected, so the engine reconnects and sends again.
import type { Delivery, EventContext, Message as RheaMessage, Sender } from 'rhea';
import type { OutputWriter } from '../../engine/component.js';
import { errorMessage, NotConnectedError } from '../../engine/errors.js';
import { LostConnection } from '../../engine/lost_connection.js';
import type { Batch } from '../../message/message.js';
import {
  type Amqp1Link,
  amqpErrorText,
  closeConnection,
  describeFailure,
  dialAny,
  FAILURE_EVENTS,
  loadEncoders,
} from './connection.js';
import { OutgoingBuilder } from './outgoing.js';
import type { Amqp1OutputConfig } from './output_fields.js';

interface Outcome {
  resolve: () => void;
  reject: (err: Error) => void;
}

interface Sending {
  link: Amqp1Link;
  sender: Sender;
  open: boolean;
  /** Why it closed; `refused` when the broker ended the session or link over an error of its own. */
  failure: { why: string; refused: boolean } | null;
  outcomes: Map<Delivery, Outcome>;
  /** Writes waiting for link credit. */
  creditWaiters: Set<Outcome>;
}

/** Events after which the connection itself is gone (the others end only the session or link). */
const CONNECTION_EVENTS = new Set([
  'connection_error',
  'connection_close',
  'disconnected',
  'protocol_error',
  'error',
]);

export class Amqp1Writer implements OutputWriter {
  private sending: Sending | null = null;
  private builder: OutgoingBuilder | null = null;
  private closed = false;
  private readonly lost = new LostConnection();
  readonly onConnectionLost = this.lost.listen;

  constructor(
    private readonly config: Omit<Amqp1OutputConfig, 'urls'> & { urls: string[] },
    private readonly containerId: string,
  ) {}

  async connect(): Promise<void> {
    await this.drop();
    this.builder ??= new OutgoingBuilder(this.config, await loadEncoders());
    const link = await dialAny(this.config.urls, this.config.tls, this.config.sasl, this.containerId);
    const { connection, address } = link;
    const sending: Sending = {
      link,
      sender: null as unknown as Sender,
      open: true,
      failure: null,
      outcomes: new Map(),
      creditWaiters: new Set(),
    };
    let refuse: ((err: Error) => void) | null = null;
    const onFailure = (event: string) => (ctx: EventContext) => {
      const why = describeFailure(ctx);
      if (refuse) return refuse(new Error(why));
      this.fail(sending, why, !CONNECTION_EVENTS.has(event) && amqpErrorText(endpointError(ctx)) !== '');
    };
    for (const event of FAILURE_EVENTS) connection.on(event, onFailure(event));
    try {
      sending.sender = await new Promise<Sender>((resolve, reject) => {
        refuse = reject;
        const target: Record<string, unknown> = { address: this.config.target_address || undefined };
        const capabilities = this.config.target_capabilities ?? [];
        if (capabilities.length > 0) target.capabilities = capabilities;
        const sender = connection.open_sender({ target });
        sender.on('accepted', (ctx: EventContext) => settle(sending, ctx, null));
        for (const outcome of ['rejected', 'released', 'modified'] as const)
          sender.on(outcome, (ctx: EventContext) => settle(sending, ctx, refusal(address, outcome, ctx)));
        sender.on('sendable', () => {
          for (const waiter of sending.creditWaiters) waiter.resolve();
          sending.creditWaiters.clear();
        });
        sender.once('sender_open', () => resolve(sender));
      });
    } catch (err) {
      sending.open = false;
      await closeConnection(connection);
      throw new Error(
        `amqp_1 ${address}: cannot send to ${this.config.target_address || '(anonymous terminus)'}: ${errorMessage(err)}`,
      );
    } finally {
      refuse = null;
    }
    if (this.closed) {
      sending.open = false;
      await closeConnection(connection);
      return;
    }
    this.sending = sending;
  }

  async write(batch: Batch): Promise<void> {
    const sending = this.sending;
    if (!sending?.open) throw this.notConnected(sending);
    // Build everything first: a bad value fails the write before anything is sent.
    const messages: RheaMessage[] = [];
    for (let i = 0; i < batch.length; i++) messages.push((this.builder as OutgoingBuilder).build(batch, i));
    const outcomes: Promise<void>[] = [];
    for (const message of messages) {
      while (sending.open && !sending.sender.sendable()) await this.credit(sending);
      if (!sending.open) throw this.notConnected(sending);
      const delivery = sending.sender.send(message);
      outcomes.push(
        new Promise<void>((resolve, reject) => {
          sending.outcomes.set(delivery, { resolve, reject });
        }),
      );
    }
    // Every outcome is awaited; the first failure is the batch's.
    const results = await Promise.allSettled(outcomes);
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.drop();
  }

  private credit(sending: Sending): Promise<void> {
    return new Promise<void>((resolve, reject) => sending.creditWaiters.add({ resolve, reject }));
  }

  /** The link is gone: fail what waits on it, and tell the engine when no write would notice. */
  private fail(sending: Sending, why: string, refused: boolean): void {
    if (!sending.open) return;
    sending.open = false;
    sending.failure = { why, refused };
    const err = this.notConnected(sending);
    for (const outcome of sending.outcomes.values()) outcome.reject(err);
    sending.outcomes.clear();
    for (const waiter of sending.creditWaiters) waiter.reject(err);
    sending.creditWaiters.clear();
    if (this.sending === sending && !this.closed)
      this.lost.report(new Error(`amqp_1 ${sending.link.address}: ${why}`));
  }

  /**
   * Why a write failed when the link went away. The broker ending the session over a message
   * (precondition-failed, not-found...) is a failed write, nacked and replayed with backoff; as a
   * lost connection it would be sent again at once, in a loop.
   */
  private notConnected(sending: Sending | null): Error {
    if (!sending) return new NotConnectedError('amqp_1: not connected');
    const why = `amqp_1 ${sending.link.address}: ${sending.failure?.why ?? 'link closed'}`;
    return sending.failure?.refused ? new Error(why) : new NotConnectedError(why);
  }

  private async drop(): Promise<void> {
    const sending = this.sending;
    this.sending = null;
    if (!sending) return;
    this.fail(sending, 'output closed', false);
    await closeConnection(sending.link.connection);
  }
}

function settle(sending: Sending, ctx: EventContext, err: Error | null): void {
  const delivery = ctx.delivery;
  const outcome = delivery && sending.outcomes.get(delivery);
  if (!outcome || !delivery) return;
  sending.outcomes.delete(delivery);
  if (err) outcome.reject(err);
  else outcome.resolve();
}

function refusal(address: string, outcome: string, ctx: EventContext): Error {
  const state = (ctx.delivery as unknown as { remote_state?: { error?: unknown } } | undefined)?.remote_state;
  const detail = amqpErrorText(state?.error as Parameters<typeof amqpErrorText>[0]);
  return new Error(`amqp_1 ${address}: the broker ${outcome} the message${detail ? `: ${detail}` : ''}`);
}

function endpointError(ctx: EventContext) {
  return (ctx.sender?.error ?? ctx.session?.error ?? ctx.receiver?.error) as Parameters<
    typeof amqpErrorText
  >[0];
}
