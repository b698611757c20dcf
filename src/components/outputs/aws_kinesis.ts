// The `aws_kinesis` output: each batch is sent with PutRecords (500 records per request); records
// that Kinesis throttles are sent again with the backoff, any other record error fails the batch.

import type { KinesisClient, PutRecordsCommandOutput, PutRecordsRequestEntry } from '@aws-sdk/client-kinesis';
import type { Interpolation } from '../../bloblang/index.js';
import { defineComponent, field } from '../../config/spec.js';
import { Backoff, type BackoffConfig, sleep } from '../../engine/backoff.js';
import type { Output, OutputWriter } from '../../engine/component.js';
import type { Batch } from '../../message/message.js';
import { httpHandler, kinesis, loadAws } from '../aws/library.js';
import { type AwsClientOptions, awsClientOptions, awsError, describeTarget } from '../aws/session.js';
import { awsSessionFields, lintAwsSession } from '../fields/aws.js';
import { backoffField } from '../fields/backoff.js';
import { batchingField } from '../fields/batching.js';

const MAX_RECORDS = 500;
const MEBIBYTE = 1024 * 1024;
const THROTTLED = new Set(['ProvisionedThroughputExceededException', 'KMSThrottlingException']);

/** A Kinesis client over HTTP/1.1 (the SDK's default for Kinesis is HTTP/2, which emulators lack). */
export function kinesisClient(options: AwsClientOptions): KinesisClient {
  return new (kinesis().KinesisClient)({
    ...options,
    requestHandler: new (httpHandler().NodeHttpHandler)(options.requestHandler ?? {}),
  });
}

/** A stream given by name or by ARN, as the request parameter that names it. */
export function streamParam(stream: string): { StreamName: string } | { StreamARN: string } {
  return stream.startsWith('arn:') ? { StreamARN: stream } : { StreamName: stream };
}

interface KinesisWriterOptions {
  stream: string;
  partitionKey: Interpolation;
  hashKey: Interpolation | undefined;
  maxRetries: number;
  backoff: BackoffConfig;
  target: string;
}

class KinesisWriter implements OutputWriter {
  constructor(
    private readonly client: KinesisClient,
    private readonly o: KinesisWriterOptions,
  ) {}

  async connect(): Promise<void> {
    let status: string | undefined;
    try {
      const out = await this.client.send(
        new (kinesis().DescribeStreamCommand)({ ...streamParam(this.o.stream), Limit: 1 }),
      );
      status = out.StreamDescription?.StreamStatus;
    } catch (err) {
      if ((err as { name?: string }).name === 'ResourceNotFoundException')
        throw new Error(`aws_kinesis: stream '${this.o.stream}' does not exist at ${this.o.target}`);
      throw awsError(err, this.o.target, `aws_kinesis stream '${this.o.stream}'`);
    }
    if (status !== 'ACTIVE' && status !== 'UPDATING')
      throw new Error(`aws_kinesis: stream '${this.o.stream}' is not active (it is ${status ?? 'unknown'})`);
  }

  async write(batch: Batch): Promise<void> {
    const records = batch.map((msg, i): PutRecordsRequestEntry => {
      const data = msg.bytes();
      if (data.length > MEBIBYTE)
        throw new Error(`aws_kinesis: a message of ${data.length} bytes exceeds the 1 MiB record limit`);
      const entry: PutRecordsRequestEntry = {
        Data: data,
        PartitionKey: this.o.partitionKey.render(batch, i),
      };
      const hashKey = this.o.hashKey?.render(batch, i);
      if (hashKey) entry.ExplicitHashKey = hashKey;
      return entry;
    });
    for (let start = 0; start < records.length; start += MAX_RECORDS) {
      await this.put(records.slice(start, start + MAX_RECORDS));
    }
  }

  async close(): Promise<void> {
    this.client.destroy();
  }

  private async put(records: PutRecordsRequestEntry[]): Promise<void> {
    const backoff = new Backoff(this.o.backoff);
    let pending = records;
    for (let attempt = 0; ; attempt++) {
      let out: PutRecordsCommandOutput;
      try {
        out = await this.client.send(
          new (kinesis().PutRecordsCommand)({ ...streamParam(this.o.stream), Records: pending }),
        );
      } catch (err) {
        throw awsError(err, this.o.target, `aws_kinesis put to stream '${this.o.stream}'`);
      }
      const throttled: PutRecordsRequestEntry[] = [];
      for (const [i, result] of (out.Records ?? []).entries()) {
        if (!result.ErrorCode) continue;
        if (!THROTTLED.has(result.ErrorCode))
          throw new Error(
            `aws_kinesis: record failed in stream '${this.o.stream}' with ${result.ErrorCode}: ${result.ErrorMessage ?? ''}`,
          );
        throttled.push(pending[i] as PutRecordsRequestEntry);
      }
      if (throttled.length === 0) return;
      const wait = this.o.maxRetries > 0 && attempt >= this.o.maxRetries ? null : backoff.next();
      if (wait === null)
        throw new Error(
          `aws_kinesis: ${throttled.length} records throttled by stream '${this.o.stream}' past the retries`,
        );
      pending = throttled;
      await sleep(wait);
    }
  }
}

export const spec = defineComponent({
  name: 'aws_kinesis',
  kind: 'output',
  status: 'beta',
  categories: ['Services', 'AWS'],
  summary: 'Sends messages to an Amazon Kinesis data stream, one record per message.',
  description:
    'A batch is sent with PutRecords, 500 records per request. Records the stream throttles are sent again with `backoff` (at most `max_retries` times, 0: until the backoff gives up); any other record error fails the batch, which is then written again whole (so records may arrive twice). The partition key (and an optional explicit hash key) is interpolated per message. A message over 1 MiB fails its batch. The output checks at connect that the stream exists and is active.',
  fields: [
    field.string('stream', 'The stream to publish messages to (its name or ARN).'),
    field.interpolated('partition_key', 'A required key for partitioning messages.'),
    field.interpolated('hash_key', 'An optional hash key for partitioning messages.', {
      optional: true,
      advanced: true,
    }),
    field.int('max_in_flight', 'The most batches sent at once.', { default: 64 }),
    batchingField(),
    ...awsSessionFields(),
    field.int(
      'max_retries',
      'The most times throttled records are sent again (0: as long as the backoff allows).',
      {
        default: 0,
        advanced: true,
      },
    ),
    backoffField({ initial_interval: '1s', max_interval: '5s', max_elapsed_time: '30s' }, { advanced: true }),
  ],
  lint: (config) => lintAwsSession(config),
  examples: [
    {
      title: 'Events partitioned by user',
      config: `input:
  generate:
    count: 100
    interval: ''
    mapping: 'root = {"user": "u" + (counter() % 5).string(), "n": counter()}'
output:
  aws_kinesis:
    stream: events
    partition_key: '\${! this.user }'
    region: us-east-1
    batching:
      count: 50
      period: 1s
`,
    },
  ],
  async build(config, ctx): Promise<Output> {
    const options = awsClientOptions(config, 'aws_kinesis');
    await loadAws('kinesis', 'http');
    const writer = new KinesisWriter(kinesisClient(options), {
      stream: config.stream,
      partitionKey: config.partition_key,
      hashKey: config.hash_key,
      maxRetries: config.max_retries,
      backoff: config.backoff,
      target: describeTarget(options, 'Kinesis'),
    });
    return ctx.wrapWriter(writer, { maxInFlight: config.max_in_flight, batching: config.batching });
  },
});
