// The aws_kinesis input's reader: claims the shards of its streams in the checkpoint table, reads
// each from its checkpoint, and stores a shard's checkpoint (every `commit_period`) only up to the
// last record before which every record was delivered (at least once). Shards held by another live
// client are left to it and claimed once their lease runs out (checked every `rebalance_period`).

import type { KinesisClient, Shard } from '@aws-sdk/client-kinesis';
import type { Logger } from 'pino';
import type { InputReader, Transaction } from '../../engine/component.js';
import { errorMessage, NotConnectedError } from '../../engine/errors.js';
import { Message } from '../../message/message.js';
import type { CheckpointTable } from './kinesis_checkpoints.js';
import { kinesis } from './library.js';
import { awsError, isNetworkError } from './session.js';

export interface KinesisReaderOptions {
  streams: readonly string[];
  checkpointLimit: number;
  commitMs: number;
  rebalanceMs: number;
  startFromOldest: boolean;
  target: string;
  /** How long an empty GetRecords waits before polling the shard again. */
  pollMs?: number;
}

class ShardConsumer {
  iterator: string | undefined;
  ended = false;
  stopped = false;
  /** Handed-out records in order; `done` once acknowledged. */
  readonly inFlight: { seq: string; done: boolean }[] = [];
  acked: string;
  committed: string;

  constructor(
    readonly stream: string,
    readonly shard: string,
    checkpoint: string,
  ) {
    this.acked = checkpoint;
    this.committed = checkpoint;
  }

