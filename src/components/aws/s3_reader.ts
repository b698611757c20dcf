// The aws_s3 input's reader (listing mode): walks the bucket's keys under a prefix, page by page,
// downloads each object and splits it into messages with the scanner. An object is deleted
// (delete_objects) only once every message of it was delivered; an object whose download breaks
// midway is read again from the start after reconnecting (at least once).

import type { GetObjectCommandOutput, ListObjectsV2CommandOutput, S3Client } from '@aws-sdk/client-s3';
import type { Logger } from 'pino';
import type { GroupAckFn, InputReader, Transaction } from '../../engine/component.js';
import { NotConnectedError } from '../../engine/errors.js';
import type { Batch, Message } from '../../message/message.js';
import { ScannedSource } from '../inputs/scanned_source.js';
import type { ByteSource, Scanner } from '../scanners/scanner.js';
import { s3 } from './library.js';
import { awsError, awsErrorText } from './session.js';

export interface S3ReaderOptions {
  bucket: string;
  prefix: string;
  deleteObjects: boolean;
  /** Where the client talks to, for messages. */
  target: string;
  /** Keys listed per request (the reference asks for 100). */
  pageSize?: number;
}

interface OpenObject {
  key: string;
  source: ScannedSource;
  /** Set when the download broke: the object is read again, so it must not be deleted. */
  broken: boolean;
}

function rfc3339(date: Date): string {
  return `${date.toISOString().slice(0, 19)}Z`;
}

export class S3Reader implements InputReader {
  private readonly pending: string[] = [];
  private startAfter: string | undefined;
  private listedOnce = false;
  private listingDone = false;
  private current: OpenObject | null = null;
  /** The download of the next key, started while the current object is read (one in advance). */
  private prefetched: { key: string; response: Promise<GetObjectCommandOutput> } | null = null;
  private closed = false;
  private mustCheck = false;

  constructor(
    private readonly client: S3Client,
    private readonly options: S3ReaderOptions,
    private readonly scannerFor: (key: string) => Promise<Scanner>,
    private readonly logger: Logger,
  ) {}

  /** Lists the first page of keys (once: a reconnect goes on where the listing stopped). */
  async connect(): Promise<void> {
    if (!this.listedOnce) {
      await this.listPage();
      this.listedOnce = true;
      return;
    }
    if (!this.mustCheck) return;
    // After a failed read: reconnecting succeeds only once the bucket answers again, so the
    // engine backs off between tries instead of failing reads in a loop.
    try {
      await this.client.send(new (s3().ListObjectsV2Command)({ Bucket: this.options.bucket, MaxKeys: 1 }));
    } catch (err) {
      throw awsError(err, this.options.target, `aws_s3 listing bucket '${this.options.bucket}'`);
    }
    this.mustCheck = false;
  }

  async read(): Promise<Transaction | null> {
    while (!this.closed) {
      if (!this.current) {
        const key = await this.nextKey();
        if (key === undefined) return null;
        const opened = await this.open(key);
        if (!opened) continue;
        if (this.closed) {
          await opened.source.close().catch(() => undefined);
          return null;
        }
        this.current = opened;
        this.prefetchNext();
      }
      const object = this.current;
      try {
        const txn = await object.source.next();
        if (txn) return txn;
        this.current = null;
      } catch (err) {
        // The body broke midway: read the whole object again once reconnected.
        object.broken = true;
        this.current = null;
        this.pending.unshift(object.key);
        await object.source.close().catch(() => undefined);
        throw this.readError(err, `reading object '${object.key}'`);
      }
    }
    return null;
  }

  readBuffered(): Transaction | undefined {
    return this.closed ? undefined : this.current?.source.nextBuffered();
  }

  readBufferedGroup(max: number): { batches: Batch[]; ack: GroupAckFn } | undefined {
    return this.closed ? undefined : this.current?.source.bufferedGroup(max);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.discardPrefetch();
    const current = this.current;
    this.current = null;
    await current?.source.close().catch(() => undefined);
  }

  private async nextKey(): Promise<string | undefined> {
    while (this.pending.length === 0 && !this.listingDone) await this.listPage();
    return this.pending.shift();
  }

