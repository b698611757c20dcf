// The `kafka` output's retry loop (RetryingKafkaWriter) with a stand-in inner writer: a refused
// write is sent again after the backoff, and many writes backing off at once (up to max_in_flight)
// wait on one stop signal without Node's listener-leak warning.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RetryingKafkaWriter } from '../../../src/components/outputs/kafka.js';
import type { OutputWriter } from '../../../src/engine/component.js';
import type { Batch } from '../../../src/message/message.js';
import { Message } from '../../../src/message/message.js';
import { listenerLeakWarnings } from '../../helpers/kit.js';

/** Refuses each batch `refusals` times, then takes it. */
function refusingWriter(refusals: number): OutputWriter & { attempts: Map<Batch, number> } {
  const attempts = new Map<Batch, number>();
  return {
    attempts,
    async connect() {},
    async write(batch: Batch) {
      const n = (attempts.get(batch) ?? 0) + 1;
      attempts.set(batch, n);
      if (n <= refusals) throw new Error('NOT_ENOUGH_REPLICAS');
    },
    async close() {},
  };
}

const BACKOFF = { initialMs: 5, maxMs: 20, maxElapsedMs: 0 };

describe('kafka output retries', () => {
  it('sends a refused batch again after the backoff until it is taken', async () => {
    const inner = refusingWriter(2);
    const writer = new RetryingKafkaWriter(inner, 0, BACKOFF);
    const batch = [new Message('a')];
    await writer.write(batch);
    assert.equal(inner.attempts.get(batch), 3);
    await writer.close();
  });

  it('gives up after max_retries with the last error', async () => {
    const inner = refusingWriter(10);
    const writer = new RetryingKafkaWriter(inner, 2, BACKOFF);
    const batch = [new Message('a')];
    await assert.rejects(writer.write(batch), /NOT_ENOUGH_REPLICAS/);
    assert.equal(inner.attempts.get(batch), 3);
    await writer.close();
  });

  it('backs off for many batches at once without a listener-leak warning', async () => {
    const inner = refusingWriter(1);
    const writer = new RetryingKafkaWriter(inner, 0, BACKOFF);
    const warnings = await listenerLeakWarnings(async () => {
      await Promise.all(Array.from({ length: 30 }, (_, i) => writer.write([new Message(`${i}`)])));
    });
    assert.deepEqual(warnings, []);
    assert.equal(inner.attempts.size, 30);
    await writer.close();
  });
});
