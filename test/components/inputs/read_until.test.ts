// The `read_until` input: ends after the message passing its check is delivered, on idle, or
// with its child; restarts the child when asked.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { drain, inputOf, lintYaml, readN, texts } from './io_support.js';

const generate = (count: number) =>
  `generate:\n      count: ${count}\n      interval: ''\n      mapping: 'root = counter()'`;

describe('read_until input', () => {
  it('ends once the message passing the check is delivered, marking it final', async () => {
    const input = await inputOf(`read_until:\n  check: this == 3\n  input:\n    ${generate(10)}\n`);
    const [one, two, three] = await readN(input, 3);
    assert.deepEqual(texts([one!, two!, three!]), ['1', '2', '3']);
    assert.equal(three!.batch[0]!.getMeta('benthos_read_until'), 'final');
    assert.equal(two!.batch[0]!.getMeta('benthos_read_until'), undefined);
    const after = input.read();
    await three!.ack(null);
    assert.equal(await after, null);
    await one!.ack(null);
    await two!.ack(null);
    await input.close();
  });

  it('reads on when the final message is nacked', async () => {
    const input = await inputOf(`read_until:\n  check: this == 2\n  input:\n    ${generate(4)}\n`);
    const [one, two] = await readN(input, 2);
    await one!.ack(null);
    const next = input.read();
    await two!.ack(new Error('output down'));
    const txn = await next;
    // The child replays the nacked message (auto_replay_nacks): it passes the check again.
    assert.ok(txn);
    assert.equal(texts([txn])[0], '2');
    assert.equal(txn.batch[0]!.getMeta('benthos_read_until'), 'final');
    await txn.ack(null);
    await input.close();
  });

  it('ends with its child when the check never passes', async () => {
    const input = await inputOf(`read_until:\n  check: this == 100\n  input:\n    ${generate(3)}\n`);
    assert.deepEqual(await drain(input), ['1', '2', '3']);
  });

  it('restarts the child until the check passes', async () => {
    const input = await inputOf(
      `read_until:\n  check: count("read_until_restart_test") >= 5\n  restart_input: true\n  input:\n    ${generate(2)}\n`,
    );
    // counter() starts again with each new child: 1,2 then 1,2 then 1 (the fifth message).
    assert.deepEqual(await drain(input), ['1', '2', '1', '2', '1']);
  });

  it('ends after idle_timeout without a message', async () => {
    const input = await inputOf(
      `read_until:\n  idle_timeout: 30ms\n  input:\n    generate:\n      count: 2\n      interval: 1h\n      mapping: 'root = "tick"'\n`,
    );
    // generate's first message comes at once, the next an hour later: the input ends idle.
    assert.deepEqual(await drain(input), ['tick']);
  });

  it('lints a config with neither check nor idle_timeout', () => {
    const lints = lintYaml('input:\n  read_until:\n    input:\n      stdin: {}\noutput:\n  drop: {}\n');
    assert.deepEqual(lints, ['it is required to set either check or idle_timeout']);
  });
});
