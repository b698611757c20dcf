// Processor metrics of a pipeline thread, counted where the stream's metrics live: the thread
// records into plain numbers (RecordingMetrics) and sends what changed with each group's answer;
// the main thread adds it to the very series the processors would have used there
// (MetricsForwarder). Without this, /metrics counted only the groups the main thread ran itself.
import type { MetricsProvider } from '../builder.js';
import type { Counter, Gauge, MetricsScope, Timer } from '../context.js';

type ScopeLabels = { label: string; path: string; stream?: string };
/** How a scope was reached: the provider's scope, then child(label, path) steps. */
type ScopePath = [ScopeLabels, ...Array<[string, string]>];

interface Descriptor {
  /** Unique per series: the main thread finds its own instrument by it. */
  key: string;
  scope: ScopePath;
  kind: 'counter' | 'timer' | 'gauge';
  name: string;
  extra?: Record<string, string>;
}

/** What changed on a thread since its last answer. */
export interface MetricsDelta {
  counters: Array<[Descriptor, number]>;
  /** Observations as [ns, times, ns, times, ...]. */
  timers: Array<[Descriptor, number[]]>;
  gauges: Array<[Descriptor, number]>;
}

class RecordedCounter implements Counter {
  pending = 0;
  constructor(readonly descriptor: Descriptor) {}
  inc(n = 1): void {
    this.pending += n;
  }
}

class RecordedTimer implements Timer {
  observations: number[] = [];
  constructor(readonly descriptor: Descriptor) {}
  observeNs(ns: number): void {
    this.observations.push(ns, 1);
  }
  observeNsTimes(ns: number, times: number): void {
    this.observations.push(ns, times);
  }
}

class RecordedGauge implements Gauge {
  value = 0;
  changed = false;
  constructor(readonly descriptor: Descriptor) {}
  set(value: number): void {
    this.value = value;
    this.changed = true;
  }
}

/** The thread's MetricsProvider: instruments that only remember, drained into a MetricsDelta. */
export class RecordingMetrics implements MetricsProvider {
  private readonly counters = new Map<string, RecordedCounter>();
  private readonly timers = new Map<string, RecordedTimer>();
  private readonly gauges = new Map<string, RecordedGauge>();

  scope(labels: ScopeLabels): MetricsScope {
    return this.scopeAt([{ ...labels }]);
  }

  /** Everything recorded since the last drain, or null when nothing was. */
  drain(): MetricsDelta | null {
    const delta: MetricsDelta = { counters: [], timers: [], gauges: [] };
    for (const c of this.counters.values()) {
      if (c.pending === 0) continue;
      delta.counters.push([c.descriptor, c.pending]);
      c.pending = 0;
    }
    for (const t of this.timers.values()) {
      if (t.observations.length === 0) continue;
      delta.timers.push([t.descriptor, t.observations]);
      t.observations = [];
    }
    for (const g of this.gauges.values()) {
      if (!g.changed) continue;
      delta.gauges.push([g.descriptor, g.value]);
      g.changed = false;
    }
    const empty = delta.counters.length + delta.timers.length + delta.gauges.length === 0;
    return empty ? null : delta;
  }

  private scopeAt(path: ScopePath): MetricsScope {
    const describe = (kind: Descriptor['kind'], name: string, extra?: Record<string, string>) => {
      const descriptor: Descriptor = {
        key: JSON.stringify([path, kind, name, extra ?? null]),
        scope: path,
        kind,
        name,
      };
      if (extra) descriptor.extra = { ...extra };
      return descriptor;
    };
    const instrument = <T>(map: Map<string, T>, descriptor: Descriptor, make: (d: Descriptor) => T): T => {
      let found = map.get(descriptor.key);
      if (!found) {
        found = make(descriptor);
        map.set(descriptor.key, found);
      }
      return found;
    };
    return {
      counter: (name, extra) =>
        instrument(this.counters, describe('counter', name, extra), (d) => new RecordedCounter(d)),
      timer: (name, extra) =>
        instrument(this.timers, describe('timer', name, extra), (d) => new RecordedTimer(d)),
      gauge: (name, extra) =>
        instrument(this.gauges, describe('gauge', name, extra), (d) => new RecordedGauge(d)),
      child: (label, childPath) => this.scopeAt([...path, [label, childPath]] as ScopePath),
    };
  }
}

/** The main thread's side: adds a thread's delta to the stream's own instruments. */
export class MetricsForwarder {
  private readonly instruments = new Map<string, Counter | Timer | Gauge>();

  constructor(private readonly provider: MetricsProvider) {}

  apply(delta: MetricsDelta): void {
    for (const [d, n] of delta.counters) (this.resolve(d) as Counter).inc(n);
    for (const [d, obs] of delta.timers) {
      const timer = this.resolve(d) as Timer;
      for (let i = 0; i < obs.length; i += 2) {
        const times = obs[i + 1]!;
        if (times === 1) timer.observeNs(obs[i]!);
        else timer.observeNsTimes(obs[i]!, times);
      }
    }
    for (const [d, v] of delta.gauges) (this.resolve(d) as Gauge).set(v);
  }

  private resolve(d: Descriptor): Counter | Timer | Gauge {
    let found = this.instruments.get(d.key);
    if (found) return found;
    const [labels, ...steps] = d.scope;
    let scope = this.provider.scope(labels);
    for (const [label, path] of steps) scope = scope.child(label, path);
    found = scope[d.kind](d.name, d.extra);
    this.instruments.set(d.key, found);
    return found;
  }
}
