// The `redis_list` input: pops items off a Redis list with BLPOP or BRPOP.
import type { Logger } from 'pino';
import { type ConfigOf, defineComponent, field } from '../../config/spec.js';
import type { Input, InputReader, Transaction } from '../../engine/component.js';
import type { BuildContext } from '../../engine/context.js';
import { NotConnectedError } from '../../engine/errors.js';
import { OrderedSlots } from '../../engine/ordered_slots.js';
import { Message } from '../../message/message.js';
import {
  lintRedisClient,
  RedisConnection,
  type RedisReply,
  type RedisTarget,
  redisClientFields,
} from '../redis/client.js';
import { redisInput } from '../redis/input.js';

const fields = [
  ...redisClientFields(),
  field.string('key', 'The list to pop from.'),
  field.bool(
    'auto_replay_nacks',
    'Whether messages that fail delivery are delivered again, indefinitely. When false they are dropped (the item is already gone from Redis).',
    { default: true },
  ),
  field.int('max_in_flight', 'The most messages in flight at once; 0 means no limit.', {
    default: 0,
    advanced: true,
  }),
  field.duration('timeout', 'How long one pop blocks waiting for an item before trying again.', {
    default: '5s',
    advanced: true,
  }),
  field.enum(
    'command',
    'Pop from the head (`blpop`) or the tail (`brpop`) of the list.',
    ['blpop', 'brpop'],
    {
      default: 'blpop',
      advanced: true,
    },
  ),
] as const;

export type RedisListInputConfig = ConfigOf<typeof fields>;

export class RedisListReader implements InputReader {
  private connection: RedisConnection | null = null;
  private closed = false;
  private readonly timeoutSeconds: string;
  private readonly inFlight: OrderedSlots | null;

  constructor(
    private readonly config: RedisListInputConfig,
    private readonly target: RedisTarget,
    private readonly logger: Logger,
  ) {
    // BLPOP takes seconds (fractions allowed since Redis 6); 0 would block forever.
    this.timeoutSeconds = String(Math.max(0.01, config.timeout / 1000));
    this.inFlight = config.max_in_flight > 0 ? new OrderedSlots(config.max_in_flight) : null;
  }

  async connect(): Promise<void> {
    this.connection?.destroy();
    this.connection = null;
    const connection = await RedisConnection.open(this.target, this.logger);
    if (this.closed) connection.destroy();
    else this.connection = connection;
  }

  async read(): Promise<Transaction | null> {
    // The slot is taken before popping, so an item never waits popped in memory for a free slot.
    await this.inFlight?.acquire();
    try {
      const txn = await this.pop();
      if (txn) return txn;
    } catch (err) {
      this.inFlight?.release();
      throw err;
    }
    this.inFlight?.release();
    return null;
  }

  private async pop(): Promise<Transaction | null> {
    for (;;) {
      if (this.closed) return null;
      const connection = this.connection;
      if (!connection || connection.lost)
        throw new NotConnectedError(`redis_list: not connected to ${this.target.address}`);
      const command = this.config.command === 'brpop' ? 'BRPOP' : 'BLPOP';
      const reply = await connection.sendBinary<RedisReply>([command, this.config.key, this.timeoutSeconds]);
      if (!Array.isArray(reply) || reply.length < 2) continue;
      // Popped means removed from Redis: there is nothing to acknowledge upstream.
      let settled = false;
      const ack = async () => {
        if (settled) return;
        settled = true;
        this.inFlight?.release();
      };
      return { batch: [new Message(reply[1] as Buffer)], ack };
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    // A BLPOP in progress holds the connection; drop it rather than wait for the timeout.
    this.connection?.destroy();
    this.connection = null;
  }
}

export const spec = defineComponent({
  name: 'redis_list',
  kind: 'input',
  status: 'stable',
  categories: ['Services'],
  summary: 'Pops messages off a Redis list with BLPOP (or BRPOP).',
  description:
    'An item is removed from the list when it is popped, so there is nothing to acknowledge in Redis: a message whose delivery fails is delivered again from memory (`auto_replay_nacks`), but items popped and not yet delivered are lost if nekton stops abruptly (crash, SIGKILL). The reference behaves the same. When that matters, use `redis_streams` with a consumer group instead.\n\n' +
    'Up to `max_in_flight` messages are delivered at once (0 means no limit of the input itself).',
  fields,
  lint: lintRedisClient,
  examples: [
    {
      title: 'Work off a queue kept in a list',
      config: `input:
  redis_list:
    url: redis://127.0.0.1:6379
    key: jobs
output:
  stdout: {}
`,
    },
  ],
  build: (config, ctx: BuildContext): Promise<Input> =>
    redisInput(config, ctx, (target) => new RedisListReader(config, target, ctx.logger)),
});
