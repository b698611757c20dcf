// A private S3 server for the aws_s3 tests: s3rver (an S3 emulator from npm, a dev dependency)
// run in this process on a free port, storing in a temporary directory that survives a restart.
import crypto, { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CreateBucketCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { freePort } from '../../helpers/kit.js';

// s3rver makes its listing continuation tokens with single DES, which OpenSSL 3 (Node 17+) no
// longer offers: every truncated listing then fails with InternalError. For this test process
// only, 'des' is served by two-key triple DES with both keys equal, which is the same cipher.
const cryptoModule = crypto as unknown as Record<string, unknown>;
const createCipheriv = crypto.createCipheriv;
const createDecipheriv = crypto.createDecipheriv;
const desKey = (key: Buffer) => Buffer.concat([key, key]);
cryptoModule.createCipheriv = (algorithm: string, key: Buffer, iv: Buffer) =>
  algorithm === 'des' ? createCipheriv('des-ede-cbc', desKey(key), iv) : createCipheriv(algorithm, key, iv);
cryptoModule.createDecipheriv = (algorithm: string, key: Buffer, iv: Buffer) =>
  algorithm === 'des'
    ? createDecipheriv('des-ede-cbc', desKey(key), iv)
    : createDecipheriv(algorithm, key, iv);

// The harness's own client: no warning about the SDK's future Node versions in test output.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

/** s3rver's fixed credentials. */
export const S3RVER_ID = 'S3RVER';
export const S3RVER_SECRET = 'S3RVER';

/** A bucket name no other test run uses (3-63 lowercase characters). */
export function uniqueBucket(prefix = 'nekton'): string {
  return `${prefix}-${randomBytes(4).toString('hex')}`;
}

export class PrivateS3 {
  private server: S3rver | null = null;
  readonly client: S3Client;

  private constructor(
    readonly port: number,
    private readonly directory: string,
  ) {
    this.client = new S3Client({
      region: 'us-east-1',
      endpoint: this.url,
      forcePathStyle: true,
      credentials: { accessKeyId: S3RVER_ID, secretAccessKey: S3RVER_SECRET },
    });
  }

  static async start(): Promise<PrivateS3> {
    const s3 = new PrivateS3(await freePort(), mkdtempSync(join(tmpdir(), 'nekton-s3rver-')));
    await s3.restart();
    return s3;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** The YAML of the session fields pointing at this server (indented for a component's body). */
  session(indent = '    '): string {
    return [
      `endpoint: ${this.url}`,
      'region: us-east-1',
      'force_path_style_urls: true',
      'credentials:',
      `  id: ${S3RVER_ID}`,
      `  secret: ${S3RVER_SECRET}`,
    ]
      .map((line) => indent + line)
      .join('\n');
  }

  async restart(): Promise<void> {
    if (this.server) return;
    const server = new S3rver({
      port: this.port,
      address: '127.0.0.1',
      silent: true,
      directory: this.directory,
    });
    await server.run();
    this.server = server;
  }

  /** Stops the server and drops its open connections (as a crash would); stored objects stay for a restart. */
  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (!server) return;
    const closed = server.close();
    server.httpServer?.closeAllConnections();
    await closed;
  }

  async dispose(): Promise<void> {
    await this.stop();
    this.client.destroy();
    rmSync(this.directory, { recursive: true, force: true });
  }

  async bucket(prefix?: string): Promise<string> {
    const name = uniqueBucket(prefix);
    await this.client.send(new CreateBucketCommand({ Bucket: name }));
    return name;
  }

  async put(
    bucket: string,
    key: string,
    body: string,
    extra: { metadata?: Record<string, string>; contentType?: string } = {},
  ): Promise<void> {
    await this.client.send(
      new PutObjectCommand({
        Bucket: bucket,
        Key: key,
        Body: body,
        ...(extra.contentType ? { ContentType: extra.contentType } : {}),
        ...(extra.metadata ? { Metadata: extra.metadata } : {}),
      }),
    );
  }

  async keys(bucket: string, prefix?: string): Promise<string[]> {
    const out = await this.client.send(
      new ListObjectsV2Command({ Bucket: bucket, ...(prefix ? { Prefix: prefix } : {}) }),
    );
    return (out.Contents ?? []).map((o) => o.Key ?? '');
  }

  async get(
    bucket: string,
    key: string,
  ): Promise<{
    body: string;
    contentType?: string;
    metadata: Record<string, string>;
    contentEncoding?: string;
  }> {
    const out = await this.client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
    return {
      body: (await out.Body?.transformToString()) ?? '',
      metadata: out.Metadata ?? {},
      ...(out.ContentType ? { contentType: out.ContentType } : {}),
      ...(out.ContentEncoding ? { contentEncoding: out.ContentEncoding } : {}),
    };
  }
}
