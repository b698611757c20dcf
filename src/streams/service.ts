// Streams mode assembled: the observability config, the service (logger, metrics, HTTP server,
// shared resources: service/assembly.ts, as in normal mode), the stream manager with its REST API,
// and the streams from files. `stop()` is §4.7's shutdown.
import { hostname } from 'node:os';
import type { Logger } from 'pino';
import { rootDurationMs } from '../config/config_source.js';
import { tryParseDurationMs } from '../config/duration.js';
import { envLookup } from '../config/env_interpolation.js';
import { schemaProvider } from '../config/schema.js';
import { scrubServiceConfig } from '../config/scrub.js';
import { redpandaConnected } from '../config/service_config.js';
import { ConfigError, errorMessage } from '../engine/errors.js';
import type { Registry } from '../engine/registry.js';
import type { ResourceManager } from '../engine/resources.js';
import type { HttpServer, HttpTimeouts } from '../http/server.js';
import { processRegistry } from '../plugins/process_registry.js';
import { assembleService, type Service } from '../service/assembly.js';
import { loadResourceFiles } from '../service/resource_files.js';
import { registerStreamsApi } from './api.js';
import type { StreamsApiContext } from './api_context.js';
import { resolveStreamFiles } from './files.js';
import { FleetCoordinator } from './fleet/coordinator.js';
import { leaseStoreFor } from './fleet/open_leases.js';
import { KeyedLock } from './keyed_lock.js';
import { StreamManager } from './manager.js';
import { loadObservability } from './observability.js';
import { DEFAULT_BODY_LIMIT_BYTES } from './request.js';
import { type ClusterSettings, configuredCluster, configuredStore } from './store/configured_store.js';
import { observedStore } from './store/observed_store.js';
import { storeFromUrl } from './store/open_store.js';
import { StorePersistence } from './store/persistence.js';
import { restoreStored } from './store/restore.js';
import { type LoadedStreamFile, loadStreamDefinition } from './stream_files.js';
import { StreamFileWatcher } from './watcher.js';

/** `nekton streams [-o obs.yaml] [--no-api] [--prefix-stream-endpoints=false] [--chilled] [-w] [-r GLOB] [-e FILE] [-s path=value] [PATH...]` */
export interface StreamsCommandOptions {
  /** Stream files, directories or globs. */
  paths: string[];
  /** `-o` (or the legacy root `-c`). */
  observability?: string;
  /** false with `--no-api`: only `/ready` is registered. */
  api: boolean;
  prefixStreamEndpoints: boolean;
  /** `-w` */
  watch: boolean;
  /** Lint errors in files are warnings instead of fatal. */
  chilled: boolean;
  /** `-s path=value` overrides of the observability config. */
  sets: string[];
  /** `-e` dotenv files. */
  envFiles: string[];
  /** `-r` resource file globs. */
  resources: string[];
  /** `--log.level` */
  logLevel?: string;
  /** Request body limit of the streams API (default 1 MiB; larger → 413). */
  bodyLimitBytes?: number;
  /** `-t` template globs (runStreamsCommand turns them into `registry`). */
  templates?: string[];
  /** Component registry (tests may extend it); defaults to the built-ins. */
  registry?: Registry;
  /** Quiet period of watch mode (default 1 s). */
  watchDebounceMs?: number;
  /** Slow-client guards of the HTTP server (header/request/keep-alive timeouts); tests shorten them. */
  httpTimeouts?: Partial<HttpTimeouts>;
  /** `--store URL`: where API changes are kept across restarts (overrides `streams.store`). */
  store?: string;
  /** `--cluster`, `--node-id`, `--advertise-address`, `--lease-ttl` (override `streams.cluster`). */
  cluster?: ClusterSettings;
}

export interface StreamsService {
  readonly http: HttpServer;
  readonly manager: StreamManager;
  readonly resources: ResourceManager;
  readonly logger: Logger;
  readonly shutdownTimeoutMs: number;
  readonly shutdownDelayMs: number;
  /** Stops every stream within shutdown_timeout, closes resources and the server. */
  stop(): Promise<void>;
}

