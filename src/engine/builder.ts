// Builds components from their normalised configs: looks the spec up, hands the factory a
// BuildContext, and wraps the result with metrics and the component-level processors.

import type { Logger } from 'pino';
import { parseInterpolation, parseMapping } from '../bloblang/index.js';
import { DurationError, parseDurationMs } from '../config/duration.js';
import { type SchemaProvider, schemaProvider } from '../config/schema.js';
import type { ComponentKind } from '../config/spec.js';
import type { Batch } from '../message/message.js';
import type { BatchPolicy, BatchPolicyConfig } from './batching.js';
import type {
  Cache,
  ConnectionStatus,
  Input,
  InputReader,
  Output,
  OutputWriter,
  Processor,
  RateLimit,
} from './component.js';
import type { BuildContext, ComponentConfig, EndpointHandler, MetricsScope, Resources } from './context.js';
import { ConfigError, FieldValueError } from './errors.js';
import { writeGroupTo } from './group_write.js';
import type { InprocBus } from './inproc.js';
import { ReaderInput, type UndeliveredCount } from './input_wrapper.js';
import type { DynamicMemberStore } from './member_store.js';
import { ObservedProcessor } from './observed_processor.js';
import { WriterOutput } from './output_wrapper.js';
import { ProcessedInput } from './processed_input.js';
import { ProcessedOutput } from './processed_output.js';
import type { Registry } from './registry.js';
import type { RouteDoc } from './route_declaration.js';
import { TimeSlicer } from './time_slicer.js';
import type { EngineTracing, TracedComponent } from './tracing.js';

export interface MetricsProvider {
  scope(labels: { label: string; path: string; stream?: string }): MetricsScope;
}

/** Where component endpoints go; the stream prefixes and later removes them. */
export interface EndpointRegistrar {
  register(path: string, description: string, handler: EndpointHandler, doc?: RouteDoc): void;
}

/** Everything shared by the components of one stream (or of the resources of a process). */
export interface EngineEnv {
  registry: Registry;
  logger: Logger;
  metrics: MetricsProvider;
  resources: Resources;
  inproc: InprocBus;
  endpoints?: EndpointRegistrar;
  streamId?: string;
  signal: AbortSignal;
  /** Directory relative Bloblang imports resolve against (the config file's). */
  baseDir?: string;
  /** Counts messages inputs handed back undelivered at close (replays that never ran). */
  undelivered?: UndeliveredCount;
  /** Where `dynamic` outputs keep posted members (streams mode with a store). */
  members?: DynamicMemberStore;
  /** Spans per message and component; absent when the service has no tracer (src/tracing). */
  tracing?: EngineTracing;
  /** The service config's `redpanda` section, when it has one (see BuildContext.redpanda). */
  redpanda?: Readonly<Record<string, unknown>>;
}

export class ComponentBuilder {
  private schemas: SchemaProvider | undefined;
  private readonly slicer = new TimeSlicer();

  constructor(private readonly env: EngineEnv) {}

  /** The directory relative Bloblang imports resolve against (pipeline threads build with it too). */
  get baseDir(): string | undefined {
    return this.env.baseDir;
  }

  /** What pipeline threads report through: the stream's metrics, its id, whether spans are recorded. */
  get threadEnv(): { metrics: MetricsProvider; streamId?: string; traced: boolean } {
    const { metrics, streamId, tracing } = this.env;
    return { metrics, streamId, traced: tracing !== undefined };
  }

  /** Built on first use: most streams never read a config at run time. */
  private get schemaLookup(): SchemaProvider {
    this.schemas ??= schemaProvider(this.env.registry);
    return this.schemas;
  }

  async buildInput(cc: ComponentConfig): Promise<Input> {
    const ctx = this.context(cc);
    const built = await placeFieldErrors(cc, () => this.spec('input', cc).build(cc.config, ctx));
    const wrapped = isInput(built) ? built : ctx.wrapReader(built as InputReader);
    // Tracing hook: the input span is the parent of the component's own processors' spans.
    const input = this.env.tracing ? this.env.tracing.input(wrapped, this.traced(cc)) : wrapped;
    if (cc.processors.length === 0) return input;
    return new ProcessedInput(input, await this.buildProcessors(cc.processors));
  }

