// The `aws_s3` output: uploads each message as an object whose key is the interpolated `path`.

import { defineComponent, field } from '../../config/spec.js';
import type { Output } from '../../engine/component.js';
import { loadAws, s3 } from '../aws/library.js';
import { S3Writer } from '../aws/s3_writer.js';
import { awsClientOptions, describeTarget } from '../aws/session.js';
import { awsSessionFields, lintAwsSession } from '../fields/aws.js';
import { batchingField } from '../fields/batching.js';

const a = { advanced: true } as const;

const fields = [
  field.string('bucket', 'The bucket to upload messages to.'),
  field.interpolated('path', 'The key of each uploaded object.', {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: Bloblang interpolation
    default: '${!counter()}-${!timestamp_unix_nano()}.txt',
    examples: [
      // biome-ignore lint/suspicious/noTemplateCurlyInString: Bloblang interpolation
      '${!counter()}-${!timestamp_unix_nano()}.txt',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: Bloblang interpolation
      '${!meta("kafka_key")}.json',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: Bloblang interpolation
      '${!json("doc.namespace")}/${!json("doc.id")}.json',
    ],
  }),
  field.map(
    field.interpolated('tags', 'Key/value pairs to store with each object as tags.', {
      default: {},
      // biome-ignore lint/suspicious/noTemplateCurlyInString: Bloblang interpolation
      examples: [{ Key1: 'Value1', Timestamp: '${!meta("Timestamp")}' }],
    }),
  ),
  field.interpolated('content_type', 'The content type of each object.', {
    default: 'application/octet-stream',
  }),
  field.interpolated('content_encoding', 'An optional content encoding of each object.', {
    default: '',
    ...a,
  }),
  field.interpolated('cache_control', 'The cache control of each object.', { default: '', ...a }),
  field.interpolated('content_disposition', 'The content disposition of each object.', { default: '', ...a }),
  field.interpolated('content_language', 'The content language of each object.', { default: '', ...a }),
  field.interpolated('website_redirect_location', 'The website redirect location of each object.', {
    default: '',
    ...a,
  }),
  field.object('metadata', 'Which metadata of a message is stored as user-defined metadata of its object.', [
    field.array(
      field.string('exclude_prefixes', 'Metadata keys starting with any of these are not stored.', {
        default: [],
      }),
    ),
  ]),
  field.interpolated('storage_class', 'The storage class of each object.', {
    default: 'STANDARD',
    ...a,
    options: [
      'STANDARD',
      'REDUCED_REDUNDANCY',
      'GLACIER',
      'STANDARD_IA',
      'ONEZONE_IA',
      'INTELLIGENT_TIERING',
      'DEEP_ARCHIVE',
    ],
  }),
  field.string('kms_key_id', 'An optional server side encryption key.', { default: '', ...a }),
  field.string('checksum_algorithm', 'The algorithm used to create the checksum of each object.', {
    default: '',
    ...a,
    options: ['CRC32', 'CRC32C', 'SHA1', 'SHA256'],
  }),
  field.string('server_side_encryption', 'An optional server side encryption algorithm.', {
    default: '',
    ...a,
  }),
  field.bool(
    'force_path_style_urls',
    'Use path style URLs (`endpoint/bucket/key`), often required for custom endpoints such as MinIO or s3rver.',
    { default: false, ...a },
  ),
  field.int('max_in_flight', 'The most batches uploaded at once.', { default: 64 }),
  field.duration('timeout', 'How long one upload may take before it is abandoned and tried again.', {
    default: '5s',
    ...a,
  }),
  field.string(
    'object_canned_acl',
    'The canned ACL of each object; empty sends none (buckets with ACLs disabled).',
    {
      default: '',
      ...a,
      options: [
        '',
        'private',
        'public-read',
        'public-read-write',
        'authenticated-read',
        'aws-exec-read',
        'bucket-owner-read',
        'bucket-owner-full-control',
      ],
    },
  ),
  batchingField(),
  ...awsSessionFields(),
] as const;

export const spec = defineComponent({
  name: 'aws_s3',
  kind: 'output',
  status: 'beta',
  categories: ['Services', 'AWS'],
  summary: 'Uploads messages to an Amazon S3 (or S3-compatible) bucket as objects, one per message.',
  description:
    "Each message becomes the object at the interpolated `path`, with its metadata (but keys under `metadata.exclude_prefixes`) as user-defined metadata. To upload a batch as one object, join it in `batching.processors` with an `archive` processor (and compress it with `compress`). Uploads of a batch run in parallel; when some fail only those messages are tried again. The output checks at connect that the bucket answers, so a missing bucket or refused credentials show on `/ready`. Credentials come from `credentials` (`id`/`secret`/`token` or a `profile`), else from the SDK's default chain; assumed roles and EC2 instance roles are refused at lint.",
  fields,
  lint: (config) => lintAwsSession(config),
  examples: [
    {
      title: 'Batches of 100 messages as one JSON-lines object each',
      config: `input:
  generate:
    count: 1000
    interval: ''
    mapping: 'root = {"n": counter()}'
output:
  aws_s3:
    bucket: archive
    path: 'events/\${! timestamp_unix_nano() }.jsonl'
    content_type: application/x-ndjson
    endpoint: http://127.0.0.1:9000
    force_path_style_urls: true
    credentials:
      id: \${S3_ACCESS_KEY}
      secret: \${S3_SECRET_KEY}
    batching:
      count: 100
      period: 10s
      processors:
        - archive:
            format: lines
`,
    },
  ],
  async build(config, ctx): Promise<Output> {
    const options = awsClientOptions(config, 'aws_s3');
    await loadAws('s3');
    const client = new (s3().S3Client)({ ...options, forcePathStyle: config.force_path_style_urls });
    const writer = new S3Writer(client, {
      bucket: config.bucket,
      path: config.path,
      tags: config.tags,
      contentType: config.content_type,
      contentEncoding: config.content_encoding,
      cacheControl: config.cache_control,
      contentDisposition: config.content_disposition,
      contentLanguage: config.content_language,
      websiteRedirectLocation: config.website_redirect_location,
      excludePrefixes: config.metadata.exclude_prefixes,
      storageClass: config.storage_class,
      kmsKeyId: config.kms_key_id,
      checksumAlgorithm: config.checksum_algorithm,
      serverSideEncryption: config.server_side_encryption,
      objectCannedAcl: config.object_canned_acl,
      timeoutMs: config.timeout,
      target: describeTarget(options, 'S3'),
    });
    return ctx.wrapWriter(writer, { maxInFlight: config.max_in_flight, batching: config.batching });
  },
});
