// The connection every Redis component uses, whatever the `kind` (kinds.ts): one client opened
// by open(). Connections never reconnect by themselves: inputs and outputs let the engine
// reconnect (connect() opens a fresh connection), and `RedisSession` reconnects on the next use
// for caches, rate limits and processors.

import type { RedisArgument } from '@redis/client';
import type { Logger } from 'pino';
import { errorMessage, NotConnectedError } from '../../engine/errors.js';
import { createKindClient, isReplyError, type KindClient } from './kinds.js';
import type { RedisTarget } from './target.js';

export {
  lintRedisClient,
  type RedisClientConfig,
  type RedisTarget,
  redisClientFields,
  redisKindOf,
  redisTarget,
} from './target.js';
export type { RedisArgument };
export { isReplyError };

/** A decoded RESP2 reply: bulk strings as strings (or Buffers from sendBinary), arrays nested. */
export type RedisReply = string | number | Buffer | null | RedisReply[];

/** How long a command may wait for its reply (beyond a blocking command's own timeout). */
export const COMMAND_TIMEOUT_MS = 5000;

/**
 * One open connection (RESP2, raw commands). A lost connection turns every call into
 * NotConnectedError, and so does a reply that takes longer than COMMAND_TIMEOUT_MS.
 */
export class RedisConnection {
  private lostError: Error | null = null;
  private readonly lostListeners: Array<(err: Error) => void> = [];
  private readonly binary: Pick<KindClient, 'sendCommand'>;
  /**
   * When each reply still owed is due, oldest first (Redis answers in order). One timer checks
   * the oldest instead of the client's AbortSignal timer per command, which cost ~12% of CPU in W4.
   */
  private readonly owed: number[] = [];
  private watchdog: NodeJS.Timeout | null = null;

  private constructor(
    private readonly client: KindClient,
    readonly target: RedisTarget,
  ) {
    this.binary = client.binary();
  }

  /** Connects (and pings); throws an Error naming the address and the reason. */
  static async open(target: RedisTarget, logger: Logger): Promise<RedisConnection> {
    const client = await createKindClient(target);
    const connection = new RedisConnection(client, target);
    // Without a listener an 'error' event would crash the process. A single server's error ends
    // its connection; a cluster or sentinel client reports node errors it recovers from itself
    // (a command that fails because of one still ends the connection, in wrap()).
    client.on('error', (err?: Error) => {
      const error = err instanceof Error ? err : new Error(String(err));
      logger.debug(`redis ${target.address}: ${error.message}`);
      if (target.kind === 'simple') connection.markLost(error);
    });
    client.on('end', () => connection.markLost(new Error('connection closed')));
    try {
      await client.connect();
      await client.sendCommand(['PING']);
    } catch (err) {
      client.destroy();
      throw new Error(`failed to connect to redis at ${target.address}: ${errorMessage(err)}`);
    }
    connection.startWatchdog();
    return connection;
  }

  /** The error that ended the connection, or null while it is usable. */
  get lost(): Error | null {
    return this.lostError;
  }

  onLost(listener: (err: Error) => void): void {
    if (this.lostError) listener(this.lostError);
    else this.lostListeners.push(listener);
  }

  /** Sends a command; bulk strings come back as strings. Commands sent in one tick share a round trip. */
  send<T extends RedisReply = RedisReply>(args: readonly RedisArgument[]): Promise<T> {
    return this.run(this.client, args) as Promise<T>;
  }

  /** As send(), with bulk strings as Buffers (message payloads are bytes). */
  sendBinary<T extends RedisReply = RedisReply>(args: readonly RedisArgument[]): Promise<T> {
    return this.run(this.binary, args) as Promise<T>;
  }

  /** Starts listening on channels (or patterns); the listener gets each payload and its channel. */
  async subscribe(
    channels: string[],
    usePatterns: boolean,
    listener: (payload: Buffer, channel: Buffer) => void,
  ): Promise<void> {
    try {
      if (usePatterns) await this.client.pSubscribe(channels, listener, true);
      else await this.client.subscribe(channels, listener, true);
    } catch (err) {
      throw this.wrap(err);
    }
  }

