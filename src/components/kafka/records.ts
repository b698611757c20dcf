// Kafka records to messages and back, as Benthos's kafka_franz maps them: the record value is the
// message body; key, topic, partition, offset and timestamps become `kafka_*` metadata, headers
// become metadata of their own name. Pure functions, so they are tested without a broker.
import type { Interpolation } from '../../bloblang/index.js';
import { type Batch, Message } from '../../message/message.js';

/** A consumed record as the client library delivers it. */
export interface ConsumedRecord {
  key?: Buffer | null;
  value?: Buffer | null;
  headers: ReadonlyMap<Buffer | string | undefined, Buffer | string | undefined>;
  topic: string;
  partition: number;
  offset: bigint;
  /** Milliseconds since the epoch. */
  timestamp: bigint;
}

/** A record to produce, in the client library's shape. */
export interface ProducedRecord {
  topic: string;
  key?: Buffer;
  value: Buffer;
  headers: Map<Buffer, Buffer>;
  partition?: number;
  /** Milliseconds since the epoch. */
  timestamp?: bigint;
}

const text = (b: Buffer | string | null | undefined): string =>
  b === null || b === undefined ? '' : typeof b === 'string' ? b : b.toString('utf8');

/**
 * The message of a record. With `multiHeader` every header becomes a list of all its values
 * (Kafka allows repeated keys); otherwise the last value wins.
 */
export function recordToMessage(record: ConsumedRecord, multiHeader = false): Message {
  const msg = new Message(record.value ?? Buffer.alloc(0));
  const ms = Number(record.timestamp);
  msg.setMeta('kafka_key', text(record.key));
  msg.setMeta('kafka_topic', record.topic);
  msg.setMeta('kafka_partition', record.partition);
  msg.setMeta('kafka_offset', Number(record.offset));
  msg.setMeta('kafka_timestamp_unix', Math.floor(ms / 1000));
  msg.setMeta('kafka_timestamp_ms', ms);
  msg.setMeta('kafka_tombstone_message', record.value === null || record.value === undefined);
  if (!multiHeader) {
    for (const [k, v] of record.headers) msg.setMeta(text(k), text(v));
    return msg;
  }
  // Values of a repeated key are gathered first and set once: copying the list per value was
  // quadratic in the number of repeats.
  const lists = new Map<string, string[]>();
  for (const [k, v] of record.headers) {
    const key = text(k);
    const list = lists.get(key);
    if (list) list.push(text(v));
    else lists.set(key, [text(v)]);
  }
  for (const [key, values] of lists) msg.setMeta(key, values);
  return msg;
}

/** How the output builds a record from a message: the interpolated fields and the header filter. */
export interface RecordTemplate {
  topic: Interpolation;
  key: Interpolation | null;
  /** Only with the `manual` partitioner. */
  partition: Interpolation | null;
  timestampMs: Interpolation | null;
  /** The deprecated `timestamp`, in seconds. */
  timestampSec: Interpolation | null;
  /** Which metadata keys become record headers; null = none. */
  includeMeta: ((key: string) => boolean) | null;
  /** Headers every record carries (the `kafka` output's `static_headers`), after the metadata ones. */
  staticHeaders?: ReadonlyArray<readonly [string, string]>;
}

/** The record for message `index` of `batch`; throws (failing the write) on a bad partition or timestamp. */
export function messageToRecord(batch: Batch, index: number, template: RecordTemplate): ProducedRecord {
  const msg = batch[index] as Message;
  const record: ProducedRecord = {
    topic: template.topic.render(batch, index),
    value: Buffer.from(msg.bytes()),
    headers: new Map(),
  };
  if (template.key) record.key = Buffer.from(template.key.render(batch, index));
  if (template.partition) {
    const raw = template.partition.render(batch, index);
    const partition = Number(raw);
    if (!Number.isInteger(partition) || partition < 0) {
      throw new Error(`partition: ${JSON.stringify(raw)} is not a partition number`);
    }
    record.partition = partition;
  }
  const ms = integerOf(template.timestampMs, batch, index, 'timestamp_ms');
  const sec = integerOf(template.timestampSec, batch, index, 'timestamp');
  if (ms !== undefined) record.timestamp = BigInt(ms);
  else if (sec !== undefined) record.timestamp = BigInt(sec) * 1000n;
  if (template.includeMeta) {
    for (const [k, v] of msg.metadata()) {
      if (!template.includeMeta(k)) continue;
      record.headers.set(Buffer.from(k), Buffer.from(metaText(v)));
    }
  }
  for (const [k, v] of template.staticHeaders ?? []) record.headers.set(Buffer.from(k), Buffer.from(v));
  return record;
}

/** The bytes of a record as Sarama counts them against max_msg_bytes: key, value and headers. */
export function recordSize(record: ProducedRecord): number {
  let size = record.value.length + (record.key?.length ?? 0);
  for (const [k, v] of record.headers) size += k.length + v.length;
  return size;
}

function integerOf(
  template: Interpolation | null,
  batch: Batch,
  index: number,
  name: string,
): number | undefined {
  if (!template) return undefined;
  const raw = template.render(batch, index);
  const n = Number(raw);
  if (raw.trim() === '' || !Number.isInteger(n))
    throw new Error(`${name}: ${JSON.stringify(raw)} is not an integer`);
  return n;
}

function metaText(v: unknown): string {
  if (typeof v === 'string') return v;
  if (v instanceof Uint8Array) return Buffer.from(v).toString('utf8');
  if (v !== null && typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

/** An interpolated field's template, or null when it is absent or empty (the reference's "not set"). */
export function templateIfSet(template: Interpolation | undefined): Interpolation | null {
  if (!template || (template.isStatic && template.render([], 0) === '')) return null;
  return template;
}

/** Whether an interpolated field, as written or compiled, is set (neither absent nor empty). */
export function isSet(value: string | Interpolation | undefined): boolean {
  return typeof value === 'string' ? value !== '' : templateIfSet(value) !== null;
}
