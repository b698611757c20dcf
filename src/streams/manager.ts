// One file (over 400 lines): the per-id serialised create/update/delete share one table of running streams.
// The stream manager of streams mode: many isolated streams by id, created, updated and deleted
// at runtime. Operations on one id run one at a time; different ids never wait for each other.
import type { Logger } from 'pino';
import type { StreamConfig } from '../config/service_config.js';
import {
  ComponentBuilder,
  type EndpointRegistrar,
  type EngineEnv,
  type MetricsProvider,
} from '../engine/builder.js';
import type { Resources } from '../engine/context.js';
import { errorMessage } from '../engine/errors.js';
import type { InprocBus } from '../engine/inproc.js';
import type { DynamicMemberStore } from '../engine/member_store.js';
import { noopMetrics } from '../engine/noop_metrics.js';
import type { Registry } from '../engine/registry.js';
import type { ResourceKind } from '../engine/resources.js';
import { registerDeclared } from '../engine/route_declaration.js';
import { stopController } from '../engine/stop_signal.js';
import { Stream } from '../engine/stream.js';
import type { EngineTracing } from '../engine/tracing.js';
import { streamReadyRoute } from './api_routes.js';
import {
  ManagerClosedError,
  StreamBuildError,
  StreamExistsError,
  StreamNotFoundError,
  StreamNotRunningError,
  StreamStartError,
} from './errors.js';
import { KeyedLock } from './keyed_lock.js';
import type { ManagedStream } from './managed_stream.js';
import { observeResourceUse } from './observed_resources.js';
import { canOverlap } from './overlap.js';
import { DEFAULT_START_CHECK_MS, firstConnectFailure } from './start_check.js';
import { type EndpointHost, type StreamEndpoints, StreamEndpointTable } from './stream_endpoints.js';
import { assertValidId } from './stream_id.js';
import { readyHandler } from './stream_ready.js';
import { type ResourceUsage, trackResourceUse, usesResource } from './tracked_resources.js';

/** Metrics as the manager needs them: scopes for components, plus per-stream stats and cleanup. */
export interface StreamMetrics extends MetricsProvider {
  streamStats(streamId: string): Record<string, number | { p50: number; p90: number; p99: number }>;
  removeStream(streamId: string): void;
}

export interface StreamManagerOptions {
  registry: Registry;
  logger: Logger;
  metrics: StreamMetrics;
  resources: Resources;
  inproc: InprocBus;
  /** Where component endpoints and `/<id>/ready` go; none → components that need one fail to build. */
  endpoints?: EndpointHost;
  /** Serve component endpoints under `/<id>` (default true). */
  prefixStreamEndpoints?: boolean;
  /** Stop deadline when the caller gives none (no `?timeout=`). */
  defaultStopTimeoutMs?: number;
  /** How long an update waits for the new stream's first connects (see start_check.ts). */
  startCheckMs?: number;
  baseDir?: string;
  /** Writes a change (undefined: a delete) to the stream store before it counts; throws to refuse it. */
  persist?: (id: string, definition: StreamDefinition | undefined) => Promise<void>;
  /** Where a stream's `dynamic` outputs keep posted members (with a stream store). */
  members?: (id: string) => DynamicMemberStore;
  /** The service's tracer: each stream's components get spans labelled with the stream. */
  tracing?: EngineTracing;
  /** The observability config's `redpanda` section, for the redpanda_common components. */
  redpanda?: Readonly<Record<string, unknown>>;
}

export interface StreamDefinition {
  config: StreamConfig;
  /** After env interpolation. */
  raw: unknown;
  /** As posted, `${VAR}` unexpanded, for reads; defaults to raw. */
  posted?: unknown;
  /** Loaded from a stream file: the file, not the stream store, keeps it. */
  fromFile?: boolean;
}

const DEFAULT_STOP_TIMEOUT_MS = 20_000;

/** Where a config checked before an update registers its endpoints: nowhere. */
const DISCARDING_ENDPOINTS: EndpointRegistrar = { register: () => undefined };

export class StreamManager {
  private readonly streams = new Map<string, ManagedStream>();
  private readonly locks = new KeyedLock();
  private readonly endpointTable: StreamEndpointTable;
  private readonly defaultStopMs: number;
  private readonly startCheckMs: number;
  private isClosed = false;

