// The `redpanda` section's `status_topic`: the reference's status events, as protojson
// `StatusEvent`s keyed by `pipeline_id` — INITIALIZING once the config was read, every 30 s
// CONNECTION_HEALTHY or CONNECTION_ERROR (with each disconnected component's path, label and
// error) while a stream runs, and EXITING when the service stops.
import type { ConnectionStatus } from '../../engine/component.js';
import type { TopicSink } from './topic_sink.js';

const PERIOD_MS = 30_000;

type EventType = 'TYPE_INITIALIZING' | 'TYPE_CONNECTION_HEALTHY' | 'TYPE_CONNECTION_ERROR' | 'TYPE_EXITING';

export class StatusEmitter {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly sink: TopicSink,
    private readonly topic: string,
    private readonly pipelineId: string,
    private readonly instanceId: string,
    private readonly periodMs = PERIOD_MS,
  ) {}

  initialising(): void {
    this.send('TYPE_INITIALIZING');
  }

  /** Reports the connections of `statuses()` every period, until exiting. */
  watch(statuses: () => readonly ConnectionStatus[]): void {
    clearInterval(this.timer);
    this.timer = setInterval(() => this.report(statuses()), this.periodMs).unref();
  }

  /** One connection event now (what each period sends). */
  report(statuses: readonly ConnectionStatus[]): void {
    const down = statuses.filter((s) => !s.connected);
    const errors = down.map((s) => ({
      message: s.error ?? '',
      path: s.path,
      ...(s.label ? { label: s.label } : {}),
    }));
    this.send(down.length === 0 ? 'TYPE_CONNECTION_HEALTHY' : 'TYPE_CONNECTION_ERROR', {
      connectionErrors: errors,
    });
  }

  exiting(error?: string): void {
    clearInterval(this.timer);
    this.timer = undefined;
    this.send('TYPE_EXITING', error ? { exitError: { message: error } } : {});
  }

  private send(type: EventType, extra: Record<string, unknown> = {}): void {
    // protojson: camelCase names, int64 as a string, empty values left out.
    const event: Record<string, unknown> = { type };
    if (this.pipelineId !== '') event.pipelineId = this.pipelineId;
    event.instanceId = this.instanceId;
    event.timestamp = String(Math.floor(Date.now() / 1000));
    for (const [key, value] of Object.entries(extra))
      if (!Array.isArray(value) || value.length > 0) event[key] = value;
    this.sink.push(this.topic, this.pipelineId, JSON.stringify(event));
  }
}
