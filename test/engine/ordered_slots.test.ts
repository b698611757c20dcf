import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { OrderedSlots } from '../../src/engine/ordered_slots.js';

describe('OrderedSlots', () => {
  it('takes free slots without a promise and queues the rest in order', async () => {
    const slots = new OrderedSlots(2);
    assert.equal(slots.acquire(), undefined);
    assert.equal(slots.acquire(), undefined);
    const order: string[] = [];
    const a = slots.acquire()!.then(() => order.push('a'));
    const b = slots.acquire()!.then(() => order.push('b'));
    assert.equal(slots.tryTake(1), false, 'a newcomer may not overtake queued waiters');
    slots.release();
    slots.release();
    await Promise.all([a, b]);
    assert.deepEqual(order, ['a', 'b']);
  });

  it('runs a weighted job only once its whole weight is free, inside release', () => {
    const slots = new OrderedSlots(4);
    assert.equal(slots.tryTake(3), true);
    let ran = false;
    void slots.whenFree(3, () => {
      ran = true;
    });
    slots.release(1);
    assert.equal(ran, false, 'two free slots are not enough for a weight of three');
    slots.release(2);
    assert.equal(ran, true, 'the job runs synchronously when its slots free up');
    assert.equal(slots.tryTake(2), false, 'the job holds three of four slots');
    assert.equal(slots.tryTake(1), true);
  });

  it('waits for bytes as for slots, and lets a job larger than the byte budget run alone', () => {
    const slots = new OrderedSlots(10, 100);
    assert.equal(slots.tryTake(1, 60), true);
    assert.equal(slots.tryTake(1, 50), false, '60 + 50 bytes are over the budget of 100');
    let ran = false;
    void slots.whenFree(
      1,
      () => {
        ran = true;
      },
      500,
    );
    assert.equal(ran, false, 'a job of 500 bytes waits while anything holds bytes');
    slots.release(1, 60);
    assert.equal(ran, true, 'once nothing holds bytes, it takes the whole budget');
    assert.equal(slots.tryTake(1, 1), false, 'and nothing else fits beside it');
    slots.release(1, 500);
    assert.equal(slots.tryTake(1, 100), true);
  });
});
