// A template's `metrics_mapping`: each metric the inner components register is named by running
// the mapping on its name (with its extra labels as metadata). A string result renames it, a
// `deleted()` drops it, and the metadata the mapping leaves become its labels. `$label` holds the
// templated component's label, as in the reference.
import { type Mapping, parseMapping } from '../bloblang/index.js';
import type { Counter, Gauge, MetricsScope, Timer } from '../engine/context.js';
import { Message } from '../message/message.js';
import { NOOP_SCOPE } from '../metrics/noop.js';

interface MappedName {
  name: string;
  labels: Record<string, string>;
}

export class MetricsMapping {
  /** One compiled mapping per label: `$label` is bound by a `let` put before the mapping. */
  private readonly byLabel = new Map<string, Mapping>();

  /** Throws BloblangParseError when the mapping does not parse. */
  constructor(
    private readonly text: string,
    private readonly importDir?: string,
  ) {
    parseMapping(text, { importDir });
  }

  /** The scope the inner components of a templated component labelled `label` record into. */
  scope(inner: MetricsScope, label: string): MetricsScope {
    return new MappedScope(inner, (name, labels) => this.map(name, labels, label));
  }

  /** Undefined when the mapping deletes the metric. */
  map(name: string, labels: Record<string, string> | undefined, label: string): MappedName | undefined {
    const msg = Message.fromStructured(name, new Map(Object.entries(labels ?? {})));
    let out: Message | null;
    try {
      out = this.mappingFor(label).apply([msg], 0);
    } catch {
      // As in the reference: a mapping that fails leaves the metric as it was.
      return { name, labels: labels ?? {} };
    }
    if (out === null) return undefined;
    // A string result is set as the message's bytes; an untouched root is still the name.
    const mapped = out.hasStructure() ? out.structured() : out.text();
    if (typeof mapped !== 'string') return { name, labels: labels ?? {} };
    if (mapped === '') return undefined;
    const outLabels: Record<string, string> = {};
    for (const [key, value] of out.metadata()) outLabels[key] = String(value);
    return { name: mapped, labels: outLabels };
  }

  private mappingFor(label: string): Mapping {
    let mapping = this.byLabel.get(label);
    if (!mapping) {
      mapping = parseMapping(`let label = ${JSON.stringify(label)}\n${this.text}`, {
        importDir: this.importDir,
      });
      this.byLabel.set(label, mapping);
    }
    return mapping;
  }
}

type NameMapper = (name: string, labels: Record<string, string> | undefined) => MappedName | undefined;

class MappedScope implements MetricsScope {
  constructor(
    private readonly inner: MetricsScope,
    private readonly mapName: NameMapper,
  ) {}

  counter(name: string, extraLabels?: Record<string, string>): Counter {
    const mapped = this.mapName(name, extraLabels);
    return mapped ? this.inner.counter(mapped.name, mapped.labels) : NOOP_SCOPE.counter(name);
  }

  timer(name: string, extraLabels?: Record<string, string>): Timer {
    const mapped = this.mapName(name, extraLabels);
    return mapped ? this.inner.timer(mapped.name, mapped.labels) : NOOP_SCOPE.timer(name);
  }

  gauge(name: string, extraLabels?: Record<string, string>): Gauge {
    const mapped = this.mapName(name, extraLabels);
    return mapped ? this.inner.gauge(mapped.name, mapped.labels) : NOOP_SCOPE.gauge(name);
  }

  child(label: string, path: string): MetricsScope {
    return new MappedScope(this.inner.child(label, path), this.mapName);
  }
}
