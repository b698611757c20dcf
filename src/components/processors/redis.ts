// The `redis` processor: runs a Redis command per message (`command` + `args_mapping`, or the
// older `operator` + `key`) and replaces the message content with the reply.
import type { Logger } from 'pino';
import type { Interpolation, Mapping } from '../../bloblang/index.js';
import { defineComponent, field } from '../../config/spec.js';
import { sleep } from '../../engine/backoff.js';
import type { Processor } from '../../engine/component.js';
import { ConfigError, errorMessage } from '../../engine/errors.js';
import { flagged, processorErrorLog } from '../../engine/processor_helpers.js';
import type { Batch, Message } from '../../message/message.js';
import {
  lintRedisClient,
  type RedisArgument,
  type RedisReply,
  RedisSession,
  redisClientFields,
  redisTarget,
  redisValue,
} from '../redis/client.js';

/** The command of one message and how its reply becomes the new content. */
interface Call {
  args: RedisArgument[];
  toContent: (reply: RedisReply, msg: Message) => void;
}

type Planner = (batch: Batch, index: number) => Call;

const asInteger = (reply: RedisReply, msg: Message) => msg.setBytes(String(reply));

/** The deprecated operators, as the reference implements them. */
function operatorPlanner(operator: string, key: Interpolation | undefined): Planner {
  const keyOf = (batch: Batch, i: number) => {
    try {
      // An operator without a key works on the empty key, as the reference does.
      return key?.render(batch, i) ?? '';
    } catch (err) {
      throw new Error(`key interpolation error: ${errorMessage(err)}`);
    }
  };
  switch (operator.toLowerCase()) {
    case 'keys':
      return (batch, i) => ({ args: ['KEYS', keyOf(batch, i)], toContent: (r, m) => m.setStructured(r) });
    case 'scard':
      return (batch, i) => ({ args: ['SCARD', keyOf(batch, i)], toContent: asInteger });
    case 'sadd':
      return (batch, i) => ({
        args: ['SADD', keyOf(batch, i), redisValue((batch[i] as Message).bytes())],
        toContent: asInteger,
      });
    case 'incrby':
      return (batch, i) => {
        const text = (batch[i] as Message).text().trim();
        if (!/^[-+]?\d+$/.test(text)) throw new Error(`incrby: message content is not an integer: ${text}`);
        return { args: ['INCRBY', keyOf(batch, i), text], toContent: asInteger };
      };
    default:
      throw new ConfigError(`operator not recognised: ${operator}`);
  }
}

function commandPlanner(command: Interpolation, argsMapping: Mapping): Planner {
  return (batch, i) => {
    let args: unknown;
    try {
      args = argsMapping.query(batch, i);
    } catch (err) {
      throw new Error(`args mapping failed: ${errorMessage(err)}`);
    }
    if (!Array.isArray(args)) throw new Error(`mapping returned non-array result: ${typeof args}`);
    let name: string;
    try {
      name = command.render(batch, i);
    } catch (err) {
      throw new Error(`command interpolation error: ${errorMessage(err)}`);
    }
    return {
      args: [name, ...args.map((a) => redisValue(a))],
      toContent: (reply, msg) => msg.setStructured(reply),
    };
  };
}

export class RedisProcessor implements Processor {
  private readonly logError: (err: Error) => void;

  constructor(
    private readonly session: RedisSession,
    private readonly plan: Planner,
    private readonly retries: number,
    private readonly retryMs: number,
    private readonly logger: Logger,
  ) {
    this.logError = processorErrorLog(logger);
  }

  /** Every message's command is sent at once (pipelined on the one connection, so in order). */
  async process(batch: Batch): Promise<Batch[]> {
    const results = await Promise.all(
      batch.map(async (msg, i) => {
        try {
          const call = this.plan(batch, i);
          const reply = await this.run(call.args);
          const out = msg.copy();
          call.toContent(reply, out);
          return out;
        } catch (err) {
          const bad = flagged(msg, err);
          this.logError(bad.error as Error);
          return bad;
        }
      }),
    );
    return [results];
  }

