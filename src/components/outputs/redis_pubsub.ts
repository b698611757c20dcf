// The `redis_pubsub` output: publishes each message to a Redis channel.
import type { Logger } from 'pino';
import type { Interpolation } from '../../bloblang/index.js';
import { defineComponent, field } from '../../config/spec.js';
import type { Output, OutputWriter } from '../../engine/component.js';
import type { Batch } from '../../message/message.js';
import { batchingField } from '../fields/batching.js';
import { lintRedisClient, type RedisTarget, redisClientFields } from '../redis/client.js';
import { RedisWriterConnection, redisOutput } from '../redis/writer.js';

export class RedisPubsubWriter extends RedisWriterConnection implements OutputWriter {
  constructor(
    target: RedisTarget,
    logger: Logger,
    private readonly channel: Interpolation,
  ) {
    super(target, logger);
  }

  async write(batch: Batch): Promise<void> {
    await this.sendEach('PUBLISH', this.channel, batch);
  }
}

export const spec = defineComponent({
  name: 'redis_pubsub',
  kind: 'output',
  status: 'stable',
  categories: ['Services'],
  summary: 'Publishes messages to a Redis pub/sub channel (PUBLISH).',
  description:
    'Pub/sub has no persistence: a message published while nobody subscribes is gone. A write succeeds once Redis accepted the PUBLISH, however many subscribers got it.',
  fields: [
    ...redisClientFields(),
    field.interpolated('channel', 'The channel to publish to.', {
      // biome-ignore lint/suspicious/noTemplateCurlyInString: Bloblang interpolation
      examples: ['events', '${! @topic }'],
    }),
    field.int('max_in_flight', 'The most batches written at once.', { default: 64 }),
    batchingField(),
  ],
  lint: lintRedisClient,
  examples: [
    {
      title: 'Publish to a channel',
      config: `input:
  generate:
    count: 10
    interval: ''
    mapping: 'root = {"n": counter()}'
output:
  redis_pubsub:
    url: redis://127.0.0.1:6379
    channel: events
`,
    },
  ],
  build: (config, ctx): Promise<Output> =>
    redisOutput(config, ctx, (target) => new RedisPubsubWriter(target, ctx.logger, config.channel)),
});
