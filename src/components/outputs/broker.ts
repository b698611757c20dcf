// `broker` output: routes every batch to a list of outputs by a pattern (fan-out to all, in
// parallel or in order, or to one of them by turns or by who is free).
import { type ConfigOf, defineComponent, field } from '../../config/spec.js';
import { isNoopPolicy } from '../../engine/batching.js';
import type { Output } from '../../engine/component.js';
import type { BuildContext, ComponentConfig } from '../../engine/context.js';
import { ConfigError } from '../../engine/errors.js';
import { BatchedOutput } from '../brokers/batched_output.js';
import { FanOutOutput } from '../brokers/fan_out.js';
import { GreedyOutput } from '../brokers/greedy.js';
import { RoundRobinOutput } from '../brokers/round_robin.js';
import { type BatchingConfig, batchingEnabled, batchingField } from '../fields/batching.js';
import { RetryOutput } from './retry.js';

const PATTERNS = [
  'fan_out',
  'fan_out_fail_fast',
  'fan_out_sequential',
  'fan_out_sequential_fail_fast',
  'round_robin',
  'greedy',
] as const;

export type BrokerPattern = (typeof PATTERNS)[number];

const NO_OUTPUTS = 'broker needs at least one output';

const fields = [
  field.int('copies', 'How many times the list of outputs is repeated.', { default: 1, advanced: true }),
  field.enum('pattern', 'How messages are routed to the outputs.', PATTERNS, { default: 'fan_out' }),
  field.array(field.component('output', 'outputs', 'The outputs to route messages to.')),
  batchingField(),
] as const;

/** How long a failed fan-out member waits before its write is tried again (no overall limit). */
const MEMBER_RETRY_BACKOFF = { initialMs: 100, maxMs: 3_000, maxElapsedMs: 0, multiplier: 2 };

async function buildMembers(config: ConfigOf<typeof fields>, ctx: BuildContext): Promise<Output[]> {
  const members: Output[] = [];
  try {
    for (let copy = 0; copy < Math.max(1, config.copies); copy++) {
      for (const child of config.outputs) members.push(await ctx.buildOutput(child));
    }
  } catch (err) {
    await Promise.allSettled(members.map((m) => m.close()));
    throw err;
  }
  return members;
}

/**
 * How many writes greedy may hand a member at once: its batching `count` when it batches (fewer
 * would never fill the batch), unbounded for a batching policy without a count, else one.
 */
function greedyCapacity(child: ComponentConfig): number {
  const batching = (child.config as { batching?: BatchingConfig } | null)?.batching;
  if (typeof batching?.count !== 'number' || !batchingEnabled(batching)) return 1;
  return batching.count > 1 ? batching.count : Number.POSITIVE_INFINITY;
}

function route(pattern: BrokerPattern, members: Output[], capacities: number[], ctx: BuildContext): Output {
  switch (pattern) {
    case 'round_robin':
      return new RoundRobinOutput(members);
    case 'greedy':
      return new GreedyOutput(members, capacities);
    default: {
      const failFast = pattern.endsWith('_fail_fast');
      // Without fail_fast every member sits in a retry wrapper, which copies what it writes.
      const fanOut = new FanOutOutput({
        sequential: pattern.startsWith('fan_out_sequential'),
        copyPerMember: failFast,
      });
      members.forEach((member, i) => {
        // Without fail_fast a member's failed write is retried on its own, so the members that
        // succeeded do not get duplicates from an upstream redelivery.
        const wrapped = failFast
          ? member
          : new RetryOutput(member, MEMBER_RETRY_BACKOFF, 0, ctx.logger, ctx.signal);
        fanOut.set(String(i), wrapped);
      });
      return fanOut;
    }
  }
}

export const spec = defineComponent({
  name: 'broker',
  kind: 'output',
  status: 'stable',
  categories: ['Utility'],
  summary: 'Routes messages to several outputs following a pattern: all of them (fan-out) or one of them.',
  description: `Patterns:

- \`fan_out\`: every output gets a copy of every message, in parallel. A message is acknowledged once every output has written it. When one output fails, only that output's write is retried (with backoff, without limit) until it succeeds or the stream stops, so the outputs that succeeded never receive duplicates. A blocked output holds the others back (backpressure).
- \`fan_out_fail_fast\`: like \`fan_out\`, but the first failure is reported to the input at once, which redelivers the message to every output.
- \`fan_out_sequential\`: like \`fan_out\`, but the outputs are written one after another in the listed order.
- \`fan_out_sequential_fail_fast\`: sequential, and the first failure is reported at once.
- \`round_robin\`: each message goes to one output, taking turns. A failure is reported to the input; the redelivered message goes to a later output.
- \`greedy\`: each message goes to one output, whichever is free first, so faster outputs take more messages. An output holds one write at a time, or up to its own \`batching.count\` when it batches (otherwise its batch could never fill).

\`copies\` repeats the whole list of outputs that many times (useful with \`greedy\` to run several instances of one output). \`batching\` groups messages before they are routed.`,
  fields,
  lint: (config) => (config.outputs.length === 0 ? [NO_OUTPUTS] : []),
  examples: [
    {
      title: 'Write every message to a file and to stdout',
      config: `input:
  generate:
    count: 3
    interval: ''
    mapping: 'root = {"id": counter()}'
output:
  broker:
    pattern: fan_out
    outputs:
      - file:
          path: /tmp/nekton-broker-example.jsonl
          codec: lines
      - stdout: {}
`,
    },
  ],
  build: async (config, ctx): Promise<Output> => {
    // Also here: members added over the dynamic API are built without lint.
    if (config.outputs.length === 0) throw new ConfigError(`${ctx.path}: ${NO_OUTPUTS}`);
    const members = await buildMembers(config, ctx);
    // buildMembers lists the outputs `copies` times over, in order.
    const capacities = members.map((_, i) => greedyCapacity(config.outputs[i % config.outputs.length]!));
    const routed = route(config.pattern, members, capacities, ctx);
    if (!batchingEnabled(config.batching)) return routed;
    const policy = await ctx.buildBatchPolicy(config.batching);
    return isNoopPolicy(policy) ? routed : new BatchedOutput(routed, policy);
  },
});
