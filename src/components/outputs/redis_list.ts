// The `redis_list` output: pushes each message onto a Redis list (RPUSH or LPUSH).

import type { Logger } from 'pino';
import type { Interpolation } from '../../bloblang/index.js';
import { defineComponent, field } from '../../config/spec.js';
import type { Output, OutputWriter } from '../../engine/component.js';
import type { Batch } from '../../message/message.js';
import { batchingField } from '../fields/batching.js';
import { lintRedisClient, type RedisArgument, type RedisTarget, redisClientFields } from '../redis/client.js';
import { bodyArgument } from '../redis/message_body.js';
import { RedisWriterConnection, redisOutput } from '../redis/writer.js';

export class RedisListWriter extends RedisWriterConnection implements OutputWriter {
  private readonly command: string;

  constructor(
    target: RedisTarget,
    logger: Logger,
    private readonly key: Interpolation,
    command: 'rpush' | 'lpush',
  ) {
    super(target, logger);
    this.command = command === 'lpush' ? 'LPUSH' : 'RPUSH';
  }

  async write(batch: Batch): Promise<void> {
    if (this.key.isStatic) {
      // One key for the whole batch: a single push of every value, in order.
      const args: RedisArgument[] = [this.command, this.key.render(batch, 0)];
      for (const msg of batch) args.push(bodyArgument(msg));
      await this.sendAll([args]);
      return;
    }
    await this.sendEach(this.command, this.key, batch);
  }
}

export const spec = defineComponent({
  name: 'redis_list',
  kind: 'output',
  status: 'stable',
  categories: ['Services'],
  summary: 'Pushes messages onto a Redis list with RPUSH (or LPUSH).',
  description:
    'A batch is written in one round trip; with a fixed `key` as a single push of all its messages, in order.',
  fields: [
    ...redisClientFields(),
    field.interpolated('key', 'The list to push to.', {
      // biome-ignore lint/suspicious/noTemplateCurlyInString: Bloblang interpolation
      examples: ['some_list', '${! @.key }', '${! counter() % 4 }'],
    }),
    field.int('max_in_flight', 'The most batches written at once.', { default: 64 }),
    batchingField(),
    field.enum(
      'command',
      'Push to the tail (`rpush`) or the head (`lpush`) of the list.',
      ['rpush', 'lpush'],
      {
        default: 'rpush',
        advanced: true,
      },
    ),
  ],
  lint: lintRedisClient,
  examples: [
    {
      title: 'Queue messages in a list',
      config: `input:
  generate:
    count: 10
    interval: ''
    mapping: 'root = {"n": counter()}'
output:
  redis_list:
    url: redis://127.0.0.1:6379
    key: jobs
`,
    },
  ],
  build: (config, ctx): Promise<Output> =>
    redisOutput(config, ctx, (target) => new RedisListWriter(target, ctx.logger, config.key, config.command)),
});
