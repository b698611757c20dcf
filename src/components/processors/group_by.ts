// `group_by`: splits a batch into one batch per group (the first group whose check passes), runs
// each group's processors on it, and puts messages that pass no check in a last group of their own.
import type { Logger } from 'pino';
import type { Mapping } from '../../bloblang/index.js';
import { defineRootComponent, field } from '../../config/spec.js';
import type { Processor } from '../../engine/component.js';
import { errorMessage } from '../../engine/errors.js';
import type { Batch } from '../../message/message.js';
import { checkPasses } from './check.js';
import { buildChildren, closeAll, drive, runChildren, type Steps } from './stepwise.js';

interface Group {
  check: Mapping | undefined;
  processors: Processor[];
}

export class GroupByProcessor implements Processor {
  constructor(
    private readonly groups: Group[],
    private readonly logger: Logger,
  ) {}

  process(batch: Batch): Batch[] | Promise<Batch[]> {
    if (batch.length === 0) return [];
    return drive(this.steps(batch));
  }

  private *steps(batch: Batch): Steps<Batch[]> {
    const grouped: Batch[] = this.groups.map(() => []);
    const groupless: Batch = [];
    for (let i = 0; i < batch.length; i++) {
      let placed = false;
      for (let g = 0; g < this.groups.length; g++) {
        const check = this.groups[g]!.check;
        let pass = false;
        if (check !== undefined) {
          try {
            pass = checkPasses(check, batch, i);
          } catch (err) {
            // As the reference: a failing check counts as "not in this group" and is only logged.
            this.logger.error(`Failed to test group ${g}: ${errorMessage(err)}`);
          }
        }
        if (pass) {
          grouped[g]!.push(batch[i]!);
          placed = true;
          break;
        }
      }
      if (!placed) groupless.push(batch[i]!);
    }
    const out: Batch[] = [];
    for (let g = 0; g < grouped.length; g++) {
      if (grouped[g]!.length === 0) continue;
      const results = yield runChildren(this.groups[g]!.processors, grouped[g]!);
      for (const b of results) if (b.length > 0) out.push(b);
    }
    if (groupless.length > 0) out.push(groupless);
    return out;
  }

  close(): Promise<void> {
    return closeAll(this.groups.flatMap((g) => g.processors));
  }
}

const groupFields = [
  field.mapping(
    'check',
    'A [Bloblang query](/docs/guides/bloblang/about) that should return a boolean value indicating whether a message belongs to a given group.',
    { examples: ['this.type == "foo"', 'this.contents.urls.contains("https://benthos.dev/")', 'true'] },
  ),
  field.array(
    field.component('processor', 'processors', 'A list of processors to execute on the newly formed group.', {
      default: [],
    }),
  ),
];

export const spec = defineRootComponent({
  name: 'group_by',
  kind: 'processor',
  status: 'stable',
  categories: ['Composition'],
  summary:
    'Splits a batch of messages into N batches, where each resulting batch contains a group of messages determined by a Bloblang query.',
  description: `Once the groups are established a list of processors are applied to their respective grouped batch, which can be used to label the batch as per their grouping. Messages that do not pass the check of any specified group are placed in their own group, which comes out last and runs no processors.

A message joins the first group whose check passes. A check that fails (an error, or a value that is not a boolean) is logged and counts as not passing; the message is not flagged.

The functionality of this processor depends on being applied across messages that are batched. To further divide each group into individual messages, follow this processor with a \`split\` processor.`,
  root: field.array(field.object('', 'The groups, tested in order.', groupFields)),
  examples: [
    {
      title: 'Grouped processing',
      config: `input:
  generate:
    count: 4
    batch_size: 4
    interval: ''
    mapping: 'root = if counter() % 2 == 0 { "this is a foo" } else { "this is a bar" }'
pipeline:
  processors:
    - group_by:
        - check: content().contains("this is a foo")
          processors:
            - archive:
                format: lines
            - mapping: 'meta grouping = "foo"'
output:
  stdout: {}
`,
    },
  ],
  build: async (config, ctx): Promise<Processor> => {
    const groups: Group[] = [];
    for (const g of config)
      groups.push({ check: g.check, processors: await buildChildren(g.processors, ctx) });
    return new GroupByProcessor(groups, ctx.logger);
  },
});
