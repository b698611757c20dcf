// The `redis_streams` output: appends each message to a Redis stream (XADD), the body under
// `body_key` and the metadata as further fields; a batch goes out as one pipelined round trip.
import { type ConfigOf, defineComponent, field } from '../../config/spec.js';
import { partialError, partialGroupError } from '../../engine/batch_error.js';
import type { Output, OutputWriter } from '../../engine/component.js';
import type { BuildContext } from '../../engine/context.js';
import { asError, NotConnectedError } from '../../engine/errors.js';
import type { Batch } from '../../message/message.js';
import { batchingField } from '../fields/batching.js';
import {
  lintRedisClient,
  type RedisArgument,
  type RedisTarget,
  redisClientFields,
  redisValue,
} from '../redis/client.js';
import { bodyArgument } from '../redis/message_body.js';
import { RedisWriterConnection, redisOutput } from '../redis/writer.js';

const fields = [
  ...redisClientFields(),
  field.interpolated('stream', 'The stream to add entries to.', {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: Bloblang interpolation
    examples: ['orders', '${! @stream }'],
  }),
  field.interpolated('id', 'The entry id; `*` lets Redis choose one.', { default: '*' }),
  field.string('body_key', 'The field the message content is stored under.', { default: 'body' }),
  field.int('max_length', 'Trim the stream to about this many entries; 0 never trims.', { default: 0 }),
  field.int('max_in_flight', 'The most batches written at once.', { default: 64 }),
  field.object('metadata', 'Which metadata is written as entry fields.', [
    field.array(
      field.string('exclude_prefixes', 'Metadata keys starting with any of these are not written.', {
        default: [],
      }),
    ),
  ]),
  batchingField(),
] as const;

export type RedisStreamsOutputConfig = ConfigOf<typeof fields>;

export class RedisStreamsWriter extends RedisWriterConnection implements OutputWriter {
  constructor(
    private readonly config: RedisStreamsOutputConfig,
    target: RedisTarget,
    ctx: BuildContext,
  ) {
    super(target, ctx.logger);
  }

  /** One XADD per message, pipelined; the ones that failed are named (a BatchError), the rest stay written. */
  async write(batch: Batch): Promise<void> {
    const failed: number[] = [];
    try {
      await this.sendAll(this.commands(batch, []), failed);
    } catch (err) {
      if (err instanceof NotConnectedError || failed.length === 0) throw err;
      throw partialError(batch, failed.sort(ascending), asError(err));
    }
  }

  /** Every batch's XADDs in one pipeline; only the batches with a failed XADD fail (a GroupWriteError). */
  async writeGroup(batches: readonly Batch[]): Promise<void> {
    const commands: RedisArgument[][] = [];
    for (const batch of batches) this.commands(batch, commands);
    const failed: number[] = [];
    try {
      await this.sendAll(commands, failed);
    } catch (err) {
      if (err instanceof NotConnectedError || failed.length === 0) throw err;
      throw partialGroupError(batches, batchesOf(failed.sort(ascending), batches), asError(err));
    }
  }

  /** Appends the XADD of each message of the batch to `out`. */
  private commands(batch: Batch, out: RedisArgument[][]): RedisArgument[][] {
    const exclude = this.config.metadata.exclude_prefixes;
    const bodyKey = this.config.body_key;
    for (let i = 0; i < batch.length; i++) {
      const msg = batch[i]!;
      const args: RedisArgument[] = ['XADD', this.config.stream.render(batch, i)];
      if (this.config.max_length > 0) args.push('MAXLEN', '~', String(this.config.max_length));
      args.push(this.config.id.render(batch, i));
      for (const [k, v] of msg.metadata()) {
        if (k === bodyKey || (exclude.length > 0 && exclude.some((p) => k.startsWith(p)))) continue;
        args.push(k, redisValue(v));
      }
      args.push(bodyKey, bodyArgument(msg));
      out.push(args);
    }
    return out;
  }
}

const ascending = (a: number, b: number) => a - b;

/** The indices of the batches that hold the given (ascending) message positions of the whole group. */
function batchesOf(positions: readonly number[], batches: readonly Batch[]): number[] {
  const out: number[] = [];
  let batch = 0;
  let end = batches[0]?.length ?? 0;
  for (const at of positions) {
    while (at >= end && batch < batches.length - 1) end += batches[++batch]!.length;
    if (out[out.length - 1] !== batch) out.push(batch);
  }
  return out;
}

export const spec = defineComponent({
  name: 'redis_streams',
  kind: 'output',
  status: 'stable',
  categories: ['Services'],
  summary:
    'Appends messages to a Redis stream (XADD): the content under `body_key`, each metadata entry as a further field.',
  description:
    'The messages of a batch are sent pipelined, in one round trip; the batch succeeds only when every XADD did. With `max_length` the stream is trimmed approximately (`MAXLEN ~`) as entries are added. Metadata whose key starts with one of `metadata.exclude_prefixes` is not written.',
  fields,
  lint: lintRedisClient,
  examples: [
    {
      title: 'Write messages to a stream in batches',
      config: `input:
  generate:
    count: 100
    interval: ''
    mapping: 'root = {"id": counter()}'
output:
  redis_streams:
    url: redis://127.0.0.1:6379
    stream: events
    max_length: 100000
    batching:
      count: 50
      period: 100ms
`,
    },
  ],
  build: (config, ctx): Promise<Output> =>
    redisOutput(config, ctx, (target) => new RedisStreamsWriter(config, target, ctx)),
});
