import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MemoryBuffer, spec } from '../../../src/components/buffers/memory.js';
import type { Transaction } from '../../../src/engine/component.js';
import { Message } from '../../../src/message/message.js';
import { createTestContext } from '../../helpers/context.js';

/** A transaction whose acks are recorded in `acks`. */
function txn(acks: string[], ...texts: string[]): Transaction {
  return {
    batch: texts.map((t) => new Message(t)),
    ack: async (err) => {
      acks.push(`${texts.join(',')}:${err ? 'nack' : 'ack'}`);
    },
  };
}

const settledWithin = async (p: Promise<unknown>, ms: number) =>
  Promise.race([p.then(() => true), new Promise((r) => setTimeout(() => r(false), ms))]);

describe('memory buffer', () => {
  it('acks the input as soon as a batch is stored, before anything is read', async () => {
    const acks: string[] = [];
    const buffer = new MemoryBuffer(1000);
    await buffer.write(txn(acks, 'a', 'b'));
    assert.deepEqual(acks, ['a,b:ack']);
    const read = await buffer.read();
    assert.deepEqual(
      read?.batch.map((m) => m.text()),
      ['a', 'b'],
    );
  });

  it('blocks writes at its byte limit until stored batches are acknowledged downstream', async () => {
    const acks: string[] = [];
    const buffer = new MemoryBuffer(10);
    await buffer.write(txn(acks, '12345'));
    await buffer.write(txn(acks, '67890'));
    const third = buffer.write(txn(acks, 'abc'));
    assert.equal(await settledWithin(third, 30), false, 'the write should wait for room');
    assert.equal(buffer.storedBytes, 10);

    const first = await buffer.read();
    assert.equal(await settledWithin(third, 30), false, 'reading alone does not free room; the ack does');
    await first!.ack(null);
    assert.equal(await settledWithin(third, 100), true);
    assert.deepEqual(acks, ['12345:ack', '67890:ack', 'abc:ack']);
  });

  it('lets a batch larger than the limit through alone once the buffer is empty', async () => {
    const acks: string[] = [];
    const buffer = new MemoryBuffer(4);
    await buffer.write(txn(acks, 'ab'));
    const big = buffer.write(txn(acks, 'way too large'));
    assert.equal(await settledWithin(big, 30), false);
    await (await buffer.read())!.ack(null);
    assert.equal(await settledWithin(big, 100), true);
    assert.equal((await buffer.read())!.batch[0]!.text(), 'way too large');
  });

  it('redelivers a nacked batch before newer ones', async () => {
    const buffer = new MemoryBuffer(1000);
    await buffer.write(txn([], 'first'));
    await buffer.write(txn([], 'second'));
    const first = await buffer.read();
    await first!.ack(new Error('downstream failed'));
    assert.equal((await buffer.read())!.batch[0]!.text(), 'first');
  });

  it('ends reads with null after end of input once everything was acknowledged', async () => {
    const buffer = new MemoryBuffer(1000);
    await buffer.write(txn([], 'last'));
    buffer.endOfInput();
    const item = await buffer.read();
    const end = buffer.read();
    assert.equal(await settledWithin(end, 30), false, 'an unacknowledged batch may still come back');
    await item!.ack(null);
    assert.equal(await end, null);
  });

  it('hands a waiting reader the next stored batch', async () => {
    const buffer = new MemoryBuffer(1000);
    const pending = buffer.read();
    await buffer.write(txn([], 'x'));
    assert.equal((await pending)!.batch[0]!.text(), 'x');
  });

  it('groups messages with an enabled batch_policy', async () => {
    const buffer = await spec.build(
      {
        limit: 1000,
        batch_policy: { enabled: true, count: 3, byte_size: 0, period: '', check: '', processors: [] },
      },
      createTestContext(),
    );
    await buffer.write(txn([], 'a', 'b'));
    await buffer.write(txn([], 'c', 'd'));
    const first = await buffer.read();
    assert.deepEqual(
      first!.batch.map((m) => m.text()),
      ['a', 'b', 'c'],
    );
    buffer.endOfInput();
    const rest = await buffer.read();
    assert.deepEqual(
      rest!.batch.map((m) => m.text()),
      ['d'],
    );
    await first!.ack(null);
    await rest!.ack(null);
    assert.equal(await buffer.read(), null);
  });

  it('closing ends pending reads and writes', async () => {
    const buffer = new MemoryBuffer(1);
    await buffer.write(txn([], 'ab'));
    const blocked = buffer.write(txn([], 'cd'));
    await buffer.close();
    await assert.rejects(blocked, /closed/);
    assert.equal(await buffer.read(), null);
  });
});
