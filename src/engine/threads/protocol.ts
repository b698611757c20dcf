// What a pipeline thread and the main thread send each other (pool.ts, run_thread.ts).
import type { ComponentConfig } from '../context.js';
import type { MetricsDelta } from './forwarded_metrics.js';
import type { Packet } from './wire.js';

export interface WorkerSetup {
  processors: ComponentConfig[];
  logLevel: string;
  /** The stream's id in streams mode: the thread's metrics and log lines carry it as the main thread's do. */
  streamId?: string;
  baseDir?: string;
  /** False when the output never reads the results' content (`drop`): only their shape comes back. */
  contentBack: boolean;
}

/** Main thread -> pipeline thread. */
export type ToWorker =
  /** First, once: the processors to build (the thread may have started before they were known). */
  { kind: 'setup'; setup: WorkerSetup } | { kind: 'run'; id: number; packet: Packet } | { kind: 'crash' };

/** Pipeline thread -> main thread. */
export type FromWorker =
  | { kind: 'ready' }
  | { kind: 'failed'; error: string }
  | { kind: 'done'; id: number; packet: Packet; metrics: MetricsDelta | null }
  | { kind: 'error'; id: number; error: string; metrics: MetricsDelta | null }
  /** A line the thread's logger wrote (pino JSON), for the stream's logger to write. */
  | { kind: 'log'; line: string };
