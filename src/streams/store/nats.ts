// `nats://HOST:PORT/BUCKET`: a JetStream KV bucket (created when missing) with one key per stream
// and resource, `<section>.<id>`. The client reconnects forever; while it is disconnected the
// store is reported lost and writes fail at once instead of waiting for a timeout. The bucket's
// watch is the change feed.
import type { KV } from '@nats-io/kv';
import type { NatsConnection } from '@nats-io/transport-node';
import { redactUrl } from '../../components/connection/urls.js';
import { loadNats } from '../../components/nats/library.js';
import { errorMessage } from '../../engine/errors.js';
import {
  asStoredValue,
  decodeId,
  encodeId,
  isStoreSection,
  type StoreChange,
  type StoredRecord,
  type StoredValue,
  type StoreKey,
  StoreOpenError,
  StoreWriteError,
  type StreamStore,
} from './store.js';

const RECONNECT_WAIT_MS = 1_000;
const TIMEOUT_MS = 5_000;
/** How many keys are read at once on open. */
const READ_CONCURRENCY = 32;

export class NatsStore implements StreamStore {
  readonly name: string;
  private nc: NatsConnection | undefined;
  private kv: KV | undefined;
  private lost: string | undefined;
  private readonly listeners: Array<(change: StoreChange) => void> = [];
  private watching = false;

  constructor(private readonly url: string) {
    this.name = redactUrl(url);
  }

  async open(): Promise<StoredRecord[]> {
    try {
      const { server, bucket, user, pass } = parseNatsStoreUrl(this.url);
      const lib = await loadNats();
      this.nc = await lib.transport.connect({
        servers: server,
        user,
        pass,
        name: 'nekton-stream-store',
        maxReconnectAttempts: -1,
        reconnectTimeWait: RECONNECT_WAIT_MS,
        timeout: TIMEOUT_MS,
      });
      this.followStatus(this.nc);
      const js = lib.jetstream.jetstream(this.nc, { timeout: TIMEOUT_MS });
      this.kv = await new lib.kv.Kvm(js).create(bucket, { history: 1 });
      return await this.readAll(this.kv);
    } catch (err) {
      await this.close();
      throw new StoreOpenError(this.name, errorMessage(err));
    }
  }

  async put(key: StoreKey, value: StoredValue): Promise<void> {
    await this.write((kv) => kv.put(kvKey(key), JSON.stringify(value)).then(() => undefined));
  }

  async remove(key: StoreKey): Promise<void> {
    await this.write((kv) => kv.delete(kvKey(key)));
  }

  problem(): string | undefined {
    return this.lost;
  }

  watch(listener: (change: StoreChange) => void): void {
    this.listeners.push(listener);
    if (!this.watching && this.kv) {
      this.watching = true;
      this.follow(this.kv).catch(() => undefined); // closed before the watch began: nothing to follow
    }
  }

  async close(): Promise<void> {
    const nc = this.nc;
    this.nc = undefined;
    this.kv = undefined;
    await nc?.close().catch(() => undefined);
  }

  private async write(work: (kv: KV) => Promise<void>): Promise<void> {
    if (!this.kv) throw new StoreWriteError(this.name, 'the store is not open');
    if (this.lost) throw new StoreWriteError(this.name, this.lost);
    try {
      await work(this.kv);
    } catch (err) {
      throw new StoreWriteError(this.name, errorMessage(err));
    }
  }

  private followStatus(nc: NatsConnection): void {
    void (async () => {
      for await (const status of nc.status()) {
        if (status.type === 'disconnect') this.lost = `disconnected from ${redactUrl(status.server)}`;
        else if (status.type === 'reconnect') this.lost = undefined;
        else if (status.type === 'close') this.lost = 'the connection is closed';
      }
    })().catch(() => undefined);
  }

  private async readAll(kv: KV): Promise<StoredRecord[]> {
    const keys: string[] = [];
    for await (const key of await kv.keys()) keys.push(key);
    keys.sort();
    const records: StoredRecord[] = [];
    for (let i = 0; i < keys.length; i += READ_CONCURRENCY) {
      const entries = await Promise.all(keys.slice(i, i + READ_CONCURRENCY).map((k) => kv.get(k)));
      for (const entry of entries) {
        const key = entry ? parseKvKey(entry.key) : undefined;
        const value = entry && entry.operation === 'PUT' ? asStoredValue(entry.json()) : undefined;
        if (key && value) records.push({ ...key, value });
      }
    }
    return records;
  }

  /** Changes after open (the bucket's watch, new values only). */
  private async follow(kv: KV): Promise<void> {
    const lib = await loadNats();
    const iterator = await kv.watch({ include: lib.kv.KvWatchInclude.UpdatesOnly });
    for await (const entry of iterator) {
      const key = parseKvKey(entry.key);
      if (!key) continue;
      const value = entry.operation === 'PUT' ? asStoredValue(entry.json()) : undefined;
      for (const listener of this.listeners) listener({ ...key, value });
    }
  }
}

function kvKey(key: StoreKey): string {
  return `${key.section}.${encodeId(key.id)}`;
}

function parseKvKey(key: string): StoreKey | undefined {
  const dot = key.indexOf('.');
  const section = key.slice(0, dot);
  if (dot < 0 || !isStoreSection(section)) return undefined;
  return { section, id: decodeId(key.slice(dot + 1)) };
}

/** `nats://[user:pass@]host[:port]/bucket`. */
export function parseNatsStoreUrl(text: string): {
  server: string;
  bucket: string;
  user?: string;
  pass?: string;
} {
  const url = new URL(text);
  const bucket = decodeURIComponent(url.pathname.replace(/^\/+/, ''));
  if (!/^[A-Za-z0-9_-]+$/.test(bucket))
    throw new Error('expected nats://HOST:PORT/BUCKET with a bucket name of letters, digits, _ or -');
  return {
    server: `${url.hostname}:${url.port || '4222'}`,
    bucket,
    user: url.username ? decodeURIComponent(url.username) : undefined,
    pass: url.password ? decodeURIComponent(url.password) : undefined,
  };
}
