// The aws_s3 output and cache against s3rver, an S3 emulator from npm run by the test itself
// (a dev dependency: nothing to install, nothing to skip).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { spec as cacheSpec } from '../../../src/components/caches/aws_s3.js';
import type { Cache } from '../../../src/engine/component.js';
import { createTestContext } from '../../helpers/context.js';
import { freePort, waitFor } from '../../helpers/kit.js';
import { type RunningStream, startStream } from '../nats/harness.js';
import { configOf } from '../reference.js';
import { PrivateS3, S3RVER_ID, S3RVER_SECRET } from './harness.js';

/** `${! query }`, spelled so it is not mistaken for a JavaScript template. */
const interp = (query: string) => `$\{! ${query} }`;

function outputError(run: RunningStream): string | undefined {
  return run.stream.statuses().find((s) => s.path.startsWith('output') && !s.connected && s.error)?.error;
}

describe('aws_s3 output and cache (s3rver)', () => {
  let s3: PrivateS3;

  before(async () => {
    s3 = await PrivateS3.start();
  });

  after(async () => {
    await s3?.dispose();
  });

  it('output: one object per message at the interpolated path, with content type, encoding and metadata (over tcp options)', async () => {
    const bucket = await s3.bucket();
    const run = await startStream(`input:
  generate:
    count: 3
    interval: ''
    mapping: |
      root = {"id": counter()}
      meta kept = "yes"
      meta skip_me = "no"
output:
  aws_s3:
    bucket: ${bucket}
    path: 'docs/${interp('this.id')}.json'
    content_type: application/json
    content_encoding: identity
    metadata:
      exclude_prefixes: [ skip_ ]
    tcp:
      connect_timeout: 2s
      keep_alive:
        idle: 5s
${s3.session()}
`);
    try {
      await waitFor(() => !run.stream.active, { message: 'the stream to end', timeoutMs: 10_000 });
      assert.deepEqual(await s3.keys(bucket), ['docs/1.json', 'docs/2.json', 'docs/3.json']);
      const two = await s3.get(bucket, 'docs/2.json');
      assert.equal(two.body, '{"id":2}');
      assert.equal(two.contentType, 'application/json');
      assert.equal(two.contentEncoding, 'identity');
      assert.equal(two.metadata.kept, 'yes');
      assert.equal(two.metadata.skip_me, undefined, 'excluded by prefix');
    } finally {
      await run.stop();
    }
  });

  it('output: a batch joined by an archive processor is one object', async () => {
    const bucket = await s3.bucket();
    const run = await startStream(`input:
  generate:
    count: 6
    interval: ''
    mapping: 'root = "line" + counter().string()'
output:
  aws_s3:
    bucket: ${bucket}
    path: 'batch-${interp('counter()')}.txt'
    batching:
      count: 3
      processors:
        - archive:
            format: lines
${s3.session()}
`);
    try {
      await waitFor(() => !run.stream.active, { message: 'the stream to end', timeoutMs: 10_000 });
      assert.deepEqual(await s3.keys(bucket), ['batch-1.txt', 'batch-2.txt']);
      assert.equal((await s3.get(bucket, 'batch-1.txt')).body, 'line1\nline2\nline3');
      assert.equal((await s3.get(bucket, 'batch-2.txt')).body, 'line4\nline5\nline6');
    } finally {
      await run.stop();
    }
  });

  it('output: reports a server that went away and delivers everything after its restart', async () => {
    const bucket = await s3.bucket();
    let run: RunningStream | null = null;
    try {
      run = await startStream(`input:
  generate:
    count: 40
    interval: 25ms
    mapping: 'root = counter()'
output:
  aws_s3:
    bucket: ${bucket}
    path: 'n/${interp('content()')}'
    timeout: 2s
${s3.session()}
`);
      const r = run;
      await waitFor(async () => (await s3.keys(bucket)).length >= 5, {
        message: 'uploads under way',
        timeoutMs: 10_000,
      });
      await s3.stop();
      const down = await waitFor(() => outputError(r), {
        message: 'the output to report the outage',
        timeoutMs: 10_000,
      });
      assert.match(down ?? '', new RegExp(`127\\.0\\.0\\.1:${s3.port}`));
      assert.equal(r.stream.isReady(), false);
      await s3.restart();
      await waitFor(() => !r.stream.active, { message: 'the stream to end', timeoutMs: 30_000 });
      const keys = new Set(await s3.keys(bucket));
      for (let i = 1; i <= 40; i++) assert.ok(keys.has(`n/${i}`), `n/${i} uploaded`);
    } finally {
      await s3.restart();
      await run?.stop();
    }
  });

  it('output: a missing bucket and refused credentials show on the status, naming the bucket and the fields', async () => {
    const secret = 'bad-secret-7781';
    const missing = await startStream(`input:
  generate:
    interval: 1h
    mapping: root = "x"
output:
  aws_s3:
    bucket: absent-bucket-x
${s3.session()}
`);
    const badCreds = await startStream(`input:
  generate:
    interval: 1h
    mapping: root = "x"
output:
  aws_s3:
    bucket: whatever
    endpoint: ${s3.url}
    force_path_style_urls: true
    credentials:
      id: NOBODY
      secret: ${secret}
`);
    try {
      const gone = await waitFor(() => outputError(missing), { message: 'bucket error', timeoutMs: 10_000 });
      assert.match(gone ?? '', /bucket 'absent-bucket-x' does not exist at http:\/\/127\.0\.0\.1:\d+/);
      const refused = await waitFor(() => outputError(badCreds), {
        message: 'credentials error',
        timeoutMs: 10_000,
      });
      assert.match(refused ?? '', /credentials\.id, credentials\.secret/);
      assert.ok(!(refused ?? '').includes(secret));
    } finally {
      await missing.stop();
      await badCreds.stop();
    }
  });

  it('credentials.profile reads the shared credentials file', async () => {
    const bucket = await s3.bucket();
    await s3.put(bucket, 'p.txt', 'from a profile');
    const dir = mkdtempSync(join(tmpdir(), 'nekton-aws-profile-'));
    const file = join(dir, 'credentials');
    writeFileSync(
      file,
      `[emulator]\naws_access_key_id = ${S3RVER_ID}\naws_secret_access_key = ${S3RVER_SECRET}\n`,
    );
    const previous = process.env.AWS_SHARED_CREDENTIALS_FILE;
    process.env.AWS_SHARED_CREDENTIALS_FILE = file;
    const run = await startStream(`input:
  aws_s3:
    bucket: ${bucket}
    endpoint: ${s3.url}
    force_path_style_urls: true
    credentials:
      profile: emulator
output:
  capture: {}
`);
    try {
      await waitFor(() => !run.stream.active, { message: 'the input to end', timeoutMs: 10_000 });
      assert.deepEqual(run.capture.texts(), ['from a profile']);
    } finally {
      await run.stop();
      if (previous === undefined) delete process.env.AWS_SHARED_CREDENTIALS_FILE;
      else process.env.AWS_SHARED_CREDENTIALS_FILE = previous;
      rmSync(dir, { recursive: true, force: true });
    }
  });

  describe('cache', () => {
    async function buildCache(config: Record<string, unknown>): Promise<Cache> {
      const ctx = createTestContext({ path: 'root.cache_resources.0' });
      return ctx.buildCache({
        type: 'aws_s3',
        label: 'c',
        config: configOf(cacheSpec, config),
        processors: [],
        path: 'root.cache_resources.0',
        raw: {},
      });
    }
    const session = () => ({
      endpoint: s3.url,
      region: 'us-east-1',
      force_path_style_urls: true,
      credentials: { id: S3RVER_ID, secret: S3RVER_SECRET },
    });
    const text = (v: Uint8Array | undefined) => (v === undefined ? undefined : Buffer.from(v).toString());

    it('gets, sets, adds only absent keys and deletes', async () => {
      const bucket = await s3.bucket();
      const cache = await buildCache({ bucket, ...session() });
      try {
        assert.equal(await cache.get('a'), undefined);
        await cache.set('a', Buffer.from('1'));
        assert.equal(text(await cache.get('a')), '1');
        assert.equal(await cache.add('a', Buffer.from('2')), false, 'add refuses an existing key');
        assert.equal(text(await cache.get('a')), '1');
        assert.equal(await cache.add('b/c', Buffer.from('3')), true);
        assert.equal(text(await cache.get('b/c')), '3');
        assert.equal((await s3.get(bucket, 'b/c')).contentType, 'application/octet-stream');
        await cache.delete('a');
        assert.equal(await cache.get('a'), undefined, 'a deleted key reads as absent');
      } finally {
        await cache.close();
      }
    });

    it('fails naming the endpoint after its retries, and the credentials at once', async () => {
      const port = await freePort();
      const quick = { initial_interval: '10ms', max_interval: '20ms', max_elapsed_time: '100ms' };
      const unreachable = await buildCache({
        ...session(),
        bucket: 'b-x',
        endpoint: `http://127.0.0.1:${port}`,
        retries: quick,
      });
      await assert.rejects(
        unreachable.get('k'),
        new RegExp(`cannot reach endpoint http://127\\.0\\.0\\.1:${port}`),
      );
      await unreachable.close();
      const refused = await buildCache({
        ...session(),
        bucket: 'b-x',
        credentials: { id: 'NOBODY', secret: 'nope-1234' },
      });
      await assert.rejects(refused.set('k', Buffer.from('v')), (err: Error) => {
        assert.match(err.message, /refused the credentials \(check credentials\.id/);
        assert.ok(!err.message.includes('nope-1234'));
        return true;
      });
      await refused.close();
    });
  });
});
