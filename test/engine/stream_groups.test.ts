// The engine's group path: an input that has many messages in memory hands them out as one group,
// and an output with writeGroup writes the survivors in one call. Each message must still be its
// own transaction: acked once, only after it was written, nacks replayed, deleted ones acked.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ComponentSpec } from '../../src/config/spec.js';
import type { Processor } from '../../src/engine/component.js';
import { Registry } from '../../src/engine/registry.js';
import { Stream } from '../../src/engine/stream.js';
import { createTestEnv } from '../helpers/context.js';
import {
  FakeWorld,
  fakeSpecs,
  fakeStream,
  filterProcessor,
  throwerProcessor,
} from '../helpers/fake_components.js';
import { waitFor } from '../helpers/kit.js';

const numbered = (n: number) => Array.from({ length: n }, (_, i) => `msg-${i}`);

async function buildStream(world: FakeWorld, options: Parameters<typeof fakeStream>[0]) {
  const { builder, env, abort } = createTestEnv({ registry: new Registry(fakeSpecs(world)) });
  return Stream.build(fakeStream({ grouped: true, ...options }), builder, env.logger, abort);
}

/** A stream (replaying nacks) whose `attempt`th write fails, run to its end: what the output saw. */
async function runFailingWrite(
  attempt: number,
  options: Parameters<typeof fakeStream>[0],
): Promise<FakeWorld> {
  const world = new FakeWorld();
  world.failWrite = (n) => n === attempt;
  const stream = await buildStream(world, { autoReplayNacks: true, ...options });
  await stream.run();
  return world;
}

/** A processor that answers each message once the test lets that message through. */
function gatedSpec(gates: Map<string, Promise<void>>): ComponentSpec {
  return {
    name: 'gated',
    kind: 'processor',
    status: 'stable',
    summary: 'waits for a gate per message',
    fields: [],
    build(): Processor {
      return {
        process: async (batch) => {
          await gates.get(batch[0]!.text());
          return [batch];
        },
        close: async () => undefined,
      };
    },
  };
}

const successes = (world: FakeWorld) => world.acks.filter((a) => a.error === null).length;

