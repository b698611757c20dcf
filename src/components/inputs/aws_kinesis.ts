// The `aws_kinesis` input: consumes the shards of Kinesis streams, coordinating shard leases and
// storing checkpoints in a DynamoDB table (the reference's table schema).
import { randomUUID } from 'node:crypto';
import { defineComponent, field, type RawConfigOf } from '../../config/spec.js';
import type { Input } from '../../engine/component.js';
import { dynamoClient } from '../aws/dynamodb.js';
import { CheckpointTable } from '../aws/kinesis_checkpoints.js';
import { KinesisReader } from '../aws/kinesis_reader.js';
import { loadAws } from '../aws/library.js';
import { awsClientOptions, describeTarget } from '../aws/session.js';
import { awsSessionFields, lintAwsSession } from '../fields/aws.js';
import { batchingEnabled, batchingField } from '../fields/batching.js';
import { refuseProblems } from '../fields/config_problems.js';
import { kinesisClient } from '../outputs/aws_kinesis.js';

const a = { advanced: true } as const;

const fields = [
  field.urlList(
    'streams',
    'The streams to consume from, by name or ARN (several may be given comma separated).',
    {
      examples: [['foo', 'arn:aws:kinesis:*:111122223333:stream/my-stream']],
    },
  ),
  field.object(
    'dynamodb',
    'The table that stores the checkpoint of each shard and coordinates the consumers of a stream.',
    [
      field.string('table', 'The name of the table.', { default: '' }),
      field.bool('create', 'Create the table when it does not exist.', { default: false }),
      field.enum('billing_mode', 'The billing mode of a created table.', ['PROVISIONED', 'PAY_PER_REQUEST'], {
        default: 'PAY_PER_REQUEST',
        ...a,
      }),
      field.int('read_capacity_units', 'The read capacity of a created PROVISIONED table.', {
        default: 0,
        ...a,
      }),
      field.int('write_capacity_units', 'The write capacity of a created PROVISIONED table.', {
        default: 0,
        ...a,
      }),
      ...awsSessionFields(),
    ],
  ),
  field.int('checkpoint_limit', 'The most records of a shard in flight (handed out but not yet delivered).', {
    default: 1024,
  }),
  field.bool('auto_replay_nacks', 'Deliver nacked messages again; when off they are dropped.', {
    default: true,
  }),
  field.duration('commit_period', 'How often checkpoints are stored (which also renews the leases).', {
    default: '5s',
  }),
  field.duration(
    'steal_grace_period',
    'How long past a lease a shard is left to its owner (nekton claims a shard once its lease has run out).',
    {
      default: '2s',
    },
  ),
  field.duration('rebalance_period', 'How often shards that no live client holds are claimed.', {
    default: '30s',
    ...a,
  }),
  field.duration('lease_period', 'How long a claim on a shard lasts unless renewed.', {
    default: '30s',
    ...a,
  }),
  field.bool(
    'start_from_oldest',
    'Start a shard without a checkpoint at its oldest record (else at the latest).',
    {
      default: true,
    },
  ),
  ...awsSessionFields(),
  batchingField(),
] as const;

function lint(
  config: Pick<RawConfigOf<typeof fields>, 'streams' | 'dynamodb' | 'batching'> &
    Parameters<typeof lintAwsSession>[0],
): string[] {
  const problems = [...lintAwsSession(config), ...lintAwsSession(config.dynamodb, 'dynamodb.')];
  if (config.dynamodb.table === '')
    problems.push(
      'dynamodb.table is required: nekton keeps the checkpoints of the shards in a DynamoDB table',
    );
  const streams = config.streams.flatMap((s) => s.split(',').map((p) => p.trim())).filter((s) => s !== '');
  if (streams.length === 0) problems.push('streams: at least one stream is required');
  for (const s of streams)
    if (!s.startsWith('arn:') && s.includes(':'))
      problems.push(`streams: explicit shards ('${s}') are not supported by nekton; give the stream name`);
  if (batchingEnabled(config.batching))
    problems.push(
      'batching on the aws_kinesis input is not supported by nekton; batch at the output instead',
    );
  return problems;
}

export const spec = defineComponent({
  name: 'aws_kinesis',
  kind: 'input',
  status: 'experimental',
  categories: ['Services', 'AWS'],
  summary:
    'Receives records from the shards of one or more Amazon Kinesis streams, with checkpoints in DynamoDB.',
  description:
    "Each shard of the streams that no other live consumer holds is claimed in the `dynamodb` table (hash key `StreamID`, range key `ShardID`: the reference's schema, so the table can be shared with it) and read from its checkpoint, or from its oldest (`start_from_oldest`) or latest record. Every `commit_period` the checkpoint of each shard moves to the last record before which every record was delivered, and the lease is renewed; shards whose lease ran out are claimed every `rebalance_period`; on a clean stop the checkpoints are stored and the shards released. Delivery is at least once. Each message carries `kinesis_stream`, `kinesis_shard`, `kinesis_partition_key` and `kinesis_sequence_number`.\n\nNot supported (refused at lint): explicit shards (`stream:0`), `batching` on the input. nekton does not steal shards from live consumers to even out the load.",
  fields,
  lint,
  examples: [
    {
      title: 'A stream with checkpoints in a table created on first use',
      config: `input:
  aws_kinesis:
    streams: [ events ]
    dynamodb:
      table: nekton_checkpoints
      create: true
    region: us-east-1
output:
  stdout: {}
`,
    },
  ],
  async build(config, ctx): Promise<Input> {
    refuseProblems(lint(config as unknown as Parameters<typeof lint>[0]), 'aws_kinesis: ');
    const options = awsClientOptions(config, 'aws_kinesis');
    await loadAws('kinesis', 'http', 'dynamo');
    // The table lives where the dynamodb fields say, else where the stream's session does.
    const d = config.dynamodb;
    const tableOptions = awsClientOptions(
      {
        region: d.region ?? config.region,
        endpoint: d.endpoint ?? config.endpoint,
        tcp: d.tcp ?? config.tcp,
        credentials: d.credentials?.id || d.credentials?.profile ? d.credentials : config.credentials,
      },
      'aws_kinesis',
      'dynamodb.',
    );
    const tableTarget = describeTarget(tableOptions, 'DynamoDB');
    const checkpoints = new CheckpointTable(dynamoClient(tableOptions), {
      table: d.table,
      create: d.create,
      billingMode: d.billing_mode,
      readCapacityUnits: d.read_capacity_units,
      writeCapacityUnits: d.write_capacity_units,
      clientId: randomUUID(),
      leaseMs: config.lease_period,
      target: tableTarget,
    });
    const reader = new KinesisReader(
      kinesisClient(options),
      checkpoints,
      {
        streams: config.streams,
        checkpointLimit: Math.max(1, config.checkpoint_limit),
        commitMs: config.commit_period,
        rebalanceMs: config.rebalance_period,
        startFromOldest: config.start_from_oldest,
        target: describeTarget(options, 'Kinesis'),
      },
      ctx.logger,
    );
    return ctx.wrapReader(reader, { autoReplayNacks: config.auto_replay_nacks });
  },
});
