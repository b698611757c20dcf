// The aws_s3 input, output and cache against s3rver, an S3 emulator from npm run by the test
// itself (a dev dependency: nothing to install, nothing to skip).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { spec as cacheSpec } from '../../../src/components/caches/aws_s3.js';
import { registry } from '../../../src/components/registry.js';
import { bloblangChecker } from '../../../src/config/bloblang_check.js';
import { formatApiLint } from '../../../src/config/lint.js';
import { lintStreamConfig } from '../../../src/config/lint_config.js';
import { schemaProvider } from '../../../src/config/schema.js';
import { scrubServiceConfig } from '../../../src/config/scrub.js';
import { parseYaml, yamlToValue } from '../../../src/config/yaml_document.js';
import type { Cache } from '../../../src/engine/component.js';
import { createTestContext } from '../../helpers/context.js';
import { freePort, waitFor } from '../../helpers/kit.js';
import { type RunningStream, startStream } from '../nats/harness.js';
import { configOf } from '../reference.js';
import { PrivateS3, S3RVER_ID, S3RVER_SECRET } from './harness.js';

const lint = (text: string) =>
  lintStreamConfig(parseYaml(text), { provider: schemaProvider(registry), bloblang: bloblangChecker }).map(
    formatApiLint,
  );

/** `${! query }`, spelled so it is not mistaken for a JavaScript template. */
const interp = (query: string) => `$\{! ${query} }`;

function inputError(run: RunningStream): string | undefined {
  return run.stream.statuses().find((s) => s.path.startsWith('input') && !s.connected && s.error)?.error;
}

function outputError(run: RunningStream): string | undefined {
  return run.stream.statuses().find((s) => s.path.startsWith('output') && !s.connected && s.error)?.error;
}

