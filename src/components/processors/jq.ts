// `jq`: replaces each message with the result of a jq query on it (jq 1.7 compiled to WebAssembly).
import type { Logger } from 'pino';
import { defineComponent, field } from '../../config/spec.js';
import type { Processor } from '../../engine/component.js';
import { ConfigError, errorMessage } from '../../engine/errors.js';
import { flagged, processorErrorLog } from '../../engine/processor_helpers.js';
import { parseJson } from '../../message/json.js';
import { toJson } from '../../message/json_writer.js';
import type { Batch, Message } from '../../message/message.js';
import { batchProgram, checkQuery, jqErrorText, jqModule, queryProblemSync, runJq } from './jq_runtime.js';

/**
 * Sets a query result as the content: JSON, as the reference serialises a structured value (a
 * string result is written quoted, where a message holding a string would write it raw).
 */
export function setJsonResult(msg: Message, value: unknown): void {
  if (typeof value === 'string') msg.setBytes(toJson(value));
  else msg.setStructured(value);
}

type Outcome = { ok: unknown[] } | { err: unknown };

export class JqProcessor implements Processor {
  private readonly program: string;
  private readonly logError: (err: Error) => void;

  constructor(
    query: string,
    private readonly raw: boolean,
    private readonly outputRaw: boolean,
    logger: Logger,
  ) {
    this.program = batchProgram(query);
    this.logError = processorErrorLog(logger);
  }

  async process(batch: Batch): Promise<Batch[]> {
    const results: (Message | null)[] = new Array(batch.length).fill(null);
    const lines: string[] = [];
    const lanes: number[] = [];
    for (let i = 0; i < batch.length; i++) {
      const msg = batch[i]!;
      try {
        const value = this.raw ? msg.text() : msg.structured();
        lines.push(`{"v":${toJson(value)},"m":${toJson(Object.fromEntries(msg.metadata()))}}`);
        lanes.push(i);
      } catch (err) {
        results[i] = this.fail(msg, err);
      }
    }
    if (lines.length > 0) {
      let outcomes: Outcome[];
      try {
        const jq = await jqModule();
        const stdout = runJq(jq, lines.join('\n'), this.program, ['-c']);
        outcomes = stdout
          .split('\n')
          .filter((l) => l !== '')
          .map((l) => parseJson(l) as Outcome);
        if (outcomes.length !== lines.length)
          throw new Error(`jq gave ${outcomes.length} results for ${lines.length} messages`);
      } catch (err) {
        const failure = new Error(jqErrorText(err));
        for (const i of lanes) results[i] = this.fail(batch[i]!, failure);
        outcomes = [];
      }
      for (let k = 0; k < outcomes.length; k++) {
        const i = lanes[k]!;
        results[i] = this.result(batch[i]!, outcomes[k]!);
      }
    }
    const out: Batch = [];
    for (const m of results) if (m !== null) out.push(m);
    return out.length > 0 ? [out] : [];
  }

  /** The message for one query outcome; null when the query emitted nothing (the message is dropped). */
  private result(msg: Message, outcome: Outcome): Message | null {
    if ('err' in outcome) {
      const e = outcome.err;
      return this.fail(msg, new Error(typeof e === 'string' ? e : `${toJson(e)} (not a string)`));
    }
    const emitted = outcome.ok;
    const out = msg.copy();
    if (this.outputRaw) {
      if (emitted.length === 0) return null;
      out.setBytes(emitted.map((v) => (typeof v === 'string' ? v : toJson(v))).join(''));
      return out;
    }
    if (emitted.length === 0) return null;
    setJsonResult(out, emitted.length === 1 ? emitted[0] : emitted);
    return out;
  }

  private fail(msg: Message, err: unknown): Message {
    const bad = flagged(msg, err);
    this.logError(bad.error as Error);
    return bad;
  }

  async close(): Promise<void> {}
}

export const spec = defineComponent({
  name: 'jq',
  kind: 'processor',
  status: 'stable',
  categories: ['Mapping'],
  summary: 'Transforms and filters messages using jq queries.',
  description: `For better performance and improved capabilities try out the \`mapping\` processor.

The provided query is executed on each message, targeting either the contents as a structured JSON value or as a raw string using the field \`raw\`, and the message is replaced with the query result. Message metadata is also accessible within the query from the variable \`$metadata\`.

If the query does not emit any value then the message is filtered, if the query returns multiple values then the resulting message will be an array containing all values.

The full query syntax is described in [jq's documentation](https://jqlang.github.io/jq/manual/). nekton runs jq 1.7 itself (compiled to WebAssembly, shipped in the \`jq-web\` package), where the reference runs gojq: the few [differences between jq and gojq](https://github.com/itchyny/gojq#difference-to-jq) apply, for example object keys keep their order in jq. \`input\`, \`inputs\`, \`halt\` and \`halt_error\` fail the message at hand. Modules (\`import\`, \`include\`) are not available.

A jq run costs about 25ms whatever its input, so a batch goes through one run: batch messages before it (an input or broker \`batching\` policy) for throughput; one message per batch runs at a few dozen messages a second.

## Error handling

Queries can fail, in which case the message remains unchanged, errors are logged, and the message is flagged as having failed, allowing you to use standard processor error handling patterns. A query that does not compile does not lint.`,
  fields: [
    field.string('query', 'The jq query to filter and transform messages with.'),
    field.bool('raw', 'Whether to process the input as a raw string instead of as JSON.', {
      default: false,
      advanced: true,
    }),
    field.bool(
      'output_raw',
      'Whether to output raw text (unquoted) instead of JSON strings when the emitted values are string types.',
      { default: false, advanced: true },
    ),
  ],
  examples: [
    {
      title: 'Mapping',
      config: `input:
  generate:
    count: 1
    mapping: 'root = {"locations": [{"name": "Seattle", "state": "WA"}, {"name": "New York", "state": "NY"}, {"name": "Bellevue", "state": "WA"}, {"name": "Olympia", "state": "WA"}]}'
pipeline:
  processors:
    - jq:
        query: '{Cities: .locations | map(select(.state == "WA").name) | sort | join(", ") }'
output:
  stdout: {}
`,
    },
  ],
  lint: (config) => {
    const problem = queryProblemSync(config.query);
    return problem === null ? [] : [problem];
  },
  build: async (config, ctx): Promise<Processor> => {
    try {
      await checkQuery(config.query);
    } catch (err) {
      throw new ConfigError(errorMessage(err));
    }
    return new JqProcessor(config.query, config.raw, config.output_raw, ctx.logger);
  },
});
