// The `dynamic` input at component level: merged members, each message acked to its own source
// once, members that end, replacement and removal.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DynamicInput } from '../../../src/components/inputs/dynamic.js';
import { createTestContext } from '../../helpers/context.js';
import { waitFor } from '../../helpers/kit.js';
import { AckLedger, testRegistry } from './support.js';

function dynamicInput() {
  const ledger = new AckLedger();
  const ctx = createTestContext(
    { type: 'dynamic', path: 'root.input' },
    { registry: testRegistry(new Map(), ledger), endpoints: { register: () => undefined } },
  );
  return { input: new DynamicInput(ctx), ledger };
}

const source = (prefix: string, count: number) => `test_source:\n  prefix: ${prefix}\n  count: ${count}\n`;

/** Reads and acks until `n` messages were seen. */
async function consume(input: DynamicInput, n: number): Promise<string[]> {
  const seen: string[] = [];
  while (seen.length < n) {
    const txn = await input.read();
    assert.ok(txn, 'the dynamic input ended');
    seen.push(...txn.batch.map((m) => m.text()));
    await txn.ack(null);
  }
  return seen;
}

describe('dynamic input', () => {
  it('merges members; each message is acked once to its source; ended members show as stopped', async () => {
    const { input, ledger } = dynamicInput();
    await input.setFromBody('a', source('a', 300));
    await input.setFromBody('b', source('b', 200));
    const seen = await consume(input, 500);
    assert.equal(new Set(seen).size, 500);
    await waitFor(() => !input.crud.isRunning('a') && !input.crud.isRunning('b'), {
      message: 'both to stop',
      intervalMs: 5,
    });
    for (const outcomes of ledger.outcomes.values()) assert.deepEqual(outcomes, [null]);
    // With every member gone the input waits for new ones instead of ending.
    let ended = false;
    const next = input.read().then((t) => {
      ended = t === null;
      return t;
    });
    await new Promise((r) => setTimeout(r, 20));
    assert.equal(ended, false);
    await input.setFromBody('c', source('c', 1));
    const txn = await next;
    assert.equal(txn?.batch[0]?.text(), 'c0');
    await txn?.ack(null);
    await input.close();
  });

  it('a config that does not build leaves the running member alone', async () => {
    const { input } = dynamicInput();
    await input.setFromBody('a', source('a', 5));
    await assert.rejects(input.setFromBody('a', 'nope: {}'));
    assert.deepEqual(await consume(input, 5), ['a0', 'a1', 'a2', 'a3', 'a4']);
    await input.close();
  });

  it('closing nacks what was read ahead but never handed out', async () => {
    const { input, ledger } = dynamicInput();
    await input.setFromBody('a', source('a', 10));
    await waitFor(() => ledger.outcomes.size === 0, { message: 'nothing acked yet', intervalMs: 5 });
    await new Promise((r) => setTimeout(r, 20));
    await input.close();
    for (const outcomes of ledger.outcomes.values())
      assert.deepEqual(outcomes, ['input closed before processing']);
    assert.equal(await input.read(), null);
  });
});
