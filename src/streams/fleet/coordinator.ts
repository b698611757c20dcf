// One node's part in a fleet (`nekton streams --store URL --cluster`): every stream the store
// holds runs on exactly one node, the one holding its lease. Each tick (a quarter of the lease
// time, and at once when the store reports a change) the node renews its heartbeat and leases,
// stops what it no longer holds, takes the free streams that hash to it (rendezvous over the live
// nodes) and hands over the ones that now hash to a newer node. A node that cannot renew stops all
// its fleet streams once 60% of the lease time has passed since its last renewal, before any other
// node can take them: no stream runs twice, even when this node is cut off from the store.
import type { Logger } from 'pino';
import type { EndpointHandler } from '../../engine/context.js';
import { errorMessage } from '../../engine/errors.js';
import type { StreamsApiContext } from '../api_context.js';
import { installResource } from '../api_resources.js';
import { storedDefinition, storedText } from '../store/restore.js';
import type { StoreChange, StoredValue } from '../store/store.js';
import { streamEndpointForwarder } from './endpoint_forwarder.js';
import type { FleetNode, FleetView, LeaseStore } from './lease_store.js';
import { preferredNode } from './rendezvous.js';

/** Streams started (or handed over) at once within a tick. */
const ADOPT_CONCURRENCY = 32;

/** The share of the lease time after the last renewal at which a cut-off node stops its streams. */
const FENCE_SHARE = 0.6;

export interface CoordinatorOptions {
  leases: LeaseStore;
  node: FleetNode;
  leaseTtlMs: number;
  ctx: StreamsApiContext;
  logger: Logger;
  /** Where `/<id>/` forwarders for streams on other nodes are registered (the HTTP server). */
  endpoints?: ForwarderRegistry;
}

export interface ForwarderRegistry {
  register(path: string, description: string, handler: EndpointHandler): void;
  unregister(path: string): boolean;
}

/** First path segments the server's own routes use: a stream with such an id gets no forwarder. */
const RESERVED = new Set([
  'streams',
  'resources',
  'ready',
  'ui',
  'metrics',
  'stats',
  'ping',
  'version',
  'endpoints',
  'openapi.json',
  'debug',
]);

export class FleetCoordinator implements FleetView {
  readonly node: FleetNode;
  /** Stream configs in the store: what the fleet must run. */
  private readonly desired = new Map<string, StoredValue>();
  /** Fleet streams running on this node. */
  private readonly running = new Set<string>();
  /** Ids an API request on this node is creating or changing right now: ticks leave them alone. */
  private readonly busy = new Set<string>();
  /** Streams whose stored config did not start here: not tried again until it changes. */
  private readonly failed = new Map<string, string>();
  /** What this node last wrote or applied per store key, to tell its own changes from others'. */
  private readonly known = new Map<string, string>();
  private lastRenewal = performance.now();
  private storeProblem: string | undefined;
  private fenced = false;
  private timer: NodeJS.Timeout | undefined;
  private watchdog: NodeJS.Timeout | undefined;
  private readonly forwarders = new Set<string>();
  /** When this node last claimed each id through the API (performance.now()). */
  private readonly claims = new Map<string, number>();
  private ticking: Promise<void> | undefined;
  private again = false;
  private stopped = false;
  private cachedNodes: FleetNode[] = [];
  private cachedOwners = new Map<string, string>();

  constructor(private readonly options: CoordinatorOptions) {
    this.node = options.node;
  }

  get leaseTtlMs(): number {
    return this.options.leaseTtlMs;
  }

  /** Stored streams and resources read at open; then the store's change feed keeps this current. */
  seed(records: readonly { section: string; id: string; value: StoredValue }[]): void {
    for (const record of records) {
      this.known.set(keyOf(record.section, record.id), JSON.stringify(record.value));
      if (record.section === 'streams') this.desired.set(record.id, record.value);
    }
  }

