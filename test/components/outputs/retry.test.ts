import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { describe, it } from 'node:test';
import { RetryOutput, spec } from '../../../src/components/outputs/retry.js';
import { Message } from '../../../src/message/message.js';
import { childConfig, contextWith, ScriptedOutput } from './scripted_output.js';

const fast = { initial_interval: '1ms', max_interval: '5ms', max_elapsed_time: '0s' };

describe('retry output', () => {
  it('retries a failed write until it succeeds', async () => {
    const inner = new ScriptedOutput('flaky', (attempt) => attempt <= 3);
    const out = await spec.build(
      { max_retries: 0, backoff: fast, output: childConfig('flaky') },
      contextWith([inner]),
    );
    await out.write([new Message('hello')]);
    assert.equal(inner.attempts, 4);
    assert.equal(inner.delivered.length, 1);
    assert.equal(inner.delivered[0]![0]!.text(), 'hello');
  });

  it('gives up after max_retries and rejects so the input nacks', async () => {
    const inner = new ScriptedOutput('broken', () => true);
    const out = await spec.build(
      { max_retries: 2, backoff: fast, output: childConfig('broken') },
      contextWith([inner]),
    );
    await assert.rejects(out.write([new Message('x')]), /failed to reach a target destination/);
    assert.equal(inner.attempts, 3, 'one attempt plus two retries');
  });

  it('gives up once max_elapsed_time has passed', async () => {
    const inner = new ScriptedOutput('broken', () => true);
    const out = new RetryOutput(inner, { initialMs: 5, maxMs: 5, maxElapsedMs: 30 }, 0);
    const started = Date.now();
    await assert.rejects(out.write([new Message('x')]));
    assert.ok(Date.now() - started >= 25);
    // It retried before giving up; how many times depends on timers on a loaded machine (a 5 ms
    // wait that took 30 ms left room for only two attempts in one CI run).
    assert.ok(inner.attempts >= 2, `${inner.attempts} attempts`);
  });

  it('gives each attempt fresh copies of the messages', async () => {
    const seen: Message[] = [];
    const inner = new ScriptedOutput('mutating', (attempt) => attempt === 1);
    const write = inner.write.bind(inner);
    inner.write = async (batch) => {
      seen.push(batch[0]!);
      batch[0]!.setMeta('touched', true);
      return write(batch);
    };
    const original = new Message('m');
    await new RetryOutput(inner, { initialMs: 1, maxMs: 1, maxElapsedMs: 0 }, 0).write([original]);
    assert.equal(seen.length, 2);
    assert.notEqual(seen[0], seen[1]);
    assert.equal(original.getMeta('touched'), undefined);
  });

  it('holds new writes while a batch is being retried, keeping order', async () => {
    const inner = new ScriptedOutput('slow', (attempt) => attempt <= 2);
    const out = new RetryOutput(inner, { initialMs: 10, maxMs: 10, maxElapsedMs: 0 }, 0);
    const first = out.write([new Message('first')]);
    await new Promise((r) => setTimeout(r, 1));
    const second = out.write([new Message('second')]);
    await Promise.all([first, second]);
    assert.deepEqual(
      inner.delivered.map((b) => b[0]!.text()),
      ['first', 'second'],
    );
  });

  it('rejects a pending retry when closed and closes the child', async () => {
    const inner = new ScriptedOutput('broken', () => true);
    const out = new RetryOutput(inner, { initialMs: 10_000, maxMs: 10_000, maxElapsedMs: 0 }, 0);
    const pending = out.write([new Message('x')]);
    await new Promise((r) => setTimeout(r, 5));
    await out.close();
    await assert.rejects(pending, /closed while retrying/);
    assert.equal(inner.closed, true);
  });

  it('lets go of the stream signal when closed (dynamic members come and go on one stream)', async () => {
    const stream = new AbortController();
    for (let i = 0; i < 20; i++) {
      const out = new RetryOutput(
        new ScriptedOutput('ok', () => false),
        { initialMs: 1, maxMs: 1, maxElapsedMs: 0 },
        0,
        undefined,
        stream.signal,
      );
      await out.close();
    }
    assert.equal(getEventListeners(stream.signal, 'abort').length, 0);
  });
});
