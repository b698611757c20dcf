// The `batched` input: batches by its policy, and a batch's ack settles every message in it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { inputOf, lintYaml, readN, texts } from './io_support.js';

describe('batched input', () => {
  it('groups the child messages by count and flushes the rest when the child ends', async () => {
    const input = await inputOf(
      "batched:\n  child:\n    generate:\n      count: 5\n      interval: ''\n      mapping: 'root = counter()'\n  policy:\n    count: 2\n",
    );
    const batches: string[][] = [];
    for (;;) {
      const txn = await input.read();
      if (!txn) break;
      batches.push(texts([txn]));
      await txn.ack(null);
    }
    assert.deepEqual(batches, [['1', '2'], ['3', '4'], ['5']]);
    await input.close();
  });

  it('nacks every message of a failed batch to the child, which replays them', async () => {
    const input = await inputOf(
      "batched:\n  child:\n    generate:\n      count: 2\n      interval: ''\n      mapping: 'root = counter()'\n  policy:\n    count: 2\n",
    );
    const [first] = await readN(input, 1);
    assert.deepEqual(texts([first!]), ['1', '2']);
    await first!.ack(new Error('output down'));
    // generate replays nacks (auto_replay_nacks): both come again, in one batch.
    const [again] = await readN(input, 1);
    assert.deepEqual(texts([again!]).sort(), ['1', '2']);
    await again!.ack(null);
    assert.equal(await input.read(), null);
    await input.close();
  });

  it('runs the policy processors over each batch', async () => {
    const input = await inputOf(
      "batched:\n  child:\n    generate:\n      count: 3\n      interval: ''\n      mapping: 'root = counter()'\n  policy:\n    count: 3\n    processors:\n      - archive:\n          format: lines\n",
    );
    const [txn] = await readN(input, 1);
    assert.deepEqual(texts([txn!]), ['1\n2\n3']);
    await txn!.ack(null);
    await input.close();
  });

  it('lints an unknown policy field', () => {
    const lints = lintYaml(
      'input:\n  batched:\n    child:\n      stdin: {}\n    policy:\n      counts: 2\noutput:\n  drop: {}\n',
    );
    assert.equal(lints.length, 1);
    assert.match(lints[0]!, /counts/);
  });
});
