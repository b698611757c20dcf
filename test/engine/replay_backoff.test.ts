// Replays of nacked batches (auto_replay_nacks) back off per batch: a message that fails every
// time is retried ever more slowly, while other messages keep flowing, and a replay still
// waiting when the input closes goes back to its source as a nack.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pino } from 'pino';
import type { InputReader, Transaction } from '../../src/engine/component.js';
import { ReaderInput, replayDelayMs } from '../../src/engine/input_wrapper.js';
import { noopScope } from '../../src/engine/noop_metrics.js';
import { Message } from '../../src/message/message.js';

/** A reader of a fixed list, then the end; records how each message was settled at the source. */
class ListReader implements InputReader {
  readonly settled = new Map<string, Array<string | null>>();
  constructor(private readonly texts: string[]) {}
  async connect(): Promise<void> {}
  async read(): Promise<Transaction | null> {
    const text = this.texts.shift();
    if (text === undefined) return null;
    return {
      batch: [new Message(text)],
      ack: async (err) => {
        this.settled.set(text, [...(this.settled.get(text) ?? []), err?.message ?? null]);
      },
    };
  }
  async close(): Promise<void> {}
}

function replaying(reader: InputReader): ReaderInput {
  const id = { label: '', path: 'root.input', logger: pino({ level: 'silent' }), metrics: noopScope };
  return new ReaderInput(reader, id, true);
}

describe('replay backoff', () => {
  it('replays at once the first time, then after 1, 2, 4 ms ... up to a second', () => {
    assert.deepEqual([1, 2, 3, 4, 5, 11, 12, 40].map(replayDelayMs), [0, 1, 2, 4, 8, 512, 1000, 1000]);
  });

  it('a message nacked every time is retried a handful of times, while the others are delivered', async () => {
    const reader = new ListReader(['bad', 'a', 'b', 'c']);
    const input = replaying(reader);
    const delivered: string[] = [];
    let badAttempts = 0;
    const started = performance.now();
    // The consumer stops reading by itself once it has what the test needs, so no replay can be
    // handed out after that (one handed out and nacked after the close goes to the source with
    // the consumer's own error, which is right but not what this test looks at).
    const consume = (async () => {
      while (delivered.length < 3 || badAttempts < 6) {
        const txn = await input.read();
        if (!txn) return;
        const text = txn.batch[0]!.text();
        if (text === 'bad') {
          badAttempts++;
          void txn.ack(new Error('always fails'));
        } else {
          delivered.push(text);
          void txn.ack(null);
        }
      }
    })();
    await consume;
    const elapsed = performance.now() - started;
    await input.close();
    assert.deepEqual(delivered, ['a', 'b', 'c']);
    // Attempts 2 to 6 waited 0, 1, 2, 4 and 8 ms first: at least 15 ms in all (without backoff
    // six attempts take microseconds). A loaded machine only makes it slower, never faster.
    assert.ok(elapsed >= 15, `six attempts in ${elapsed.toFixed(1)} ms`);
    // The replay still waiting was handed back to its source as a nack, not forgotten.
    assert.deepEqual(reader.settled.get('bad'), ['input closed before replay']);
    assert.deepEqual(reader.settled.get('a'), [null]);
  });

  it('an ended source waits for a delayed replay instead of ending without it', async () => {
    const reader = new ListReader(['x']);
    const input = replaying(reader);
    let failures = 2;
    const seen: string[] = [];
    for (;;) {
      const txn = await input.read();
      if (!txn) break;
      seen.push(txn.batch[0]!.text());
      void txn.ack(failures-- > 0 ? new Error('not yet') : null);
    }
    await input.close();
    assert.deepEqual(seen, ['x', 'x', 'x']);
    assert.deepEqual(reader.settled.get('x'), [null]);
  });
});
