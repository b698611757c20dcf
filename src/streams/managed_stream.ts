// One entry of the stream manager: a running (or finished) Stream instance with the config it
// was accepted with, the endpoints it registered and the resources it asked about.

import type { StreamConfig } from '../config/service_config.js';
import type { ConnectionStatus } from '../engine/component.js';
import type { Stream } from '../engine/stream.js';
import type { StreamEndpoints } from './stream_endpoints.js';
import type { ResourceUsage } from './tracked_resources.js';

export interface ManagedStream {
  readonly id: string;
  /** Normalised, to rebuild the stream when an update fails (decision 2). */
  readonly config: StreamConfig;
  /** As accepted (after env interpolation, or merged by PATCH): what a PATCH merges into. */
  readonly raw: unknown;
  /** As posted (`${VAR}` unexpanded, or merged by PATCH): what GET shows, scrubbed. */
  readonly posted: unknown;
  readonly stream: Stream;
  readonly endpoints: StreamEndpoints;
  readonly usage: ResourceUsage;
  /** Set when an update failed and even the previous config could not be started again. */
  buildError: string | null;
}

export interface StreamStatus {
  input_connected: boolean;
  output_connected: boolean;
  last_error: string | null;
}

export function streamStatus(entry: ManagedStream): StreamStatus {
  const { stream } = entry;
  const statuses = stream.active ? stream.statuses() : [];
  const connected = (part: string) => {
    const mine = statuses.filter((s) => s.path === part || s.path.startsWith(`${part}.`));
    return stream.active && mine.every((s) => s.connected);
  };
  return {
    input_connected: connected('input'),
    output_connected: connected('output'),
    last_error: entry.buildError ?? firstStatusError(statuses) ?? stream.lastError(),
  };
}

function firstStatusError(statuses: ConnectionStatus[]): string | null {
  return statuses.find((s) => !s.connected && s.error)?.error ?? null;
}
