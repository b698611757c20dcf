// What a component's factory receives: its identity, logging, metrics, shared resources and the
// means to build the components nested inside it.

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { Interpolation, Mapping } from '../bloblang/index.js';
import type { SchemaProvider } from '../config/schema.js';
import type { BatchPolicy, BatchPolicyConfig } from './batching.js';
import type { Cache, Input, InputReader, Output, OutputWriter, Processor, RateLimit } from './component.js';
import type { InprocBus } from './inproc.js';
import type { DynamicMemberStore } from './member_store.js';
import type { RouteDoc } from './route_declaration.js';

/** A component as written in config, normalised: `{generate: {...}, label: x}` -> this. */
export interface ComponentConfig {
  /** The component name, e.g. `generate`. */
  type: string;
  label: string;
  /** The component's own settings with defaults filled in (an object, or the root value). */
  config: unknown;
  /** Inputs and outputs may carry their own processors. */
  processors: ComponentConfig[];
  /** Config path, e.g. `root.input`, `root.output.broker.outputs.1`; labels metrics. */
  path: string;
  /** The config exactly as written (no defaults), for API reads and dynamic listings. */
  raw: unknown;
}

export interface Counter {
  inc(n?: number): void;
}

export interface Timer {
  /** Records one duration in nanoseconds. */
  observeNs(ns: number): void;
  /** Records the same duration `times` times (a group of transactions settled together). */
  observeNsTimes(ns: number, times: number): void;
}

export interface Gauge {
  set(value: number): void;
}

/** Metrics labelled with the component's `label`, `path` and (in streams mode) `stream`. */
export interface MetricsScope {
  counter(name: string, extraLabels?: Record<string, string>): Counter;
  timer(name: string, extraLabels?: Record<string, string>): Timer;
  gauge(name: string, extraLabels?: Record<string, string>): Gauge;
  /** The scope of a nested component. */
  child(label: string, path: string): MetricsScope;
}

export type EndpointHandler = (
  req: IncomingMessage,
  res: ServerResponse,
  params: Record<string, string>,
) => void | Promise<void>;

/** Named shared components, resolved at each use so a replaced resource takes effect at once. */
export interface Resources {
  has(kind: 'cache' | 'rate_limit' | 'processor' | 'input' | 'output', name: string): boolean;
  /** Runs fn with the current cache of that name; throws when there is none. */
  useCache<T>(name: string, fn: (cache: Cache) => Promise<T>): Promise<T>;
  useRateLimit<T>(name: string, fn: (limit: RateLimit) => Promise<T>): Promise<T>;
  useProcessor<T>(name: string, fn: (processor: Processor) => Promise<T>): Promise<T>;
  /** An input that reads from the named resource input (shared by every user). */
  input(name: string): Input;
  /** An output that writes to the named resource output. */
  output(name: string): Output;
}

export interface ReaderOptions {
  /** Re-deliver nacked messages from inside the engine instead of nacking the source. */
  autoReplayNacks?: boolean;
}

export interface WriterOptions {
  /** How many batches may be written concurrently (default 1). */
  maxInFlight?: number;
  /** Batching policy of the output, when it has one. */
  batching?: BatchPolicyConfig;
}

export type NestedBuilders = Pick<
  BuildContext,
  'buildInput' | 'buildOutput' | 'buildProcessor' | 'buildCache' | 'buildRateLimit'
>;

export interface BuildContext {
  readonly label: string;
  /** This component's config path, e.g. `root.output`. */
  readonly path: string;
  /** The stream id in streams mode, else undefined. */
  readonly streamId: string | undefined;
  readonly logger: Logger;
  readonly metrics: MetricsScope;
  readonly resources: Resources;
  /** The AbortSignal fired when the stream (or process) shuts down. */
  readonly signal: AbortSignal;
  /** Named in-process pipes shared by every stream of this process (`inproc` input/output). */
  readonly inproc: InprocBus;
  /** The component specs of this process, to read configs that arrive at run time (dynamic brokers). */
  readonly schemas: SchemaProvider;
  /** Where posted dynamic members are kept across restarts (streams mode with a store). */
  readonly members?: DynamicMemberStore;
  /**
   * The service's top-level `redpanda` section as written (defaults filled), which the
   * redpanda_common components connect with; absent when the service config has none.
   */
  readonly redpanda?: Readonly<Record<string, unknown>>;
  buildInput(config: ComponentConfig): Promise<Input>;
  buildOutput(config: ComponentConfig): Promise<Output>;
  buildProcessor(config: ComponentConfig): Promise<Processor>;
  buildCache(config: ComponentConfig): Promise<Cache>;
  buildRateLimit(config: ComponentConfig): Promise<RateLimit>;
  /**
   * Builders of nested components whose metrics go through `wrap` (and so do those of the
   * components nested in them): a template's `metrics_mapping` renames its inner components' metrics.
   */
  withMetrics(wrap: (scope: MetricsScope) => MetricsScope): NestedBuilders;
  /** Builds a batching policy (with its processors and `check` mapping) for this component. */
  buildBatchPolicy(config: BatchPolicyConfig): Promise<BatchPolicy>;
  /** Wraps a connector's reader with reconnection, metrics and status reporting. */
  wrapReader(reader: InputReader, options?: ReaderOptions): Input;
  /** Wraps a connector's writer with reconnection, max_in_flight, batching and metrics. */
  wrapWriter(writer: OutputWriter, options?: WriterOptions): Output;
  /** Parses a Bloblang mapping; throws ConfigError naming the field on a parse error. */
  mapping(text: string, fieldName: string): Mapping;
  /** Parses an interpolated string (`${! }`); throws ConfigError naming the field. */
  interpolation(text: string, fieldName: string): Interpolation;
  /** Registers an HTTP endpoint (under `/<stream id>` in streams mode); removed when the stream goes. */
  registerEndpoint(path: string, description: string, handler: EndpointHandler, doc?: RouteDoc): void;
}
