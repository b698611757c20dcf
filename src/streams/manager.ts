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
import { noopMetrics } from '../engine/noop_metrics.js';
import type { Registry } from '../engine/registry.js';
import type { ResourceKind } from '../engine/resources.js';
import { stopController } from '../engine/stop_signal.js';
import { Stream } from '../engine/stream.js';
import { ManagerClosedError, StreamBuildError, StreamExistsError, StreamNotFoundError } from './errors.js';
import { KeyedLock } from './keyed_lock.js';
import type { ManagedStream } from './managed_stream.js';
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
  baseDir?: string;
}

export interface StreamDefinition {
  config: StreamConfig;
  /** After env interpolation. */
  raw: unknown;
  /** As posted, `${VAR}` unexpanded, for reads; defaults to raw. */
  posted?: unknown;
}

const DEFAULT_STOP_TIMEOUT_MS = 20_000;

/** Where a config checked before an update registers its endpoints: nowhere. */
const DISCARDING_ENDPOINTS: EndpointRegistrar = { register: () => undefined };

export class StreamManager {
  private readonly streams = new Map<string, ManagedStream>();
  private readonly locks = new KeyedLock();
  private readonly endpointTable: StreamEndpointTable;
  private readonly defaultStopMs: number;
  private isClosed = false;

  constructor(private readonly options: StreamManagerOptions) {
    this.endpointTable = new StreamEndpointTable({
      host: options.endpoints,
      prefixWithId: options.prefixStreamEndpoints ?? true,
      logger: options.logger,
    });
    this.defaultStopMs = options.defaultStopTimeoutMs ?? DEFAULT_STOP_TIMEOUT_MS;
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
      this.streams.set(id, await this.start(id, definition));
    });
  }

  /**
   * Builds the new config aside first: one that does not build leaves the running stream untouched
   * (decision 2). Then stops the old instance and starts the new config; if that still fails, the
   * previous config is started again and the error is thrown. The id stays readable throughout.
   */
  update(id: string, definition: StreamDefinition, stopTimeoutMs?: number): Promise<void> {
    return this.locks.run(id, async () => {
      this.assertOpen();
      const current = this.streams.get(id);
      if (!current) throw new StreamNotFoundError(id);
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
      await this.replace(current, definition, stopTimeoutMs);
    });
  }

  private async replace(
    current: ManagedStream,
    definition: StreamDefinition,
    stopTimeoutMs: number | undefined,
  ): Promise<void> {
    await this.checkBuilds(current.id, definition);
    await this.stopInstance(current, stopTimeoutMs);
    try {
      this.streams.set(current.id, await this.start(current.id, definition));
    } catch (err) {
      await this.restore(current);
      throw new StreamBuildError(`${errorMessage(err)} (the previous config was restarted)`);
    }
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
    };
    let stream: Stream;
    try {
      stream = await Stream.build(definition.config, new ComponentBuilder(env), this.options.logger, abort);
    } catch (err) {
      throw new StreamBuildError(`${errorMessage(err)} (the running stream was left as it was)`);
    }
    await stream.dispose();
  }

  delete(id: string, stopTimeoutMs?: number): Promise<void> {
    return this.locks.run(id, async () => {
      this.assertOpen();
      const current = this.streams.get(id);
      if (!current) throw new StreamNotFoundError(id);
      await this.stopInstance(current, stopTimeoutMs);
      this.streams.delete(id);
    });
  }

  /**
   * Makes the set of streams equal to `wanted` (bulk `POST /streams`): deletes, updates and creates
   * all run concurrently. Returns the failures in the reference's wording and group order.
   */
  async replaceAll(wanted: ReadonlyMap<string, StreamDefinition>): Promise<string[]> {
    this.assertOpen();
    const existing = new Set(this.streams.keys());
    const attempt = async (prefix: string, work: () => Promise<void>) => {
      try {
        await work();
        return null;
      } catch (err) {
        return `${prefix}: ${errorMessage(err)}`;
      }
    };
    const deletes = [...existing]
      .filter((id) => !wanted.has(id))
      .map((id) => attempt('failed to delete stream', () => this.deleteIfPresent(id)));
    const updates: Promise<string | null>[] = [];
    const creates: Promise<string | null>[] = [];
    for (const [id, definition] of wanted) {
      if (existing.has(id))
        updates.push(attempt('failed to update stream', () => this.update(id, definition)));
      else creates.push(attempt('failed to create stream', () => this.create(id, definition)));
    }
    const results = await Promise.all([Promise.all(deletes), Promise.all(updates), Promise.all(creates)]);
    return results.flat().filter((r): r is string => r !== null);
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

  private assertOpen(): void {
    if (this.isClosed) throw new ManagerClosedError();
  }

  /** Builds and starts one instance; on failure nothing of it stays registered. */
  private async start(id: string, definition: StreamDefinition): Promise<ManagedStream> {
    const { logger, metrics } = this.options;
    const endpoints = this.endpointTable.forStream(id);
    const usage: ResourceUsage = new Map();
    const abort = stopController();
    const env: EngineEnv = {
      registry: this.options.registry,
      logger,
      metrics,
      resources: trackResourceUse(this.options.resources, usage),
      inproc: this.options.inproc,
      endpoints,
      streamId: id,
      signal: abort.signal,
      baseDir: this.options.baseDir,
    };
    const streamLogger = logger.child({ stream: id });
    let stream: Stream;
    try {
      stream = await Stream.build(definition.config, new ComponentBuilder(env), streamLogger, abort);
    } catch (err) {
      endpoints.release();
      metrics.removeStream(id);
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
    endpoints.registerExact(
      path,
      'Returns 200 when the stream is connected, 503 otherwise.',
      readyHandler(stream),
    );
  }

  /** After a failed update: start the previous config again, or keep the stopped entry with its error. */
  private async restore(previous: ManagedStream): Promise<void> {
    try {
      this.streams.set(previous.id, await this.start(previous.id, previous));
    } catch (err) {
      previous.buildError = errorMessage(err);
      this.options.logger.error(
        `stream ${previous.id}: could not restart the previous config: ${previous.buildError}`,
      );
    }
  }

  private async stopInstance(entry: ManagedStream, stopTimeoutMs: number | undefined): Promise<void> {
    await entry.stream.stop(Math.max(0, stopTimeoutMs ?? this.defaultStopMs));
    entry.endpoints.release();
    this.options.metrics.removeStream(entry.id);
  }
}
