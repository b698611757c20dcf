// The `redpanda` section's `logs_topic` and `status_topic` on one producer. Each line nekton logs
// at `logs_level` or above becomes a record of the logs topic, keyed by `pipeline_id`, its value the
// reference's JSON shape (message, level, time, instance_id, pipeline_id and the line's other
// fields as strings); status events are section_status.ts's.
import { randomUUID } from 'node:crypto';
import type { LogEntry, LogTap } from '../../engine/logger.js';
import type { KafkaModule } from './client.js';
import { loadKafka } from './client.js';
import { parseRedpandaSection, type RedpandaSection } from './redpanda_section.js';
import { StatusEmitter } from './section_status.js';
import { TopicSink, type TopicSinkOptions } from './topic_sink.js';

const RANKS: Record<string, number> = { trace: 0, debug: 1, info: 2, warn: 3, error: 4, fatal: 5 };

export interface SectionTopics {
  readonly sink: TopicSink;
  /** Status events, when the section has a status_topic. */
  readonly status: StatusEmitter | undefined;
  /** Sends what is queued within `timeoutMs`, then closes the producer. */
  close(timeoutMs: number): Promise<void>;
}

/**
 * Starts sending the logger's lines (through `tap`) to the section's logs_topic, and makes the
 * status emitter of its status_topic, both on one producer; undefined when the section has neither.
 * `report` is where the sink's own failures go.
 */
export function startSectionTopics(
  raw: Readonly<Record<string, unknown>> | undefined,
  tap: LogTap,
  report: (message: string) => void,
  load: () => Promise<KafkaModule> = loadKafka,
  options: Partial<TopicSinkOptions> & { instanceId?: string; statusPeriodMs?: number } = {},
): SectionTopics | undefined {
  const wanted = (name: string) => typeof raw?.[name] === 'string' && raw[name] !== '';
  if (!raw || !(wanted('logs_topic') || wanted('status_topic'))) return undefined;
  const section = parseRedpandaSection(raw);
  const sink = new TopicSink(section, report, load, options);
  const instanceId = options.instanceId ?? randomUUID();
  if (section.logs_topic !== '') tapLines(section, sink, tap, instanceId);
  const status =
    section.status_topic === ''
      ? undefined
      : new StatusEmitter(
          sink,
          section.status_topic,
          section.pipeline_id,
          instanceId,
          options.statusPeriodMs,
        );
  return {
    sink,
    status,
    close: async (timeoutMs) => {
      tap.line = undefined;
      await sink.close(timeoutMs);
    },
  };
}

function tapLines(section: RedpandaSection, sink: TopicSink, tap: LogTap, instanceId: string): void {
  const lowest = RANKS[section.logs_level] ?? RANKS.info;
  let inside = false; // a line the sink logs while taking a line is not taken again
  tap.line = (entry: LogEntry) => {
    if (inside || (RANKS[entry.level] ?? RANKS.info) < lowest) return;
    inside = true;
    try {
      sink.push(section.logs_topic, section.pipeline_id, recordValue(entry, instanceId, section.pipeline_id));
    } finally {
      inside = false;
    }
  };
}

function recordValue(entry: LogEntry, instanceId: string, pipelineId: string): string {
  const value: Record<string, string> = {};
  for (const [key, field] of Object.entries(entry.fields))
    value[key] = typeof field === 'string' ? field : JSON.stringify(field);
  Object.assign(value, {
    message: entry.message,
    level: entry.level.toUpperCase(),
    time: new Date().toISOString(),
    instance_id: instanceId,
    pipeline_id: pipelineId,
  });
  return JSON.stringify(value);
}