  /** Closes gracefully (QUIT), or drops the socket when that fails; never throws. */
  async close(): Promise<void> {
    this.markLost(new Error('connection closed'));
    if (!this.client.isOpen) return;
    // QUIT waits for every pending reply: a stalled server gets the command timeout, then the drop.
    let timer: NodeJS.Timeout | undefined;
    const stalled = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, COMMAND_TIMEOUT_MS);
    });
    const closed = this.client.close().then(
      () => true,
      () => false,
    );
    const clean = await Promise.race([closed, stalled.then(() => false)]);
    clearTimeout(timer);
    if (!clean) this.destroy();
  }

  /** Drops the socket at once; pending commands reject. */
  destroy(): void {
    this.markLost(new Error('connection closed'));
    if (this.client.isOpen) this.client.destroy();
  }

  private run(client: Pick<KindClient, 'sendCommand'>, args: readonly RedisArgument[]): Promise<unknown> {
    if (this.lostError) return Promise.reject(this.notConnected(this.lostError));
    let reply: Promise<unknown>;
    try {
      reply = client.sendCommand(args);
    } catch (err) {
      return Promise.reject(this.wrap(err));
    }
    this.owed.push(Date.now() + COMMAND_TIMEOUT_MS + blockingAllowanceMs(args));
    return reply.then(this.replied, this.failed);
  }

  private readonly replied = (reply: unknown): unknown => {
    this.owed.shift();
    return reply;
  };

  private readonly failed = (err: unknown): never => {
    this.owed.shift();
    throw this.wrap(err);
  };

  private startWatchdog(): void {
    this.watchdog = setInterval(() => {
      const due = this.owed[0];
      if (due === undefined || due > Date.now()) return;
      // Half-open socket or stalled server: fail what is pending so the owner reconnects.
      this.markLost(new Error(`no reply within ${COMMAND_TIMEOUT_MS} ms`));
      if (this.client.isOpen) this.client.destroy();
    }, 1000);
    this.watchdog.unref();
  }

  /** Server replies stay as they are; anything else means the connection is gone. */
  private wrap(err: unknown): Error {
    if (isReplyError(err)) return err as Error;
    const error = err instanceof Error ? err : new Error(String(err));
    this.markLost(error);
    return this.notConnected(error);
  }

  private notConnected(err: Error): NotConnectedError {
    return new NotConnectedError(`redis at ${this.target.address}: ${err.message}`);
  }

  private markLost(err: Error): void {
    if (this.lostError) return;
    this.lostError = err;
    if (this.watchdog) clearInterval(this.watchdog);
    this.watchdog = null;
    for (const listener of this.lostListeners.splice(0)) listener(err);
  }
}

/**
 * A connection opened on first use and re-opened on the next use after it was lost, for
 * components the engine does not reconnect (caches, rate limits, processors).
 */
export class RedisSession {
  private opening: Promise<RedisConnection> | null = null;
  private closed = false;

  constructor(
    private readonly target: RedisTarget,
    private readonly logger: Logger,
  ) {}

  get address(): string {
    return this.target.address;
  }

  async send<T extends RedisReply = RedisReply>(args: readonly RedisArgument[]): Promise<T> {
    return (await this.current()).send<T>(args);
  }

  async sendBinary<T extends RedisReply = RedisReply>(args: readonly RedisArgument[]): Promise<T> {
    return (await this.current()).sendBinary<T>(args);
  }

  async close(): Promise<void> {
    this.closed = true;
    const opening = this.opening;
    this.opening = null;
    if (opening) await opening.then((c) => c.close()).catch(() => undefined);
  }

  /** The open connection; a lost one is replaced (its calls already failed with NotConnectedError). */
  private async current(): Promise<RedisConnection> {
    if (this.closed) throw new Error(`redis at ${this.target.address}: closed`);
    let opening = this.opening;
    if (opening) {
      const connection = await opening.catch(() => null);
      if (connection && !connection.lost) return connection;
      if (this.opening === opening) this.opening = null;
      connection?.destroy();
    }
    opening = this.opening;
    if (!opening) {
      opening = RedisConnection.open(this.target, this.logger);
      this.opening = opening;
      // A failed connect is not kept: the next call tries again.
      opening.catch(() => {
        if (this.opening === opening) this.opening = null;
      });
    }
    return opening;
  }
}

/** A metadata or field value as Redis stores it: strings as they are, bytes raw, others as JSON. */
export function redisValue(value: unknown): RedisArgument {
  if (typeof value === 'string') return value;
  // A Buffer (what scanned and encoded payloads are) as it is: no second view per argument.
  if (Buffer.isBuffer(value)) return value;
  if (value instanceof Uint8Array) return Buffer.from(value.buffer, value.byteOffset, value.byteLength);
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  if (typeof value === 'boolean') return value ? '1' : '0';
  if (value === null || value === undefined) return '';
  return JSON.stringify(value);
}

const BLOCKING_TIMEOUT_LAST = new Set(['BLPOP', 'BRPOP', 'BRPOPLPUSH', 'BLMOVE', 'BZPOPMIN', 'BZPOPMAX']);

/** How long a blocking command may wait on purpose, in ms (Infinity when it may block forever); 0 for others. */
export function blockingAllowanceMs(args: readonly RedisArgument[]): number {
  const first = args[0];
  if (typeof first !== 'string') return 0;
  const c = first.charCodeAt(0) | 0x20;
  if (c !== 0x62 /* b */ && c !== 0x78 /* x */) return 0;
  const name = first.toUpperCase();
  let ms: number;
  if (name === 'XREAD' || name === 'XREADGROUP') {
    // Options come after XREADGROUP's group and consumer names, before STREAMS.
    let at = name === 'XREADGROUP' ? 4 : 1;
    for (; at < args.length; at++) {
      const arg = args[at];
      const word = typeof arg === 'string' ? arg.toUpperCase() : '';
      if (word === 'STREAMS') return 0;
      if (word === 'BLOCK') break;
    }
    ms = Number(args[at + 1]);
  } else if (BLOCKING_TIMEOUT_LAST.has(name)) ms = Number(args[args.length - 1]) * 1000;
  else if (name === 'BLMPOP' || name === 'BZMPOP') ms = Number(args[1]) * 1000;
  else return 0;
  return ms > 0 ? ms : Number.POSITIVE_INFINITY;
}

/** Milliseconds as the BLOCK/timeout argument of blocking commands (0 would block forever). */
export function blockMs(ms: number): number {
  return Math.max(1, Math.round(ms));
}
