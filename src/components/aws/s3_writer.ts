// The aws_s3 output's writer: one object per message (a batch joined by an `archive` processor in
// `batching.processors` is one message, so one object). A batch whose uploads partly fail reports
// exactly the failed messages (BatchError), so only they are written again.

import type {
  ChecksumAlgorithm,
  ObjectCannedACL,
  PutObjectCommandInput,
  S3Client,
  ServerSideEncryption,
  StorageClass,
} from '@aws-sdk/client-s3';
import type { Interpolation } from '../../bloblang/index.js';
import { BatchError } from '../../engine/batch_error.js';
import type { OutputWriter } from '../../engine/component.js';
import { NotConnectedError } from '../../engine/errors.js';
import type { Batch, Message } from '../../message/message.js';
import { s3 } from './library.js';
import { awsError, isNetworkError } from './session.js';

export interface S3WriterOptions {
  bucket: string;
  path: Interpolation;
  tags: Record<string, Interpolation>;
  contentType: Interpolation;
  contentEncoding: Interpolation;
  cacheControl: Interpolation;
  contentDisposition: Interpolation;
  contentLanguage: Interpolation;
  websiteRedirectLocation: Interpolation;
  excludePrefixes: readonly string[];
  storageClass: Interpolation;
  kmsKeyId: string;
  checksumAlgorithm: string;
  serverSideEncryption: string;
  objectCannedAcl: string;
  /** Per upload; 0 means no limit. */
  timeoutMs: number;
  target: string;
}

/** Uploads of one batch run at most this many at a time. */
const UPLOADS_AT_ONCE = 16;

function metaText(v: unknown): string {
  if (typeof v === 'string') return v;
  if (v instanceof Uint8Array) return Buffer.from(v).toString('utf8');
  if (v !== null && typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

export class S3Writer implements OutputWriter {
  constructor(
    private readonly client: S3Client,
    private readonly options: S3WriterOptions,
  ) {}

  /** Checks that the bucket answers with these credentials, so /ready and errors say what is wrong. */
  async connect(): Promise<void> {
    try {
      await this.client.send(new (s3().HeadBucketCommand)({ Bucket: this.options.bucket }), this.signal());
    } catch (err) {
      const name = (err as { name?: string }).name;
      if (name === 'NotFound' || name === 'NoSuchBucket')
        throw new Error(`aws_s3: bucket '${this.options.bucket}' does not exist at ${this.options.target}`);
      // A HEAD answer has no body: a 403 only says "forbidden", which is the credentials or their rights.
      if ((err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 403)
        throw new Error(
          `aws_s3: ${this.options.target} refused access to bucket '${this.options.bucket}' (check credentials.id, credentials.secret and credentials.token, and the rights they have)`,
        );
      throw awsError(err, this.options.target, `aws_s3 bucket '${this.options.bucket}'`);
    }
  }

  async write(batch: Batch): Promise<void> {
    const failed: number[] = [];
    let firstError: unknown = null;
    let next = 0;
    const worker = async () => {
      for (let i = next++; i < batch.length; i = next++) {
        try {
          await this.client.send(new (s3().PutObjectCommand)(this.input(batch, i)), this.signal());
        } catch (err) {
          failed.push(i);
          firstError ??= err;
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(UPLOADS_AT_ONCE, batch.length) }, worker));
    if (failed.length === 0) return;
    const reason = awsError(
      firstError,
      this.options.target,
      `aws_s3 upload to bucket '${this.options.bucket}'`,
    );
    if (failed.length === batch.length) {
      throw isNetworkError(firstError) ? new NotConnectedError(reason.message) : reason;
    }
    failed.sort((x, y) => x - y);
    throw new BatchError(batch, failed, reason);
  }

  async close(): Promise<void> {
    this.client.destroy();
  }

  private signal(): { abortSignal?: AbortSignal } {
    return this.options.timeoutMs > 0 ? { abortSignal: AbortSignal.timeout(this.options.timeoutMs) } : {};
  }

  private input(batch: Batch, i: number): PutObjectCommandInput {
    const o = this.options;
    const msg = batch[i] as Message;
    const optional = (interp: Interpolation) => {
      const v = interp.render(batch, i);
      return v === '' ? undefined : v;
    };
    const metadata: Record<string, string> = {};
    for (const [k, v] of msg.metadata()) {
      if (o.excludePrefixes.some((p) => k.startsWith(p))) continue;
      metadata[k] = metaText(v);
    }
    const input: PutObjectCommandInput = {
      Bucket: o.bucket,
      Key: o.path.render(batch, i),
      Body: msg.bytes(),
      ContentType: o.contentType.render(batch, i),
      ContentEncoding: optional(o.contentEncoding),
      CacheControl: optional(o.cacheControl),
      ContentDisposition: optional(o.contentDisposition),
      ContentLanguage: optional(o.contentLanguage),
      WebsiteRedirectLocation: optional(o.websiteRedirectLocation),
      Metadata: metadata,
    };
    const storageClass = o.storageClass.render(batch, i);
    if (storageClass !== '') input.StorageClass = storageClass as StorageClass;
    const tagKeys = Object.keys(o.tags);
    if (tagKeys.length > 0) {
      input.Tagging = tagKeys
        .map(
          (k) =>
            `${encodeURIComponent(k)}=${encodeURIComponent((o.tags[k] as Interpolation).render(batch, i))}`,
        )
        .join('&');
    }
    if (o.kmsKeyId !== '') {
      input.ServerSideEncryption = 'aws:kms';
      input.SSEKMSKeyId = o.kmsKeyId;
    }
    if (o.checksumAlgorithm !== '') input.ChecksumAlgorithm = o.checksumAlgorithm as ChecksumAlgorithm;
    if (o.objectCannedAcl !== '') input.ACL = o.objectCannedAcl as ObjectCannedACL;
    if (o.serverSideEncryption !== '')
      input.ServerSideEncryption = o.serverSideEncryption as ServerSideEncryption;
    return input;
  }
}
