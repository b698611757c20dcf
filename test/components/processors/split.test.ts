import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { spec as noop } from '../../../src/components/processors/noop.js';
import { spec as split } from '../../../src/components/processors/split.js';
import type { Processor } from '../../../src/engine/component.js';
import { Message } from '../../../src/message/message.js';
import { createTestContext } from '../../helpers/context.js';

const batchOf = (...texts: string[]) => texts.map((t) => new Message(t));
const shape = (batches: Message[][]) => batches.map((b) => b.map((m) => m.text()));

async function run(processor: Processor, batch: Message[]) {
  return shape(await processor.process(batch));
}

describe('split processor', () => {
  it('breaks a batch into batches of size, with the remainder last', async () => {
    const p = await split.build({ size: 2, byte_size: 0 }, createTestContext());
    assert.deepEqual(await run(p, batchOf('a', 'b', 'c', 'd', 'e')), [['a', 'b'], ['c', 'd'], ['e']]);
  });

  it('also limits total bytes per batch, whichever limit comes first', async () => {
    const p = await split.build({ size: 10, byte_size: 5 }, createTestContext());
    assert.deepEqual(await run(p, batchOf('aa', 'bb', 'cc', 'dddddddd', 'e')), [
      ['aa', 'bb'],
      ['cc'],
      ['dddddddd'],
      ['e'],
    ]);
  });

  it('size 0 with a byte limit splits by bytes only', async () => {
    const p = await split.build({ size: 0, byte_size: 3 }, createTestContext());
    assert.deepEqual(await run(p, batchOf('a', 'b', 'c', 'd')), [['a', 'b', 'c'], ['d']]);
  });

  it('yields no batch for an empty batch', async () => {
    const p = await split.build({ size: 1, byte_size: 0 }, createTestContext());
    assert.deepEqual(await p.process([]), []);
  });
});

describe('noop processor', () => {
  it('passes the batch through as is', async () => {
    const p = await noop.build({}, createTestContext());
    const batch = batchOf('a', 'b');
    const out = await p.process(batch);
    assert.equal(out.length, 1);
    assert.equal(out[0], batch);
  });
});