  constructor(private readonly options: StreamManagerOptions) {
    this.endpointTable = new StreamEndpointTable({
      host: options.endpoints,
      prefixWithId: options.prefixStreamEndpoints ?? true,
      logger: options.logger,
    });
    this.defaultStopMs = options.defaultStopTimeoutMs ?? DEFAULT_STOP_TIMEOUT_MS;
    this.startCheckMs = options.startCheckMs ?? DEFAULT_START_CHECK_MS;
  }

  get closed(): boolean {
    return this.isClosed;
  }

  has(id: string): boolean {
    return this.streams.has(id);
  }

  get(id: string): ManagedStream | undefined {
    return this.streams.get(id);
  }

  /** A consistent snapshot, sorted by id. */
  entries(): ManagedStream[] {
    return [...this.streams.keys()].sort().map((id) => this.streams.get(id) as ManagedStream);
  }

  /** Ids of running streams with an input or output not connected, ascending (decision 7). */
  notReady(): string[] {
    return this.entries()
      .filter((e) => e.stream.active && !e.stream.isReady())
      .map((e) => e.id);
  }

  /** Streams whose components asked for this resource, ascending. */
  usersOf(kind: ResourceKind, name: string): string[] {
    return this.entries()
      .filter((e) => usesResource(e.usage, kind, name))
      .map((e) => e.id);
  }

  create(id: string, definition: StreamDefinition): Promise<void> {
    assertValidId(id);
    return this.locks.run(id, async () => {
      this.assertOpen();
      if (this.streams.has(id)) throw new StreamExistsError(id);
      const entry = await this.start(id, definition);
      await this.persisted(id, definition, () => this.stopInstance(entry, undefined));
      this.streams.set(id, entry);
    });
  }

  /**
   * Builds the new config aside first: one that does not build leaves the running stream untouched
   * (decision 2). Then swaps the new instance in (see replace): one that fails to start or to pass
   * its first connects (an address in use) never costs the running config. The id stays readable
   * throughout.
   */
  update(id: string, definition: StreamDefinition, stopTimeoutMs?: number): Promise<void> {
    return this.locks.run(id, async () => {
      this.assertOpen();
      const current = this.streams.get(id);
      if (!current) throw new StreamNotFoundError(id);
      await this.checkBuilds(id, definition);
      await this.replace(current, definition, stopTimeoutMs);
    });
  }

  /** Like update, but with the new config computed from the stored one under the same lock (PATCH). */
  patch(
    id: string,
    derive: (stored: { raw: unknown; posted: unknown }) => StreamDefinition | Promise<StreamDefinition>,
    stopTimeoutMs?: number,
  ): Promise<void> {
    return this.locks.run(id, async () => {
      this.assertOpen();
      const current = this.streams.get(id);
      if (!current) throw new StreamNotFoundError(id);
      const definition = await derive({ raw: current.raw, posted: current.posted });
      await this.checkBuilds(id, definition);
      await this.replace(current, definition, stopTimeoutMs);
    });
  }

  /**
   * Swaps a checked config in for the running one. When the two can share nothing (overlap.ts) the
   * new instance starts and passes its first connects before the old one stops, so the stream has
   * no gap and a failure leaves the old one running untouched; otherwise the old one stops first
   * and is started again if the new one fails.
   */
  private async replace(
    current: ManagedStream,
    definition: StreamDefinition,
    stopTimeoutMs: number | undefined,
  ): Promise<void> {
    if (canOverlap(current.raw, definition.raw))
      return this.replaceOverlapping(current, definition, stopTimeoutMs);
    await this.stopInstance(current, stopTimeoutMs);
    let next: ManagedStream;
    try {
      next = await this.start(current.id, definition);
    } catch (err) {
      await this.restore(current);
      throw new StreamBuildError(`${errorMessage(err)} (the previous config was restarted)`);
    }
    const failure = await firstConnectFailure(next.stream, this.startCheckMs);
    if (failure !== undefined) {
      await this.stopInstance(next, stopTimeoutMs);
      await this.restore(current);
      throw new StreamStartError(
        `stream '${current.id}' did not start: ${failure} (the previous config was restarted)`,
      );
    }
    await this.persisted(current.id, definition, async () => {
      await this.stopInstance(next, stopTimeoutMs);
      await this.restore(current);
    });
    this.streams.set(current.id, next);
  }

