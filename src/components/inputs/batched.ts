// The `batched` input: groups the messages of a child input into batches by a batching policy.
import { defineComponent, type FieldSpec, field } from '../../config/spec.js';
import { isNoopPolicy } from '../../engine/batching.js';
import type { Input } from '../../engine/component.js';
import { BatchedInput } from '../brokers/batched_input.js';
import { type BatchingConfig, batchingField } from '../fields/batching.js';

// The reference names its policy `policy`; the fields are those of every `batching` object.
const policyField = { ...batchingField(), name: 'policy' } as unknown as FieldSpec<'policy', BatchingConfig>;

export const spec = defineComponent({
  name: 'batched',
  kind: 'input',
  status: 'stable',
  categories: ['Utility'],
  summary: 'Groups the messages of a child input into batches by a batching policy.',
  description: `Batching at the input means the processors of the pipeline see whole batches (for window or aggregate processing), and the output writes them as such. The batch's acknowledgement settles every message that went into it: when it fails, each of them is nacked to the child input.

A batch is flushed when any of \`count\`, \`byte_size\` or \`period\` is reached or \`check\` gives true, and when the child input ends.`,
  fields: [field.component('input', 'child', 'The child input.'), policyField],
  examples: [
    {
      title: 'Batches of ten lines, or whatever came within a second',
      config: `input:
  batched:
    child:
      stdin: {}
    policy:
      count: 10
      period: 1s
output:
  stdout: {}
`,
    },
  ],
  build: async (config, ctx): Promise<Input> => {
    const child = await ctx.buildInput(config.child);
    const policy = await ctx.buildBatchPolicy(config.policy);
    return isNoopPolicy(policy) ? child : new BatchedInput(child, policy);
  },
});
