// The `redis_streams` input: reads Redis streams as a member of a consumer group (XREADGROUP),
// acknowledging each entry (XACK, batched every `commit_period`) only once it was delivered.
import type { Logger } from 'pino';
import { type ConfigOf, defineComponent, type FieldLint, field } from '../../config/spec.js';
import type { GroupAckFn, Input, InputReader, Transaction } from '../../engine/component.js';
import type { BuildContext } from '../../engine/context.js';
import { errorMessage, NotConnectedError } from '../../engine/errors.js';
import type { Batch } from '../../message/message.js';
import {
  blockMs,
  isReplyError,
  lintRedisClient,
  type RedisConnection,
  type RedisReply,
  RedisSession,
  type RedisTarget,
  redisClientFields,
  redisKindOf,
} from '../redis/client.js';
import { openReaderConnection, redisInput } from '../redis/input.js';
import { lintOneSlot } from '../redis/keys.js';
import { type Entry, entryMessage, HeldIds } from '../redis/stream_entries.js';

const fields = [
  ...redisClientFields(),
  field.string(
    'body_key',
    'The field holding the message content; every other field is stored as metadata.',
    { default: 'body' },
  ),
  field.array(field.string('streams', 'The streams to consume from.')),
  field.bool(
    'auto_replay_nacks',
    'Whether messages that fail delivery are delivered again, indefinitely, from inside nekton. When false a failed entry is still delivered again by the input itself (it stays pending in Redis).',
    { default: true },
  ),
  field.int('limit', 'The most entries to read with one XREADGROUP.', { default: 10 }),
  field.string('client_id', 'The consumer name within the group; unique per consumer.', { default: '' }),
  field.string('consumer_group', 'The consumer group.', { default: '' }),
  field.bool('create_streams', 'Create the streams when they do not exist (MKSTREAM).', {
    default: true,
    advanced: true,
  }),
  field.bool(
    'start_from_oldest',
    'When the group is created, start from the oldest entry; otherwise only entries added later are read.',
    { default: true, advanced: true },
  ),
  field.duration(
    'commit_period',
    'How often acknowledgements are sent (XACK). They are always sent at shutdown.',
    {
      default: '1s',
      advanced: true,
    },
  ),
  field.duration('timeout', 'How long one XREADGROUP blocks waiting for new entries.', {
    default: '1s',
    advanced: true,
  }),
] as const;

export type RedisStreamsInputConfig = ConfigOf<typeof fields>;

export interface RedisStreamsReaderOptions {
  /** Pending entries idle longer than this (their consumer died) are claimed; 0 disables claiming. */
  claimIdleMs: number;
  /** How often to look for such entries. */
  claimEveryMs: number;
}

/** Pending entries of another consumer are claimed after being idle this long (there is no reference field for it). */
export const DEFAULT_CLAIM_IDLE_MS = 30_000;

export class RedisStreamsReader implements InputReader {
  private reading: RedisConnection | null = null;
  /** Acks, commands and claims: a separate connection, so they never wait behind a blocking XREADGROUP. */
  private readonly control: RedisSession;
  /** Per stream, the id to read our own pending entries from ("0" after connecting); absent once caught up. */
  private backlogs = new Map<string, string>();
  /** Read entries not yet handed out (one XREADGROUP returns up to `limit`, each is its own message). */
  private ready: Entry[] = [];
  /** Where the next entry of `ready` is (taken from the front without shifting). */
  private readyAt = 0;
  /** Entries handed out or waiting for XACK: never handed out twice by a backlog re-read or a claim. */
  private readonly held = new HeldIds();
  private readonly bodyKey: Buffer;
  private acks = new Map<string, string[]>();
  private readonly claimCursors = new Map<string, string>();
  private commitTimer: NodeJS.Timeout | null = null;
  private lastClaim = 0;
  private claimUnsupported = false;
  private closed = false;

