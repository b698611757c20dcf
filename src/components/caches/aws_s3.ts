// The `aws_s3` cache: each key is an object of the bucket; TTLs are not supported (as in the reference).

import type { S3Client } from '@aws-sdk/client-s3';
import type { Logger } from 'pino';
import { defineComponent, field } from '../../config/spec.js';
import { type BackoffConfig, withRetries } from '../../engine/backoff.js';
import type { Cache } from '../../engine/component.js';
import { loadAws, s3 } from '../aws/library.js';
import { awsClientOptions, awsErrorText, describeTarget, isCredentialError } from '../aws/session.js';
import { awsSessionFields, lintAwsSession } from '../fields/aws.js';
import { backoffField } from '../fields/backoff.js';

const NOT_FOUND = new Set(['NoSuchKey', 'NotFound']);

function isNotFound(err: unknown): boolean {
  return NOT_FOUND.has((err as { name?: string }).name ?? '');
}

export class S3Cache implements Cache {
  constructor(
    private readonly client: S3Client,
    private readonly bucket: string,
    private readonly contentType: string,
    private readonly retries: BackoffConfig,
    private readonly target: string,
    private readonly logger: Logger,
  ) {}

  async get(key: string): Promise<Uint8Array | undefined> {
    return this.retry('get', key, async () => {
      try {
        const out = await this.client.send(new (s3().GetObjectCommand)({ Bucket: this.bucket, Key: key }));
        return out.Body ? await out.Body.transformToByteArray() : new Uint8Array();
      } catch (err) {
        if (isNotFound(err)) return undefined;
        throw err;
      }
    });
  }

  async set(key: string, value: Uint8Array): Promise<void> {
    await this.retry('set', key, async () => {
      await this.client.send(
        new (s3().PutObjectCommand)({
          Bucket: this.bucket,
          Key: key,
          Body: value,
          ContentType: this.contentType,
        }),
      );
    });
  }

  /** Not atomic (as in the reference): a HEAD, then a PUT when the key was absent. */
  async add(key: string, value: Uint8Array): Promise<boolean> {
    const exists = await this.retry('add', key, async () => {
      try {
        await this.client.send(new (s3().HeadObjectCommand)({ Bucket: this.bucket, Key: key }));
        return true;
      } catch (err) {
        if (isNotFound(err)) return false;
        throw err;
      }
    });
    if (exists) return false;
    await this.set(key, value);
    return true;
  }

  async delete(key: string): Promise<void> {
    await this.retry('delete', key, async () => {
      await this.client.send(new (s3().DeleteObjectCommand)({ Bucket: this.bucket, Key: key }));
    });
  }

  async close(): Promise<void> {
    this.client.destroy();
  }

  /** Retries a failed request with the `retries` backoff; refused credentials fail at once. */
  private retry<T>(op: string, key: string, run: () => Promise<T>): Promise<T> {
    return withRetries(this.retries, run, {
      describe: (err) =>
        `aws_s3 cache ${op} of '${key}' in bucket '${this.bucket}': ${awsErrorText(err, this.target)}`,
      fatal: isCredentialError,
      onRetry: (text, wait) => this.logger.debug(`${text}; retrying in ${wait}ms`),
    });
  }
}

export const spec = defineComponent({
  name: 'aws_s3',
  kind: 'cache',
  status: 'beta',
  categories: ['Services', 'AWS'],
  summary: 'Stores each cache item as an object of an Amazon S3 (or S3-compatible) bucket.',
  description:
    'The key is the object key. TTLs are ignored (as in the reference: use a bucket lifecycle rule to expire objects). `add` is not atomic: it checks the key with a HEAD request, then uploads. Failed requests are retried with the `retries` backoff; refused credentials fail at once.',
  fields: [
    field.string('bucket', 'The bucket to store items in.'),
    field.string('content_type', 'The content type of each stored object.', {
      default: 'application/octet-stream',
    }),
    field.bool(
      'force_path_style_urls',
      'Use path style URLs (`endpoint/bucket/key`), often required for custom endpoints such as MinIO or s3rver.',
      { default: false, advanced: true },
    ),
    {
      ...backoffField(
        { initial_interval: '1s', max_interval: '5s', max_elapsed_time: '30s' },
        { advanced: true },
      ),
      name: 'retries',
      description: 'How failed requests are retried.',
    },
    ...awsSessionFields(),
  ],
  lint: (config) => lintAwsSession(config),
  examples: [
    {
      title: 'Deduplicate through a bucket',
      config: `input:
  generate:
    count: 3
    interval: ''
    mapping: 'root = {"id": "same"}'
pipeline:
  processors:
    - dedupe:
        cache: seen
        key: '\${! this.id }'
output:
  stdout: {}
cache_resources:
  - label: seen
    aws_s3:
      bucket: dedupe
      endpoint: http://127.0.0.1:9000
      force_path_style_urls: true
`,
    },
  ],
  async build(config, ctx): Promise<Cache> {
    const options = awsClientOptions(config, 'aws_s3');
    await loadAws('s3');
    const client = new (s3().S3Client)({ ...options, forcePathStyle: config.force_path_style_urls });
    return new S3Cache(
      client,
      config.bucket,
      config.content_type,
      config.retries,
      describeTarget(options, 'S3'),
      ctx.logger,
    );
  },
});
