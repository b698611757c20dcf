// How a partial failure travels: the batcher tells each writer which of its messages failed, a
// group write names the batches that failed, retry re-sends only those, fan_out joins what its
// members report. Everything not named was delivered and must not be written again.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pino } from 'pino';
import { parseMapping } from '../../src/bloblang/index.js';
import { FanOutOutput } from '../../src/components/brokers/fan_out.js';
import { RetryOutput } from '../../src/components/outputs/retry.js';
import { SwitchOutput } from '../../src/components/outputs/switch.js';
import { BatchError, failedBatches, failedMessages, GroupWriteError } from '../../src/engine/batch_error.js';
import { Batcher, type BatchPolicy } from '../../src/engine/batching.js';
import type { ConnectionStatus, Output } from '../../src/engine/component.js';
import { writeGroupTo } from '../../src/engine/group_write.js';
import { type Batch, Message } from '../../src/message/message.js';

const batch = (...texts: string[]): Batch => texts.map((t) => new Message(t));
const texts = (b: Batch) => b.map((m) => m.text());
const policy = (count: number): BatchPolicy => ({
  count,
  byteSize: 0,
  periodMs: 0,
  check: null,
  processors: [],
});

/** An output that fails the messages `poisoned` names (a BatchError) the first `times` times they are written. */
class PoisonedOutput implements Output {
  readonly written: string[] = [];
  readonly attempts: string[][] = [];
  constructor(
    private readonly poisoned: Set<string>,
    private times = 1,
  ) {}
  async write(b: Batch): Promise<void> {
    this.attempts.push(texts(b));
    const failed = b.flatMap((m, i) => (this.poisoned.has(m.text()) && this.times > 0 ? [i] : []));
    if (failed.length > 0) this.times--;
    b.forEach((m, i) => {
      if (!failed.includes(i)) this.written.push(m.text());
    });
    if (failed.length === b.length) throw new Error('all poisoned');
    if (failed.length > 0) throw new BatchError(b, failed, new Error('poisoned'));
  }
  statuses(): ConnectionStatus[] {
    return [];
  }
  async close(): Promise<void> {}
}

/** The same with a group write: batch by batch, naming the batches that failed. */
class GroupPoisonedOutput extends PoisonedOutput {
  writeGroup(batches: readonly Batch[]): Promise<void> {
    const batchByBatch: Output = { write: (b) => this.write(b), statuses: () => [], close: async () => {} };
    return writeGroupTo(batchByBatch, batches);
  }
}