  /** This node's own writes (through the persistence hooks): recorded so their echo is ignored. */
  wrote(section: string, id: string, value: StoredValue | undefined): void {
    const key = keyOf(section, id);
    if (value === undefined) this.known.delete(key);
    else this.known.set(key, JSON.stringify(value));
    if (section !== 'streams') return;
    if (value === undefined) {
      this.desired.delete(id);
      this.running.delete(id);
      void this.options.leases.release(id, this.node.id).catch(() => undefined);
    } else {
      this.desired.set(id, value);
      this.running.add(id);
    }
  }

  async start(): Promise<void> {
    await this.options.leases.open();
    this.options.leases.onChange(() => this.soon());
    await this.tick();
    this.timer = setInterval(() => this.soon(), Math.max(50, this.options.leaseTtlMs / 4));
    this.timer.unref();
    // Apart from the ticks: a renewal that hangs (a store cut off mid-query) must not delay the fence.
    this.watchdog = setInterval(
      () => {
        if (
          !this.fenced &&
          this.running.size > 0 &&
          this.sinceRenewal() > this.options.leaseTtlMs * FENCE_SHARE
        ) {
          this.storeProblem ??= 'leases not renewed in time';
          void this.fence();
        }
      },
      Math.max(20, this.options.leaseTtlMs / 20),
    );
    this.watchdog.unref();
  }

  /** A change any node made to the store (its change feed). */
  onStoreChange(change: StoreChange): void {
    const key = keyOf(change.section, change.id);
    const json = change.value === undefined ? undefined : JSON.stringify(change.value);
    if (this.known.get(key) === json) return; // this node's own write, echoed
    if (json === undefined) this.known.delete(key);
    else this.known.set(key, json);
    if (change.section === 'streams') {
      if (change.value === undefined) this.desired.delete(change.id);
      else this.desired.set(change.id, change.value);
      this.soon();
    } else if (change.section.endsWith('_resources')) {
      void this.applyResource(change);
    }
  }

  /** Why the fleet cannot work right now (for /ready), or undefined. */
  problem(): string | undefined {
    if (this.storeProblem === undefined) return undefined;
    return `fleet store ${this.options.leases.name} is unreachable: ${this.storeProblem}${this.fenced ? ' (this node stopped its fleet streams)' : ''}`;
  }

  /** The live nodes and owners as of the last look (refreshed by `refresh`). */
  view(): { nodes: FleetNode[]; owners: Map<string, string> } {
    return { nodes: this.cachedNodes, owners: this.cachedOwners };
  }

  async refresh(): Promise<{ nodes: FleetNode[]; owners: Map<string, string> }> {
    const [nodes, owners] = await Promise.all([this.options.leases.nodes(), this.options.leases.leases()]);
    if (!nodes.some((n) => n.id === this.node.id)) nodes.push(this.node);
    this.cachedNodes = nodes;
    this.cachedOwners = owners;
    return { nodes, owners };
  }

  isStored(id: string): boolean {
    return this.desired.has(id);
  }

  storedIds(): string[] {
    return [...this.desired.keys()].sort();
  }

  preferred(id: string, nodes: readonly FleetNode[]): FleetNode {
    const chosen = preferredNode(
      id,
      nodes.map((n) => n.id),
    );
    return nodes.find((n) => n.id === chosen) ?? this.node;
  }

  /** An API create on this node: takes the lease first, so no other node starts the same id. */
  async claim(id: string): Promise<boolean> {
    this.busy.add(id);
    this.claims.set(id, performance.now());
    const held = await this.options.leases
      .acquire(id, this.node.id, this.options.leaseTtlMs)
      .catch(() => false);
    if (!held) this.busy.delete(id);
    return held;
  }

