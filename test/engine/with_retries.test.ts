// withRetries: the retry loop the caches share (redis, memcached, aws_s3, aws_dynamodb).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { withRetries } from '../../src/engine/backoff.js';

const QUICK = { initialMs: 1, maxMs: 2, maxElapsedMs: 200, multiplier: 1 };

describe('withRetries', () => {
  it('tries again until the work succeeds, telling each retry', async () => {
    let calls = 0;
    const retries: string[] = [];
    const result = await withRetries(
      QUICK,
      async () => {
        calls++;
        if (calls < 3) throw new Error(`down ${calls}`);
        return 'ok';
      },
      { describe: (err) => `op failed: ${(err as Error).message}`, onRetry: (text) => retries.push(text) },
    );
    assert.equal(result, 'ok');
    assert.deepEqual(retries, ['op failed: down 1', 'op failed: down 2']);
  });

  it('throws a fatal error at once, described, with the error as its cause', async () => {
    let calls = 0;
    const cause = new Error('refused');
    await assert.rejects(
      withRetries(
        QUICK,
        async () => {
          calls++;
          throw cause;
        },
        { describe: () => 'op: credentials refused', fatal: () => true },
      ),
      (err: Error) => err.message === 'op: credentials refused' && err.cause === cause,
    );
    assert.equal(calls, 1);
  });

  it('gives up once the elapsed budget is spent', async () => {
    let calls = 0;
    await assert.rejects(
      withRetries(
        { ...QUICK, maxElapsedMs: 30 },
        async () => {
          calls++;
          throw new Error('still down');
        },
        { describe: (err) => `op: ${(err as Error).message}` },
      ),
      /^Error: op: still down$/,
    );
    assert.ok(calls > 1, `tried ${calls} times`);
  });
});
