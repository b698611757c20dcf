// The `kafka` output's partitioners, as Sarama (the reference's client) spreads records. Each
// returns a non-negative number the client library reduces modulo the topic's partition count,
// so a hash returns |int32(hash)|: Sarama's |int32(hash) % n| is the same number mod n.

/** A record as the partitioner sees it. */
export interface KeyedRecord {
  topic: string;
  key?: Buffer | null;
}

export type PartitionerFn = (record: KeyedRecord) => number;

const randomPartition = (): number => Math.floor(Math.random() * 2 ** 31);

/** 32-bit FNV-1a, Sarama's default hash. */
export function fnv1a32(bytes: Uint8Array): number {
  let hash = 0x811c9dc5;
  for (const byte of bytes) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** Murmur2 as the Java client (and the reference's murmur2_hash) computes it. */
export function murmur2(bytes: Uint8Array): number {
  const m = 0x5bd1e995;
  const length = bytes.length;
  let h = (0x9747b28c ^ length) | 0;
  const whole = length & ~3;
  for (let i = 0; i < whole; i += 4) {
    let k =
      (bytes[i] as number) |
      ((bytes[i + 1] as number) << 8) |
      ((bytes[i + 2] as number) << 16) |
      ((bytes[i + 3] as number) << 24);
    k = Math.imul(k, m);
    k ^= k >>> 24;
    k = Math.imul(k, m);
    h = Math.imul(h, m) ^ k;
  }
  const rest = length % 4;
  if (rest >= 3) h ^= (bytes[whole + 2] as number) << 16;
  if (rest >= 2) h ^= (bytes[whole + 1] as number) << 8;
  if (rest >= 1) {
    h ^= bytes[whole] as number;
    h = Math.imul(h, m);
  }
  h ^= h >>> 13;
  h = Math.imul(h, m);
  h ^= h >>> 15;
  return h >>> 0;
}

/** A hash partitioner: a record without a key goes to a random partition, as in Sarama. */
function hashed(hash: (bytes: Uint8Array) => number): PartitionerFn {
  return (record) => (record.key?.length ? Math.abs(hash(record.key) | 0) : randomPartition());
}

/** One counter per topic, as Sarama keeps one partitioner per topic. */
function roundRobin(): PartitionerFn {
  const next = new Map<string, number>();
  return (record) => {
    const partition = next.get(record.topic) ?? 0;
    next.set(record.topic, (partition + 1) % 2 ** 31);
    return partition;
  };
}

/** The partitioner of a `partitioner` value; `manual` needs none (each record names its partition). */
export function saramaPartitioner(name: string): PartitionerFn | undefined {
  switch (name) {
    case 'fnv1a_hash':
      return hashed(fnv1a32);
    case 'murmur2_hash':
      return hashed(murmur2);
    case 'random':
      return randomPartition;
    case 'round_robin':
      return roundRobin();
    default:
      return undefined;
  }
}
