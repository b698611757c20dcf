// The `memcached` cache: items on one or more memcached servers (binary protocol, via memjs).
import type { Client } from 'memjs';
import type { Logger } from 'pino';
import { defineComponent, field } from '../../config/spec.js';
import { type BackoffConfig, withRetries } from '../../engine/backoff.js';
import type { Cache } from '../../engine/component.js';
import { errorMessage } from '../../engine/errors.js';
import { backoffField } from '../fields/backoff.js';

type MemcachedClient = Client<Buffer, Buffer | null>;

/** The configured addresses, an entry holding commas split out. */
function serverList(addresses: readonly string[]): string[] {
  return addresses
    .flatMap((a) => a.split(','))
    .map((a) => a.trim())
    .filter((a) => a !== '');
}

export class MemcachedCache implements Cache {
  private client: MemcachedClient | null = null;
  private readonly where: string;

  constructor(
    private readonly servers: string[],
    private readonly prefix: string,
    private readonly defaultTtlMs: number,
    private readonly retries: BackoffConfig,
    private readonly logger: Logger,
  ) {
    this.where = servers.join(', ');
  }

  async get(key: string): Promise<Uint8Array | undefined> {
    const { value } = await this.retry('get', (c) => c.get(this.prefix + key));
    return value ?? undefined;
  }

  async set(key: string, value: Uint8Array, ttlMs?: number): Promise<void> {
    await this.retry('set', (c) =>
      c.set(this.prefix + key, Buffer.from(value), { expires: this.ttl(ttlMs) }),
    );
  }

  async add(key: string, value: Uint8Array, ttlMs?: number): Promise<boolean> {
    return this.retry('add', (c) =>
      c.add(this.prefix + key, Buffer.from(value), { expires: this.ttl(ttlMs) }),
    );
  }

  async delete(key: string): Promise<void> {
    // Deleting a key that is not there is not an error.
    await this.retry('delete', (c) => c.delete(this.prefix + key));
  }

  async close(): Promise<void> {
    this.client?.close();
    this.client = null;
  }

  /** Seconds, as memcached takes them (rounded up so a short TTL does not become "never"). */
  private ttl(ttlMs: number | undefined): number {
    const ms = ttlMs ?? this.defaultTtlMs;
    return ms > 0 ? Math.max(1, Math.ceil(ms / 1000)) : 0;
  }

  private async open(): Promise<MemcachedClient> {
    if (this.client) return this.client;
    const memjs = (await import('memjs')).default;
    const logger = this.logger;
    // The client reconnects a dropped server connection on the next request by itself; its own
    // retries are off (`retries` here is the cache's backoff), as is failover (keys would move).
    this.client = memjs.Client.create<Buffer, Buffer | null>(this.servers.join(','), {
      retries: 1,
      timeout: 3,
      conntimeout: 3,
      keepAlive: true,
      logger: { log: (...args: unknown[]) => logger.debug(`memcached: ${args.map(String).join(' ')}`) },
    });
    return this.client;
  }

  /** Runs an operation, retrying failures (not misses) until the backoff gives up. */
  private retry<T>(op: string, run: (client: MemcachedClient) => Promise<T>): Promise<T> {
    return withRetries(this.retries, async () => run(await this.open()), {
      describe: (err) => `memcached ${op} at ${this.where} failed: ${errorMessage(err)}`,
      onRetry: (text, wait) => this.logger.debug(`${text}; retrying in ${wait}ms`),
    });
  }
}

export const spec = defineComponent({
  name: 'memcached',
  kind: 'cache',
  status: 'stable',
  summary:
    'Connects to a cluster of memcached services, a prefix can be specified to allow multiple cache types to share a memcached cluster under different namespaces.',
  description:
    'Keys are spread over the servers of `addresses` by hash. Items live for `default_ttl` unless the write sets its own TTL (memcached counts whole seconds). `add` is atomic on the server that holds the key. A failed operation (a server down or not answering within 3 seconds) is retried with the `retries` backoff, then fails with an error naming the servers; a dropped connection is re-opened on the next request.',
  fields: [
    field.array(
      field.string('addresses', 'A list of addresses to connect to.', {
        examples: [['localhost:11211', '10.0.0.1:11211']],
      }),
    ),
    field.string(
      'prefix',
      'An optional string to prefix item keys with in order to prevent collisions with similar services.',
      {
        optional: true,
      },
    ),
    field.duration(
      'default_ttl',
      'A default TTL to set for items, calculated from the moment the item is cached.',
      {
        default: '300s',
      },
    ),
    {
      ...backoffField(
        { initial_interval: '1s', max_interval: '5s', max_elapsed_time: '30s' },
        { advanced: true },
      ),
      name: 'retries',
      description: 'Determine time intervals and cut offs for retry attempts.',
    },
  ],
  lint: (config) =>
    serverList((config.addresses ?? []).filter((a): a is string => typeof a === 'string')).length === 0
      ? ['addresses: at least one memcached address is required']
      : [],
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
    memcached:
      addresses: [ 127.0.0.1:11211 ]
      prefix: 'dedupe:'
      default_ttl: 1h
`,
    },
  ],
  build(config, ctx): Cache {
    return new MemcachedCache(
      serverList(config.addresses),
      config.prefix ?? '',
      config.default_ttl,
      config.retries,
      ctx.logger,
    );
  },
});