  ack(entry: { seq: string; done: boolean }): void {
    entry.done = true;
    while (this.inFlight[0]?.done) this.acked = (this.inFlight.shift() as { seq: string }).seq;
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class KinesisReader implements InputReader {
  private readonly consumers = new Map<string, ShardConsumer>();
  private readonly queue: Transaction[] = [];
  private wake: (() => void) | null = null;
  private failure: Error | null = null;
  private started = false;
  private closed = false;
  private timers: NodeJS.Timeout[] = [];

  constructor(
    private readonly client: KinesisClient,
    private readonly checkpoints: CheckpointTable,
    private readonly o: KinesisReaderOptions,
    private readonly logger: Logger,
  ) {}

  async connect(): Promise<void> {
    if (this.started) {
      // After an outage: connected again once the stream answers.
      await this.listShards(this.o.streams[0] as string);
      return;
    }
    await this.checkpoints.ensure();
    await this.claimShards();
    this.started = true;
    this.timers.push(setInterval(() => void this.commitAll(false), Math.max(this.o.commitMs, 10)));
    this.timers.push(setInterval(() => void this.rebalance(), Math.max(this.o.rebalanceMs, 100)));
  }

  async read(): Promise<Transaction | null> {
    for (;;) {
      if (this.closed) return null;
      const next = this.queue.shift();
      if (next) return next;
      if (this.failure) {
        const failure = this.failure;
        this.failure = null;
        throw new NotConnectedError(failure.message);
      }
      await new Promise<void>((resolve) => {
        this.wake = resolve;
      });
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const t of this.timers) clearInterval(t);
    this.timers = [];
    this.notify();
    for (const c of this.consumers.values()) c.stopped = true;
    await this.commitAll(true);
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }

  private async listShards(stream: string): Promise<Shard[]> {
    try {
      const shards: Shard[] = [];
      let token: string | undefined;
      do {
        const out = await this.client.send(
          new (kinesis().ListShardsCommand)(token ? { NextToken: token } : { StreamName: stream }),
        );
        shards.push(...(out.Shards ?? []));
        token = out.NextToken;
      } while (token);
      return shards;
    } catch (err) {
      if ((err as { name?: string }).name === 'ResourceNotFoundException')
        throw new Error(`aws_kinesis: stream '${stream}' does not exist at ${this.o.target}`);
      throw awsError(err, this.o.target, `aws_kinesis listing shards of '${stream}'`);
    }
  }

  /** Claims every shard not held by a live client and starts reading it. */
  private async claimShards(): Promise<void> {
    for (const stream of this.o.streams) {
      for (const shard of await this.listShards(stream)) {
        const id = shard.ShardId as string;
        const key = `${stream}/${id}`;
        if (this.consumers.has(key)) continue;
        const checkpoint = await this.checkpoints.claim(stream, id);
        if (checkpoint === null) continue;
        const consumer = new ShardConsumer(stream, id, checkpoint);
        this.consumers.set(key, consumer);
        void this.pump(consumer);
      }
    }
  }

  private async rebalance(): Promise<void> {
    if (this.closed) return;
    try {
      await this.claimShards();
    } catch (err) {
      this.logger.debug(`aws_kinesis: claiming shards failed: ${errorMessage(err)}`);
    }
  }

  /** An iterator after `from` (the last record handed out, else the checkpoint), or at the start position. */
  private async startIterator(c: ShardConsumer, from: string): Promise<string | undefined> {
    const out = await this.client.send(
      new (kinesis().GetShardIteratorCommand)({
        StreamName: c.stream,
        ShardId: c.shard,
        ...(from !== ''
          ? { ShardIteratorType: 'AFTER_SEQUENCE_NUMBER', StartingSequenceNumber: from }
          : { ShardIteratorType: this.o.startFromOldest ? 'TRIM_HORIZON' : 'LATEST' }),
      }),
    );
    return out.ShardIterator;
  }

  /** Reads one shard until it ends, the input closes or another client takes it over. */
  private async pump(c: ShardConsumer): Promise<void> {
    const poll = this.o.pollMs ?? 200;
    let lastSeq = c.acked;
    while (!this.closed && !c.stopped) {
      if (c.inFlight.length >= this.o.checkpointLimit) {
        await sleep(20);
        continue;
      }
      try {
        if (c.iterator === undefined) {
          c.iterator = await this.startIterator(c, lastSeq);
          if (c.iterator === undefined) break;
        }
        const out = await this.client.send(
          new (kinesis().GetRecordsCommand)({ ShardIterator: c.iterator, Limit: 1000 }),
        );
        this.failure = null;
        for (const r of out.Records ?? []) {
          const seq = r.SequenceNumber as string;
          lastSeq = seq;
          const entry = { seq, done: false };
          c.inFlight.push(entry);
          const msg = new Message(r.Data ?? new Uint8Array());
          msg.setMeta('kinesis_stream', c.stream);
          msg.setMeta('kinesis_shard', c.shard);
          if (r.PartitionKey !== undefined) msg.setMeta('kinesis_partition_key', r.PartitionKey);
          msg.setMeta('kinesis_sequence_number', seq);
          this.queue.push({
            batch: [msg],
            ack: async () => {
              // A nack reaches here only when auto_replay_nacks is off: the record is dropped.
              c.ack(entry);
            },
          });
        }
        if ((out.Records ?? []).length > 0) this.notify();
        c.iterator = out.NextShardIterator;
        if (c.iterator === undefined || c.iterator === null) {
          c.ended = true;
          break;
        }
        if ((out.Records ?? []).length === 0) await sleep(poll);
      } catch (err) {
        const name = (err as { name?: string }).name;
        if (name === 'ExpiredIteratorException') {
          c.iterator = undefined;
          continue;
        }
        if (name === 'ProvisionedThroughputExceededException') {
          // Throttled: the same iterator is still good after a pause.
          await sleep(1000);
          continue;
        }
        const wrapped = awsError(
          err,
          this.o.target,
          `aws_kinesis reading shard '${c.shard}' of '${c.stream}'`,
        );
        if (isNetworkError(err)) {
          this.failure = wrapped;
          this.notify();
        } else this.logger.error(wrapped.message);
        // Go on after the last record handed out once the shard answers.
        c.iterator = undefined;
        await sleep(500);
      }
    }
  }

  /** Stores each shard's checkpoint; `final` gives the shards up (on close). */
  private async commitAll(final: boolean): Promise<void> {
    for (const [key, c] of this.consumers) {
      const finished = c.ended && c.inFlight.length === 0;
      // Written even when nothing moved: the write renews the lease.
      try {
        const kept = await this.checkpoints.checkpoint(c.stream, c.shard, c.acked, final || finished);
        c.committed = c.acked;
        if (!kept || finished) {
          c.stopped = true;
          this.consumers.delete(key);
          if (!kept)
            this.logger.warn(
              `aws_kinesis: shard '${c.shard}' of '${c.stream}' was taken over by another client`,
            );
        }
      } catch (err) {
        this.logger.warn(`aws_kinesis: checkpoint of shard '${c.shard}' failed: ${errorMessage(err)}`);
      }
    }
  }
}
