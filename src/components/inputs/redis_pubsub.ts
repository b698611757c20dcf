// The `redis_pubsub` input: subscribes to Redis pub/sub channels (or patterns).
import type { Logger } from 'pino';
import { type ConfigOf, defineComponent, field } from '../../config/spec.js';
import type { Input, InputReader, Transaction } from '../../engine/component.js';
import type { BuildContext } from '../../engine/context.js';
import { NotConnectedError } from '../../engine/errors.js';
import { Message } from '../../message/message.js';
import {
  lintRedisClient,
  type RedisConnection,
  type RedisTarget,
  redisClientFields,
} from '../redis/client.js';
import { openReaderConnection, redisInput } from '../redis/input.js';
import { DeliveryQueue } from './delivery_queue.js';

const fields = [
  ...redisClientFields(),
  field.array(field.string('channels', 'The channels (or patterns, with `use_patterns`) to subscribe to.')),
  field.bool('use_patterns', 'Treat the channels as glob-style patterns (`news.*`).', { default: false }),
  field.bool(
    'auto_replay_nacks',
    'Whether messages that fail delivery are delivered again, indefinitely. When false they are dropped.',
    { default: true },
  ),
] as const;

export type RedisPubsubInputConfig = ConfigOf<typeof fields>;

interface Subscription {
  connection: RedisConnection;
  messages: DeliveryQueue<Message>;
}

export class RedisPubsubReader implements InputReader {
  private subscription: Subscription | null = null;
  private closed = false;

  constructor(
    private readonly config: RedisPubsubInputConfig,
    private readonly target: RedisTarget,
    private readonly logger: Logger,
  ) {}

  async connect(): Promise<void> {
    this.drop();
    const messages = new DeliveryQueue<Message>();
    const connection = await openReaderConnection(
      this.target,
      this.logger,
      async (connection) => {
        connection.onLost((err) =>
          messages.fail(
            new NotConnectedError(`redis_pubsub: connection to ${this.target.address} lost: ${err.message}`),
          ),
        );
        await connection.subscribe(this.config.channels, this.config.use_patterns, (payload, channel) => {
          const msg = new Message(payload);
          msg.setMeta('redis_pubsub_channel', channel.toString());
          messages.push(msg);
        });
      },
      () => this.closed,
    );
    if (!connection) return;
    this.subscription = { connection, messages };
  }

  async read(): Promise<Transaction | null> {
    const subscription = this.subscription;
    if (!subscription) {
      if (this.closed) return null;
      throw new NotConnectedError(`redis_pubsub: not connected to ${this.target.address}`);
    }
    const msg = await subscription.messages.next();
    if (msg === null) return null;
    // Pub/sub cannot redeliver: there is nothing to acknowledge in Redis.
    return { batch: [msg], ack: async () => undefined };
  }

  async close(): Promise<void> {
    this.closed = true;
    this.drop();
  }

  private drop(): void {
    const subscription = this.subscription;
    this.subscription = null;
    if (!subscription) return;
    subscription.messages.end();
    subscription.connection.destroy();
  }
}

export const spec = defineComponent({
  name: 'redis_pubsub',
  kind: 'input',
  status: 'stable',
  categories: ['Services'],
  summary: 'Subscribes to Redis pub/sub channels, or to channel patterns with `use_patterns` (PSUBSCRIBE).',
  description:
    'Each message carries the channel it was published on as `redis_pubsub_channel` metadata.\n\n' +
    'Redis pub/sub is at-most-once: messages published while nekton is not subscribed (before it connects, or while it reconnects after a lost connection) never reach it, and received messages not yet delivered when the connection drops are lost. A message whose delivery fails is delivered again from memory with `auto_replay_nacks`. Use `redis_streams` when every message matters.',
  fields,
  lint: (config) => [
    ...lintRedisClient(config),
    ...(config.channels.length === 0 ? ['channels must name at least one channel'] : []),
  ],
  examples: [
    {
      title: 'Subscribe to every channel under a prefix',
      config: `input:
  redis_pubsub:
    url: redis://127.0.0.1:6379
    channels: [ 'events.*' ]
    use_patterns: true
output:
  stdout: {}
`,
    },
  ],
  build: (config, ctx: BuildContext): Promise<Input> =>
    redisInput(config, ctx, (target) => new RedisPubsubReader(config, target, ctx.logger)),
});
