// A NATS key-value bucket opened on first use (and again after the connection was lost), shared
// by the `nats_kv` cache and processor.
import type { KV } from '@nats-io/kv';
import type { NatsConnection } from '@nats-io/transport-node';
import { type ConfigOf, field } from '../../config/spec.js';
import { errorMessage } from '../../engine/errors.js';
import { closeQuietly } from '../connection/close_quietly.js';
import { expandUrls, redactUrl } from '../connection/urls.js';
import { connectNats, maxReconnectsField, type NatsConnectionConfig, urlsField } from './connection.js';
import { nats } from './library.js';

export function bucketField() {
  return field.string('bucket', 'The name of the KV bucket.', { examples: ['my_kv_bucket'] });
}

/** `urls`, `max_reconnects`, `bucket`: how the `nats_kv` cache and processor both start their fields. */
export function bucketConnectionFields() {
  return [urlsField(), maxReconnectsField(), bucketField()] as const;
}

/** What a bucket needs of its component's config: where to connect, and the bucket's name. */
export type NatsKvConfig = NatsConnectionConfig & ConfigOf<[ReturnType<typeof bucketField>]>;

export class KvBucket {
  private opening: Promise<KV> | null = null;
  private nc: NatsConnection | null = null;
  private closed = false;

  constructor(
    private readonly config: NatsKvConfig,
    private readonly name: string,
  ) {}

  /** The open bucket; throws (naming the address and bucket) while it cannot be reached. */
  get(): Promise<KV> {
    if (this.closed) return Promise.reject(new Error('NATS KV is closed'));
    if (this.nc?.isClosed()) {
      this.nc = null;
      this.opening = null;
    }
    if (!this.opening) {
      this.opening = this.open().catch((err) => {
        this.opening = null;
        throw err;
      });
    }
    return this.opening;
  }

  /**
   * Runs an operation on the bucket. When it fails because the connection went away the client
   * says only "connection closed": the error then names the bucket and the server too.
   */
  async run<T>(op: (kv: KV) => Promise<T>): Promise<T> {
    const kv = await this.get();
    const nc = this.nc;
    try {
      return await op(kv);
    } catch (err) {
      if (!nc?.isClosed()) throw err;
      const where = expandUrls(this.config.urls).map(redactUrl).join(', ');
      throw new Error(`NATS KV bucket '${this.config.bucket}' at ${where}: ${errorMessage(err)}`, {
        cause: err,
      });
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    const opening = this.opening;
    this.opening = null;
    await opening?.catch(() => undefined);
    await closeQuietly(this.nc);
    this.nc = null;
  }

  private async open(): Promise<KV> {
    const nc = await connectNats(this.config, this.name);
    try {
      const kv = await new (nats().kv.Kvm)(nc).open(this.config.bucket);
      // open() is lazy: asking for the status proves the bucket exists.
      await kv.status();
      if (this.closed) throw new Error('closed while opening');
      this.nc = nc;
      return kv;
    } catch (err) {
      const server = nc.getServer();
      await closeQuietly(nc);
      throw new Error(`NATS KV bucket '${this.config.bucket}' at ${server}: ${errorMessage(err)}`);
    }
  }
}