  constructor(
    private readonly config: RedisStreamsInputConfig,
    private readonly target: RedisTarget,
    private readonly logger: Logger,
    private readonly options: RedisStreamsReaderOptions = {
      claimIdleMs: DEFAULT_CLAIM_IDLE_MS,
      claimEveryMs: 5_000,
    },
  ) {
    this.bodyKey = Buffer.from(config.body_key, 'utf8');
    this.control = new RedisSession(target, logger);
  }

  /** The consumer group on every stream; one that exists already is fine. */
  private async createGroups(connection: RedisConnection): Promise<void> {
    const offset = this.config.start_from_oldest ? '0' : '$';
    for (const stream of this.config.streams) {
      const args = ['XGROUP', 'CREATE', stream, this.config.consumer_group, offset];
      if (this.config.create_streams) args.push('MKSTREAM');
      try {
        await connection.send(args);
      } catch (err) {
        if (isReplyError(err) && errorMessage(err).startsWith('BUSYGROUP')) continue;
        throw new Error(
          `redis_streams: cannot create group ${this.config.consumer_group} on stream ${stream} at ${this.target.address}: ${errorMessage(err)}`,
        );
      }
    }
  }

  async connect(): Promise<void> {
    this.reading?.destroy();
    this.reading = null;
    const connection = await openReaderConnection(
      this.target,
      this.logger,
      (connection) => this.createGroups(connection),
      () => this.closed,
    );
    if (!connection) return;
    // Re-read our own pending entries first: those delivered before a crash or a lost connection.
    this.backlogs = new Map(this.config.streams.map((s) => [s, '0']));
    this.reading = connection;
    this.commitTimer ??= setInterval(() => void this.sendAcks(), this.config.commit_period);
    this.commitTimer.unref();
    this.logger.info(`receiving messages from redis streams: ${this.config.streams.join(', ')}`);
  }

  async read(): Promise<Transaction | null> {
    for (;;) {
      if (this.closed) return null;
      const entry = this.takeEntry();
      if (entry) return this.handOut(entry);
      const connection = this.reading;
      if (!connection) throw new NotConnectedError(`redis_streams: not connected to ${this.target.address}`);
      await this.claimIdle();
      if (this.buffered() > 0) continue;
      await this.readGroup(connection);
    }
  }

  /** The next entry of the last XREADGROUP reply, without a promise. */
  readBuffered(): Transaction | undefined {
    if (this.closed) return undefined;
    const entry = this.takeEntry();
    return entry && this.handOut(entry);
  }

