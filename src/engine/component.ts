// The runtime shapes of components. Connectors implement the small `*Reader`/`*Writer`
// interfaces; the engine wraps them into `Input`/`Output` with reconnection, metrics and acks.

import type { Batch } from '../message/message.js';
import type { ExhaustedListener } from './exhaustion.js';

/** Settles a read batch: null = delivered (commit upstream), an Error = failed (nack/redeliver). */
export type AckFn = (err: Error | null) => Promise<void>;

export interface Transaction {
  batch: Batch;
  ack: AckFn;
}

/** Settles some batches of a group at once (any subset, each once), all with the same outcome. */
export type GroupAckFn = (err: Error | null, batches: readonly Batch[]) => Promise<void>;

/**
 * Several transactions read at once from memory (the hot path of scanned sources): each batch is
 * still its own transaction for processors and outputs, but the group costs one read, one
 * dispatch and one output call. `ack` settles exactly the given batches of the group (each batch
 * must be settled once); its result never rejects.
 */
export interface TransactionGroup {
  batches: Batch[];
  ack(err: Error | null, batches: readonly Batch[]): void;
}

/** What an input connector implements. */
export interface InputReader {
  /** Opens the connection. Throwing means "retry later with backoff". */
  connect(): Promise<void>;
  /**
   * Next batch and how to acknowledge it; null when the input has ended for good.
   * Throw NotConnectedError when the connection is lost: the engine reconnects.
   */
  read(): Promise<Transaction | null>;
  /**
   * Optional fast path: the next batch if one is already in memory, else undefined (the engine
   * then calls read()). Saves the promises of an async read per message for scanned sources.
   */
  readBuffered?(): Transaction | undefined;
  /**
   * Optional: up to `max` batches already in memory, acknowledged through one `ack` that settles
   * any subset of them at once (a source that counts its acks may just use the subset's length);
   * undefined when it has none to give. Scanned sources give two or more (a single line is
   * cheaper through readBuffered); http_server gives a group of one too.
   */
  readBufferedGroup?(max: number): { batches: Batch[]; ack: GroupAckFn } | undefined;
  /** Stops reading and releases resources; a pending read() must then settle (null is fine). */
  close(): Promise<void>;
}

/** What an output connector implements. */
export interface OutputWriter {
  connect(): Promise<void>;
  /** Delivers the whole batch or throws. NotConnectedError makes the engine reconnect first. */
  write(batch: Batch): Promise<void>;
  /** Optional: delivers several batches in one call, in order (all or throw), e.g. as one syscall. */
  writeGroup?(batches: readonly Batch[]): Promise<void>;
  /**
   * Optional: the writer calls `listener` when its connection drops while no write notices it
   * (an idle output), so the engine reports it on /ready and reconnects in the background.
   */
  onConnectionLost?(listener: (err: Error) => void): void;
  close(): Promise<void>;
}

/** A connection state the engine reports to `/ready` and stream status. */
export interface ConnectionStatus {
  /** Component path without `root.`, e.g. `input`, `output.broker.outputs.1`. */
  path: string;
  label: string;
  connected: boolean;
  error?: string;
  /** When `connected` last changed (ms since the epoch): how long a component has been down. */
  since?: number;
}

/** An input as the engine drives it (a wrapped InputReader, or a composite such as a broker). */
export interface Input {
  /** Next transaction; null when the input has ended for good or was closed. */
  read(): Promise<Transaction | null>;
  /** Optional: a group of transactions already in memory, else the next read in turn (a group or one). */
  readMany?(max: number): TransactionGroup | Promise<Transaction | TransactionGroup | null>;
  statuses(): ConnectionStatus[];
  /** Stop reading: pending and later reads resolve null. Resolves once everything is released. */
  close(): Promise<void>;
  /**
   * Calls `listener` once the source is exhausted while acks may still be outstanding (an input
   * that replays nacks keeps reading until they settle): the stream then flushes the output's
   * partial batches, which would otherwise wait for messages that never come. A `sequence` also
   * signals the end of each of its inputs but the last (see ExhaustedListener).
   */
  onExhausted?(listener: ExhaustedListener): void;
}

/** An output as the engine drives it (a wrapped OutputWriter, or a broker/retry/switch...). */
export interface Output {
  /**
   * Resolves once every message of the batch is delivered; rejects when delivery failed and the
   * caller must nack. Callers may have several writes in flight; the output bounds them.
   */
  write(batch: Batch): Promise<void>;
  /**
   * Optional: writes several batches (each as if by write(), in order) and settles once all are
   * delivered; rejects when any failed.
   */
  writeGroup?(batches: readonly Batch[]): Promise<void>;
  statuses(): ConnectionStatus[];
  /**
   * Sends any partially filled batch now and resolves once it was written: the stream calls this
   * when its input has ended, since a batch that can never fill would otherwise never be acked.
   */
  flush?(): Promise<void>;
  /** Flushes pending batches (within the caller's deadline) and closes. */
  close(): Promise<void>;
}

/**
 * Returns zero or more batches. A message that fails keeps going with `error` set (it is not
 * thrown), as in Benthos; throwing fails the whole batch the same way.
 */
export interface Processor {
  process(batch: Batch): Batch[] | Promise<Batch[]>;
  close(): Promise<void>;
}

export interface Cache {
  /** undefined when the key does not exist. */
  get(key: string): Promise<Uint8Array | undefined>;
  set(key: string, value: Uint8Array, ttlMs?: number): Promise<void>;
  /** Sets only when absent; false when the key already exists. */
  add(key: string, value: Uint8Array, ttlMs?: number): Promise<boolean>;
  delete(key: string): Promise<void>;
  close(): Promise<void>;
}

export interface RateLimit {
  /** 0 when the caller may go now, else how many milliseconds to wait before asking again. */
  access(): Promise<number>;
  close(): Promise<void>;
}

/** Sits between input and pipeline. `memory` acknowledges the input once stored (weaker guarantee). */
export interface Buffer {
  /** Stores a transaction; resolves when there is room (backpressure). */
  write(txn: Transaction): Promise<void>;
  /** Next stored transaction; null once endOfInput() was called and everything was read. */
  read(): Promise<Transaction | null>;
  endOfInput(): void;
  close(): Promise<void>;
}
