// The `broker` output through the engine: patterns, member retries, copies and batching.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Output } from '../../../src/engine/component.js';
import { AckLedger, MemberOutput, streamFromYaml, testRegistry } from './support.js';

function setup(...members: MemberOutput[]) {
  const ledger = new AckLedger();
  const map = new Map<string, Output>(members.map((m) => [m.name, m]));
  return { ledger, registry: testRegistry(map, ledger) };
}

const outputsYaml = (names: string[]) => names.map((n) => `      - test_member: { name: ${n} }`).join('\n');

describe('broker output', () => {
  it('fan_out: every member gets every message; each source message acked once, after all', async () => {
    const a = new MemberOutput('a');
    const b = new MemberOutput('b');
    const { ledger, registry } = setup(a, b);
    const { stream } = await streamFromYaml(
      `input:\n  test_source: { count: 200 }\noutput:\n  broker:\n    pattern: fan_out\n    outputs:\n${outputsYaml(['a', 'b'])}\n`,
      { registry },
    );
    await stream.run();
    assert.equal(a.received.length, 200);
    assert.deepEqual([...a.received].sort(), [...b.received].sort());
    assert.equal(ledger.outcomes.size, 200);
    for (const [p, outcomes] of ledger.outcomes) assert.deepEqual(outcomes, [null], p);
  });

  it('fan_out: a member failing a few writes is retried on its own; the others get no duplicates', async () => {
    const good = new MemberOutput('good');
    const flaky = new MemberOutput('flaky');
    const write = flaky.write.bind(flaky);
    flaky.write = async (batch) => {
      // Fails its 2nd and 3rd attempts, then recovers.
      if (flaky.attempts === 1 || flaky.attempts === 2) {
        flaky.attempts++;
        throw new Error('flaky');
      }
      return write(batch);
    };
    const { ledger, registry } = setup(good, flaky);
    const { stream } = await streamFromYaml(
      `input:\n  test_source: { count: 5 }\noutput:\n  broker:\n    outputs:\n${outputsYaml(['good', 'flaky'])}\n`,
      { registry },
    );
    await stream.run();
    assert.equal(good.received.length, 5);
    assert.deepEqual([...flaky.received].sort(), [...good.received].sort());
    for (const outcomes of ledger.outcomes.values()) assert.deepEqual(outcomes, [null]);
  });

  it('fan_out_fail_fast: a failing member nacks the source with its error', async () => {
    const good = new MemberOutput('good');
    const bad = new MemberOutput('bad', 'error', 'this is a test');
    const { ledger, registry } = setup(good, bad);
    const { stream } = await streamFromYaml(
      `input:\n  test_source: { count: 3 }\noutput:\n  broker:\n    pattern: fan_out_fail_fast\n    outputs:\n${outputsYaml(['good', 'bad'])}\n`,
      { registry },
    );
    await stream.run();
    for (const outcomes of ledger.outcomes.values()) assert.deepEqual(outcomes, ['this is a test']);
  });

  it('fan_out_sequential: the second member only sees what the first wrote', async () => {
    const first = new MemberOutput('first', 'error', 'down');
    const second = new MemberOutput('second');
    const { ledger, registry } = setup(first, second);
    const { stream } = await streamFromYaml(
      `input:\n  test_source: { count: 2 }\noutput:\n  broker:\n    pattern: fan_out_sequential_fail_fast\n    outputs:\n${outputsYaml(['first', 'second'])}\n`,
      { registry },
    );
    await stream.run();
    assert.equal(second.attempts, 0);
    for (const outcomes of ledger.outcomes.values()) assert.deepEqual(outcomes, ['down']);
  });

  it('round_robin: members take turns', async () => {
    const a = new MemberOutput('a');
    const b = new MemberOutput('b');
    const { registry } = setup(a, b);
    const { stream } = await streamFromYaml(
      `input:\n  test_source: { count: 10 }\npipeline:\n  threads: 1\noutput:\n  broker:\n    pattern: round_robin\n    outputs:\n${outputsYaml(['a', 'b'])}\n`,
      { registry },
    );
    await stream.run();
    assert.equal(a.received.length, 5);
    assert.equal(b.received.length, 5);
  });

  it('greedy: a member that never finishes stops getting messages; every message is delivered', async () => {
    const stuck = new MemberOutput('stuck', 'hang');
    const free = new MemberOutput('free');
    const { registry } = setup(stuck, free);
    const { stream } = await streamFromYaml(
      `input:\n  test_source: { count: 50 }\noutput:\n  broker:\n    pattern: greedy\n    outputs:\n${outputsYaml(['stuck', 'free'])}\n`,
      { registry },
    );
    const run = stream.run();
    const deadline = Date.now() + 5000;
    while (free.received.length < 49 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    assert.equal(stuck.attempts, 1);
    assert.equal(free.received.length, 49);
    await stream.stop(0);
    await run;
  });

  it('copies repeats the list of outputs', async () => {
    const a = new MemberOutput('a');
    const { registry } = setup(a);
    const { stream } = await streamFromYaml(
      `input:\n  test_source: { count: 4 }\noutput:\n  broker:\n    copies: 3\n    outputs:\n${outputsYaml(['a'])}\n`,
      { registry },
    );
    await stream.run();
    // The same member object stands for all three copies: each message arrives three times.
    assert.equal(a.received.length, 12);
  });

  it('batching groups messages before routing, and acks every source message', async () => {
    const a = new MemberOutput('a');
    const batches: number[] = [];
    const write = a.write.bind(a);
    a.write = (batch) => {
      batches.push(batch.length);
      return write(batch);
    };
    const { ledger, registry } = setup(a);
    const { stream } = await streamFromYaml(
      `input:\n  test_source: { count: 9 }\noutput:\n  broker:\n    batching: { count: 3 }\n    outputs:\n${outputsYaml(['a'])}\n`,
      { registry },
    );
    await stream.run();
    assert.equal(a.received.length, 9);
    assert.ok(
      batches.every((n) => n === 3),
      `batches ${batches}`,
    );
    for (const outcomes of ledger.outcomes.values()) assert.deepEqual(outcomes, [null]);
  });
});
