// Fleet leases in a NATS JetStream KV bucket (`<bucket>_fleet`, beside the stream store's bucket):
// `node.<id>` heartbeats and `lease.<stream>` records, each `{node, address?, expires}`. Every
// change is a compare-and-set on the key's revision (create when absent, update at the revision
// read), so two nodes can never both take a lease. Expiry compares the writer's clock with the
// reader's: node clocks must agree to well within the lease time (NTP does). The bucket's watch is
// the push channel.
import type { KV } from '@nats-io/kv';
import type { NatsConnection } from '@nats-io/transport-node';
import { redactUrl } from '../../components/connection/urls.js';
import { loadNats } from '../../components/nats/library.js';
import { parseNatsStoreUrl } from '../store/nats.js';
import { decodeId, encodeId } from '../store/store.js';
import type { FleetNode, LeaseStore } from './lease_store.js';

interface LeaseRecord {
  node: string;
  address?: string;
  expires: number;
}

const TIMEOUT_MS = 5_000;

export class NatsLeases implements LeaseStore {
  readonly name: string;
  private nc: NatsConnection | undefined;
  private kv: KV | undefined;
  private readonly listeners: Array<() => void> = [];
  /** Every key of the bucket as the watch last reported it: nodes() and leases() read this. */
  private readonly mirror = new Map<string, { value: LeaseRecord; revision: number }>();
  /** Lease key → the revision this node last wrote. */
  private readonly mine = new Map<string, number>();
  private joined = false;

  constructor(private readonly url: string) {
    this.name = redactUrl(url);
  }

  async open(): Promise<void> {
    const { server, bucket, user, pass } = parseNatsStoreUrl(this.url);
    const lib = await loadNats();
    this.nc = await lib.transport.connect({
      servers: server,
      user,
      pass,
      name: 'nekton-fleet',
      maxReconnectAttempts: -1,
      reconnectTimeWait: 1_000,
      timeout: TIMEOUT_MS,
    });
    const js = lib.jetstream.jetstream(this.nc, { timeout: TIMEOUT_MS });
    this.kv = await new lib.kv.Kvm(js).create(`${bucket}_fleet`, { history: 1 });
    // One watch keeps a mirror of the bucket (last values first, then every change): listing keys
    // on each tick raced with the renewals that change them all the time.
    const watch = await this.kv.watch({ key: '>' });
    const seenNodes = new Set<string>();
    let initial = true;
    const ready = new Promise<void>((resolve) => {
      void (async () => {
        for await (const entry of watch) {
          if (entry.operation === 'PUT') {
            try {
              this.mirror.set(entry.key, { value: entry.json<LeaseRecord>(), revision: entry.revision });
            } catch {
              this.mirror.delete(entry.key);
            }
          } else this.mirror.delete(entry.key);
          // Renewals are writes too: only a lease given up, a node leaving or a node seen for the
          // first time is news (reacting to every renewal would tick each node on every heartbeat).
          const isNode = entry.key.startsWith('node.');
          const news = entry.operation !== 'PUT' || (isNode && !seenNodes.has(entry.key));
          if (isNode) {
            if (entry.operation === 'PUT') seenNodes.add(entry.key);
            else seenNodes.delete(entry.key);
          }
          // The last of the initial values comes with delta 0 (nothing more pending).
          if (initial && entry.delta === 0) {
            initial = false;
            resolve();
          }
          if (news && !initial) for (const listener of this.listeners) listener();
        }
      })().catch(() => undefined);
    });
    // An empty bucket sends no initial values: do not wait for them.
    await Promise.race([ready, new Promise((r) => setTimeout(r, 500))]);
  }

  async heartbeat(node: FleetNode, ttlMs: number): Promise<Set<string>> {
    const kv = this.bucket();
    const expires = Date.now() + ttlMs;
    const nodeKey = `node.${encodeId(node.id)}`;
    const wasThere = this.joined;
    await kv.put(nodeKey, JSON.stringify({ node: node.id, address: node.address, expires }));
    this.joined = true;
    // Only the leases this node took, at the revision it wrote: no listing on the renewal path.
    const held = new Set<string>();
    await Promise.all(
      [...this.mine].map(async ([key, revision]) => {
        try {
          this.mine.set(key, await kv.update(key, JSON.stringify({ node: node.id, expires }), revision));
          held.add(decodeId(key.slice('lease.'.length)));
        } catch {
          this.mine.delete(key); // someone changed it since: not ours any more
        }
      }),
    );
    if (!wasThere) for (const listener of this.listeners) listener();
    return held;
  }

  async nodes(): Promise<FleetNode[]> {
    const now = Date.now();
    return [...this.mirrored('node.').values()]
      .filter((e) => e.value.expires > now)
      .map((e) => ({ id: e.value.node, address: e.value.address ?? '' }))
      .sort((a, b) => (a.id < b.id ? -1 : 1));
  }

  async leases(): Promise<Map<string, string>> {
    const now = Date.now();
    const out = new Map<string, string>();
    for (const [key, entry] of this.mirrored('lease.'))
      if (entry.value.expires > now) out.set(decodeId(key.slice('lease.'.length)), entry.value.node);
    return out;
  }

  async acquire(streamId: string, nodeId: string, ttlMs: number): Promise<boolean> {
    const kv = this.bucket();
    const key = `lease.${encodeId(streamId)}`;
    const value = JSON.stringify({ node: nodeId, expires: Date.now() + ttlMs });
    try {
      const current = await kv.get(key);
      let revision: number;
      if (current?.operation !== 'PUT') {
        revision = current ? await kv.update(key, value, current.revision) : await kv.create(key, value);
      } else {
        const held = current.json<LeaseRecord>();
        if (held.node !== nodeId && held.expires > Date.now()) return false;
        revision = await kv.update(key, value, current.revision);
      }
      this.mine.set(key, revision);
      return true;
    } catch {
      return false; // another node won the compare-and-set
    }
  }

  async release(streamId: string, nodeId: string): Promise<void> {
    const kv = this.bucket();
    const key = `lease.${encodeId(streamId)}`;
    this.mine.delete(key);
    const current = await kv.get(key);
    if (current?.operation !== 'PUT' || current.json<LeaseRecord>().node !== nodeId) return;
    await kv.delete(key, { previousSeq: current.revision }).catch(() => undefined);
  }

  async leave(nodeId: string): Promise<void> {
    const kv = this.bucket();
    for (const [key, entry] of this.mirrored('lease.'))
      if (entry.value.node === nodeId)
        await kv.delete(key, { previousSeq: entry.revision }).catch(() => undefined);
    await kv.delete(`node.${encodeId(nodeId)}`);
  }

  onChange(listener: () => void): void {
    this.listeners.push(listener);
  }

  async close(): Promise<void> {
    const nc = this.nc;
    this.nc = undefined;
    this.kv = undefined;
    await nc?.close().catch(() => undefined);
  }

  private bucket(): KV {
    if (!this.kv) throw new Error('the fleet store is not open');
    return this.kv;
  }

  private mirrored(prefix: string): Map<string, { value: LeaseRecord; revision: number }> {
    return new Map([...this.mirror].filter(([key]) => key.startsWith(prefix)));
  }
}