/** Starts streams mode; throws a ConfigError with the reason when it cannot (nothing is left running). */
export async function startStreamsService(options: StreamsCommandOptions): Promise<StreamsService> {
  const registry = options.registry ?? processRegistry();
  const provider = schemaProvider(registry);
  const observability = await loadObservability({
    path: options.observability,
    provider,
    sets: options.sets,
    envFiles: options.envFiles,
  });
  if (observability.lints.length > 0 && !options.chilled) {
    throw new ConfigError(
      `shutting down due to linter errors in the observability config:\n${observability.lints.join('\n')}`,
    );
  }
  const { config, source } = observability;
  const service = assembleService({
    config,
    source,
    registry,
    baseDir: observability.baseDir,
    sanitisedConfig: () => scrubServiceConfig(observability.posted, provider),
    logLevel: options.logLevel,
    startupWarnings: observability.lints,
    httpTimeouts: options.httpTimeouts,
  });
  const { logger, metrics, http, resources, resourceBuilder } = service;
  // redpanda_common in a stream connects with the observability config's section: lint says when there is none.
  const redpandaSection = redpandaConnected(config.redpanda);
  await service.ready(); // the tracer, before any component is built
  const shutdownTimeoutMs = rootDurationMs(source, config.shutdown_timeout, 'shutdown_timeout');
  const shutdownDelayMs = rootDurationMs(source, config.shutdown_delay, 'shutdown_delay');
  const storeUrl = options.store ?? configuredStore(observability.raw);
  const cluster = clusterSettings(options.cluster, observability.raw, storeUrl);
  let fleet: FleetCoordinator | undefined;
  // In a fleet this node's own writes are told to the coordinator, so their echo is ignored.
  const store =
    storeUrl === undefined
      ? undefined
      : observedStore(storeFromUrl(storeUrl), (section, id, value) => fleet?.wrote(section, id, value));
  const persistence = store === undefined ? undefined : new StorePersistence(store);
  const manager = new StreamManager({
    registry,
    logger,
    metrics,
    resources,
    inproc: service.env.inproc,
    endpoints: http,
    prefixStreamEndpoints: options.prefixStreamEndpoints,
    baseDir: observability.baseDir,
    persist: persistence?.persistStream,
    members: persistence?.membersOf,
    tracing: service.env.tracing,
    redpanda: service.env.redpanda,
  });
  let watcher: StreamFileWatcher | undefined;
  const stop = async () => {
    await watcher?.close();
    await fleet?.stop();
    await manager.stopAll(shutdownTimeoutMs);
    await fleet?.leave();
    await persistence?.store.close();
    await service.close();
  };

  try {
    const stored = await persistence?.store.open().catch((err) => {
      throw new ConfigError(errorMessage(err));
    });
    if (stored) persistence?.loadMembers(stored);
    await service.buildResources(config, source);
    await buildResourceFiles(options, provider, service);
    const apiContext: StreamsApiContext = {
      manager,
      metrics,
      provider,
      env: envLookup(process.env),
      bodyLimitBytes: options.bodyLimitBytes ?? DEFAULT_BODY_LIMIT_BYTES,
      bodyQueue: new KeyedLock(),
      resources,
      resourceBuilder,
      logger,
      persistence,
      redpandaSection,
    };
    if (cluster && persistence && stored) {
      fleet = new FleetCoordinator({
        leases: leaseStoreFor(cluster.storeUrl),
        node: { id: cluster.nodeId ?? '', address: cluster.advertiseAddress ?? '' },
        leaseTtlMs: cluster.leaseTtlMs,
        ctx: apiContext,
        logger,
        endpoints: http,
      });
      fleet.seed(stored);
      const coordinator = fleet;
      persistence.store.watch((change) => {
        if (change.section === 'dynamic_members')
          persistence.applyMemberChange(change.id, change.value?.config as string | undefined);
        coordinator.onStoreChange(change);
      });
    }
    registerStreamsApi(http, apiContext, { api: options.api, fleet });
    const files = await loadStreamFiles(options, provider, logger, redpandaSection);
    for (const file of files) {
      await manager.create(file.id, file.definition).catch((err) => {
        throw new ConfigError(`failed to create stream (${file.id}): ${errorMessage(err)}`);
      });
    }
    if (persistence && stored) {
      await persistence.whileRestoring(async () => {
        const counts = await restoreStored(stored, apiContext, logger, { streams: fleet === undefined });
        logger.info(
          `stream store ${persistence.store.name}: restored ${counts.streams} streams and ${counts.resources} resources`,
        );
      });
    }
    await service.listen();
    if (fleet && cluster) {
      const bound = http.address();
      const port = bound?.port ?? 0;
      const host =
        bound && bound.address !== '0.0.0.0' && bound.address !== '::' ? bound.address : hostname();
      fleet.node.id ||= `${hostname()}:${port}`;
      fleet.node.address ||= host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
      await fleet.start().catch((err) => {
        throw new ConfigError(`cannot join the fleet through ${storeUrl}: ${errorMessage(err)}`);
      });
      logger.info(
        `fleet: node ${fleet.node.id} (${fleet.node.address}) joined, lease time ${cluster.leaseTtlMs} ms`,
      );
    }
    if (options.watch) {
      watcher = new StreamFileWatcher({
        args: options.paths,
        manager,
        logger,
        chilled: options.chilled,
        provider,
        envFiles: options.envFiles,
        redpandaSection,
        debounceMs: options.watchDebounceMs,
      });
      await watcher.start(files);
    }
  } catch (err) {
    await stop().catch(() => undefined);
    throw err;
  }
  return {
    http,
    manager,
    resources,
    logger,
    shutdownTimeoutMs,
    shutdownDelayMs,
    stop,
  };
}

