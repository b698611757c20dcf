// `try_catch`: `try` over `processors`, then the failed messages, their error moved into a
// metadata object and their flag cleared, through `catch`.
import { defineComponent, field } from '../../config/spec.js';
import type { Processor } from '../../engine/component.js';
import type { Batch, Message } from '../../message/message.js';
import { buildChildren, closeAll, drive, perMessageLanes, runChildren, type Steps } from './stepwise.js';

/** The caught error as the reference stores it: `what`, and the failing component when known. */
export function errorObject(err: Error): Record<string, string> {
  const source = err as Error & { sourceName?: unknown; sourceLabel?: unknown; sourcePath?: unknown };
  const object: Record<string, string> = { what: err.message };
  if (typeof source.sourceName === 'string') {
    object.name = source.sourceName;
    object.label = typeof source.sourceLabel === 'string' ? source.sourceLabel : '';
    if (typeof source.sourcePath === 'string') object.path = source.sourcePath;
  }
  return object;
}

const notErrored = (batch: Batch): boolean => batch[0]?.error === null;

export class TryCatchProcessor implements Processor {
  constructor(
    private readonly tried: Processor[],
    private readonly catchers: Processor[],
    private readonly errorMetadata: string,
  ) {}

  process(batch: Batch): Batch[] | Promise<Batch[]> {
    return drive(this.steps(batch));
  }

  private *steps(batch: Batch): Steps<Batch[]> {
    const tried = yield* perMessageLanes(this.tried, batch, notErrored);
    const out: Batch = [];
    for (const msg of tried) {
      if (msg.error === null) {
        out.push(msg);
        continue;
      }
      const caught = this.caught(msg);
      if (this.catchers.length === 0) {
        out.push(caught);
        continue;
      }
      for (const b of yield runChildren(this.catchers, [caught])) for (const m of b) out.push(m);
    }
    return out.length > 0 ? [out] : [];
  }

  /** A copy with the error moved into metadata and the flag cleared. */
  private caught(msg: Message): Message {
    const copy = msg.copy();
    copy.setMeta(this.errorMetadata, errorObject(msg.error as Error));
    copy.error = null;
    return copy;
  }

  async close(): Promise<void> {
    await closeAll([...this.tried, ...this.catchers]);
  }
}

export const spec = defineComponent({
  name: 'try_catch',
  kind: 'processor',
  status: 'beta',
  categories: ['Composition'],
  summary:
    'Executes a list of child `processors` on each message and, if any of them fail, executes a separate list of `catch` processors to recover from or react to the error.',
  description: `Each message goes through \`processors\` on its own, as in \`try\`: once a processor fails it, the rest are skipped for that message. A message that failed then has its error moved into the metadata field named by \`error_metadata\` (\`error\` by default), as an object: \`what\` holds the error message, and \`name\`, \`label\` and \`path\` the component that failed, when known. Its failure flag is cleared and it runs through \`catch\`, where \`@error.what\` reads the error (\`error()\` no longer does). A new failure inside \`catch\` is a fresh error. An empty \`catch\` records the error and clears the flag (the failure is swallowed).`,
  fields: [
    field.array(
      field.component(
        'processor',
        'processors',
        'A list of processors to execute on each message. If a processor fails for a given message the remaining processors in this list are skipped for that message, and the message is routed to the `catch` processors.',
        { default: [] },
      ),
    ),
    field.array(
      field.component(
        'processor',
        'catch',
        'A list of processors to execute on each message that failed one of the `processors` above. The error is available as an object in the metadata field named by `error_metadata` (e.g. `@error.what`).',
        { default: [] },
      ),
    ),
    field.string(
      'error_metadata',
      'The metadata key under which the caught error is stored, as an object with a `what` field (the error message) plus `name`, `label` and `path` fields describing the component that failed.',
      { default: 'error' },
    ),
  ],
  examples: [
    {
      title: 'Recover with a description of the failure',
      config: `input:
  generate:
    count: 1
    interval: ''
    mapping: 'root = {"price": "12"}'
pipeline:
  processors:
    - try_catch:
        processors:
          - mapping: 'root.total = this.price * 2'
        catch:
          - mutation: 'root = "failed to process: " + @error.what'
output:
  stdout: {}
`,
    },
  ],
  build: async (config, ctx): Promise<Processor> => {
    const tried = await buildChildren(config.processors, ctx);
    const catchers = await buildChildren(config.catch, ctx);
    return new TryCatchProcessor(tried, catchers, config.error_metadata);
  },
});
