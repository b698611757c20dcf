// The retry processor: each message alone through the children until no result is errored,
// always from the message as it arrived; limits by max_retries and max_elapsed_time.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Message } from '../../../src/message/message.js';
import { createTestEnv } from '../../helpers/context.js';
import { batchOf, lintComponent, processor, run, texts } from '../bloblang_components/build.js';

const fast = { initial_interval: '1ms', max_interval: '2ms', max_elapsed_time: '0s' };

describe('retry processor', () => {
  it('retries from the original message until the children succeed, and counts the retries', async () => {
    const p = await processor({
      retry: {
        backoff: fast,
        processors: [
          { mutation: 'root.attempts = (this.attempts | 0) + 1' },
          { mapping: 'root = if counter() < 3 { throw("not yet") } else { this }' },
        ],
      },
    });
    const input = new Message('{"id":1}');
    input.error = new Error('an old failure');
    const [[out]] = await run(p, [input]);
    // Mutations of failed attempts are discarded: the successful attempt saw the original.
    assert.equal(out!.text(), '{"attempts":1,"id":1}');
    assert.equal(out!.error, null);
    assert.equal(out!.getMeta('retry_count'), 2);
    assert.match(String(out!.getMeta('backoff_duration')), /^\d+(\.\d+)?(ms|µs|s)$/);
    assert.equal(input.text(), '{"id":1}');
  });

  it('passes the errored result on once max_retries is reached', async () => {
    const p = await processor({
      retry: { backoff: fast, max_retries: 3, processors: [{ mapping: 'root = throw("always")' }] },
    });
    const [[out]] = await run(p, batchOf('{"id":2}'));
    assert.equal(out!.text(), '{"id":2}');
    assert.match(out!.error!.message, /always/);
    assert.equal(out!.getMeta('retry_count'), 3);
  });

  it('stops at max_elapsed_time', async () => {
    const p = await processor({
      retry: {
        backoff: { initial_interval: '5ms', max_interval: '5ms', max_elapsed_time: '20ms' },
        processors: [{ mapping: 'root = throw("always")' }],
      },
    });
    const [[out]] = await run(p, batchOf('x'));
    assert.ok(out!.error);
    assert.ok((out!.getMeta('retry_count') as number) >= 1);
  });

  it('retries each message of a batch alone and keeps all results in order, in parallel too', async () => {
    for (const parallel of [false, true]) {
      const p = await processor({
        retry: {
          backoff: fast,
          parallel,
          processors: [
            { mapping: 'root = if this.n == 2 && counter() < 3 { throw("flaky") } else { this }' },
            { unarchive: { format: 'json_array' } },
          ],
        },
      });
      const out = await run(p, batchOf('[{"n":1}]', '[{"n":2},{"n":22}]', '[{"n":3}]'));
      assert.deepEqual(texts(out), [['{"n":1}', '{"n":2}', '{"n":22}', '{"n":3}']]);
      assert.ok(out[0]!.every((m) => m.error === null));
    }
  });

  it('fails the batch when the stream stops during a backoff wait', async () => {
    const env = createTestEnv();
    const p = await processor(
      {
        retry: {
          backoff: { initial_interval: '10s', max_interval: '10s', max_elapsed_time: '0s' },
          processors: [{ mapping: 'root = throw("down")' }],
        },
      },
      env,
    );
    const pending = p.process(batchOf('x'));
    setImmediate(() => env.abort.abort());
    // A processor that throws fails the whole batch: every message comes out flagged.
    const [[out]] = await pending;
    assert.equal(out!.text(), 'x');
    assert.match(out!.error!.message, /context canceled/);
  });

  it('does not lint without child processors', () => {
    assert.deepEqual(lintComponent('processor', 'retry:\n  processors: []\n'), [
      'at least one child processor must be specified',
    ]);
  });
});