async function loadStreamFiles(
  options: StreamsCommandOptions,
  provider: ReturnType<typeof schemaProvider>,
  logger: Logger,
  redpandaSection: boolean,
): Promise<LoadedStreamFile[]> {
  const files = await resolveStreamFiles(options.paths);
  const loaded: LoadedStreamFile[] = [];
  for (const file of files)
    loaded.push(await loadStreamDefinition(file, { provider, envFiles: options.envFiles, redpandaSection }));
  const lints = loaded.flatMap((f) => f.lints);
  if (lints.length > 0 && !options.chilled) {
    throw new ConfigError(
      `shutting down due to stream linter errors, run with --chilled to start anyway:\n${lints.join('\n')}`,
    );
  }
  for (const lint of lints) logger.warn(lint);
  return loaded;
}

/** `-r` files: only their `*_resources` sections are used. */
async function buildResourceFiles(
  options: StreamsCommandOptions,
  provider: ReturnType<typeof schemaProvider>,
  service: Service,
): Promise<void> {
  if (options.resources.length === 0) return;
  const redpandaSection = redpandaConnected(service.env.redpanda);
  const files = await loadResourceFiles(options.resources, {
    provider,
    envFiles: options.envFiles,
    redpandaSection,
  });
  for (const file of files) {
    if (file.lints.length > 0 && !options.chilled) {
      throw new ConfigError(`shutting down due to linter errors in resource file:\n${file.lints.join('\n')}`);
    }
    for (const lint of file.lints) service.logger.warn(lint);
    await service.buildResources(file.config, file.source);
  }
}

/** The fleet settings when this node joins one: flags over `streams.cluster`; a fleet needs a shared store. */
function clusterSettings(
  flags: ClusterSettings | undefined,
  raw: unknown,
  storeUrl: string | undefined,
): { storeUrl: string; nodeId?: string; advertiseAddress?: string; leaseTtlMs: number } | undefined {
  const file = configuredCluster(raw);
  const enabled = flags?.enabled ?? file.enabled ?? false;
  if (!enabled) return undefined;
  if (storeUrl === undefined || !/^(postgres(ql)?|nats):\/\//.test(storeUrl)) {
    throw new ConfigError(
      '--cluster needs a store every node shares: --store postgres://... or nats://HOST:PORT/BUCKET',
    );
  }
  const ttlText = flags?.leaseTtl ?? file.leaseTtl ?? '10s';
  const leaseTtlMs = tryParseDurationMs(ttlText);
  if (leaseTtlMs === undefined || leaseTtlMs < 200)
    throw new ConfigError(`--lease-ttl ${ttlText} is not a duration of at least 200ms`);
  return {
    storeUrl,
    nodeId: flags?.nodeId ?? file.nodeId,
    advertiseAddress: flags?.advertiseAddress ?? file.advertiseAddress,
    leaseTtlMs,
  };
}