  /** The rest of the last reply (each entry a batch of one), settled through one ack. */
  readBufferedGroup(max: number): { batches: Batch[]; ack: GroupAckFn } | undefined {
    const count = Math.min(max, this.buffered());
    if (this.closed || count < 2) return undefined;
    const entries = this.takeEntries(count);
    const batches = entries.map((e) => [e.message]);
    let index: Map<Batch, number> | null = null;
    const ack: GroupAckFn = async (err, settled) => {
      // Every batch is settled once: a settled set as large as the group is the whole group.
      if (settled.length === batches.length) {
        for (const entry of entries) this.settle(entry, err);
        return;
      }
      index ??= new Map(batches.map((b, i) => [b, i]));
      for (const batch of settled) {
        const at = index.get(batch);
        if (at !== undefined) this.settle(entries[at]!, err);
      }
    };
    return { batches, ack };
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.commitTimer) clearInterval(this.commitTimer);
    this.commitTimer = null;
    // Acks are always sent at shutdown, as the reference does.
    await this.sendAcks();
    this.reading?.destroy();
    this.reading = null;
    await this.control.close();
  }

  private buffered(): number {
    return this.ready.length - this.readyAt;
  }

  private takeEntry(): Entry | undefined {
    if (this.readyAt >= this.ready.length) return undefined;
    const entry = this.ready[this.readyAt++];
    this.compact();
    return entry;
  }

  private takeEntries(count: number): Entry[] {
    const entries = this.ready.slice(this.readyAt, this.readyAt + count);
    this.readyAt += count;
    this.compact();
    return entries;
  }

  /** Starts a fresh array once every entry was taken (the taken ones are not kept alive). */
  private compact(): void {
    if (this.readyAt < this.ready.length) return;
    this.ready = [];
    this.readyAt = 0;
  }

  private handOut(entry: Entry): Transaction {
    return { batch: [entry.message], ack: async (err) => this.settle(entry, err) };
  }

  /** Queues a delivered entry for XACK; a failed one is delivered again (it stays pending in Redis). */
  private settle(entry: Entry, err: Error | null): void {
    if (err) {
      if (!this.closed) this.ready.push({ ...entry, message: entry.message.copy() });
      else this.held.delete(entry.stream, entry.id);
      return;
    }
    const ids = this.acks.get(entry.stream);
    if (ids) ids.push(entry.id);
    else this.acks.set(entry.stream, [entry.id]);
  }

  private async readGroup(connection: RedisConnection): Promise<void> {
    const streams = this.config.streams;
    const ids = streams.map((s) => this.backlogs.get(s) ?? '>');
    const args = ['XREADGROUP', 'GROUP', this.config.consumer_group, this.config.client_id];
    if (this.config.limit > 0) args.push('COUNT', String(this.config.limit));
    args.push('BLOCK', String(blockMs(this.config.timeout)), 'STREAMS', ...streams, ...ids);
    let reply: RedisReply;
    try {
      reply = await connection.sendBinary(args);
    } catch (err) {
      if (err instanceof NotConnectedError) throw err;
      if (isReplyError(err) && errorMessage(err).startsWith('NOGROUP')) {
        // The stream or group was deleted: connect again to recreate it.
        connection.destroy();
        throw new NotConnectedError(`redis_streams: ${errorMessage(err)}`);
      }
      throw err;
    }
    if (!Array.isArray(reply)) return;
    for (const streamReply of reply) {
      if (!Array.isArray(streamReply)) continue;
      const stream = String(streamReply[0]);
      const entries = Array.isArray(streamReply[1]) ? streamReply[1] : [];
      // Only a backlog read (our own pending entries) can return entries we already hold.
      const backlog = this.backlogs.has(stream);
      if (backlog) {
        const last = entries[entries.length - 1];
        if (Array.isArray(last)) this.backlogs.set(stream, String(last[0]));
        else this.backlogs.delete(stream);
      }
      this.accept(stream, entries, backlog);
    }
  }

  /**
   * Turns raw entries into messages; entries we already hold (re-read backlog, own claims) are
   * skipped. New entries (`>`) were never delivered to anyone, so `mayRepeat` false skips the check.
   */
  private accept(stream: string, entries: RedisReply[], mayRepeat = true): void {
    for (const raw of entries) {
      if (!Array.isArray(raw)) continue;
      const id = String(raw[0]);
      const fields = raw[1];
      if (mayRepeat && this.held.has(stream, id)) continue;
      // A pending entry deleted from the stream comes back with no fields: nothing to deliver, ack it.
      if (!Array.isArray(fields)) {
        this.acks.set(stream, [...(this.acks.get(stream) ?? []), id]);
        continue;
      }
      const message = entryMessage(id, fields, this.bodyKey, this.config.body_key);
      if (message === null) {
        // As the reference: not delivered and not acked; it stays pending for inspection (XPENDING).
        this.logger.warn(
          `redis_streams: entry ${id} of stream ${stream} has no field '${this.config.body_key}'; it is left pending`,
        );
        continue;
      }
      this.held.add(stream, id);
      this.ready.push({ stream, id, message });
    }
  }

  /** Claims entries another consumer read but never acked for `claimIdleMs` (XAUTOCLAIM, Redis 6.2+). */
  private async claimIdle(): Promise<void> {
    const { claimIdleMs, claimEveryMs } = this.options;
    if (claimIdleMs <= 0 || this.claimUnsupported || Date.now() - this.lastClaim < claimEveryMs) return;
    this.lastClaim = Date.now();
    for (const stream of this.config.streams) {
      const cursor = this.claimCursors.get(stream) ?? '0-0';
      let reply: RedisReply;
      try {
        reply = await this.control.sendBinary([
          'XAUTOCLAIM',
          stream,
          this.config.consumer_group,
          this.config.client_id,
          String(claimIdleMs),
          cursor,
          'COUNT',
          String(Math.max(1, this.config.limit)),
        ]);
      } catch (err) {
        if (isReplyError(err) && /unknown command/i.test(errorMessage(err))) {
          this.claimUnsupported = true;
          this.logger.warn('redis_streams: XAUTOCLAIM needs Redis 6.2+; idle entries are not claimed');
          return;
        }
        this.logger.debug(`redis_streams: claiming idle entries of ${stream} failed: ${errorMessage(err)}`);
        return;
      }
      if (!Array.isArray(reply)) continue;
      this.claimCursors.set(stream, String(reply[0]));
      const entries = Array.isArray(reply[1]) ? reply[1] : [];
      const before = this.buffered();
      this.accept(stream, entries);
      const claimed = this.buffered() - before;
      if (claimed > 0)
        this.logger.info(`redis_streams: claimed ${claimed} idle pending entries of ${stream}`);
    }
  }

  private async sendAcks(): Promise<void> {
    if (this.acks.size === 0) return;
    const acks = this.acks;
    this.acks = new Map();
    await Promise.all(
      [...acks].map(async ([stream, ids]) => {
        try {
          await this.control.send(['XACK', stream, this.config.consumer_group, ...ids]);
          for (const id of ids) this.held.delete(stream, id);
        } catch (err) {
          // Kept for the next commit; the entries stay pending meanwhile (never lost).
          this.logger.error(`redis_streams: failed to ack stream ${stream}: ${errorMessage(err)}`);
          this.acks.set(stream, [...ids, ...(this.acks.get(stream) ?? [])]);
        }
      }),
    );
  }
}

