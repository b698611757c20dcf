// The stream's byte budget (admission.ts ADMITTED_BYTES): besides the 4,096 transactions, no more
// than 128 MB of input messages wait for a slow output, so large messages cannot fill memory with
// a file's worth of reads; a message larger than the whole budget still goes, alone.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { registry as builtins } from '../../src/components/registry.js';
import { ADMITTED_BYTES } from '../../src/engine/admission.js';
import { Registry } from '../../src/engine/registry.js';
import { Stream } from '../../src/engine/stream.js';
import { createTestEnv } from '../helpers/context.js';
import { FakeWorld, fakeSpecs, fakeStream } from '../helpers/fake_components.js';
import { waitFor } from '../helpers/kit.js';

const MB = 1024 * 1024;

async function build(world: FakeWorld, messages: string[], batchCount = 0): Promise<Stream> {
  const { builder, env, abort } = createTestEnv({
    registry: new Registry([...builtins.list(), ...fakeSpecs(world)]),
  });
  return Stream.build(fakeStream({ messages, batchCount }), builder, env.logger, abort);
}

describe('stream byte budget', () => {
  it(`holds back reads once ${ADMITTED_BYTES / MB} MB of messages wait for the output`, async () => {
    const world = new FakeWorld();
    let open!: () => void;
    world.writeGate = new Promise<void>((resolve) => (open = resolve));
    const size = 2 * MB;
    const count = 100;
    const messages = Array.from({ length: count }, (_, i) => `${i}`.padEnd(size, 'x'));
    const stream = await build(world, messages);
    const run = stream.run();
    const fits = ADMITTED_BYTES / size;
    await waitFor(() => stream.transactionsInFlight >= fits - 1);
    // Time for reads past the budget to happen if nothing held them back.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const held = stream.transactionsInFlight;
    assert.ok(held <= fits + 2, `${held} messages of 2 MB in flight (the budget fits ${fits})`);
    open();
    await run;
    assert.equal(world.written.length, count);
    assert.equal(new Set(world.written.map((p) => p.slice(0, 3))).size, count);
    assert.equal(world.acks.length, count);
    assert.ok(world.acks.every((a) => a.error === null));
  });

  it('flushes partial batches when an output batch would not fit in the budget, every message once', async () => {
    // 140 messages of 1 MB make a batch the 128 MB budget cannot admit: the stall flush writes
    // what is there instead of waiting for ever.
    const world = new FakeWorld();
    const count = 150;
    const messages = Array.from({ length: count }, (_, i) => `${i}`.padEnd(MB, 'z'));
    const stream = await build(world, messages, 140);
    await stream.run();
    assert.equal(world.written.length, count);
    assert.equal(new Set(world.written.map((p) => p.slice(0, 3))).size, count);
    assert.ok(
      world.writeAttempts.every((batch) => batch.length < 140),
      `batches of ${world.writeAttempts.map((b) => b.length).join(', ')}`,
    );
    assert.equal(world.acks.length, count);
  });

  it('lets a message larger than the whole budget through alone', async () => {
    const world = new FakeWorld();
    const big = 'y'.repeat(ADMITTED_BYTES + MB);
    const stream = await build(world, [big, 'small']);
    await stream.run();
    assert.equal(world.written.length, 2);
    assert.equal(world.acks.length, 2);
  });
});