  async buildOutput(cc: ComponentConfig): Promise<Output> {
    const ctx = this.context(cc);
    const built = await placeFieldErrors(cc, () => this.spec('output', cc).build(cc.config, ctx));
    const wrapped = isOutput(built) ? built : ctx.wrapWriter(built as OutputWriter);
    // Tracing hook: the output span covers the write, after the output's own processors.
    const output = this.env.tracing ? this.env.tracing.output(wrapped, this.traced(cc)) : wrapped;
    if (cc.processors.length === 0) return output;
    return new ProcessedOutput(output, await this.buildProcessors(cc.processors));
  }

  async buildProcessor(cc: ComponentConfig): Promise<Processor> {
    const ctx = this.context(cc);
    const built = (await placeFieldErrors(cc, () =>
      this.spec('processor', cc).build(cc.config, ctx),
    )) as Processor;
    // A templated processor is an observed processor already: its metrics are counted once.
    if (built instanceof ObservedProcessor) return built;
    const spans = this.env.tracing?.processor(this.traced(cc)); // tracing hook
    return new ObservedProcessor(built, ctx.metrics, spans);
  }

  private traced(cc: ComponentConfig): TracedComponent {
    const component: TracedComponent = { type: cc.type, label: cc.label, path: cc.path };
    if (this.env.streamId !== undefined) component.stream = this.env.streamId;
    return component;
  }

  async buildProcessors(list: ComponentConfig[]): Promise<Processor[]> {
    const out: Processor[] = [];
    for (const cc of list) {
      // Thousands of mapping processors take seconds to compile: the event loop gets turns between.
      await this.slicer.pause();
      out.push(await this.buildProcessor(cc));
    }
    return out;
  }

  async buildCache(cc: ComponentConfig): Promise<Cache> {
    const ctx = this.context(cc);
    return (await placeFieldErrors(cc, () => this.spec('cache', cc).build(cc.config, ctx))) as Cache;
  }

  async buildRateLimit(cc: ComponentConfig): Promise<RateLimit> {
    const ctx = this.context(cc);
    return (await placeFieldErrors(cc, () => this.spec('rate_limit', cc).build(cc.config, ctx))) as RateLimit;
  }

  async buildBuffer(cc: ComponentConfig): Promise<unknown> {
    const ctx = this.context(cc);
    return placeFieldErrors(cc, () => this.spec('buffer', cc).build(cc.config, ctx));
  }

  async buildBatchPolicy(config: BatchPolicyConfig, ctx: BuildContext): Promise<BatchPolicy> {
    const processors = await this.buildProcessors(config.processors as ComponentConfig[]);
    return {
      count: config.count,
      byteSize: config.byte_size,
      periodMs: config.period ? batchPeriodMs(config.period) : 0,
      check: config.check ? ctx.mapping(config.check, 'batching.check') : null,
      processors,
    };
  }

  private spec(kind: ComponentKind, cc: ComponentConfig) {
    const spec = this.env.registry.get(kind, cc.type);
    if (!spec) throw new ConfigError(`${kind} type ${cc.type} is not recognised (at ${cc.path})`);
    return spec;
  }

