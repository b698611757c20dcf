// The aws_s3 input against s3rver, an S3 emulator from npm run by the test itself (a dev
// dependency: nothing to install, nothing to skip).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { waitFor } from '../../helpers/kit.js';
import { type RunningStream, startStream } from '../nats/harness.js';
import { PrivateS3 } from './harness.js';

function inputError(run: RunningStream): string | undefined {
  return run.stream.statuses().find((s) => s.path.startsWith('input') && !s.connected && s.error)?.error;
}

describe('aws_s3 input (s3rver)', () => {
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
});