  /** Start the new instance beside the old one; stop the old one only once the new one is up. */
  private async replaceOverlapping(
    current: ManagedStream,
    definition: StreamDefinition,
    stopTimeoutMs: number | undefined,
  ): Promise<void> {
    // Both instances report under the stream's id: neither may drop the id's metrics on the way out.
    let next: ManagedStream;
    try {
      next = await this.start(current.id, definition, { keepMetrics: true });
    } catch (err) {
      throw new StreamBuildError(`${errorMessage(err)} (the running stream was left as it was)`);
    }
    const failure = await firstConnectFailure(next.stream, this.startCheckMs);
    if (failure !== undefined) {
      await this.stopInstance(next, stopTimeoutMs, { keepMetrics: true });
      throw new StreamStartError(
        `stream '${current.id}' did not start: ${failure} (the running stream was left as it was)`,
      );
    }
    await this.persisted(current.id, definition, () =>
      this.stopInstance(next, stopTimeoutMs, { keepMetrics: true }),
    );
    this.streams.set(current.id, next);
    await this.stopInstance(current, stopTimeoutMs, { keepMetrics: true });
  }

  /**
   * Builds a config without running it or registering anything (endpoints are accepted and
   * dropped, metrics go nowhere), then releases it: what cannot be built (a missing resource, a bad
   * mapping, an unknown driver) fails here, while the running stream goes on.
   */
  private async checkBuilds(id: string, definition: StreamDefinition): Promise<void> {
    const abort = stopController();
    const env: EngineEnv = {
      registry: this.options.registry,
      logger: this.options.logger,
      metrics: noopMetrics,
      resources: this.options.resources,
      inproc: this.options.inproc,
      endpoints: DISCARDING_ENDPOINTS,
      streamId: id,
      signal: abort.signal,
      baseDir: this.options.baseDir,
      members: this.options.members?.(id),
      redpanda: this.options.redpanda,
    };
    let stream: Stream;
    try {
      // No pipeline threads: a check would start (and stop) one, and hold a core the streams need.
      stream = await Stream.build(definition.config, new ComponentBuilder(env), this.options.logger, abort, {
        pipelineThreads: false,
      });
    } catch (err) {
      throw new StreamBuildError(`${errorMessage(err)} (the running stream was left as it was)`);
    }
    await stream.dispose();
  }

  /** Stops reading the stream's input (in-flight messages finish); false if it was already paused. */
  pause(id: string): Promise<boolean> {
    return this.locks.run(id, async () => this.runningStream(id).pause());
  }

  /** Reads the stream's input again; false if it was not paused. */
  resume(id: string): Promise<boolean> {
    return this.locks.run(id, async () => this.runningStream(id).resume());
  }

  private runningStream(id: string): Stream {
    this.assertOpen();
    const current = this.streams.get(id);
    if (!current) throw new StreamNotFoundError(id);
    if (!current.stream.active) throw new StreamNotRunningError(id);
    return current.stream;
  }

  /** Starts a stream the store already holds (a fleet node taking it over): nothing is written. */
  adopt(id: string, definition: StreamDefinition): Promise<void> {
    assertValidId(id);
    return this.locks.run(id, async () => {
      this.assertOpen();
      if (this.streams.has(id)) throw new StreamExistsError(id);
      this.streams.set(id, await this.start(id, definition));
    });
  }

  /** Stops a stream here and forgets it, leaving the store as it is (a fleet lease moved on). */
  unload(id: string, stopTimeoutMs?: number): Promise<void> {
    return this.locks.run(id, async () => {
      const current = this.streams.get(id);
      if (!current) return;
      this.streams.delete(id);
      await this.stopInstance(current, stopTimeoutMs);
    });
  }

  delete(id: string, stopTimeoutMs?: number): Promise<void> {
    return this.locks.run(id, async () => {
      this.assertOpen();
      const current = this.streams.get(id);
      if (!current) throw new StreamNotFoundError(id);
      await this.options.persist?.(id, undefined);
      await this.stopInstance(current, stopTimeoutMs);
      this.streams.delete(id);
    });
  }

