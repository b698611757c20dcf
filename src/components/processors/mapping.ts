// `mapping`: builds a new document per message from a Bloblang mapping; metadata is carried over.
import type { Mapping } from '../../bloblang/index.js';
import { defineRootComponent, field } from '../../config/spec.js';
import type { Processor } from '../../engine/component.js';
import type { BuildContext } from '../../engine/context.js';
import { ConfigError } from '../../engine/errors.js';
import { perMessage, processorErrorLog } from '../../engine/processor_helpers.js';
import type { Message } from '../../message/message.js';

/**
 * The mapping of a root mapping processor (`mapping`, `mutation`, `bloblang`); an empty one is
 * refused at build with the parser's own message, as it was before mappings were parsed by the spec.
 */
export function requiredMapping(mapping: Mapping | undefined, ctx: BuildContext, name: string): Mapping {
  if (mapping) return mapping;
  throw new ConfigError(`${ctx.path}.${name}: line 1 char 1: expected import, map, or assignment`);
}

/**
 * A processor running `mapping` over each message: `apply` builds a new document (the `mapping`
 * processor), `applyMutation` edits the message in place (`mutation`). A failure flags the
 * message, which carries on unchanged.
 */
export function mappingProcessor(mapping: Mapping, mode: 'apply' | 'mutate', ctx: BuildContext): Processor {
  const logError = processorErrorLog(ctx.logger);
  const run =
    mode === 'apply'
      ? (_msg: Message, batch: readonly Message[], i: number) => mapping.apply(batch, i)
      : (_msg: Message, batch: readonly Message[], i: number) => mapping.applyMutation(batch, i);
  return {
    process: perMessage(run, {
      onError: (err) => logError(new Error(`mapping failed: ${err.message}`)),
    }),
    close: async () => {},
  };
}

export const spec = defineRootComponent({
  name: 'mapping',
  kind: 'processor',
  status: 'stable',
  categories: ['Mapping', 'Parsing'],
  summary: 'Builds a new document for each message with a Bloblang mapping.',
  description: `The mapping starts from an empty document: only what is assigned to \`root\` ends up in the result, while \`this\` reads the input message. Metadata is copied from the input and can be changed with \`meta\` assignments. \`root = deleted()\` drops the message.

When the mapping fails the message carries on unchanged with its error flag set, so it can be handled by \`catch\`, \`try\` or \`switch\` on \`errored()\`. To edit a message in place instead, use \`mutation\`.`,
  root: field.mapping('', 'The Bloblang mapping to run on each message.', {
    examples: ['root = this\nroot.id = uuid_v4()', 'root.name = this.user.name.uppercase()'],
  }),
  examples: [
    {
      title: 'Reshape a document',
      config: `input:
  generate:
    count: 1
    interval: ''
    mapping: 'root = {"user": {"first": "ada", "last": "lovelace"}, "age": 36}'
pipeline:
  processors:
    - mapping: |
        root.name = this.user.first + " " + this.user.last
        root.adult = this.age >= 18
        meta source = "generate"
output:
  stdout: {}
`,
    },
  ],
  build: (mapping, ctx): Processor =>
    mappingProcessor(requiredMapping(mapping, ctx, 'mapping'), 'apply', ctx),
});