  async close(): Promise<void> {
    await this.session.close();
  }

  private async run(args: RedisArgument[]): Promise<RedisReply> {
    for (let attempt = 0; ; attempt++) {
      try {
        const reply = await this.session.send(args);
        // go-redis reports a nil reply as the error "redis: nil"; the reference flags the message with it.
        if (reply === null) throw new Error('redis: nil');
        return reply;
      } catch (err) {
        if (attempt >= this.retries) throw err;
        this.logger.debug(`redis ${String(args[0])} command failed: ${errorMessage(err)}`);
        await sleep(this.retryMs);
      }
    }
  }
}

export const spec = defineComponent({
  name: 'redis',
  kind: 'processor',
  status: 'stable',
  categories: ['Integration'],
  summary:
    'Runs a Redis command for each message and replaces the content with the reply. Wrap it in a `branch` to merge the reply into the message instead.',
  description:
    '`args_mapping` evaluates to the array of arguments of `command`. Replies become the content as they are: a string, an integer, an array. A nil reply (e.g. GET of a missing key) flags the message with the error `redis: nil`, as the reference does. A failed command is retried `retries` times, `retry_period` apart, then the message is flagged with the error.\n\n' +
    'The deprecated `operator` + `key` form supports `keys`, `scard`, `sadd` (the content is the member) and `incrby` (the content is the increment).',
  fields: [
    ...redisClientFields(),
    field.interpolated('command', 'The command to run.', {
      optional: true,
      // biome-ignore lint/suspicious/noTemplateCurlyInString: Bloblang interpolation
      examples: ['scard', 'incrby', '${! meta("command") }'],
    }),
    field.mapping('args_mapping', 'A Bloblang mapping that evaluates to the array of command arguments.', {
      optional: true,
      examples: ['root = [ this.key ]', 'root = [ meta("kafka_key"), this.count ]'],
    }),
    field.string('operator', 'The operator to apply (deprecated: use `command`).', {
      optional: true,
      deprecated: true,
      options: ['incrby', 'keys', 'sadd', 'scard'],
    }),
    field.interpolated('key', 'The key of the operator (deprecated: use `command`).', {
      optional: true,
      deprecated: true,
    }),
    field.int('retries', 'The most retries of a failed command.', { default: 3, advanced: true }),
    field.duration('retry_period', 'The wait between retries.', { default: '500ms', advanced: true }),
  ],
  lint: (config) => {
    const client = lintRedisClient(config);
    if ((config.operator === undefined) === (config.command === undefined))
      return [...client, "one of 'operator' (old style) or 'command' (new style) fields must be specified"];
    if (config.args_mapping !== undefined && config.operator !== undefined)
      return [...client, 'field args_mapping is invalid with an operator set'];
    if (config.command !== undefined && !config.args_mapping)
      return [...client, 'args_mapping is required with command'];
    return client;
  },
  examples: [
    {
      title: 'Running total per name',
      config: `input:
  generate:
    count: 4
    interval: ''
    mapping: 'root = {"name": "ash", "friends_visited": counter()}'
pipeline:
  processors:
    - branch:
        processors:
          - redis:
              url: redis://127.0.0.1:6379
              command: incrby
              args_mapping: 'root = [ this.name, this.friends_visited ]'
        result_map: 'root.total = this'
output:
  stdout: {}
`,
    },
  ],
  async build(config, ctx): Promise<Processor> {
    const target = await redisTarget(config);
    // Lint has checked that exactly one of command (with args_mapping) and operator is set.
    const plan =
      config.command !== undefined && config.args_mapping !== undefined
        ? commandPlanner(config.command, config.args_mapping)
        : operatorPlanner(config.operator ?? '', config.key);
    return new RedisProcessor(
      new RedisSession(target, ctx.logger),
      plan,
      config.retries,
      config.retry_period,
      ctx.logger,
    );
  },
});
