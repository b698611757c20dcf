// `fallback` output: tries each child output in order; a batch that one fails to write goes to the next.
import { defineRootComponent, field } from '../../config/spec.js';
import type { Output } from '../../engine/component.js';
import { ConfigError, errorMessage } from '../../engine/errors.js';
import type { Batch } from '../../message/message.js';
import { MemberOutputs } from '../brokers/member_outputs.js';

const NO_OUTPUTS = 'fallback needs at least one output';

export class FallbackOutput extends MemberOutputs {
  constructor(outputs: Output[]) {
    super(outputs);
    if (outputs.length === 0) throw new ConfigError(NO_OUTPUTS);
  }

  async write(batch: Batch): Promise<void> {
    let current = batch.map((msg) => msg.copy());
    for (let i = 0; ; i++) {
      try {
        return await this.members[i]!.write(current);
      } catch (err) {
        if (i === this.members.length - 1) throw err;
        // The next tier learns why the previous one failed.
        const reason = errorMessage(err);
        current = batch.map((msg) => {
          const copy = msg.copy();
          copy.setMeta('fallback_error', reason);
          return copy;
        });
      }
    }
  }
}

export const spec = defineRootComponent({
  name: 'fallback',
  kind: 'output',
  status: 'stable',
  categories: ['Utility'],
  summary:
    'Writes each batch to the first output of a list; when that write fails, the batch goes to the next output, and so on.',
  description: `Useful to reroute messages when a target breaks, such as a dead letter queue behind an HTTP endpoint. The messages passed to a later output carry the metadata \`fallback_error\`: the error of the output that failed before it, which processors or a \`switch\` can use.

Only when the last output fails too is the failure reported to the input, which then redelivers. A failed batch falls through whole: nekton does not single out which messages of a batch failed.`,
  root: field.array(field.component('output', '', 'The outputs to try, in order.', { default: [] })),
  examples: [
    {
      title: 'A dead letter file behind an HTTP endpoint',
      config: `input:
  generate:
    count: 1
    mapping: 'root = "hello"'
output:
  fallback:
    - http_client:
        url: http://localhost:4195/post
        verb: POST
    - file:
        path: /tmp/nekton-failed.jsonl
        codec: lines
      processors:
        - mapping: 'root = {"content": content().string(), "error": @fallback_error}'
`,
    },
  ],
  lint: (config) => (config.length === 0 ? [NO_OUTPUTS] : []),
  build: async (config, ctx): Promise<Output> => {
    const outputs: Output[] = [];
    for (const child of config) outputs.push(await ctx.buildOutput(child));
    return new FallbackOutput(outputs);
  },
});
