// Stream.pause / resume (issue 24): reads stop, what was read is written and acked, nothing is
// nacked for the pause, and a paused stream still stops promptly.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Registry } from '../../src/engine/registry.js';
import { Stream } from '../../src/engine/stream.js';
import { createTestEnv } from '../helpers/context.js';
import { FakeWorld, fakeSpecs, fakeStream } from '../helpers/fake_components.js';
import { waitFor } from '../helpers/kit.js';

const numbered = (n: number) => Array.from({ length: n }, (_, i) => `msg-${i}`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function buildStream(world: FakeWorld, options: Parameters<typeof fakeStream>[0]) {
  const { builder, env, abort } = createTestEnv({ registry: new Registry(fakeSpecs(world)) });
  return Stream.build(fakeStream(options), builder, env.logger, abort);
}

describe('stream pause and resume', () => {
  it('a stream paused before it runs reads nothing until resumed', async () => {
    const world = new FakeWorld();
    const stream = await buildStream(world, { messages: numbered(50), threads: 2 });
    assert.equal(stream.pause(), true);
    const finished = stream.run();
    await sleep(200);
    assert.equal(world.written.length, 0);
    assert.equal(stream.resume(), true);
    await finished;
    assert.equal(world.written.length, 50);
  });

  it('stops reading; in-flight messages are written and acked; resume delivers the rest once', async () => {
    const world = new FakeWorld();
    let releaseWrites: () => void = () => undefined;
    let releaseReads: () => void = () => undefined;
    world.writeGate = new Promise<void>((resolve) => (releaseWrites = resolve));
    world.readGate = new Promise<void>((resolve) => (releaseReads = resolve));
    world.readGateFrom = 50;
    const stream = await buildStream(world, { messages: numbered(300), maxInFlight: 4, threads: 2 });
    const finished = stream.run();
    await waitFor(() => stream.transactionsInFlight === 50, { message: '50 reads waiting for the output' });

    const before = Date.now();
    assert.equal(stream.pause(), true);
    assert.equal(stream.pause(), false, 'already paused');
    assert.ok((stream.pausedSince ?? 0) >= before);
    // The reads already waiting on the input (one per pipeline thread) may still bring a message.
    world.readGate = null;
    releaseReads();
    world.writeGate = null;
    releaseWrites();
    await waitFor(() => world.written.length >= 50 && stream.transactionsInFlight === 0, {
      message: 'in-flight writes to finish',
    });
    const writtenWhilePaused = world.written.length;
    await sleep(200);
    assert.equal(world.written.length, writtenWhilePaused, 'nothing is read while paused');
    assert.ok(writtenWhilePaused <= 52, `${writtenWhilePaused} written`);
    assert.equal(world.acks.length, writtenWhilePaused, 'every message read was acked');
    assert.ok(
      world.acks.every((a) => a.error === null),
      'nothing nacked for the pause',
    );
    assert.equal(stream.active, true);

    assert.equal(stream.resume(), true);
    assert.equal(stream.resume(), false, 'not paused any more');
    assert.equal(stream.pausedSince, null);
    await finished;
    assert.deepEqual([...world.written].sort(), numbered(300).sort());
    assert.equal(world.acks.length, 300);
    assert.ok(world.acks.every((a) => a.error === null));
  });

  it('a paused stream stops at once, and a finished one cannot be paused', async () => {
    const world = new FakeWorld();
    const stream = await buildStream(world, { messages: numbered(10), threads: 2 });
    assert.equal(stream.pause(), true);
    void stream.run();
    await sleep(50);
    const started = Date.now();
    await stream.stop(10_000);
    assert.ok(Date.now() - started < 2000, `stop took ${Date.now() - started} ms`);
    assert.equal(stream.active, false);
    assert.equal(stream.pause(), false);
    assert.deepEqual([world.written.length, world.acks.length], [0, 0], 'nothing read, nothing acked');
  });
});