describe('stream groups', () => {
  it('writes groups in one call each, in order, and acks every message once', async () => {
    const world = new FakeWorld();
    const stream = await buildStream(world, { messages: numbered(1000), maxInFlight: 4 });
    await stream.run();
    assert.deepEqual(world.written, numbered(1000), 'order or content changed');
    assert.ok(world.groupWrites > 0, 'the group path was not taken');
    assert.ok(world.groupWrites < 100, `${world.groupWrites} group writes for 1000 messages`);
    assert.equal(world.acks.length, 1000);
    assert.ok(world.acks.every((a) => a.error === null));
    assert.deepEqual(
      world.acks.map((a) => a.payload).sort(),
      numbered(1000).sort(),
      'acks are not one per message',
    );
    assert.ok(world.groupAcks < 100, `${world.groupAcks} group acks for 1000 messages`);
    assert.equal(world.closedInputs, 1);
    assert.equal(world.closedOutputs, 1);
  });

  it('replays a failed group write until every message is delivered, each acked once', async () => {
    const world = new FakeWorld();
    world.failWrite = (attempt) => attempt % 2 === 1;
    const stream = await buildStream(world, {
      messages: numbered(600),
      autoReplayNacks: true,
      maxInFlight: 2,
    });
    await stream.run();
    assert.deepEqual([...new Set(world.written)].sort(), numbered(600).sort());
    assert.equal(world.written.length, 600, 'a message was written twice although its write failed once');
    assert.equal(world.acks.length, 600);
    assert.equal(successes(world), 600);
    assert.deepEqual(world.acks.map((a) => a.payload).sort(), numbered(600).sort());
  });

  it('without replay nacks exactly the messages of the failed group writes', async () => {
    const world = new FakeWorld();
    let failedAttempt: string[] = [];
    world.failWrite = (_attempt, batch) => {
      if (failedAttempt.length > 0 || batch.length < 2) return false;
      failedAttempt = batch.map((m) => m.text());
      return true;
    };
    const stream = await buildStream(world, { messages: numbered(700) });
    await stream.run();
    assert.ok(failedAttempt.length > 1, 'no group was written');
    assert.equal(world.acks.length, 700);
    assert.equal(world.acks.length - successes(world), failedAttempt.length);
    assert.equal(world.written.length, 700 - failedAttempt.length);
    for (const payload of failedAttempt) assert.ok(!world.written.includes(payload));
    const nacked = world.acks.filter((a) => a.error !== null).map((a) => a.payload);
    assert.deepEqual(nacked, failedAttempt, 'the nacks name other messages than the failed write');
  });

  it('feeds groups into an output batching policy: full batches, every message acked once', async () => {
    const world = new FakeWorld();
    const stream = await buildStream(world, { messages: numbered(1000), batchCount: 50, maxInFlight: 2 });
    await stream.run();
    assert.deepEqual([...world.written].sort(), numbered(1000).sort());
    assert.ok(world.groupAcks > 0, 'the group path was not taken');
    assert.ok(
      world.writeAttempts.filter((b) => b.length === 50).length >= 19,
      'the batching policy did not form batches of 50',
    );
    assert.equal(world.acks.length, 1000);
    assert.equal(successes(world), 1000);
  });

  // A policy that wants more messages than the stream admits at once and has no period: the stream
  // used to stall for good once every slot was taken. The fake output's `batch_count` is not a
  // `batching` field, so the stream admits its minimum (4,096; admission.ts) and must flush.
  for (const grouped of [true, false]) {
    it(`writes partial batches when a count policy wants more than the stream admits (${grouped ? 'groups' : 'one by one'})`, async () => {
      const world = new FakeWorld();
      const stream = await buildStream(world, { messages: numbered(10_000), batchCount: 6_000, grouped });
      await stream.run();
      assert.deepEqual([...world.written].sort(), numbered(10_000).sort());
      assert.equal(world.acks.length, 10_000);
      assert.equal(successes(world), 10_000);
      assert.ok(
        world.writeAttempts.every((b) => b.length <= 4_096),
        'a batch held more messages than the stream admits',
      );
    });
  }

  it('replays a stalled partial batch whose write failed, losing nothing', async () => {
    const world = await runFailingWrite(1, { messages: numbered(10_000), batchCount: 6_000 });
    assert.deepEqual([...new Set(world.written)].sort(), numbered(10_000).sort());
    const failed = world.writeAttempts[0]!;
    assert.ok(failed.length > 0);
    const later = new Set(world.writeAttempts.slice(1).flat());
    assert.ok(
      failed.every((m) => later.has(m)),
      'a message of the failed stalled batch was not written again',
    );
  });

  it('replays the group of a failed batched write until everything is delivered', async () => {
    const world = await runFailingWrite(2, { messages: numbered(500), batchCount: 40, maxInFlight: 2 });
    assert.deepEqual([...new Set(world.written)].sort(), numbered(500).sort());
    assert.equal(successes(world), 500);
    assert.equal(world.acks.length, 500);
  });

  it('acks deleted messages without writing them and writes the rest', async () => {
    const world = new FakeWorld();
    world.dropOn = (p) => Number(p.slice(4)) % 10 === 0;
    const stream = await buildStream(world, { messages: numbered(500), processors: [filterProcessor()] });
    await stream.run();
    const kept = numbered(500).filter((p) => Number(p.slice(4)) % 10 !== 0);
    assert.deepEqual(world.written, kept);
    assert.equal(world.acks.length, 500);
    assert.equal(successes(world), 500);
  });

  it('delivers messages a processor throws on, flagged, inside groups', async () => {
    const world = new FakeWorld();
    world.throwOn = (p) => p === 'msg-7';
    const stream = await buildStream(world, { messages: numbered(50), processors: [throwerProcessor()] });
    await stream.run();
    assert.deepEqual(world.written, numbered(50));
    assert.equal(successes(world), 50);
  });

  it('writes what a group has done before waiting on an asynchronous processor', async () => {
    const world = new FakeWorld();
    let releaseLast: () => void = () => undefined;
    const gates = new Map([['msg-2', new Promise<void>((resolve) => (releaseLast = resolve))]]);
    const { builder, env, abort } = createTestEnv({
      registry: new Registry([...fakeSpecs(world), gatedSpec(gates)] as ComponentSpec[]),
    });
    const processor = {
      type: 'gated',
      label: '',
      config: {},
      processors: [],
      path: 'root.pipeline.processors.0',
      raw: {},
    };
    const components = fakeStream({ grouped: true, messages: numbered(3), processors: [processor] });
    const stream = await Stream.build(components, builder, env.logger, abort);
    const running = stream.run();
    for (let i = 0; i < 50 && world.written.length < 2; i++) await new Promise((r) => setTimeout(r, 5));
    assert.deepEqual(world.written, ['msg-0', 'msg-1'], 'earlier messages waited for the slow one');
    assert.deepEqual(world.acks.map((a) => a.payload).sort(), ['msg-0', 'msg-1']);
    releaseLast();
    await running;
    assert.deepEqual(world.written, numbered(3));
    assert.equal(successes(world), 3);
  });

  it('stop() drains in-flight group writes and acks nothing unwritten', async () => {
    const world = new FakeWorld();
    let release: () => void = () => undefined;
    world.writeGate = new Promise((resolve) => (release = resolve));
    const stream = await buildStream(world, { messages: numbered(5000), maxInFlight: 2 });
    const running = stream.run();
    await waitFor(() => world.writeAttempts.length >= 1, { message: 'a write attempt', intervalMs: 5 });
    const stopping = stream.stop(10_000);
    setTimeout(release, 20);
    await stopping;
    await running;
    assert.ok(world.written.length > 0);
    assert.equal(successes(world), world.written.length, 'acks and writes differ');
  });
});
