// The `redis_hash` output: sets fields of a Redis hash per message (HSET), taken from the
// metadata, the top level of the JSON content and/or interpolated `fields`.
import type { Logger } from 'pino';
import type { Interpolation } from '../../bloblang/index.js';
import { type ConfigOf, defineComponent, field } from '../../config/spec.js';
import type { Output, OutputWriter } from '../../engine/component.js';
import type { Batch, Message } from '../../message/message.js';
import {
  lintRedisClient,
  type RedisArgument,
  type RedisTarget,
  redisClientFields,
  redisValue,
} from '../redis/client.js';
import { RedisWriterConnection, redisOutput } from '../redis/writer.js';

const fields = [
  ...redisClientFields(),
  field.interpolated('key', 'The hash to set fields of.', {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: Bloblang interpolation
    examples: ['${! @.kafka_key }', '${! this.doc.id }', '${! counter() }'],
  }),
  field.bool('walk_metadata', 'Set a field for every metadata entry.', { default: false }),
  field.bool('walk_json_object', 'Set a field for every top-level field of the JSON object content.', {
    default: false,
  }),
  field.map(
    field.interpolated('fields', 'Fields to set, each value interpolated per message.', {
      default: {},
      // biome-ignore lint/suspicious/noTemplateCurlyInString: Bloblang interpolation
      examples: [{ topic: '${! meta("kafka_topic") }', partition: '${! meta("kafka_partition") }' }],
    }),
  ),
  field.int('max_in_flight', 'The most messages written at once.', { default: 64 }),
] as const;

export type RedisHashOutputConfig = ConfigOf<typeof fields>;

export class RedisHashWriter extends RedisWriterConnection implements OutputWriter {
  private readonly fields: [string, Interpolation][];

  constructor(
    private readonly config: RedisHashOutputConfig,
    target: RedisTarget,
    logger: Logger,
  ) {
    super(target, logger);
    this.fields = Object.entries(config.fields);
  }

  async write(batch: Batch): Promise<void> {
    await this.sendAll(batch.map((msg, i) => this.command(batch, i, msg)));
  }

  /** Later sources win: metadata, then the JSON object, then `fields`. */
  private command(batch: Batch, index: number, msg: Message): RedisArgument[] {
    const values = new Map<string, RedisArgument>();
    if (this.config.walk_metadata) for (const [k, v] of msg.metadata()) values.set(k, redisValue(v));
    if (this.config.walk_json_object) {
      const doc = msg.structured();
      if (doc === null || typeof doc !== 'object' || Array.isArray(doc))
        throw new Error('redis_hash: walk_json_object needs a JSON object as the message content');
      for (const [k, v] of Object.entries(doc)) values.set(k, redisValue(v));
    }
    for (const [name, value] of this.fields) values.set(name, value.render(batch, index));
    const key = this.config.key.render(batch, index);
    if (values.size === 0) throw new Error(`redis_hash: no fields to set on hash ${key}`);
    const args: RedisArgument[] = ['HSET', key];
    for (const [k, v] of values) args.push(k, v);
    return args;
  }
}

export const spec = defineComponent({
  name: 'redis_hash',
  kind: 'output',
  status: 'stable',
  categories: ['Services'],
  summary: 'Sets fields of a Redis hash for each message (HSET).',
  description:
    'The fields come from three sources, applied in this order so later ones win: every metadata entry (`walk_metadata`), every top-level field of the JSON object content (`walk_json_object`; strings as they are, other values as JSON, booleans as 1/0), and the interpolated `fields` map. At least one field must result.',
  fields,
  lint: lintRedisClient,
  examples: [
    {
      title: 'Store each document as a hash keyed by its id',
      config: `input:
  generate:
    count: 3
    interval: ''
    mapping: 'root = {"id": counter(), "name": "item"}'
output:
  redis_hash:
    url: redis://127.0.0.1:6379
    key: 'item:\${! this.id }'
    walk_json_object: true
    fields:
      source: nekton
`,
    },
  ],
  // No batching field: a stray `batching` key (the API skips lint) must not turn batching on.
  build: (config, ctx): Promise<Output> =>
    redisOutput(
      { ...config, batching: undefined },
      ctx,
      (target) => new RedisHashWriter(config, target, ctx.logger),
    ),
});
