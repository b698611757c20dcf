// The process's metrics: scopes handed to components, the `/metrics` handler (Prometheus text or the
// json_api object) or a push exporter (statsd, influxdb, logger), `metrics.mapping` applied to every
// series as it is made, and the per-stream view behind `/streams/{id}/stats`.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import type { Logger } from 'pino';
import type { Metric, Registry } from 'prom-client';
import type { Counter, EndpointHandler, Gauge, MetricsScope, Timer } from '../engine/context.js';
import { ConfigError } from '../engine/errors.js';
import { sendJson } from '../listener/respond.js';
import { MetricFamily } from './family.js';
import { renderLabels, sortLabels } from './labels.js';
import { MetricMapping } from './mapping.js';
import { NOOP_SCOPE } from './noop.js';
import { PUSH_TYPES, type PushSchedule, type PushType, startPushExporter } from './push/index.js';
import { createSeries, type MetricKind, type Series } from './series.js';

export type MetricsType = 'prometheus' | 'json_api' | 'none' | PushType;
export const METRICS_TYPES: readonly MetricsType[] = ['prometheus', 'json_api', 'none', ...PUSH_TYPES];

export interface MetricsRegistryOptions {
  /** One of METRICS_TYPES (a plain string so a normalised config section can be passed as is). */
  type: string;
  /** Also export Node's process metrics (cpu, memory, event loop); prometheus only. Default true. */
  processMetrics?: boolean;
  /**
   * False when nothing can scrape `/metrics` (the HTTP server is disabled): series are still kept
   * (stats, logs) but the Prometheus exporter, ~80 modules of start-up, is never loaded. Default true.
   */
  exported?: boolean;
  /** The exporter's own settings, normalised (statsd, influxdb and logger read theirs). */
  settings?: unknown;
  /** `metrics.mapping`: Bloblang over each metric's name and labels; empty for none. */
  mapping?: string;
  /** Where mapping failures and push failures are logged (and the `logger` exporter writes). */
  logger?: Logger;
}

// prom-client is CommonJS: required when an exporter is made, so unexported runs never load it.
const require = createRequire(import.meta.url);

/** The labels the manager puts on every component metric. */
export interface BaseLabels {
  label: string;
  path: string;
  /** Only in streams mode. */
  stream?: string;
}

export interface TimerQuantiles {
  p50: number;
  p90: number;
  p99: number;
}

/** `name{label="",path="root.input",stream="foo"}` → integer, or quantiles in ns for timers. */
export type StreamStats = Record<string, number | TimerQuantiles>;

export interface MetricsRegistry {
  readonly type: MetricsType;
  scope(base: BaseLabels): MetricsScope;
  /** Serves Prometheus text or the json_api object; undefined for `none` (`/metrics`, `/stats` → 404). */
  readonly handler: EndpointHandler | undefined;
  /** The current values of every series labelled with this stream. */
  streamStats(streamId: string): StreamStats;
  /** Forgets every series of the stream (deleted or replaced streams must not leak or keep counting). */
  removeStream(streamId: string): void;
  /** Stops a push exporter after a last push (nothing to do for the others). */
  close(): Promise<void>;
}

/** Throws a ConfigError for a type nekton does not export to. */
export function createMetricsRegistry(options: MetricsRegistryOptions): MetricsRegistry {
  if (!(METRICS_TYPES as readonly string[]).includes(options.type)) {
    throw new ConfigError(
      `metrics type ${options.type} is not supported (use one of ${METRICS_TYPES.join(', ')})`,
    );
  }
  const mapping = options.mapping ? new MetricMapping(options.mapping, options.logger) : undefined;
  const store = new SeriesStore(
    options.type as MetricsType,
    options.processMetrics ?? true,
    options.exported ?? true,
    mapping,
  );
  if ((PUSH_TYPES as readonly string[]).includes(options.type))
    store.pushWith(
      startPushExporter(
        options.type as PushType,
        options.settings,
        () => store.allFamilies(),
        options.logger,
      ),
    );
  return store;
}

interface IndexedSeries {
  family: MetricFamily;
  series: Series;
}

class SeriesStore implements MetricsRegistry {
  readonly type: MetricsType;
  readonly handler: EndpointHandler | undefined;
  private readonly families = new Map<string, MetricFamily>();
  /** stream id → stats key → series, so stats and removal never scan other streams. */
  private readonly byStream = new Map<string, Map<string, IndexedSeries>>();
  private readonly exporter: Registry | undefined;
  private pusher: PushSchedule | undefined;

  constructor(
    type: MetricsType,
    processMetrics: boolean,
    exported: boolean,
    private readonly mapping: MetricMapping | undefined,
  ) {
    this.type = type;
    if (type === 'prometheus' && exported) {
      const { Registry: PromRegistry, collectDefaultMetrics } =
        require('prom-client') as typeof import('prom-client');
      const exporter = new PromRegistry();
      if (processMetrics) collectDefaultMetrics({ register: exporter });
      this.exporter = exporter;
      this.handler = async (_req: IncomingMessage, res: ServerResponse) => {
        const text = await exporter.metrics();
        res.statusCode = 200;
        res.setHeader('Content-Type', exporter.contentType);
        res.end(text);
      };
    } else if (type === 'json_api') {
      this.handler = (_req: IncomingMessage, res: ServerResponse) => sendJson(res, 200, this.snapshot());
    }
  }

