// Why a stream is (not) ready, for `GET /streams/{id}`: its state and since when, and each input or
// output that is not connected with its last error and since when it has been down.
import type { ManagedStream } from './managed_stream.js';

export type StreamState = 'running' | 'paused' | 'finished' | 'failed';

export interface NotReadyComponent {
  /** Component path without `root.`, e.g. `input`, `output.broker.outputs.1`. */
  component: string;
  label: string;
  error: string | null;
  /** ISO time it went down (or was built and never connected); null if unknown. */
  since: string | null;
}

export interface StreamStateView {
  state: StreamState;
  /** ISO time the state began: started, paused, finished. */
  since: string;
  not_ready: NotReadyComponent[];
}

export function streamState(entry: ManagedStream): StreamStateView {
  const { stream } = entry;
  if (!stream.active) {
    const ended = stream.startedAtMs + Number(stream.uptimeNs() / 1_000_000n);
    return { state: entry.buildError ? 'failed' : 'finished', since: iso(ended), not_ready: [] };
  }
  const notReady = stream
    .statuses()
    .filter((s) => !s.connected)
    .map((s) => ({
      component: s.path,
      label: s.label,
      error: s.error ?? null,
      since: s.since === undefined ? null : iso(s.since),
    }));
  const pausedSince = stream.pausedSince;
  if (pausedSince !== null) return { state: 'paused', since: iso(pausedSince), not_ready: notReady };
  return { state: 'running', since: iso(stream.startedAtMs), not_ready: notReady };
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}
