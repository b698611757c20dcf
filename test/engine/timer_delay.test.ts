// Delays beyond Node's 32-bit timer limit must wait (long), not fire at once.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sleep } from '../../src/engine/backoff.js';
import { MAX_TIMER_DELAY_MS, timerDelay } from '../../src/engine/timer_delay.js';

describe('timer delays', () => {
  it('are clamped to what a timer can wait, and never negative', () => {
    assert.equal(timerDelay(1000 * 3600 * 1000), MAX_TIMER_DELAY_MS);
    assert.equal(timerDelay(1500), 1500);
    assert.equal(timerDelay(-5), 0);
  });

  it('a sleep of 1000 hours is still pending after 50 ms (it used to fire after 1 ms)', async () => {
    const abort = new AbortController();
    const slept = sleep(1000 * 3600 * 1000, abort.signal);
    const first = await Promise.race([
      slept.then(() => 'woke'),
      new Promise((r) => setTimeout(() => r('waiting'), 50)),
    ]);
    assert.equal(first, 'waiting');
    abort.abort();
    assert.equal(await slept, false);
  });
});
