// `broker` input: reads several inputs at once and merges their messages into one stream; each
// message is acknowledged to the input it came from.
import { defineComponent, field } from '../../config/spec.js';
import { isNoopPolicy } from '../../engine/batching.js';
import type { Input } from '../../engine/component.js';
import { ConfigError } from '../../engine/errors.js';
import { BatchedInput } from '../brokers/batched_input.js';
import { MergedInput } from '../brokers/merged_input.js';
import { batchingEnabled, batchingField } from '../fields/batching.js';

const NO_INPUTS = 'broker needs at least one input';

export const spec = defineComponent({
  name: 'broker',
  kind: 'input',
  status: 'stable',
  categories: ['Utility'],
  summary: 'Reads from several inputs at once and merges their messages into one stream.',
  description: `Messages from every input are processed as they arrive, in no particular order between inputs. Each message is acknowledged to the input it came from, so every source commits exactly what was delivered. The broker ends once every input has ended.

\`copies\` repeats the whole list of inputs that many times (e.g. several consumers of one queue). \`batching\` groups the merged messages into batches; a batch is acknowledged to every input that contributed to it. Inputs may also carry their own \`processors\`, which run before the stream's pipeline.`,
  fields: [
    field.int('copies', 'How many times the list of inputs is repeated.', { default: 1, advanced: true }),
    field.array(field.component('input', 'inputs', 'The inputs to merge.')),
    batchingField(),
  ],
  examples: [
    {
      title: 'Merge two generators',
      config: `input:
  broker:
    inputs:
      - generate:
          count: 3
          interval: ''
          mapping: 'root = {"from": "a", "n": counter()}'
      - generate:
          count: 3
          interval: ''
          mapping: 'root = {"from": "b", "n": counter()}'
output:
  stdout: {}
`,
    },
  ],
  lint: (config) => (config.inputs.length === 0 ? [NO_INPUTS] : []),
  build: async (config, ctx): Promise<Input> => {
    // Also here: members added over the dynamic API are built without lint.
    if (config.inputs.length === 0) throw new ConfigError(`${ctx.path}: ${NO_INPUTS}`);
    // One input to merge: read it directly (a broker of one is how Benthos configs batch an
    // input that has no batching of its own); merging would cost a queue and a promise a message.
    if (config.inputs.length === 1 && Math.max(1, config.copies) === 1) {
      const only = await ctx.buildInput(config.inputs[0]!);
      if (!batchingEnabled(config.batching)) return only;
      const policy = await ctx.buildBatchPolicy(config.batching).catch(async (err: unknown) => {
        await only.close();
        throw err;
      });
      return isNoopPolicy(policy) ? only : new BatchedInput(only, policy);
    }
    const merged = new MergedInput({ endWhenEmpty: true });
    try {
      let n = 0;
      for (let copy = 0; copy < Math.max(1, config.copies); copy++) {
        for (const child of config.inputs) merged.add(String(n++), await ctx.buildInput(child));
      }
    } catch (err) {
      await merged.close();
      throw err;
    }
    if (!batchingEnabled(config.batching)) return merged;
    const policy = await ctx.buildBatchPolicy(config.batching);
    return isNoopPolicy(policy) ? merged : new BatchedInput(merged, policy);
  },
});
