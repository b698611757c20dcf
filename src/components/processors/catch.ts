// `catch`: runs its processors only on messages that failed earlier, then clears their error flags.
import { defineRootComponent, field } from '../../config/spec.js';
import type { Processor } from '../../engine/component.js';
import type { Batch, Message } from '../../message/message.js';
import { buildChildren, closeAll, drive, perMessageLanes, type Steps } from './stepwise.js';

export class CatchProcessor implements Processor {
  constructor(private readonly children: Processor[]) {}

  process(batch: Batch): Batch[] | Promise<Batch[]> {
    return drive(this.steps(batch));
  }

  private *steps(batch: Batch): Steps<Batch[]> {
    // A lane is caught by the error it had on entry and stays caught until the end, even if a
    // child clears or replaces the flag on the way.
    const caught = batch.map((m) => m.error !== null);
    const out = yield* perMessageLanes(this.children, batch, (_b, lane) => caught[lane]!);
    if (out.length === 0) return [];
    return [out.map(cleared)];
  }

  close(): Promise<void> {
    return closeAll(this.children);
  }
}

function cleared(msg: Message): Message {
  if (msg.error === null) return msg;
  const copy = msg.copy();
  copy.error = null;
  return copy;
}

export const spec = defineRootComponent({
  name: 'catch',
  kind: 'processor',
  status: 'stable',
  categories: ['Composition'],
  summary:
    'Runs a list of processors only on messages that failed an earlier step, then clears their errors.',
  description: `Each failed message goes through the child processors on its own, like \`for_each\`; messages that did not fail pass by untouched. Inside the block \`error()\` tells why a message failed. Once the block is done the error flags are cleared, so use it to recover, log, or drop (\`mapping: root = deleted()\`) failed messages.

Because flags are cleared only at the end, a \`try\` nested inside a \`catch\` never runs; put an empty \`catch: []\` before it to clear them first.`,
  root: field.array(
    field.component('processor', '', 'The processors to run on each failed message.', { default: [] }),
  ),
  lint: (config) =>
    config.some((p) => p.type === 'try')
      ? [
          "'catch' block contains a 'try' block which will never execute due to errors only being cleared at the end of the 'catch', for more information about nesting 'try' within 'catch' read: https://docs.redpanda.com/redpanda-connect/components/processors/try#nesting-within-a-catch-block",
        ]
      : [],
  examples: [
    {
      title: 'Log and recover failed messages',
      config: `input:
  generate:
    count: 2
    interval: ''
    mapping: 'root = if counter() % 2 == 0 { {"n": 1} } else { "not json" }'
pipeline:
  processors:
    - mapping: 'root.doubled = this.n * 2'
    - catch:
        - log:
            level: ERROR
            message: 'mapping failed: \${! error() }'
        - mapping: 'root = {"failed": true}'
output:
  stdout: {}
`,
    },
  ],
  build: async (config, ctx): Promise<Processor> => new CatchProcessor(await buildChildren(config, ctx)),
});
