// StreamBuilder: one stream from a config (text or object) inside the application's process, with
// functions in place of its input or output. The config is linted like a file: a problem is a
// ConfigError whose lines are `stream.yaml(line,col) message`.
import type { Logger } from 'pino';
import { stringify } from 'yaml';
import { type ConfigSource, inSource } from '../config/config_source.js';
import { loadConfigText } from '../config/loader.js';
import { schemaProvider } from '../config/schema.js';
import type { ServiceConfig } from '../config/service_config.js';
import { ComponentBuilder, type EngineEnv } from '../engine/builder.js';
import { ConfigError } from '../engine/errors.js';
import { MemoryInprocBus } from '../engine/inproc.js';
import { createLogger } from '../engine/logger.js';
import { Registry } from '../engine/registry.js';
import { ResourceManager } from '../engine/resources.js';
import { stopController } from '../engine/stop_signal.js';
import { Stream as EngineStream } from '../engine/stream.js';
import { createMetricsRegistry } from '../metrics/index.js';
import { processRegistry } from '../plugins/process_registry.js';
import { buildResources } from '../service/build_resources.js';
import {
  CONSUMER_FUNC,
  type ConsumerFunc,
  consumerSpec,
  funcComponent,
  PRODUCER_FUNC,
  type ProducerFunc,
  ProducerQueue,
  producerSpec,
} from './func_components.js';
import { type MetricsSink, metricsProvider } from './metrics_sink.js';

/** The name lint messages give the config. */
const CONFIG_NAME = 'stream.yaml';

export class StreamBuilder {
  private text = '';
  private producer: ProducerQueue | undefined;
  private consumer: ConsumerFunc | undefined;
  private logger: Logger | undefined;
  private metrics: MetricsSink | undefined;
  private baseDir = process.cwd();

  /** A whole config (input, pipeline, output, resources, logger...), as a config file holds it. */
  setYaml(text: string): this {
    this.text = text;
    return this;
  }

  /** The same as an object; lint lines then refer to the object written as YAML. */
  setConfig(config: object): this {
    this.text = stringify(config);
    return this;
  }

  /** Directory relative Bloblang imports resolve against (default: the working directory). */
  setBaseDir(dir: string): this {
    this.baseDir = dir;
    return this;
  }

  /** The stream's input becomes the returned function (the config must then have no `input`). */
  addProducerFunc(): ProducerFunc {
    if (this.producer) throw new Error('the stream already has a producer function');
    this.producer = new ProducerQueue();
    return this.producer.send;
  }

  /**
   * Each message goes to `consume` (the config must then have no `output`); the message is
   * acknowledged when the returned promise resolves and nacked when it rejects.
   */
  addConsumerFunc(consume: ConsumerFunc): this {
    if (this.consumer) throw new Error('the stream already has a consumer function');
    this.consumer = consume;
    return this;
  }

  /** A pino logger for the stream's components (default: the config's `logger` section, on stderr). */
  setLogger(logger: Logger): this {
    this.logger = logger;
    return this;
  }

  /** Component metrics go to the application's own metrics library (default: kept internally). */
  setMetrics(sink: MetricsSink): this {
    this.metrics = sink;
    return this;
  }

  /** Lints and builds every component; throws a ConfigError listing the lint problems. */
  async build(): Promise<Stream> {
    const registry = new Registry([
      ...processRegistry().list(),
      ...(this.producer ? [producerSpec(this.producer)] : []),
      ...(this.consumer ? [consumerSpec(this.consumer)] : []),
    ]);
    const loaded = await loadConfigText(this.text, CONFIG_NAME, { provider: schemaProvider(registry) });
    if (loaded.lints.length > 0) throw new ConfigError(loaded.lints.join('\n'));
    const config = loaded.config;
    const written = (loaded.raw ?? {}) as Record<string, unknown>;
    const stream = config.stream!;
    if (this.producer) {
      refuseBoth(written, 'input', 'a producer function');
      stream.input = funcComponent(PRODUCER_FUNC, 'input');
    }
    if (this.consumer) {
      refuseBoth(written, 'output', 'a consumer function');
      stream.output = funcComponent(CONSUMER_FUNC, 'output');
    }
    const source: ConfigSource = { file: CONFIG_NAME, lines: loaded.lines };
    const abort = stopController();
    const env = this.env(config, registry, abort.signal);
    const resources = env.resources as ResourceManager;
    const builder = new ComponentBuilder(env);
    await inSource(source, () => buildResources(config, builder, resources));
    const built = await inSource(source, () => EngineStream.build(stream, builder, env.logger, abort));
    return new Stream(built, resources, source);
  }

  private env(config: ServiceConfig, registry: Registry, signal: AbortSignal): EngineEnv {
    return {
      registry,
      logger: this.logger ?? createLogger(config.logger),
      metrics: this.metrics
        ? metricsProvider(this.metrics)
        : createMetricsRegistry({ type: config.metrics.type, exported: false, processMetrics: false }),
      resources: new ResourceManager(),
      inproc: new MemoryInprocBus(),
      signal,
      baseDir: this.baseDir,
    };
  }
}

function refuseBoth(written: Record<string, unknown>, section: string, func: string): void {
  if (written[section] !== undefined && written[section] !== null) {
    throw new ConfigError(
      `${CONFIG_NAME}: the config has an ${section} and the stream has ${func}: keep one`,
    );
  }
}

/** A built stream: run it, ask whether it is ready, stop it. */
export class Stream {
  /** @internal */
  constructor(
    private readonly engine: EngineStream,
    private readonly resources: ResourceManager,
    private readonly source: ConfigSource,
  ) {}

  /** Runs until the input ends (a finite input, or a producer's `end()`) or stop() is called. */
  async run(): Promise<void> {
    try {
      await inSource(this.source, () => this.engine.run());
    } finally {
      await this.resources.closeAll();
    }
  }

  /** Stops reading, lets messages in flight finish within `timeoutMs`, then nacks the rest. */
  async stop(timeoutMs = 20_000): Promise<void> {
    await this.engine.stop(timeoutMs);
  }

  /** True when the input and output are connected. */
  isReady(): boolean {
    return this.engine.isReady();
  }

  /** Resolves once the stream is ready (polling every 20 ms), or rejects after `timeoutMs`. */
  async ready(timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!this.isReady()) {
      if (Date.now() > deadline) throw new Error(`the stream was not ready within ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}
