// The `redis_script` processor: runs a Lua script per message (EVALSHA, falling back to EVAL
// when the server does not have it cached) and replaces the content with the script's result.
import { createHash } from 'node:crypto';
import type { Logger } from 'pino';
import type { Mapping } from '../../bloblang/index.js';
import { defineComponent, field } from '../../config/spec.js';
import { sleep } from '../../engine/backoff.js';
import type { Processor } from '../../engine/component.js';
import { errorMessage } from '../../engine/errors.js';
import { flagged, processorErrorLog } from '../../engine/processor_helpers.js';
import type { Batch, Message } from '../../message/message.js';
import {
  isReplyError,
  lintRedisClient,
  type RedisArgument,
  type RedisReply,
  RedisSession,
  redisClientFields,
  redisTarget,
  redisValue,
} from '../redis/client.js';

/** Evaluates a mapping that must give an array, naming the field when it does not. */
function arrayOf(mapping: Mapping, name: string, batch: Batch, index: number): RedisArgument[] {
  let value: unknown;
  try {
    value = mapping.query(batch, index);
  } catch (err) {
    throw new Error(`${name} failed: mapping failed: ${errorMessage(err)}`);
  }
  if (!Array.isArray(value)) {
    const type = value === null ? 'null' : typeof value;
    throw new Error(`${name} failed: mapping returned non-array result: ${type}`);
  }
  return value.map((v) => redisValue(v));
}

export class RedisScriptProcessor implements Processor {
  private readonly sha: string;
  private readonly logError: (err: Error) => void;

  constructor(
    private readonly session: RedisSession,
    private readonly script: string,
    private readonly argsMapping: Mapping,
    private readonly keysMapping: Mapping,
    private readonly retries: number,
    private readonly retryMs: number,
    private readonly logger: Logger,
  ) {
    this.sha = createHash('sha1').update(script).digest('hex');
    this.logError = processorErrorLog(logger);
  }

  async process(batch: Batch): Promise<Batch[]> {
    const results = await Promise.all(
      batch.map(async (msg: Message, i) => {
        try {
          const args = arrayOf(this.argsMapping, 'args_mapping', batch, i);
          const keys = arrayOf(this.keysMapping, 'keys_mapping', batch, i);
          const reply = await this.runWithRetries(keys, args);
          const out = msg.copy();
          out.setStructured(reply);
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

  private async runWithRetries(keys: RedisArgument[], args: RedisArgument[]): Promise<RedisReply> {
    for (let attempt = 0; ; attempt++) {
      try {
        const reply = await this.run(keys, args);
        // A nil result (Lua false or nil) is the error go-redis reports, as the reference does.
        if (reply === null) throw new Error('redis: nil');
        return reply;
      } catch (err) {
        if (attempt >= this.retries) throw err;
        this.logger.debug(`redis_script failed: ${errorMessage(err)}`);
        await sleep(this.retryMs);
      }
    }
  }

  /** EVALSHA first (the script body is sent once per server); EVAL when the server lacks it. */
  private async run(keys: RedisArgument[], args: RedisArgument[]): Promise<RedisReply> {
    const tail = [String(keys.length), ...keys, ...args];
    try {
      try {
        return await this.session.send(['EVALSHA', this.sha, ...tail]);
      } catch (err) {
        if (!isReplyError(err) || !/^NOSCRIPT/.test(errorMessage(err))) throw err;
        return await this.session.send(['EVAL', this.script, ...tail]);
      }
    } catch (err) {
      // A cluster runs a script on one node: its keys must share a slot.
      if (isReplyError(err) && /^CROSSSLOT/.test(errorMessage(err)))
        throw new Error(
          `keys_mapping: ${errorMessage(err)}: with kind cluster every key of a script must hash to one slot (give them one hash tag, e.g. {user1}.a and {user1}.b)`,
        );
      throw err;
    }
  }
}

export const spec = defineComponent({
  name: 'redis_script',
  kind: 'processor',
  status: 'stable',
  categories: ['Integration'],
  summary: 'Performs actions against Redis using Lua scripts.',
  description:
    'Actions are performed for each message and the message contents are replaced with the result. To merge the result into the original message, compose this processor within a `branch` processor.\n\n' +
    '`keys_mapping` gives the `KEYS` of the script and `args_mapping` its `ARGV`, both as arrays; strings go as they are, numbers as their decimal text, objects as JSON. The script runs with EVALSHA, and with EVAL when the server does not have it cached yet. A failed call (a lost connection or an error raised by the script) is retried `retries` times, `retry_period` apart, then the message is flagged with the error; a nil result (Lua `nil` or `false`) flags it with `redis: nil`, as the reference does.',
  fields: [
    ...redisClientFields(),
    field.string('script', 'A script to use for the target operator.', {
      examples: ["return redis.call('set', KEYS[1], ARGV[1])"],
    }),
    field.mapping(
      'args_mapping',
      'A Bloblang mapping which should evaluate to an array of values matching in size to the number of arguments required for the specified Redis script.',
      { examples: ['root = [ this.key ]', 'root = [ meta("kafka_key"), "hardcoded_value" ]'] },
    ),
    field.mapping(
      'keys_mapping',
      'A Bloblang mapping which should evaluate to an array of keys matching in size to the number of arguments required for the specified Redis script.',
      { examples: ['root = [ this.key ]', 'root = [ meta("kafka_key"), this.count ]'] },
    ),
    field.int('retries', 'The maximum number of retries before abandoning a request.', {
      default: 3,
      advanced: true,
    }),
    field.duration('retry_period', 'The time to wait before consecutive retry attempts.', {
      default: '500ms',
      advanced: true,
    }),
  ],
  lint: lintRedisClient,
  examples: [
    {
      title: 'Take the lowest member of a sorted set and move it to the end',
      config: `input:
  generate:
    count: 1
    interval: ''
    mapping: |
      root = ""
      meta key = "queue"
pipeline:
  processors:
    - redis_script:
        url: redis://127.0.0.1:6379
        script: |
          local elements = redis.call("ZRANGE", KEYS[1], '0', '0')
          if next(elements) == nil then
            return ''
          end
          redis.call("ZADD", KEYS[1], "XX", ARGV[1], elements[1])
          return elements[1]
        keys_mapping: 'root = [ meta("key") ]'
        args_mapping: 'root = [ timestamp_unix_nano() ]'
output:
  stdout: {}
`,
    },
  ],
  async build(config, ctx): Promise<Processor> {
    const target = await redisTarget(config);
    return new RedisScriptProcessor(
      new RedisSession(target, ctx.logger),
      config.script,
      config.args_mapping as Mapping,
      config.keys_mapping as Mapping,
      config.retries,
      config.retry_period,
      ctx.logger,
    );
  },
});
