// How many transactions a stream admits for its output, and what happens when a batching policy
// wants more: full batches when the count fits (the stream admits twice the largest count), partial
// batches once the stream has stalled when it does not (a byte_size of many small messages). Both
// used to stall the stream for good past 4,096 messages.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { admittedTransactions, MAX_ADMITTED, MIN_ADMITTED } from '../../src/engine/admission.js';
import { runNekton, tempDir } from '../helpers/cli.js';

describe('stream admission', () => {
  it('admits twice the largest batching count anywhere in the output, within bounds', () => {
    assert.equal(admittedTransactions({ path: '/dev/null' }), MIN_ADMITTED);
    assert.equal(admittedTransactions({ batching: { count: 100 } }), MIN_ADMITTED);
    const broker = {
      outputs: [
        { type: 'a', path: 'root.output.broker.outputs.0', config: { batching: { count: 6_000 } } },
        { type: 'b', path: 'root.output.broker.outputs.1', config: { batching: { count: 9_000 } } },
      ],
      batching: { count: 2_000 },
    };
    assert.equal(admittedTransactions(broker), 18_000);
    assert.equal(admittedTransactions({ batching: { count: 10_000_000 } }), MAX_ADMITTED);
  });

  /** Runs 10,000 generated messages into a batching broker whose batch processor prints each batch's size. */
  async function batchSizes(batching: string): Promise<Map<string, number>> {
    const dir = tempDir();
    const config = join(dir, 'batching.yaml');
    writeFileSync(
      config,
      `logger:\n  level: WARN\ninput:\n  generate:\n    count: 10000\n    interval: ""\n    mapping: 'root = counter()'\noutput:\n  broker:\n    outputs:\n      - stdout: {}\n    batching:\n${batching}      processors:\n        - mapping: 'root = batch_size()'\n`,
    );
    const run = await runNekton(['-c', config, '-s', 'http.enabled=false'], { timeoutMs: 20_000 });
    assert.equal(run.code, 0, run.stderr);
    const sizes = new Map<string, number>();
    for (const line of run.stdout.split('\n').filter(Boolean)) sizes.set(line, (sizes.get(line) ?? 0) + 1);
    return sizes;
  }

  it('fills batches of a count above 4,096', async () => {
    const sizes = await batchSizes('      count: 6000\n');
    assert.deepEqual(
      [...sizes].sort(),
      [
        ['4000', 4000],
        ['6000', 6000],
      ].sort(),
    );
  });

  it('writes partial batches of a byte_size the stream cannot admit, every message once', async () => {
    const sizes = await batchSizes('      byte_size: 100000\n');
    let total = 0;
    for (const [size, count] of sizes) {
      assert.ok(Number(size) <= MIN_ADMITTED, `a batch of ${size}`);
      total += count;
    }
    assert.equal(total, 10_000);
  });
});
