// `select_parts` and `insert_part` reshape a batch by index.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { spec as insertPart } from '../../../src/components/processors/insert_part.js';
import { spec as selectParts } from '../../../src/components/processors/select_parts.js';
import type { Message } from '../../../src/message/message.js';
import { createTestContext } from '../../helpers/context.js';
import { messages } from './archive_helpers.js';

const texts = (batches: Message[][]) => batches.map((b) => b.map((m) => m.text()));

async function select(parts: number[], contents: string[]) {
  const processor = await selectParts.build({ parts }, createTestContext());
  return (await processor.process(messages(contents))) as Message[][];
}

async function insert(index: number, content: string, batch: Message[]) {
  const processor = await insertPart.build({ index, content }, createTestContext());
  return (await processor.process(batch)) as Message[][];
}

describe('select_parts processor', () => {
  it('picks messages in the order listed, negative indexes from the end, out of range skipped', async () => {
    assert.deepEqual(texts(await select([2, 0, 1], ['0', '1', '2', '3'])), [['2', '0', '1']]);
    assert.deepEqual(texts(await select([-1, -4, 9, -9], ['0', '1', '2', '3'])), [['3', '0']]);
  });

  it('copies a message picked twice, so changing one leaves the other', async () => {
    const [[a, b]] = await select([0, 0], ['x']);
    a!.setMeta('k', 'v');
    assert.equal(b!.getMeta('k'), undefined);
    assert.equal(b!.text(), 'x');
  });

  it('drops the batch when no index exists in it', async () => {
    assert.deepEqual(await select([5, -6], ['0', '1']), []);
    assert.deepEqual(await select([], ['0', '1']), []);
  });
});

describe('insert_part processor', () => {
  it('inserts at an index, clamped to the end; negative from the end, clamped to the start', async () => {
    const cases: [number, string[]][] = [
      [0, ['new', 'a', 'b', 'c']],
      [1, ['a', 'new', 'b', 'c']],
      [3, ['a', 'b', 'c', 'new']],
      [10, ['a', 'b', 'c', 'new']],
      [-1, ['a', 'b', 'c', 'new']],
      [-2, ['a', 'b', 'new', 'c']],
      [-4, ['new', 'a', 'b', 'c']],
      [-10, ['new', 'a', 'b', 'c']],
    ];
    for (const [index, expected] of cases) {
      assert.deepEqual(
        texts(await insert(index, 'new', messages(['a', 'b', 'c']))),
        [expected],
        `index ${index}`,
      );
    }
  });

  it('interpolates the content against the first message and copies its metadata', async () => {
    const batch = messages(['{"id":"first"}', '{"id":"second"}']);
    batch[0]!.setMeta('topic', 'orders');
    const [out] = await insert(-1, `\${! json("id") } of \${! batch_size() }`, batch);
    const added = out![2]!;
    assert.equal(added.text(), 'first of 2');
    assert.equal(added.getMeta('topic'), 'orders');
    assert.equal(out!.length, 3);
    assert.equal(batch[0]!.text(), '{"id":"first"}', 'the original messages are kept as they were');
  });
});