  pushWith(pusher: PushSchedule): void {
    this.pusher = pusher;
  }

  allFamilies(): Iterable<MetricFamily> {
    return this.families.values();
  }

  async close(): Promise<void> {
    await this.pusher?.close();
  }

  scope(base: BaseLabels): MetricsScope {
    // With `none`, only stream metrics are kept: `/streams/{id}/stats` reports them regardless of exporter.
    if (this.type === 'none' && base.stream === undefined) return NOOP_SCOPE;
    return new LabelledScope(this, base);
  }

  series(
    kind: MetricKind,
    name: string,
    base: BaseLabels,
    extra: Record<string, string> | undefined,
  ): Series {
    let given = name;
    let all: Record<string, string> = { ...extra, label: base.label, path: base.path };
    if (base.stream !== undefined) all.stream = base.stream;
    if (this.mapping) {
      const mapped = this.mapping.apply(name, all);
      // Dropped by the mapping: the caller still counts, into a series no exporter reads.
      if (mapped === undefined) return createSeries(kind, all, '');
      given = mapped.name;
      all = mapped.labels;
    }
    const labels = sortLabels(all);
    const rendered = renderLabels(labels);
    const metricName = sanitiseMetricName(given);
    const family = this.familyFor(metricName, kind);
    // A name already used with another type cannot be exported; the caller still gets a working series.
    if (!family) return createSeries(kind, labels, rendered);
    const series = family.seriesFor(labels, rendered);
    if (base.stream !== undefined) {
      let index = this.byStream.get(base.stream);
      if (!index) {
        index = new Map();
        this.byStream.set(base.stream, index);
      }
      index.set(metricName + rendered, { family, series });
    }
    return series;
  }

  streamStats(streamId: string): StreamStats {
    const stats: StreamStats = {};
    const index = this.byStream.get(streamId);
    if (!index) return stats;
    for (const key of [...index.keys()].sort())
      stats[key] = statValue((index.get(key) as IndexedSeries).series);
    return stats;
  }

  /** Every series of the process in the stats format (the json_api body). */
  snapshot(): StreamStats {
    const entries: [string, Series][] = [];
    for (const family of this.families.values()) {
      for (const series of family.series.values())
        entries.push([family.name + series.renderedLabels, series]);
    }
    entries.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    const stats: StreamStats = {};
    for (const [key, series] of entries) stats[key] = statValue(series);
    return stats;
  }

  removeStream(streamId: string): void {
    const index = this.byStream.get(streamId);
    if (!index) return;
    this.byStream.delete(streamId);
    for (const { family, series } of index.values()) {
      if (family.series.get(series.renderedLabels) === series) family.series.delete(series.renderedLabels);
      if (family.series.size === 0) {
        this.families.delete(family.name);
        this.exporter?.removeSingleMetric(family.name);
      }
    }
  }

  private familyFor(name: string, kind: MetricKind): MetricFamily | undefined {
    const existing = this.families.get(name);
    if (existing) return existing.kind === kind ? existing : undefined;
    const family = new MetricFamily(name, kind);
    if (this.exporter) {
      if (this.exporter.getSingleMetric(name)) return undefined; // taken by a process metric
      // MetricFamily implements the part of prom-client's Metric that Registry uses (name, get()).
      this.exporter.registerMetric(family as unknown as Metric);
    }
    this.families.set(name, family);
    return family;
  }
}

class LabelledScope implements MetricsScope {
  constructor(
    private readonly store: SeriesStore,
    private readonly base: BaseLabels,
  ) {}

  counter(name: string, extraLabels?: Record<string, string>): Counter {
    return this.store.series('counter', name, this.base, extraLabels) as Counter;
  }

  timer(name: string, extraLabels?: Record<string, string>): Timer {
    return this.store.series('timer', name, this.base, extraLabels) as Timer;
  }

  gauge(name: string, extraLabels?: Record<string, string>): Gauge {
    return this.store.series('gauge', name, this.base, extraLabels) as Gauge;
  }

  child(label: string, path: string): MetricsScope {
    return new LabelledScope(this.store, { ...this.base, label, path });
  }
}

/** Counters and gauges as integers (Go's json_api casts to int64), timers as quantiles in ns. */
function statValue(series: Series): number | TimerQuantiles {
  if (series.kind !== 'timer') return Math.trunc(series.value);
  const h = series.histogram;
  return { p50: h.quantile(0.5), p90: h.quantile(0.9), p99: h.quantile(0.99) };
}

/** Prometheus names allow [a-zA-Z0-9_:] and no leading digit; anything else becomes `_`. */
function sanitiseMetricName(name: string): string {
  const cleaned = name.replace(/[^a-zA-Z0-9_:]/g, '_');
  return /^[0-9]/.test(cleaned) ? `_${cleaned}` : cleaned;
}