describe('partial batch failures', () => {
  it('a failed flush rejects only the writers with messages in it, naming their failed messages', async () => {
    const flushed: string[][] = [];
    const batcher = new Batcher(policy(4), async (b) => {
      flushed.push(texts(b));
      if (texts(b).includes('c')) throw new Error('batch refused');
    });
    const first = batch('a', 'b');
    const straddling = batch('c', 'd', 'e', 'f');
    const last = batch('g', 'h');
    const outcomes = await Promise.allSettled([
      batcher.add(first),
      batcher.add(straddling),
      batcher.add(last),
    ]);
    assert.deepEqual(flushed, [
      ['a', 'b', 'c', 'd'],
      ['e', 'f', 'g', 'h'],
    ]);
    assert.equal(outcomes[0].status, 'rejected', 'a and b were in the failed batch');
    assert.equal(
      failedMessages((outcomes[0] as PromiseRejectedResult).reason, first),
      null,
      'all of a, b failed',
    );
    const partial = (outcomes[1] as PromiseRejectedResult).reason;
    assert.deepEqual(
      failedMessages(partial, straddling),
      [0, 1],
      'only c and d failed; e and f were delivered',
    );
    assert.equal(outcomes[2].status, 'fulfilled');
  });

  it('a BatchError of the flushed batch maps to each writer', async () => {
    const batcher = new Batcher(policy(4), async (b) => {
      throw new BatchError(b, [2], new Error('row 2 refused'));
    });
    const one = batch('a', 'b');
    const two = batch('c', 'd');
    const [first, second] = await Promise.allSettled([batcher.add(one), batcher.add(two)]);
    assert.equal(first.status, 'fulfilled', 'a and b were delivered');
    assert.deepEqual(failedMessages((second as PromiseRejectedResult).reason, two), [0]);
  });

  it('a group written batch by batch names the batches that failed', async () => {
    const out = new PoisonedOutput(new Set(['b']));
    const group = [batch('a'), batch('b'), batch('c')];
    const err = await writeGroupTo(out, group).then(
      () => null,
      (e: unknown) => e,
    );
    assert.ok(err instanceof GroupWriteError);
    assert.deepEqual(failedBatches(err, group), [1]);
    assert.deepEqual(out.written.sort(), ['a', 'c']);
  });

  it('retry re-sends only the messages the child named as failed', async () => {
    const child = new PoisonedOutput(new Set(['b', 'd']));
    const retry = new RetryOutput(child, { initialMs: 1, maxMs: 1, maxElapsedMs: 0, multiplier: 1 }, 0);
    await retry.write(batch('a', 'b', 'c', 'd'));
    assert.deepEqual(child.attempts, [
      ['a', 'b', 'c', 'd'],
      ['b', 'd'],
    ]);
    assert.deepEqual(child.written.sort(), ['a', 'b', 'c', 'd']);
  });

  it('retry gives up with a BatchError naming only what is still undelivered', async () => {
    const child = new PoisonedOutput(new Set(['b']), 10);
    const retry = new RetryOutput(child, { initialMs: 1, maxMs: 1, maxElapsedMs: 0, multiplier: 1 }, 2);
    const written = batch('a', 'b', 'c');
    const err = await retry.write(written).then(
      () => null,
      (e: unknown) => e,
    );
    assert.deepEqual(failedMessages(err, written), [1]);
    assert.deepEqual(child.written, ['a', 'c']);
  });

  it('fan_out fails the union of what its members name, once all answered', async () => {
    const left = new PoisonedOutput(new Set(['a']));
    const right = new PoisonedOutput(new Set(['c']));
    const fanOut = new FanOutOutput();
    fanOut.set('left', left);
    fanOut.set('right', right);
    const written = batch('a', 'b', 'c', 'd');
    const err = await fanOut.write(written).then(
      () => null,
      (e: unknown) => e,
    );
    assert.deepEqual(failedMessages(err, written), [0, 2], 'b and d reached both members');
  });

  it('switch fails only the messages routed to the case that failed', async () => {
    const vowels = new PoisonedOutput(new Set(['a']));
    const others = new PoisonedOutput(new Set());
    const route = new SwitchOutput(
      [
        {
          check: parseMapping('root = ["a", "e"].contains(content().string())'),
          output: vowels,
          continue: false,
        },
        { check: null, output: others, continue: false },
      ],
      false,
      pino({ level: 'silent' }),
    );
    const written = batch('a', 'b', 'e', 'c');
    const err = await route.write(written).then(
      () => null,
      (e: unknown) => e,
    );
    assert.deepEqual(failedMessages(err, written), [0], 'b, e and c were written');
    assert.deepEqual(others.written, ['b', 'c']);
  });

  it('switch fails only the batches of a group whose case failed', async () => {
    const left = new GroupPoisonedOutput(new Set(['x']));
    const right = new GroupPoisonedOutput(new Set());
    const route = new SwitchOutput(
      [
        {
          check: parseMapping('root = content().string().has_prefix("x")'),
          output: left,
          continue: false,
        },
        { check: null, output: right, continue: false },
      ],
      false,
      pino({ level: 'silent' }),
    );
    const group = [batch('a'), batch('x'), batch('b', 'xy')];
    const err = await route.writeGroup!(group).then(
      () => null,
      (e: unknown) => e,
    );
    assert.deepEqual(failedBatches(err, group), [1], 'the batches without x were written');
  });

  it('fan_out_sequential reports a partial failure as a whole one (later members got nothing)', async () => {
    const first = new PoisonedOutput(new Set(['a']));
    const second = new PoisonedOutput(new Set());
    const fanOut = new FanOutOutput({ sequential: true, copyPerMember: false });
    fanOut.set('first', first);
    fanOut.set('second', second);
    const written = batch('a', 'b');
    const err = await fanOut.write(written).then(
      () => null,
      (e: unknown) => e,
    );
    assert.ok(err instanceof Error);
    assert.equal(failedMessages(err, written), null);
    assert.deepEqual(second.written, []);
  });
});
