// `metrics.mapping`: Bloblang run once per series as it is created, over the metric name (`this`)
// with the labels as metadata. Assigning `root` renames, `meta` edits labels, `deleted()` drops.
import type { Logger } from 'pino';
import { type Mapping, parseMapping } from '../bloblang/index.js';
import { errorMessage } from '../engine/errors.js';
import { Message } from '../message/message.js';

export interface MappedMetric {
  name: string;
  labels: Record<string, string>;
}

export class MetricMapping {
  private readonly mapping: Mapping;

  /** Throws BloblangParseError when the text is not a valid mapping. */
  constructor(
    text: string,
    private readonly logger: Logger | undefined,
  ) {
    this.mapping = parseMapping(text);
  }

  /** The renamed and relabelled metric, or undefined when the mapping deletes it. */
  apply(name: string, labels: Record<string, string>): MappedMetric | undefined {
    const input = Message.fromStructured(name, new Map(Object.entries(labels)));
    let out: Message | null;
    try {
      out = this.mapping.apply([input], 0);
    } catch (err) {
      // As the reference: a failing mapping leaves the metric as it was, and says so.
      this.logger?.error(`metrics mapping failed on ${name}: ${errorMessage(err)}`);
      return { name, labels };
    }
    if (out === null) return undefined;
    const mappedName = out.hasStructure() ? out.structured() : out.text();
    if (typeof mappedName !== 'string') {
      this.logger?.error(`metrics mapping of ${name} must give a string, got ${typeof mappedName}`);
      return { name, labels };
    }
    if (mappedName === '') return undefined;
    const mappedLabels: Record<string, string> = {};
    for (const [key, value] of out.metadata()) mappedLabels[key] = labelText(value);
    return { name: mappedName, labels: mappedLabels };
  }
}

function labelText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value instanceof Uint8Array) return Buffer.from(value).toString('utf8');
  return JSON.stringify(value);
}
