// A confirm channel of the amqp_0_9 output and what is done to its socket: frames of one turn
// written together (cork), backpressure, and messages the broker returned as unroutable.
import { Writable } from 'node:stream';
import type { ChannelModel, ConfirmChannel, ConsumeMessage, Options } from 'amqplib';
import type { AmqpConnection } from './connection.js';

export interface Publisher {
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
export function socketOf(model: ChannelModel): Writable | null {
  const stream = (model as unknown as { connection?: { stream?: unknown } }).connection?.stream;
  return stream instanceof Writable ? stream : null;
}

/** One message ready to publish. */
export interface Outgoing {
  exchange: string;
  key: string;
  content: Buffer;
  options: Options.Publish;
}

/**
 * amqplib writes every frame with its own socket write, one syscall each (a quarter of the CPU
 * in W4). Its muxer writes in a setImmediate, so holding the socket corked until the immediate
 * after it turns the frames published now into one writev. Only one hold at a time, always
 * released a turn later, so concurrent writes never keep the socket corked.
 */
export function holdWrites(publisher: Publisher): void {
  const socket = publisher.socket;
  if (!socket) return;
  if (publisher.corked) {
    publisher.heldAgain = true;
    return;
  }
  publisher.corked = true;
  socket.cork();
  process.nextTick(() => setImmediate(() => releaseWrites(publisher, socket)));
}

function releaseWrites(publisher: Publisher, socket: Writable): void {
  publisher.corked = false;
  socket.uncork();
  if (!publisher.heldAgain) return;
  publisher.heldAgain = false;
  holdWrites(publisher);
}

/**
 * After the socket drains, the muxer writes the frames it held back one by one in its 'drain'
 * listener: cork around that listener too (prepended, so it runs first).
 */
export function corkDrainWrites(publisher: Publisher): void {
  const socket = publisher.socket;
  socket?.prependListener('drain', () => {
    if (publisher.corked) return;
    socket.cork();
    process.nextTick(() => socket.uncork());
  });
}

/** Resolves on 'drain', or once the channel is gone (the confirms then fail the write). */
export function drained(publisher: Publisher): Promise<void> {
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
export function checkReturned(publisher: Publisher, sent: Outgoing[]): void {
  if (publisher.returned.length === 0) return;
  for (const [i, r] of publisher.returned.entries()) {
    const match = sent.find(
      (s) => s.exchange === r.fields.exchange && s.key === r.fields.routingKey && s.content.equals(r.content),
    );
    if (!match) continue;
    publisher.returned.splice(i, 1);
    const reply = r.fields as unknown as { replyCode?: number; replyText?: string };
    throw new Error(
      `amqp_0_9 ${publisher.link.address}: message to exchange '${match.exchange}' with key '${match.key}' was returned: ${reply.replyCode ?? ''} ${reply.replyText ?? 'unroutable'}`.trim(),
    );
  }
}