  /**
   * Makes the set of streams equal to `wanted` (bulk `POST /streams`), all or nothing: every new
   * or changed config is built aside first, and if any fails nothing changes. Then deletes run,
   * then updates and creates concurrently; if one of those fails to start, the ones that succeeded
   * are undone (created streams removed, updated and deleted ones put back as they were). Returns
   * the failures, each naming its stream; empty on success.
   */
  async replaceAll(wanted: ReadonlyMap<string, StreamDefinition>): Promise<string[]> {
    this.assertOpen();
    const existing = new Map(this.streams);
    const verb = (id: string) => (existing.has(id) ? 'update' : 'create');
    const buildFailures = await collectFailures(
      [...wanted].map(([id, definition]) => ({
        what: `failed to ${verb(id)} stream '${id}'`,
        work: () => this.checkBuilds(id, definition),
      })),
    );
    if (buildFailures.length > 0) return buildFailures;

    const deleted = [...existing.keys()].filter((id) => !wanted.has(id));
    const deleteFailures = await collectFailures(
      deleted.map((id) => ({
        what: `failed to delete stream '${id}'`,
        work: () => this.deleteIfPresent(id),
      })),
    );
    const applied: Array<{ id: string; undo: () => Promise<void> }> = [];
    const changeFailures =
      deleteFailures.length > 0
        ? []
        : await collectFailures(
            [...wanted].map(([id, definition]) => {
              const previous = existing.get(id);
              return {
                what: `failed to ${verb(id)} stream '${id}'`,
                work: async () => {
                  if (previous) {
                    await this.updateChecked(id, definition);
                    applied.push({ id, undo: () => this.updateChecked(id, previous) });
                  } else {
                    await this.createChecked(id, definition);
                    applied.push({ id, undo: () => this.delete(id) });
                  }
                },
              };
            }),
          );
    const failures = [...deleteFailures, ...changeFailures];
    if (failures.length === 0) return [];
    // Undo: free what the new streams hold before the old ones come back.
    const undone = [...applied].sort((a, b) => Number(existing.has(a.id)) - Number(existing.has(b.id)));
    for (const { id, undo } of undone) {
      await undo().catch((err) => failures.push(`could not undo stream '${id}': ${errorMessage(err)}`));
    }
    for (const id of deleted) {
      const previous = existing.get(id);
      if (!previous || this.streams.has(id)) continue;
      await this.create(id, previous).catch((err) =>
        failures.push(`could not restore deleted stream '${id}': ${errorMessage(err)}`),
      );
    }
    return failures;
  }

  /** An update whose config was already built aside (bulk POST). */
  private updateChecked(id: string, definition: StreamDefinition): Promise<void> {
    return this.locks.run(id, async () => {
      this.assertOpen();
      const current = this.streams.get(id);
      if (!current) throw new StreamNotFoundError(id);
      await this.replace(current, definition, undefined);
    });
  }

  /** A create that fails, leaving nothing, when the new stream's first connects fail (bulk POST). */
  private createChecked(id: string, definition: StreamDefinition): Promise<void> {
    assertValidId(id);
    return this.locks.run(id, async () => {
      this.assertOpen();
      if (this.streams.has(id)) throw new StreamExistsError(id);
      const entry = await this.start(id, definition);
      const failure = await firstConnectFailure(entry.stream, this.startCheckMs);
      if (failure !== undefined) {
        await this.stopInstance(entry, undefined);
        throw new StreamStartError(`stream '${id}' did not start: ${failure}`);
      }
      await this.persisted(id, definition, () => this.stopInstance(entry, undefined));
      this.streams.set(id, entry);
    });
  }

  /** Closes the manager and stops every stream in parallel within the timeout (process shutdown). */
  async stopAll(timeoutMs: number): Promise<void> {
    this.isClosed = true;
    await Promise.all(
      [...this.streams.keys()].map((id) =>
        this.locks.run(id, async () => {
          const current = this.streams.get(id);
          if (current) await this.stopInstance(current, timeoutMs);
        }),
      ),
    );
  }

  private deleteIfPresent(id: string): Promise<void> {
    return this.delete(id).catch((err) => {
      // Already gone (a concurrent DELETE won): that is what we wanted.
      if (!(err instanceof StreamNotFoundError)) throw err;
    });
  }

