// `local` rate limit: at most `count` accesses per `interval`, shared by every user in this process.
import { defineComponent, field } from '../../config/spec.js';
import type { RateLimit } from '../../engine/component.js';
import { ConfigError } from '../../engine/errors.js';

const COUNT_NOT_POSITIVE = 'count must be larger than zero';

/** A fixed window: the bucket refills to `count` once `interval` has passed since the last refill. */
export class LocalRateLimit implements RateLimit {
  private bucket: number;
  private lastRefresh = Date.now();

  constructor(
    private readonly count: number,
    private readonly intervalMs: number,
  ) {
    if (count <= 0) throw new ConfigError(COUNT_NOT_POSITIVE);
    this.bucket = count;
  }

  async access(): Promise<number> {
    return this.take();
  }

  /** The synchronous core of access(): 0 to go now, else milliseconds to wait before asking again. */
  take(): number {
    if (this.bucket > 0) {
      this.bucket--;
      return 0;
    }
    const now = Date.now();
    const remaining = this.intervalMs - (now - this.lastRefresh);
    if (remaining > 0) return remaining;
    this.bucket = this.count - 1;
    this.lastRefresh = now;
    return 0;
  }

  async close(): Promise<void> {}
}

export const spec = defineComponent({
  name: 'local',
  kind: 'rate_limit',
  status: 'stable',
  summary:
    'Allows `count` accesses every `interval`, shared by every component of this process that names it. It does not coordinate across processes.',
  description:
    'A fixed window: up to `count` accesses are granted at once, then callers wait until `interval` has passed since the window began. Every component that names this resource shares the same window.',
  fields: [
    field.int('count', 'The most accesses allowed per interval.', { default: 1000 }),
    field.duration('interval', 'The length of the window that `count` applies to.', { default: '1s' }),
  ],
  lint: (config) => (config.count <= 0 ? [COUNT_NOT_POSITIVE] : []),
  examples: [
    {
      title: 'One hundred messages per second',
      config: `input:
  generate:
    count: 300
    interval: ''
    mapping: 'root = counter()'
pipeline:
  processors:
    - rate_limit:
        resource: per_second
output:
  drop: {}
rate_limit_resources:
  - label: per_second
    local:
      count: 100
      interval: 1s
`,
    },
  ],
  build: (config): RateLimit => new LocalRateLimit(config.count, config.interval),
});
