// The JSON shapes of streams in the API: list entries, a single stream, its stats.
import { formatDuration } from '../config/duration.js';
import type { SchemaProvider } from '../config/schema.js';
import { scrubStreamConfig } from '../config/scrub.js';
import type { ManagedStream, StreamStatus } from './managed_stream.js';
import { streamStatus } from './managed_stream.js';
import { type StreamStateView, streamState } from './stream_state.js';

export interface StreamSummary {
  active: boolean;
  /** Seconds, with nanosecond resolution. */
  uptime: number;
  uptime_str: string;
}

export interface StreamDetail extends StreamSummary, StreamStateView {
  config: unknown;
  status: StreamStatus;
}

export function streamSummary(entry: ManagedStream): StreamSummary {
  const ns = entry.stream.uptimeNs();
  return { active: entry.stream.active, uptime: Number(ns) / 1e9, uptime_str: formatDuration(ns) };
}

/**
 * The config as posted (`${VAR}` unexpanded) with secrets read `!!!SECRET_SCRUBBED!!!`; the
 * running stream keeps the real values.
 */
export function streamDetail(entry: ManagedStream, provider: SchemaProvider): StreamDetail {
  const config = scrubStreamConfig(entry.posted ?? null, provider);
  return { ...streamSummary(entry), config, status: streamStatus(entry), ...streamState(entry) };
}