export const spec = defineComponent({
  name: 'redis_streams',
  kind: 'input',
  status: 'stable',
  categories: ['Services'],
  summary:
    'Reads Redis (5.0+) streams with XREADGROUP as a member of a consumer group. `client_id` should be unique per consumer of a group.',
  description:
    'Stream entries are key/value pairs: the `body_key` field is the message content and every other field becomes metadata, as does `redis_stream` (the entry id).\n\n' +
    'An entry is acknowledged (XACK, sent every `commit_period` and at shutdown) only once it was delivered. A failed delivery keeps the entry pending in Redis and delivers it again. ' +
    'After connecting (at start and after a lost connection) the consumer first re-reads its own pending entries, so entries read but never acknowledged by a previous run with the same `client_id` are delivered again. ' +
    'In addition nekton claims (XAUTOCLAIM, Redis 6.2+) entries that another consumer of the group read but left unacknowledged for 30 seconds, so the work of a consumer that died is finished by the others; the reference leaves them pending until that consumer returns. ' +
    'Delivery is at-least-once: a claimed or re-read entry may be delivered twice.\n\n' +
    'Entries without the `body_key` field are not delivered and stay pending (visible with XPENDING).',
  fields,
  lint: (config) => {
    const problems: (string | FieldLint)[] = lintRedisClient(config);
    if (config.streams.length === 0) problems.push('streams must name at least one stream');
    if (config.consumer_group === '') problems.push('consumer_group must be set');
    if (redisKindOf(config) === 'cluster') problems.push(...lintOneSlot(config.streams));
    return problems;
  },
  examples: [
    {
      title: 'Consume a stream as one of several consumers',
      config: `input:
  redis_streams:
    url: redis://127.0.0.1:6379
    streams: [ orders ]
    consumer_group: nekton
    client_id: worker-1
    body_key: body
output:
  stdout: {}
`,
    },
  ],
  build: (config, ctx: BuildContext): Promise<Input> =>
    redisInput(config, ctx, (target) => new RedisStreamsReader(config, target, ctx.logger)),
});