  /** The store takes the change before it counts; when it refuses, `undo` puts things back. */
  private async persisted(
    id: string,
    definition: StreamDefinition,
    undo: () => Promise<void>,
  ): Promise<void> {
    if (!this.options.persist) return;
    try {
      await this.options.persist(id, definition);
    } catch (err) {
      await undo().catch(() => undefined);
      throw err;
    }
  }

  private assertOpen(): void {
    if (this.isClosed) throw new ManagerClosedError();
  }

  /** Builds and starts one instance; on failure nothing of it stays registered. */
  private async start(
    id: string,
    definition: StreamDefinition,
    options: { keepMetrics?: boolean } = {},
  ): Promise<ManagedStream> {
    const { logger, metrics } = this.options;
    const endpoints = this.endpointTable.forStream(id);
    const usage: ResourceUsage = new Map();
    const abort = stopController();
    const env: EngineEnv = {
      registry: this.options.registry,
      logger,
      metrics,
      resources: observeResourceUse(trackResourceUse(this.options.resources, usage), (kind, name) =>
        metrics.scope({ label: name, path: `root.${kind}_resources`, stream: id }),
      ),
      inproc: this.options.inproc,
      endpoints,
      streamId: id,
      signal: abort.signal,
      baseDir: this.options.baseDir,
      members: this.options.members?.(id),
      tracing: this.options.tracing,
      redpanda: this.options.redpanda,
    };
    const streamLogger = logger.child({ stream: id });
    let stream: Stream;
    try {
      stream = await Stream.build(definition.config, new ComponentBuilder(env), streamLogger, abort);
    } catch (err) {
      endpoints.release();
      if (!options.keepMetrics) metrics.removeStream(id);
      throw new StreamBuildError(errorMessage(err));
    }
    const entry: ManagedStream = {
      id,
      config: definition.config,
      raw: definition.raw,
      posted: definition.posted === undefined ? definition.raw : definition.posted,
      stream,
      endpoints,
      usage,
      buildError: null,
    };
    if (this.endpointTable.prefixing) this.registerReadiness(id, stream, endpoints, streamLogger);
    stream.run().then(
      () => streamLogger.debug('stream finished'),
      (err) => streamLogger.error(`stream failed: ${errorMessage(err)}`),
    );
    streamLogger.trace('stream started');
    return entry;
  }

  /** `/<id>/ready`, unless an API route answers that path (stream `streams`: `GET /streams/ready`). */
  private registerReadiness(id: string, stream: Stream, endpoints: StreamEndpoints, logger: Logger): void {
    const path = `/${id}/ready`;
    const route = this.endpointTable.reservedBy(path);
    if (route !== undefined) {
      logger.warn(
        `${path} is not served: the API route ${route} answers it; GET /streams/${id} shows the status`,
      );
      return;
    }
    registerDeclared(endpoints.registerExact.bind(endpoints), streamReadyRoute(path), readyHandler(stream));
  }

  /** After a failed update: start the previous config again, or keep the stopped entry with its error. */
  private async restore(previous: ManagedStream): Promise<void> {
    try {
      this.streams.set(previous.id, await this.start(previous.id, previous));
    } catch (err) {
      previous.buildError = errorMessage(err);
      this.streams.set(previous.id, previous);
      this.options.logger.error(
        `stream ${previous.id}: could not restart the previous config: ${previous.buildError}`,
      );
    }
  }

  private async stopInstance(
    entry: ManagedStream,
    stopTimeoutMs: number | undefined,
    options: { keepMetrics?: boolean } = {},
  ): Promise<void> {
    await entry.stream.stop(Math.max(0, stopTimeoutMs ?? this.defaultStopMs));
    entry.endpoints.release();
    if (!options.keepMetrics) this.options.metrics.removeStream(entry.id);
  }
}

/** Runs every piece of work concurrently; returns `<what>: <error>` for each that failed, in order. */
async function collectFailures(
  jobs: ReadonlyArray<{ what: string; work: () => Promise<void> }>,
): Promise<string[]> {
  const results = await Promise.all(
    jobs.map(({ what, work }) =>
      work().then(
        () => null,
        (err: unknown) => `${what}: ${errorMessage(err)}`,
      ),
    ),
  );
  return results.filter((r): r is string => r !== null);
}
