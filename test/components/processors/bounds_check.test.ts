import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { spec } from '../../../src/components/processors/bounds_check.js';
import { Message } from '../../../src/message/message.js';
import { createTestContext } from '../../helpers/context.js';

const batchOf = (...texts: string[]) => texts.map((t) => new Message(t));
const config = { max_part_size: 5, min_part_size: 1, max_parts: 3, min_parts: 2 };

describe('bounds_check processor', () => {
  it('passes a batch within every bound', async () => {
    const p = await spec.build(config, createTestContext());
    const out = await p.process(batchOf('a', 'bbbbb'));
    assert.equal(out.length, 1);
    assert.equal(out[0]!.length, 2);
  });

  it('drops a batch with too few or too many messages', async () => {
    const p = await spec.build(config, createTestContext());
    assert.deepEqual(await p.process(batchOf('a')), []);
    assert.deepEqual(await p.process(batchOf('a', 'b', 'c', 'd')), []);
  });

  it('drops the whole batch when one message is too large or empty', async () => {
    const p = await spec.build(config, createTestContext());
    assert.deepEqual(await p.process(batchOf('a', 'bbbbbb')), []);
    assert.deepEqual(await p.process(batchOf('a', '')), []);
  });
});
