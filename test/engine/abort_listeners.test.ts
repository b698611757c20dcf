// Many writes retrying at once each wait on their component's stop signal: that must not trip
// Node's "possible EventTarget memory leak" warning (it did at 11, e.g. an http_client with
// max_in_flight 64 against a server that is down).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pino } from 'pino';
import { RetryOutput } from '../../src/components/outputs/retry.js';
import type { ConnectionStatus, Output } from '../../src/engine/component.js';
import { Message } from '../../src/message/message.js';

class FailingTwice implements Output {
  private attempts = new Map<string, number>();
  async write(batch: Message[]): Promise<void> {
    const key = batch[0]!.text();
    const n = (this.attempts.get(key) ?? 0) + 1;
    this.attempts.set(key, n);
    if (n <= 2) throw new Error('down');
  }
  statuses(): ConnectionStatus[] {
    return [];
  }
  async close(): Promise<void> {}
}

describe('stop signals shared by concurrent waits', () => {
  it('64 writes backing off at once print no MaxListenersExceededWarning', async () => {
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.name);
    process.on('warning', onWarning);
    try {
      const backoff = { initialMs: 5, maxMs: 5, maxElapsedMs: 0 };
      const output = new RetryOutput(new FailingTwice(), backoff, 0, pino({ level: 'silent' }));
      await Promise.all(Array.from({ length: 64 }, (_, i) => output.write([new Message(`m${i}`)])));
      await output.close();
      await new Promise((r) => setImmediate(r));
      assert.deepEqual(
        warnings.filter((w) => w === 'MaxListenersExceededWarning'),
        [],
      );
    } finally {
      process.off('warning', onWarning);
    }
  });
});
