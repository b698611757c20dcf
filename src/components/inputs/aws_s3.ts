// The `aws_s3` input: downloads the objects of a bucket (under a prefix) and splits each into
// messages with a scanner. Listing mode only: the SQS notification mode is refused at lint.

import { defineComponent, field, type RawConfigOf } from '../../config/spec.js';
import type { Input } from '../../engine/component.js';
import { loadAws, s3 } from '../aws/library.js';
import { S3Reader } from '../aws/s3_reader.js';
import { awsClientOptions, describeTarget } from '../aws/session.js';
import { type AwsSessionLintView, awsSessionFields, lintAwsSession } from '../fields/aws.js';
import { refuseProblems } from '../fields/config_problems.js';
import { scannerField } from '../scanners/scanner.js';
import { CODEC_OPTIONS, scannerResolver } from './scanner_fields.js';

const a = { advanced: true } as const;

const fields = [
  field.string('bucket', 'The bucket to consume from.', { default: '' }),
  field.string('prefix', 'An optional path prefix: only objects whose key starts with it are consumed.', {
    default: '',
  }),
  ...awsSessionFields(),
  field.bool(
    'force_path_style_urls',
    'Use path style URLs (`endpoint/bucket/key`), often required for custom endpoints such as MinIO or s3rver.',
    { default: false, ...a },
  ),
  field.bool('delete_objects', 'Delete each object once every message of it was delivered.', {
    default: false,
    ...a,
  }),
  field.string('codec', 'Deprecated: use `scanner`. How the bytes are split into messages.', {
    optional: true,
    deprecated: true,
    options: CODEC_OPTIONS,
  }),
  field.int('max_buffer', 'Deprecated: the largest message the `codec` accepts.', {
    default: 1000000,
    deprecated: true,
  }),
  scannerField(
    'scanner',
    'How each object is split into messages; the whole object is one message by default.',
    {
      default: { to_the_end: {} },
      optional: true,
    },
  ),
  field.object(
    'sqs',
    'Consume SQS upload notifications to choose the objects to download (not supported by nekton: lint refuses a `url`).',
    [
      field.string('url', 'An SQS queue URL; when set the queue controls which objects are downloaded.', {
        default: '',
      }),
      field.string('endpoint', 'A custom endpoint to use when connecting to SQS.', { default: '', ...a }),
      field.string('key_path', 'A dot path locating object keys within SQS messages.', {
        default: 'Records.*.s3.object.key',
      }),
      field.string('bucket_path', 'A dot path locating the bucket name within SQS messages.', {
        default: 'Records.*.s3.bucket.name',
      }),
      field.string(
        'envelope_path',
        'A dot path to a field holding an enveloped JSON payload (SNS: `Message`).',
        {
          default: '',
          examples: ['Message'],
        },
      ),
      field.string('delay_period', 'How long to wait after a notification was sent before downloading.', {
        default: '',
        ...a,
        examples: ['10s', '5m'],
      }),
      field.int('max_messages', 'The most SQS messages consumed per request.', { default: 10, ...a }),
      field.int('wait_time_seconds', 'The long-polling wait time (0 to 20).', { default: 0, ...a }),
      field.int('nack_visibility_timeout', 'The SQS visibility timeout of a nacked message, in seconds.', {
        default: 0,
        optional: true,
      }),
      field.string(
        'zero_key_warn_interval',
        'How often to repeat the warning for a message with no extractable target key.',
        { default: '30s', ...a, check: 'duration', examples: ['10s', '0s'] },
      ),
    ],
    { optional: true },
  ),
] as const;

function lint(config: Pick<RawConfigOf<typeof fields>, 'bucket' | 'sqs'> & AwsSessionLintView): string[] {
  const problems = lintAwsSession(config);
  const sqsUrl = config.sqs?.url ?? '';
  if (sqsUrl !== '')
    problems.push(
      'sqs.url: the SQS notification mode is not supported by nekton (no local SQS to test it against); leave sqs.url empty to walk the bucket',
    );
  else if (config.bucket === '') problems.push('bucket is required (the bucket to walk)');
  return problems;
}

export const spec = defineComponent({
  name: 'aws_s3',
  kind: 'input',
  status: 'beta',
  categories: ['Services', 'AWS'],
  summary: 'Downloads the objects of an Amazon S3 (or S3-compatible) bucket, optionally under a prefix.',
  description:
    "Walks the keys of `bucket` under `prefix` (100 per listing request, in key order), downloads each object and splits it into messages with the `scanner` (the whole object is one message by default). The input ends once every object was read. Nacked messages are delivered again from inside nekton; with `delete_objects` an object is deleted once every message of it was delivered. An object whose download breaks midway is read again from the start once the endpoint answers again, so its messages may arrive twice (at least once).\n\nEach message carries the metadata `s3_key`, `s3_bucket`, `s3_last_modified_unix`, `s3_last_modified` (RFC 3339), `s3_content_type`, `s3_content_encoding`, `s3_version_id` (versioned buckets) and the object's user-defined metadata.\n\nThe SQS notification mode (`sqs.url`) is not supported: lint refuses it. Credentials come from `credentials` (`id`/`secret`/`token` or a `profile`), else from the SDK's default chain (environment variables, `~/.aws/credentials`); assumed roles and EC2 instance roles are refused at lint.",
  fields,
  lint,
  examples: [
    {
      title: 'Every JSON-lines object under a prefix of a local S3-compatible server',
      config: `input:
  aws_s3:
    bucket: logs
    prefix: 2024/
    endpoint: http://127.0.0.1:9000
    region: us-east-1
    force_path_style_urls: true
    credentials:
      id: \${S3_ACCESS_KEY}
      secret: \${S3_SECRET_KEY}
    scanner:
      lines: {}
output:
  stdout: {}
`,
    },
  ],
  async build(config, ctx): Promise<Input> {
    refuseProblems(lint(config), 'aws_s3: ');
    const options = awsClientOptions(config, 'aws_s3');
    await loadAws('s3');
    const client = new (s3().S3Client)({ ...options, forcePathStyle: config.force_path_style_urls });
    const scannerFor = await scannerResolver(config, ctx, `${ctx.path}.aws_s3`);
    const reader = new S3Reader(
      client,
      {
        bucket: config.bucket,
        prefix: config.prefix,
        deleteObjects: config.delete_objects,
        target: describeTarget(options, 'S3'),
      },
      scannerFor,
      ctx.logger,
    );
    const input = ctx.wrapReader(reader, { autoReplayNacks: true });
    const close = input.close.bind(input);
    input.close = async () => {
      await close();
      client.destroy();
    };
    return input;
  },
});