  private async listPage(): Promise<void> {
    const { bucket, prefix } = this.options;
    let page: ListObjectsV2CommandOutput;
    try {
      page = await this.client.send(
        new (s3().ListObjectsV2Command)({
          Bucket: bucket,
          MaxKeys: this.options.pageSize ?? 100,
          ...(prefix !== '' ? { Prefix: prefix } : {}),
          ...(this.startAfter !== undefined ? { StartAfter: this.startAfter } : {}),
        }),
      );
    } catch (err) {
      throw this.readError(err, `listing bucket '${bucket}'`);
    }
    const keys = (page.Contents ?? []).map((o) => o.Key).filter((k): k is string => typeof k === 'string');
    this.pending.push(...keys);
    const last = keys.at(-1);
    if (last !== undefined) this.startAfter = last;
    if (keys.length === 0 || page.IsTruncated === false) this.listingDone = true;
  }

  /** Starts downloading one object; null when it vanished since it was listed (skipped, as the reference does). */
  private async open(key: string): Promise<OpenObject | null> {
    const { bucket } = this.options;
    let object: GetObjectCommandOutput;
    try {
      const prefetched = this.prefetched?.key === key ? this.prefetched.response : null;
      if (prefetched) this.prefetched = null;
      else this.discardPrefetch();
      object = await (prefetched ?? this.download(key));
    } catch (err) {
      if ((err as { name?: string }).name === 'NoSuchKey') {
        this.logger.warn(`aws_s3: skipping object '${key}' of bucket '${bucket}': it no longer exists`);
        return null;
      }
      this.pending.unshift(key);
      throw this.readError(err, `downloading object '${key}'`);
    }
    const scanner = await this.scannerFor(key);
    const meta = new Map<string, unknown>([
      ['s3_key', key],
      ['s3_bucket', bucket],
    ]);
    if (object.LastModified) {
      meta.set('s3_last_modified', rfc3339(object.LastModified));
      meta.set('s3_last_modified_unix', Math.floor(object.LastModified.getTime() / 1000));
    }
    if (object.ContentType !== undefined) meta.set('s3_content_type', object.ContentType);
    if (object.ContentEncoding !== undefined) meta.set('s3_content_encoding', object.ContentEncoding);
    if (object.VersionId !== undefined && object.VersionId !== 'null')
      meta.set('s3_version_id', object.VersionId);
    for (const [k, v] of Object.entries(object.Metadata ?? {})) meta.set(k, v);

    const open: OpenObject = { key, broken: false, source: null as unknown as ScannedSource };
    const body = (object.Body ?? emptyBody()) as ByteSource;
    open.source = new ScannedSource(scanner(body, { name: key }), {
      decorate(msg: Message) {
        if (msg.metadata().size === 0) {
          msg.shareMetadata(meta);
          return;
        }
        for (const [k, v] of meta) msg.setMeta(k, v);
      },
      finished: async (err) => {
        if (err !== null || open.broken || !this.options.deleteObjects) return;
        try {
          await this.client.send(new (s3().DeleteObjectCommand)({ Bucket: bucket, Key: key }));
        } catch (e) {
          this.logger.error(
            `aws_s3: failed to delete object '${key}' of bucket '${bucket}': ${awsErrorText(e, this.options.target)}`,
          );
        }
      },
    });
    return open;
  }

  /**
   * Every failed request waits for a reconnect (a refused credential or a missing bucket too), so
   * /ready reports it and the engine backs off instead of failing reads in a loop.
   */
  private download(key: string): Promise<GetObjectCommandOutput> {
    return this.client.send(new (s3().GetObjectCommand)({ Bucket: this.options.bucket, Key: key }));
  }

  /** Starts downloading the next listed key, so its first bytes are there when it is opened. */
  private prefetchNext(): void {
    const key = this.pending[0];
    if (this.prefetched || this.closed || key === undefined) return;
    const response = this.download(key);
    response.catch(() => undefined); // reported when the key is opened
    this.prefetched = { key, response };
  }

  /** Drops a download that will not be read (closing, or after a failure): frees its connection. */
  private discardPrefetch(): void {
    const prefetched = this.prefetched;
    this.prefetched = null;
    prefetched?.response.then(
      (o) => (o.Body as { destroy?: () => void } | undefined)?.destroy?.(),
      () => undefined,
    );
  }

  private readError(err: unknown, what: string): Error {
    this.mustCheck = true;
    this.discardPrefetch();
    if (err instanceof NotConnectedError) return err;
    return new NotConnectedError(awsError(err, this.options.target, `aws_s3 ${what}`).message);
  }
}

async function* emptyBody(): AsyncIterable<Uint8Array> {
  // An object without a body (never sent by S3, but typed as optional) reads as empty.
  yield* [];
}
