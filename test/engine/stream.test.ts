import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Registry } from '../../src/engine/registry.js';
import { Stream } from '../../src/engine/stream.js';
import { createTestEnv } from '../helpers/context.js';
import { FakeWorld, fakeSpecs, fakeStream, throwerProcessor } from '../helpers/fake_components.js';
import { waitFor } from '../helpers/kit.js';

const numbered = (n: number) => Array.from({ length: n }, (_, i) => `msg-${i}`);

async function buildStream(world: FakeWorld, options: Parameters<typeof fakeStream>[0]) {
  const { builder, env, abort } = createTestEnv({ registry: new Registry(fakeSpecs(world)) });
  return Stream.build(fakeStream(options), builder, env.logger, abort);
}

describe('stream delivery', () => {
  it('delivers every message and acks each once, only after it was written', async () => {
    const world = new FakeWorld();
    const writtenAtAck: number[] = [];
    const stream = await buildStream(world, { messages: numbered(500), maxInFlight: 4 });
    const originalPush = world.acks.push.bind(world.acks);
    world.acks.push = (...records) => {
      for (const r of records) writtenAtAck.push(world.written.indexOf(r.payload));
      return originalPush(...records);
    };
    await stream.run();
    assert.equal(world.written.length, 500);
    assert.deepEqual([...world.written].sort(), numbered(500).sort());
    assert.equal(world.acks.length, 500);
    assert.ok(world.acks.every((a) => a.error === null));
    assert.ok(
      writtenAtAck.every((i) => i >= 0),
      'a message was acked before it was written',
    );
    assert.equal(stream.active, false);
    assert.equal(world.closedOutputs, 1);
    assert.equal(world.closedInputs, 1);
  });

  it('nacks the source when a write fails and no replay is configured', async () => {
    const world = new FakeWorld();
    world.failWrite = (attempt) => attempt % 3 === 0;
    const stream = await buildStream(world, { messages: numbered(30) });
    await stream.run();
    const failed = world.acks.filter((a) => a.error !== null);
    assert.equal(failed.length, 10);
    assert.equal(world.written.length, 20);
    // Nothing acked as delivered that was not written.
    for (const a of world.acks.filter((x) => x.error === null)) assert.ok(world.written.includes(a.payload));
  });

  it('with auto_replay_nacks retries failed batches until every message is delivered', async () => {
    const world = new FakeWorld();
    world.failWrite = (attempt) => attempt % 3 === 0;
    const stream = await buildStream(world, {
      messages: numbered(100),
      autoReplayNacks: true,
      maxInFlight: 2,
    });
    await stream.run();
    assert.deepEqual([...new Set(world.written)].sort(), numbered(100).sort());
    assert.equal(world.acks.length, 100, 'each source message acked exactly once');
    assert.ok(world.acks.every((a) => a.error === null));
  });

  it('replays nacks that arrive after the source has ended', async () => {
    const world = new FakeWorld();
    let release: () => void = () => undefined;
    world.writeGate = new Promise((resolve) => (release = resolve));
    // The first writes fail only once the source has been read to its end.
    world.failWrite = (attempt) => attempt <= 3;
    const stream = await buildStream(world, { messages: numbered(3), autoReplayNacks: true, maxInFlight: 4 });
    const running = stream.run();
    await waitFor(() => world.writeAttempts.length >= 3, { message: 'three write attempts', intervalMs: 5 });
    await new Promise((r) => setTimeout(r, 20));
    release();
    await running;
    assert.deepEqual([...world.written].sort(), numbered(3));
    assert.equal(world.acks.length, 3);
    assert.ok(
      world.acks.every((a) => a.error === null),
      'a message was nacked to the source instead of replayed',
    );
  });

  it('nacks a message the reader returns after the stream was stopped', async () => {
    const world = new FakeWorld();
    let release: () => void = () => undefined;
    world.readGate = new Promise((resolve) => (release = resolve));
    const stream = await buildStream(world, { messages: numbered(3) });
    const running = stream.run();
    await new Promise((r) => setTimeout(r, 20));
    await stream.stop(1_000);
    await running;
    release();
    await new Promise((r) => setTimeout(r, 20));
    assert.equal(world.written.length, 0);
    assert.equal(world.acks.length, 1, 'the late message was neither acked nor nacked');
    assert.ok(world.acks[0]!.error?.includes('input closed'), String(world.acks[0]!.error));
  });

  it('replays a nack at once while the reader waits for more (an idle source)', async () => {
    const world = new FakeWorld();
    let release: () => void = () => undefined;
    world.readGate = new Promise((resolve) => (release = resolve));
    world.readGateFrom = 2;
    let failedOnce = false;
    world.failWrite = (_attempt, batch) => {
      if (failedOnce || batch[0]!.text() !== 'msg-0') return false;
      failedOnce = true;
      return true;
    };
    let releaseWrites: () => void = () => undefined;
    world.writeGate = new Promise((resolve) => (releaseWrites = resolve));
    const stream = await buildStream(world, { messages: numbered(3), autoReplayNacks: true, maxInFlight: 2 });
    const running = stream.run();
    // Both writes wait until the worker hangs in the read of msg-2; then msg-0 fails once and must
    // be written again although that read still hangs.
    await waitFor(() => world.writeAttempts.length >= 2, { message: 'two write attempts', intervalMs: 5 });
    await new Promise((r) => setTimeout(r, 20));
    world.writeGate = null;
    releaseWrites();
    for (let i = 0; i < 200 && world.written.length < 2; i++) await new Promise((r) => setTimeout(r, 5));
    assert.deepEqual(
      [...world.written].sort(),
      ['msg-0', 'msg-1'],
      'the nacked message waited for the source',
    );
    release();
    await running;
    assert.deepEqual([...world.written].sort(), numbered(3));
    assert.equal(world.acks.length, 3);
    assert.ok(world.acks.every((a) => a.error === null));
  });

  it('applies the output batching policy and still acks every source message', async () => {
    const world = new FakeWorld();
    const stream = await buildStream(world, { messages: numbered(10), batchCount: 5, threads: 2 });
    await stream.run();
    assert.equal(world.written.length, 10);
    assert.ok(
      world.writeAttempts.some((b) => b.length === 5),
      'no batch of five was written',
    );
    assert.equal(world.acks.length, 10);
  });

  it('flags messages a processor throws on and still delivers them', async () => {
    const world = new FakeWorld();
    world.throwOn = (p) => p === 'msg-3';
    const stream = await buildStream(world, { messages: numbered(6), processors: [throwerProcessor()] });
    await stream.run();
    assert.equal(world.written.length, 6);
    assert.ok(world.acks.every((a) => a.error === null));
  });

  it('stop() nacks what is still in flight at the deadline and acks nothing undelivered', async () => {
    const world = new FakeWorld();
    let release: () => void = () => undefined;
    world.writeGate = new Promise((resolve) => (release = resolve));
    const stream = await buildStream(world, { messages: numbered(50), maxInFlight: 4 });
    const running = stream.run();
    await waitFor(() => world.writeAttempts.length >= 4, { message: 'four write attempts', intervalMs: 5 });
    await stream.stop(200);
    await running;
    release();
    assert.equal(stream.active, false);
    assert.ok(world.acks.length > 0, 'in-flight transactions were not settled');
    for (const a of world.acks) {
      if (a.error === null)
        assert.ok(world.written.includes(a.payload), `${a.payload} acked but not written`);
    }
    assert.ok(
      world.acks.some((a) => a.error !== null),
      'nothing was nacked',
    );
  });

  it('stop() lets in-flight writes finish inside the deadline', async () => {
    const world = new FakeWorld();
    let release: () => void = () => undefined;
    world.writeGate = new Promise((resolve) => (release = resolve));
    const stream = await buildStream(world, { messages: numbered(1000), maxInFlight: 2 });
    const running = stream.run();
    await waitFor(() => world.writeAttempts.length >= 2, { message: 'two write attempts', intervalMs: 5 });
    const stopping = stream.stop(10_000);
    setTimeout(release, 20);
    await stopping;
    await running;
    assert.ok(world.written.length >= 2);
    assert.ok(
      world.acks.every((a) => a.error === null),
      'a delivered message was nacked',
    );
    assert.equal(world.acks.length, world.written.length);
  });
});