  context(cc: ComponentConfig): BuildContext {
    const env = this.env;
    const labels: { label: string; path: string; stream?: string } = { label: cc.label, path: cc.path };
    if (env.streamId !== undefined) labels.stream = env.streamId;
    const metrics = env.metrics.scope(labels);
    const bindings: Record<string, string> = { path: cc.path };
    if (cc.label) bindings.label = cc.label;
    if (env.streamId !== undefined) bindings.stream = env.streamId;
    const logger = env.logger.child(bindings);
    const builderSchemas = () => this.schemaLookup;
    const ctx: BuildContext = {
      label: cc.label,
      path: cc.path,
      streamId: env.streamId,
      logger,
      metrics,
      resources: env.resources,
      signal: env.signal,
      inproc: env.inproc,
      members: env.members,
      redpanda: env.redpanda,
      get schemas() {
        return builderSchemas();
      },
      buildInput: (c) => this.buildInput(c),
      buildOutput: (c) => this.buildOutput(c),
      buildProcessor: (c) => this.buildProcessor(c),
      buildCache: (c) => this.buildCache(c),
      buildRateLimit: (c) => this.buildRateLimit(c),
      withMetrics: (wrap) => {
        const metrics: MetricsProvider = { scope: (labels) => wrap(env.metrics.scope(labels)) };
        return new ComponentBuilder({ ...env, metrics });
      },
      buildBatchPolicy: (config) => placeFieldErrors(cc, () => this.buildBatchPolicy(config, ctx)),
      wrapReader: (reader, options) =>
        new ReaderInput(
          reader,
          {
            label: cc.label,
            path: cc.path,
            logger,
            metrics,
            signal: env.signal,
            undelivered: env.undelivered,
          },
          options?.autoReplayNacks,
        ),
      wrapWriter: (writer, options) => {
        const id = { label: cc.label, path: cc.path, logger, metrics, signal: env.signal };
        const batching = options?.batching;
        if (!batching || isNoopPolicyConfig(batching))
          return new WriterOutput(writer, id, options?.maxInFlight);
        return new LazyPolicyOutput(
          placeFieldErrors(cc, () => this.buildBatchPolicy(batching, ctx)),
          (policy) => new WriterOutput(writer, id, options?.maxInFlight, policy),
        );
      },
      mapping: (text, fieldName) => {
        try {
          return parseMapping(text, { importDir: env.baseDir });
        } catch (err) {
          throw fieldError(cc, fieldName, err);
        }
      },
      interpolation: (text, fieldName) => {
        try {
          return parseInterpolation(text);
        } catch (err) {
          throw fieldError(cc, fieldName, err);
        }
      },
      registerEndpoint: (path, description, handler, doc) => {
        if (!env.endpoints)
          throw new ConfigError(`${cc.path}: no HTTP server is available for endpoint ${path}`);
        env.endpoints.register(path, description, handler, doc);
      },
    };
    return ctx;
  }
}

/**
 * Runs a component's build; a FieldValueError from it (or from a helper it called) gets the
 * component's config path, so `timeout: time: invalid duration "x"` says which `timeout`.
 */
async function placeFieldErrors<T>(cc: ComponentConfig, build: () => T | Promise<T>): Promise<T> {
  try {
    return await build();
  } catch (err) {
    if (!(err instanceof FieldValueError)) throw err;
    const at = cc.path.replace(/^root\.?/, '');
    throw err.under(at ? `${at}.${cc.type}` : cc.type);
  }
}

function batchPeriodMs(period: string): number {
  try {
    return parseDurationMs(period);
  } catch (err) {
    if (err instanceof DurationError) throw new FieldValueError('batching.period', err.message);
    throw err;
  }
}

/**
 * `root.input.generate.mapping: line 1 char 8: ...`. A component whose whole config is the field
 * (`bloblang: 'root = ...'`) is named once; a parse error's message already starts with its position.
 */
function fieldError(cc: ComponentConfig, fieldName: string, err: unknown): ConfigError {
  const where =
    fieldName && fieldName !== cc.type ? `${cc.path}.${cc.type}.${fieldName}` : `${cc.path}.${cc.type}`;
  return new ConfigError(`${where}: ${err instanceof Error ? err.message : String(err)}`);
}

function isNoopPolicyConfig(config: BatchPolicyConfig): boolean {
  return (
    config.count <= 1 &&
    config.byte_size <= 0 &&
    !config.period &&
    !config.check &&
    (config.processors?.length ?? 0) === 0
  );
}

function isInput(value: unknown): value is Input {
  return typeof (value as Input).statuses === 'function' && typeof (value as Input).read === 'function';
}

function isOutput(value: unknown): value is Output {
  return typeof (value as Output).statuses === 'function' && typeof (value as Output).write === 'function';
}

/** An output whose batch policy (with its own processors) is still being built. */
class LazyPolicyOutput implements Output {
  private output: Output | null = null;
  private readonly ready: Promise<Output>;

  constructor(policy: Promise<BatchPolicy>, make: (policy: BatchPolicy) => Output) {
    this.ready = policy.then((p) => {
      this.output = make(p);
      return this.output;
    });
    this.ready.catch(() => undefined);
  }

  write(batch: Batch): Promise<void> {
    return this.output ? this.output.write(batch) : this.ready.then((o) => o.write(batch));
  }

  /** The built output's group write (its batcher takes groups), batch by batch if it has none. */
  writeGroup(batches: readonly Batch[]): Promise<void> {
    const send = (o: Output) => writeGroupTo(o, batches);
    return this.output ? send(this.output) : this.ready.then(send);
  }

  statuses(): ConnectionStatus[] {
    return this.output?.statuses() ?? [];
  }

  async flush(): Promise<void> {
    await (await this.ready).flush?.();
  }

  async close(): Promise<void> {
    await (await this.ready).close();
  }
}
