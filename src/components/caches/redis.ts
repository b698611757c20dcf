// The `redis` cache: keys (with an optional prefix) stored as Redis strings, with TTLs.
import type { Logger } from 'pino';
import { defineComponent, field } from '../../config/spec.js';
import { type BackoffConfig, withRetries } from '../../engine/backoff.js';
import type { Cache } from '../../engine/component.js';
import { errorMessage } from '../../engine/errors.js';
import { backoffField } from '../fields/backoff.js';
import {
  lintRedisClient,
  type RedisReply,
  RedisSession,
  redisClientFields,
  redisTarget,
  redisValue,
} from '../redis/client.js';

export class RedisCache implements Cache {
  constructor(
    private readonly session: RedisSession,
    private readonly prefix: string,
    private readonly defaultTtlMs: number,
    private readonly retries: BackoffConfig,
    private readonly logger: Logger,
  ) {}

  async get(key: string): Promise<Uint8Array | undefined> {
    const value = await this.retry('get', () => this.session.sendBinary(['GET', this.prefix + key]));
    return value === null ? undefined : (value as Buffer);
  }

  async set(key: string, value: Uint8Array, ttlMs?: number): Promise<void> {
    await this.retry('set', () =>
      this.session.send(['SET', this.prefix + key, redisValue(value), ...this.ttl(ttlMs)]),
    );
  }

  async add(key: string, value: Uint8Array, ttlMs?: number): Promise<boolean> {
    const reply = await this.retry('add', () =>
      this.session.send(['SET', this.prefix + key, redisValue(value), 'NX', ...this.ttl(ttlMs)]),
    );
    return reply !== null;
  }

  async delete(key: string): Promise<void> {
    await this.retry('delete', () => this.session.send(['DEL', this.prefix + key]));
  }

  async close(): Promise<void> {
    await this.session.close();
  }

  private ttl(ttlMs: number | undefined): string[] {
    const ms = ttlMs ?? this.defaultTtlMs;
    return ms > 0 ? ['PX', String(Math.max(1, Math.round(ms)))] : [];
  }

  /** Retries failed commands (a lost connection is re-opened on the next try) until the backoff gives up. */
  private retry(op: string, run: () => Promise<RedisReply>): Promise<RedisReply> {
    return withRetries(this.retries, run, {
      describe: (err) => `redis cache ${op} at ${this.session.address} failed: ${errorMessage(err)}`,
      onRetry: (text, wait) => this.logger.debug(`${text}; retrying in ${wait}ms`),
    });
  }
}

export const spec = defineComponent({
  name: 'redis',
  kind: 'cache',
  status: 'stable',
  summary: 'Stores cache items as Redis strings, optionally under a key prefix and with a TTL.',
  description:
    'Failed commands (including a lost connection, which is re-opened) are retried with the `retries` backoff before the cache operation fails. `add` uses `SET NX`, so it is atomic across every process sharing the server.',
  fields: [
    ...redisClientFields(),
    field.string('prefix', 'A prefix added to every key.', { optional: true, examples: ['nekton:'] }),
    field.duration(
      'default_ttl',
      'How long items live unless the write sets its own TTL; empty or absent never expires.',
      {
        optional: true,
        advanced: true,
        examples: ['60s', '5m', '36h'],
      },
    ),
    {
      ...backoffField(
        { initial_interval: '500ms', max_interval: '1s', max_elapsed_time: '5s' },
        { advanced: true },
      ),
      name: 'retries',
      description: 'How failed commands are retried.',
    },
  ],
  lint: lintRedisClient,
  examples: [
    {
      title: 'Deduplicate across instances',
      config: `input:
  generate:
    count: 3
    interval: ''
    mapping: 'root = {"id": "same"}'
pipeline:
  processors:
    - dedupe:
        cache: seen
        key: '\${! this.id }'
output:
  stdout: {}
cache_resources:
  - label: seen
    redis:
      url: redis://127.0.0.1:6379
      prefix: 'dedupe:'
      default_ttl: 1h
`,
    },
  ],
  async build(config, ctx): Promise<Cache> {
    const target = await redisTarget(config);
    return new RedisCache(
      new RedisSession(target, ctx.logger),
      config.prefix ?? '',
      config.default_ttl ?? 0,
      config.retries,
      ctx.logger,
    );
  },
});
