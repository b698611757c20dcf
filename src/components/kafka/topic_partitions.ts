// The `topics` of the `kafka` input: plain names (balanced over a consumer group) or explicit
// partitions, `foo:0` or the inclusive range `foo:0-3`, comma-separated entries allowed.
import { ConfigError } from '../../engine/errors.js';

export interface ParsedTopics {
  /** Topics whose partitions the consumer group shares out. */
  balanced: string[];
  /** Topic → the partitions named for it, ascending, without repeats. */
  explicit: Map<string, number[]>;
}

const PARTITION = /^\d+$/;
const MAX_RANGE = 100_000;

export function parseTopicPartitions(entries: readonly string[]): ParsedTopics {
  const balanced: string[] = [];
  const explicit = new Map<string, Set<number>>();
  for (const raw of entries.flatMap((e) => e.split(','))) {
    const entry = raw.trim();
    if (entry === '') continue;
    const colon = entry.lastIndexOf(':');
    if (colon < 0) {
      balanced.push(entry);
      continue;
    }
    const topic = entry.slice(0, colon).trim();
    if (topic === '') throw new ConfigError(`topics: ${entry} names no topic before the colon`);
    const set = explicit.get(topic) ?? new Set<number>();
    for (const p of partitionRange(entry, entry.slice(colon + 1).trim())) set.add(p);
    explicit.set(topic, set);
  }
  const sorted = new Map([...explicit].map(([t, s]) => [t, [...s].sort((a, b) => a - b)] as const));
  return { balanced, explicit: sorted };
}

/** `3` → [3]; `0-3` → [0, 1, 2, 3]. */
function partitionRange(entry: string, spec: string): number[] {
  const dash = spec.indexOf('-');
  const [low, high] = dash < 0 ? [spec, spec] : [spec.slice(0, dash).trim(), spec.slice(dash + 1).trim()];
  if (!PARTITION.test(low) || !PARTITION.test(high)) {
    throw new ConfigError(`topics: ${entry}: ${spec} is not a partition number or range (like 0 or 0-3)`);
  }
  const from = Number(low);
  const to = Number(high);
  if (to < from) throw new ConfigError(`topics: ${entry}: the range ${spec} ends before it starts`);
  // A range is expanded into a list: bound it so a typo cannot exhaust memory.
  if (to - from >= MAX_RANGE)
    throw new ConfigError(`topics: ${entry}: the range ${spec} spans more than ${MAX_RANGE} partitions`);
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}
