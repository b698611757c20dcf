// The `nats_kv` cache: keys and values in a NATS JetStream key-value bucket.
import { defineComponent } from '../../config/spec.js';
import type { Cache } from '../../engine/component.js';
import { errorMessage } from '../../engine/errors.js';
import { connectionName, lintNatsConnection, securityFields } from '../nats/connection.js';
import { bucketConnectionFields, KvBucket } from '../nats/kv.js';

/** The server's answer when a create finds the key already set (JetStream "wrong last sequence"). */
function isKeyExists(err: unknown): boolean {
  const code = (err as { api_error?: { err_code?: number } }).api_error?.err_code;
  return code === 10071 || /wrong last sequence|key exists/i.test(errorMessage(err));
}

export class NatsKvCache implements Cache {
  constructor(private readonly bucket: KvBucket) {}

  async get(key: string): Promise<Uint8Array | undefined> {
    const entry = await this.bucket.run((kv) => kv.get(key));
    // A deleted or purged key keeps a marker entry: it counts as absent.
    return entry && entry.operation === 'PUT' ? entry.value : undefined;
  }

  /** Items expire by the bucket's own max age; a per-item TTL is not supported by the bucket. */
  async set(key: string, value: Uint8Array): Promise<void> {
    await this.bucket.run((kv) => kv.put(key, value));
  }

  async add(key: string, value: Uint8Array): Promise<boolean> {
    try {
      await this.bucket.run((kv) => kv.create(key, value));
      return true;
    } catch (err) {
      if (isKeyExists(err)) return false;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    await this.bucket.run((kv) => kv.delete(key));
  }

  close(): Promise<void> {
    return this.bucket.close();
  }
}

const fields = [...bucketConnectionFields(), ...securityFields()] as const;

export const spec = defineComponent({
  name: 'nats_kv',
  kind: 'cache',
  status: 'stable',
  categories: ['Services'],
  summary: 'Stores key/value pairs in a NATS JetStream key-value bucket.',
  description: `The bucket must exist (for example \`nats kv add my_bucket\`). Values live as long as the bucket keeps them (its \`max_age\` and history settings); a per-operation TTL is ignored. \`add\` succeeds only when the key is absent or deleted. The connection is opened on first use; while the server cannot be reached each operation fails with an error naming the address.`,
  fields,
  lint: lintNatsConnection,
  examples: [
    {
      title: 'Deduplicate on a key shared across instances',
      config: `input:
  generate:
    count: 3
    interval: ''
    mapping: 'root = {"id": "order-1"}'
pipeline:
  processors:
    - dedupe:
        cache: seen
        key: '\${! this.id }'
output:
  stdout: {}
cache_resources:
  - label: seen
    nats_kv:
      urls: [ nats://127.0.0.1:4222 ]
      bucket: seen_orders
`,
    },
  ],
  build(config, ctx): Cache {
    return new NatsKvCache(new KvBucket(config, connectionName(ctx)));
  },
});