  /** After the API request that claimed or changed `id`: a create that failed gives the lease back. */
  settle(id: string): void {
    this.busy.delete(id);
    if (!this.options.ctx.manager.has(id)) {
      this.running.delete(id);
      void this.options.leases.release(id, this.node.id).catch(() => undefined);
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    clearInterval(this.watchdog);
    await this.ticking;
  }

  /** A clean stop: the leases go at once, so other nodes take the streams without waiting. */
  async leave(): Promise<void> {
    await this.options.leases.leave(this.node.id).catch(() => undefined);
    await this.options.leases.close();
  }

  private soon(): void {
    if (this.stopped) return;
    if (this.ticking) {
      this.again = true;
      return;
    }
    this.ticking = this.tick()
      .catch((err) => this.options.logger.error(`fleet: ${errorMessage(err)}`))
      .finally(() => {
        this.ticking = undefined;
        if (this.again) {
          this.again = false;
          this.soon();
        }
      });
  }

  private async tick(): Promise<void> {
    const { leases, leaseTtlMs, logger } = this.options;
    const began = performance.now();
    let held: Set<string>;
    try {
      held = await withTimeout(leases.heartbeat(this.node, leaseTtlMs), leaseTtlMs, 'renewal took too long');
      this.lastRenewal = began;
      if (this.storeProblem !== undefined) logger.info(`fleet store ${leases.name} is reachable again`);
      this.storeProblem = undefined;
      this.fenced = false;
    } catch (err) {
      this.storeProblem = errorMessage(err);
      if (!this.fenced && this.sinceRenewal() > leaseTtlMs * FENCE_SHARE) await this.fence();
      return;
    }
    // Leases this node no longer holds (expired while it was slow): another node may run them now.
    // A stream claimed after this renewal began is not in `held` yet: it is left for the next tick.
    for (const id of [...this.running]) {
      if (!held.has(id) && !this.busy.has(id) && !this.claimedSince(id, began))
        await this.unload(id, 'its lease expired');
    }
    logger.debug(`fleet tick: renewed ${held.size} leases in ${Math.round(performance.now() - began)} ms`);
    // Bounded: a store that stops answering mid-tick must not stall every later tick.
    const { nodes, owners } = await withTimeout(
      this.refresh(),
      leaseTtlMs,
      'reading the fleet took too long',
    );
    logger.debug(`fleet tick: ${nodes.length} nodes, ${owners.size} leases`);
    let handOver = Math.max(1, Math.ceil(this.running.size / 4));
    const work: (() => Promise<void>)[] = [];
    for (const [id, value] of this.desired) {
      if (this.busy.has(id) || this.stopped) continue;
      const owner = owners.get(id);
      const preferred = this.preferred(id, nodes).id;
      if (owner === this.node.id) {
        if (!this.running.has(id)) work.push(() => this.adopt(id, value));
        else if (preferred !== this.node.id && handOver-- > 0) work.push(() => this.handOver(id, preferred));
      } else if (owner === undefined && preferred === this.node.id) {
        if (this.failed.get(id) === JSON.stringify(value)) continue;
        work.push(async () => {
          if (await leases.acquire(id, this.node.id, leaseTtlMs)) await this.adopt(id, value);
        });
      }
    }
    // Many streams at once (a fail-over, a restart): started in parallel, and the tick ends after a
    // quarter of the lease time so the next renewal comes in time; the rest wait for the next tick.
    for (let i = 0; i < work.length && !this.stopped; i += ADOPT_CONCURRENCY) {
      await Promise.all(work.slice(i, i + ADOPT_CONCURRENCY).map((step) => step()));
      if (performance.now() - began > leaseTtlMs / 4 && i + ADOPT_CONCURRENCY < work.length) {
        this.again = true;
        break;
      }
    }
    // Streams deleted from the store by another node.
    for (const id of [...this.running]) {
      if (!this.desired.has(id) && !this.busy.has(id)) await this.unload(id, 'it was deleted');
    }
    this.placeForwarders(owners);
  }

  private claimedSince(id: string, time: number): boolean {
    return (this.claims.get(id) ?? -1) >= time;
  }

  private sinceRenewal(): number {
    return performance.now() - this.lastRenewal;
  }

  /** `/<id>/` on this node forwards to the stream's node while another node runs it. */
  private placeForwarders(owners: Map<string, string>): void {
    const endpoints = this.options.endpoints;
    if (!endpoints) return;
    const wanted = new Set(
      [...this.desired.keys()].filter((id) => {
        const owner = owners.get(id);
        return owner !== undefined && owner !== this.node.id && !this.running.has(id) && !RESERVED.has(id);
      }),
    );
    for (const id of this.forwarders) {
      if (wanted.has(id)) continue;
      endpoints.unregister(`/${id}/`);
      this.forwarders.delete(id);
    }
    for (const id of wanted) {
      if (this.forwarders.has(id)) continue;
      endpoints.register(
        `/${id}/`,
        `Stream ${id}'s endpoints, answered by the fleet node that runs it.`,
        streamEndpointForwarder(this, id),
      );
      this.forwarders.add(id);
    }
  }

  private async adopt(id: string, value: StoredValue): Promise<void> {
    const { ctx, logger } = this.options;
    if (this.forwarders.delete(id)) this.options.endpoints?.unregister(`/${id}/`);
    try {
      const definition = await storedDefinition({ section: 'streams', id, value }, ctx, logger);
      if (ctx.manager.has(id)) await ctx.manager.unload(id);
      await ctx.manager.adopt(id, definition);
      this.running.add(id);
      this.failed.delete(id);
      logger.info({ stream: id }, `fleet: stream ${id} started on node ${this.node.id}`);
    } catch (err) {
      this.failed.set(id, JSON.stringify(value));
      logger.error(
        { stream: id },
        `fleet: stream ${id} did not start on node ${this.node.id}: ${errorMessage(err)}`,
      );
      await this.options.leases.release(id, this.node.id).catch(() => undefined);
    }
  }

  private async handOver(id: string, to: string): Promise<void> {
    await this.unload(id, `node ${to} is its place now`);
    await this.options.leases.release(id, this.node.id).catch(() => undefined);
  }

  private async unload(id: string, why: string): Promise<void> {
    this.running.delete(id);
    // Quickly: a fenced node must be done before its leases can expire elsewhere.
    await this.options.ctx.manager.unload(id, this.options.leaseTtlMs * 0.3).catch(() => undefined);
    this.options.logger.info({ stream: id }, `fleet: stream ${id} stopped on node ${this.node.id}: ${why}`);
  }

  /** Cut off from the store: stop every fleet stream before its lease can expire elsewhere. */
  private async fence(): Promise<void> {
    this.fenced = true;
    const ids = [...this.running];
    this.options.logger.error(
      `fleet: cannot renew leases for ${Math.round(performance.now() - this.lastRenewal)} ms (${this.storeProblem}); stopping ${ids.length} fleet streams so none runs twice`,
    );
    await Promise.all(ids.map((id) => this.unload(id, 'this node lost the fleet store')));
  }

  private async applyResource(change: StoreChange): Promise<void> {
    const { ctx, logger } = this.options;
    const kind = change.section.slice(0, -'_resources'.length) as Parameters<typeof installResource>[1];
    try {
      if (change.value === undefined) {
        if (ctx.resources.has(kind, change.id)) await ctx.resources.remove(kind, change.id);
        return;
      }
      const record = { section: change.section, id: change.id, value: change.value };
      const text = storedText(record as Parameters<typeof storedText>[0], ctx, logger);
      const env = change.value.interpolate ? ctx.env : undefined;
      // Not written back: the store already holds it.
      await installResource({ ...ctx, persistence: undefined }, kind, change.id, text, {
        chilled: true,
        env,
      });
    } catch (err) {
      logger.error(
        `fleet: ${kind} resource '${change.id}' from another node was not applied: ${errorMessage(err)}`,
      );
    }
  }
}

function withTimeout<T>(work: Promise<T>, ms: number, why: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(why)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

function keyOf(section: string, id: string): string {
  return `${section}\u0000${id}`;
}