describe('aws_s3 (s3rver)', () => {
  let s3: PrivateS3;

  before(async () => {
    s3 = await PrivateS3.start();
  });

  after(async () => {
    await s3?.dispose();
  });

  it('input: walks the keys under the prefix, splits objects with the scanner and sets the metadata', async () => {
    const bucket = await s3.bucket();
    await s3.put(bucket, 'logs/a.txt', 'a1\na2\n', {
      contentType: 'text/plain',
      metadata: { origin: 'test' },
    });
    await s3.put(bucket, 'logs/b.txt', 'b1\n');
    await s3.put(bucket, 'other/c.txt', 'not listed\n');
    const run = await startStream(`input:
  aws_s3:
    bucket: ${bucket}
    prefix: logs/
${s3.session()}
    scanner:
      lines: {}
output:
  capture: {}
`);
    try {
      await waitFor(() => !run.stream.active, { message: 'the input to end', timeoutMs: 10_000 });
      assert.deepEqual(run.capture.texts(), ['a1', 'a2', 'b1']);
      const first = run.capture.messages[0];
      assert.equal(first?.getMeta('s3_key'), 'logs/a.txt');
      assert.equal(first?.getMeta('s3_bucket'), bucket);
      assert.equal(first?.getMeta('s3_content_type'), 'text/plain');
      assert.equal(first?.getMeta('origin'), 'test', 'user-defined metadata');
      assert.match(String(first?.getMeta('s3_last_modified')), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      const unix = first?.getMeta('s3_last_modified_unix');
      assert.equal(typeof unix, 'number');
      assert.ok(Math.abs((unix as number) - Date.now() / 1000) < 3600, 'a recent modification time');
      assert.equal(run.capture.messages[2]?.getMeta('s3_key'), 'logs/b.txt');
      assert.deepEqual(
        await s3.keys(bucket, 'logs/'),
        ['logs/a.txt', 'logs/b.txt'],
        'nothing deleted by default',
      );
    } finally {
      await run.stop();
    }
  });

  it('input: pages through more than one listing, one message per object by default', async () => {
    const bucket = await s3.bucket();
    const keys = Array.from({ length: 130 }, (_, i) => `k${String(i).padStart(3, '0')}`);
    await Promise.all(keys.map((k) => s3.put(bucket, k, `body of ${k}`)));
    const run = await startStream(`input:
  aws_s3:
    bucket: ${bucket}
${s3.session()}
output:
  capture: {}
`);
    try {
      await waitFor(() => !run.stream.active, { message: 'the input to end', timeoutMs: 20_000 });
      assert.deepEqual(
        run.capture.texts(),
        keys.map((k) => `body of ${k}`),
      );
    } finally {
      await run.stop();
    }
  });

  it('input: a nacked message is delivered again, and delete_objects deletes each object only once delivered', async () => {
    const bucket = await s3.bucket();
    await s3.put(bucket, 'one', 'x\ny\n');
    await s3.put(bucket, 'two', 'z\n');
    const run = await startStream(`input:
  aws_s3:
    bucket: ${bucket}
    delete_objects: true
${s3.session()}
    scanner:
      lines: {}
output:
  capture: {}
`);
    let refusedOnce = false;
    const keysWhenRefused: string[][] = [];
    run.capture.failWhen = (m) => {
      if (m.text() !== 'y' || refusedOnce) return false;
      refusedOnce = true;
      return true;
    };
    try {
      await waitFor(() => !run.stream.active, { message: 'the input to end', timeoutMs: 10_000 });
      assert.equal(run.capture.failures, 1, 'y was refused once');
      assert.deepEqual(run.capture.texts().sort(), ['x', 'y', 'z'], 'y delivered on the replay');
      keysWhenRefused.push(await s3.keys(bucket));
      assert.deepEqual(keysWhenRefused[0], [], 'both objects deleted once delivered');
    } finally {
      await run.stop();
    }
  });

  it('input: an object is not deleted while one of its messages is undelivered', async () => {
    const bucket = await s3.bucket();
    await s3.put(bucket, 'held', 'p\nq\n');
    const run = await startStream(`input:
  aws_s3:
    bucket: ${bucket}
    delete_objects: true
${s3.session()}
    scanner:
      lines: {}
output:
  capture: {}
`);
    let refuse = true;
    run.capture.failWhen = (m) => refuse && m.text() === 'q';
    try {
      await waitFor(() => run.capture.failures >= 2, { message: 'q refused twice', timeoutMs: 10_000 });
      assert.deepEqual(run.capture.texts(), ['p']);
      assert.deepEqual(await s3.keys(bucket), ['held'], 'kept while q is undelivered');
      refuse = false;
      await waitFor(() => !run.stream.active, { message: 'the input to end', timeoutMs: 10_000 });
      assert.deepEqual(run.capture.texts(), ['p', 'q']);
      assert.deepEqual(await s3.keys(bucket), [], 'deleted once q was delivered');
    } finally {
      await run.stop();
    }
  });

  it('input: waits for a server that is down, reports it on /ready, and reads everything once it is up', async () => {
    const bucket = await s3.bucket();
    for (let i = 0; i < 30; i++) await s3.put(bucket, `o${String(i).padStart(2, '0')}`, `m${i}`);
    await s3.stop();
    let run: RunningStream | null = null;
    try {
      run = await startStream(`input:
  aws_s3:
    bucket: ${bucket}
${s3.session()}
pipeline:
  processors:
    - sleep:
        duration: 20ms
output:
  capture: {}
`);
      const r = run;
      const down = await waitFor(() => inputError(r), {
        message: 'the input to report the outage',
        timeoutMs: 10_000,
      });
      assert.match(down ?? '', new RegExp(`cannot reach endpoint http://127\\.0\\.0\\.1:${s3.port}`));
      assert.equal(r.stream.isReady(), false);
      await s3.restart();
      await waitFor(() => r.capture.messages.length >= 5, {
        message: 'messages after the start',
        timeoutMs: 15_000,
      });
      // Down again in the middle of the bucket: the input reconnects and goes on.
      await s3.stop();
      await waitFor(() => inputError(r), {
        message: 'the input to report the second outage',
        timeoutMs: 10_000,
      });
      await s3.restart();
      await waitFor(() => !r.stream.active, { message: 'the input to end', timeoutMs: 20_000 });
      const got = new Set(r.capture.texts());
      for (let i = 0; i < 30; i++) assert.ok(got.has(`m${i}`), `m${i} delivered`);
    } finally {
      await s3.restart();
      await run?.stop();
    }
  });

  it('input: refused credentials and a missing bucket are reported naming what to fix, never the secret', async () => {
    const bucket = await s3.bucket();
    const secret = 'wrong-secret-5521';
    const badCreds = await startStream(`input:
  aws_s3:
    bucket: ${bucket}
    endpoint: ${s3.url}
    force_path_style_urls: true
    credentials:
      id: NOBODY
      secret: ${secret}
output:
  capture: {}
`);
    const missing = await startStream(`input:
  aws_s3:
    bucket: no-such-bucket-here
${s3.session()}
output:
  capture: {}
`);
    try {
      const err = await waitFor(() => inputError(badCreds), {
        message: 'credentials error',
        timeoutMs: 10_000,
      });
      assert.match(err ?? '', /refused the credentials \(check credentials\.id, credentials\.secret/);
      assert.ok(!(err ?? '').includes(secret), 'the secret is not in the error');
      const gone = await waitFor(() => inputError(missing), { message: 'bucket error', timeoutMs: 10_000 });
      assert.match(gone ?? '', /listing bucket 'no-such-bucket-here'.*NoSuchBucket/);
      assert.equal(badCreds.capture.messages.length + missing.capture.messages.length, 0);
    } finally {
      await badCreds.stop();
      await missing.stop();
    }
  });

  it('output: one object per message at the interpolated path, with content type, encoding and metadata', async () => {
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

describe('aws_s3 lint and secrets', () => {
  const output = '  drop: {}\n';
  it('refuses the SQS mode, assumed roles, EC2 roles, a bad endpoint and a missing bucket, naming the field', () => {
    assert.deepEqual(
      lint(
        `input:\n  aws_s3:\n    bucket: b\n    sqs:\n      url: https://sqs.us-east-1.amazonaws.com/1/q\noutput:\n${output}`,
      ),
      [
        '(3,1) sqs.url: the SQS notification mode is not supported by nekton (no local SQS to test it against); leave sqs.url empty to walk the bucket',
      ],
    );
    assert.match(
      lint(
        `input:\n  aws_s3:\n    bucket: b\n    credentials:\n      role: arn:aws:iam::1:role/r\noutput:\n${output}`,
      ).join(),
      /credentials\.role: assuming a role \(STS\) is not supported/,
    );
    assert.match(
      lint(
        `input:\n  generate:\n    mapping: root = 1\noutput:\n  aws_s3:\n    bucket: b\n    credentials:\n      from_ec2_role: true\n`,
      ).join(),
      /credentials\.from_ec2_role: EC2 instance roles are not supported/,
    );
    assert.match(
      lint(
        `input:\n  aws_s3:\n    bucket: b\n    tcp:\n      tcp_user_timeout: 5s\noutput:\n${output}`,
      ).join(),
      /tcp\.tcp_user_timeout: Node\.js cannot set a TCP user timeout/,
    );
    assert.match(
      lint(`input:\n  aws_s3:\n    bucket: b\n    endpoint: 127.0.0.1:9000\noutput:\n${output}`).join(),
      /endpoint: '127\.0\.0\.1:9000' is not an http:\/\/ or https:\/\/ URL/,
    );
    assert.deepEqual(lint(`input:\n  aws_s3:\n    prefix: x/\noutput:\n${output}`), [
      '(3,1) bucket is required (the bucket to walk)',
    ]);
    assert.deepEqual(
      lint(
        `input:\n  aws_s3:\n    bucket: b\n    endpoint: http://127.0.0.1:9000\n    credentials:\n      id: a\n      secret: b\noutput:\n${output}`,
      ),
      [],
      'a plain config lints clean',
    );
  });

  it('a build of a refused config fails the same way (dynamic members, direct builds)', async () => {
    const ctx = createTestContext({ path: 'root.cache_resources.0' });
    await assert.rejects(
      ctx.buildCache({
        type: 'aws_s3',
        label: 'c',
        config: configOf(cacheSpec, { bucket: 'b', credentials: { role: 'arn:aws:iam::1:role/r' } }),
        processors: [],
        path: 'root.cache_resources.0',
        raw: {},
      }),
      /credentials\.role: assuming a role/,
    );
  });

  it('echo scrubs the credentials secret and session token', () => {
    const raw = yamlToValue(
      parseYaml(
        `input:\n  aws_s3:\n    bucket: b\n    credentials:\n      id: AKIAEXAMPLE\n      secret: s3cr3t-value-99\n      token: sess-token-77\noutput:\n  drop: {}\n`,
      ),
    );
    const shown = JSON.stringify(scrubServiceConfig(raw, schemaProvider(registry)));
    assert.ok(!shown.includes('s3cr3t-value-99'), shown);
    assert.ok(!shown.includes('sess-token-77'), shown);
    assert.match(shown, /AKIAEXAMPLE/);
  });
});
