// The `redis` rate limit: a fixed window counter in Redis, shared by every process using the key.
import { defineComponent, field } from '../../config/spec.js';
import type { RateLimit } from '../../engine/component.js';
import { errorMessage } from '../../engine/errors.js';
import { lintRedisClient, RedisSession, redisClientFields, redisTarget } from '../redis/client.js';

// The reference's script: count the access; the first one starts the window; over the limit,
// answer how long the window still lasts.
const ACCESS_SCRIPT = `local current = redis.call("INCR", KEYS[1])
if current == 1 then
  redis.call("PEXPIRE", KEYS[1], tonumber(ARGV[2]))
end
if current > tonumber(ARGV[1]) then
  return redis.call("PTTL", KEYS[1])
end
return 0`;

export class RedisRateLimit implements RateLimit {
  constructor(
    private readonly session: RedisSession,
    private readonly key: string,
    private readonly count: number,
    private readonly intervalMs: number,
  ) {}

  async access(): Promise<number> {
    let wait: unknown;
    try {
      wait = await this.session.send([
        'EVAL',
        ACCESS_SCRIPT,
        '1',
        this.key,
        String(this.count),
        String(Math.max(1, Math.round(this.intervalMs))),
      ]);
    } catch (err) {
      throw new Error(`accessing redis rate limit at ${this.session.address}: ${errorMessage(err)}`);
    }
    // PTTL answers -1 when the key somehow has no expiry: wait a whole interval rather than spin.
    const ms = Number(wait);
    return ms > 0 ? ms : ms < 0 ? this.intervalMs : 0;
  }

  async close(): Promise<void> {
    await this.session.close();
  }
}

export const spec = defineComponent({
  name: 'redis',
  kind: 'rate_limit',
  status: 'stable',
  summary:
    'Allows `count` accesses every `interval`, counted in Redis under `key`, so every nekton process using the same server and key shares the limit.',
  description:
    'A fixed window: the first access creates the counter with an expiry of `interval`; accesses past `count` wait until it expires. Every user of a key must configure the same `count` and `interval`.',
  fields: [
    ...redisClientFields(),
    field.int('count', 'The most accesses allowed per interval.', { default: 1000 }),
    field.duration('interval', 'The length of the window that `count` applies to.', { default: '1s' }),
    field.string('key', 'The Redis key holding the counter.'),
  ],
  lint: (config) => [
    ...lintRedisClient(config),
    ...(config.count <= 0 ? ['count must be larger than zero'] : []),
  ],
  examples: [
    {
      title: 'One hundred messages per second across all instances',
      config: `input:
  generate:
    count: 300
    interval: ''
    mapping: 'root = counter()'
pipeline:
  processors:
    - rate_limit:
        resource: shared
output:
  drop: {}
rate_limit_resources:
  - label: shared
    redis:
      url: redis://127.0.0.1:6379
      key: 'nekton:ratelimit:ingest'
      count: 100
      interval: 1s
`,
    },
  ],
  async build(config, ctx): Promise<RateLimit> {
    // Guards direct builds too; lint reports it first (the hook above).
    if (config.count <= 0) throw new Error('count must be larger than zero');
    const target = await redisTarget(config);
    return new RedisRateLimit(
      new RedisSession(target, ctx.logger),
      config.key,
      config.count,
      config.interval,
    );
  },
});
