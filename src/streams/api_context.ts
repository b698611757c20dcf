// What the REST handlers share: the manager, config checking, and the shared resources.
import type { Logger } from 'pino';
import type { BloblangChecker } from '../config/bloblang_check.js';
import type { EnvLookup } from '../config/env_interpolation.js';
import type { SchemaProvider } from '../config/schema.js';
import type { ComponentBuilder } from '../engine/builder.js';
import type { ResourceManager } from '../engine/resources.js';
import type { KeyedLock } from './keyed_lock.js';
import type { StreamManager, StreamMetrics } from './manager.js';
import type { StorePersistence } from './store/persistence.js';

export interface StreamsApiContext {
  manager: StreamManager;
  metrics: StreamMetrics;
  provider: SchemaProvider;
  /** Env lookup for interpolating `POST|PUT /streams/{id}` and resource bodies. */
  env: EnvLookup;
  bodyLimitBytes: number;
  /** Config bodies are checked one at a time (key ''), so N big bodies never hold N parses in memory. */
  bodyQueue: KeyedLock;
  bloblang?: BloblangChecker;
  /** Whether the observability config has a redpanda section (redpanda_common needs one). */
  redpandaSection?: boolean;
  resources: ResourceManager;
  /** Builds resource components (process-wide: no stream id, endpoints unprefixed). */
  resourceBuilder: ComponentBuilder;
  /** Logs each stream the API creates, updates or deletes. */
  logger: Logger;
  /** With `--store`: resource changes are written there before they count. */
  persistence?: StorePersistence;
}
