// Engine-level delivery when one output batch fails (issue 29): input batching + output batching,
// and a broker fan_out with its own batching over members that batch too. Only the messages of the
// batch that failed are written again; every message reaches every output exactly once, and the
// source acks all of them (a failed one is nacked and replayed, never dropped).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pino } from 'pino';
import { registry as builtins } from '../../src/components/registry.js';
import type { ComponentSpec } from '../../src/config/spec.js';
import { ComponentBuilder, type EngineEnv } from '../../src/engine/builder.js';
import type { OutputWriter } from '../../src/engine/component.js';
import type { ComponentConfig } from '../../src/engine/context.js';
import { MemoryInprocBus } from '../../src/engine/inproc.js';
import { noopMetrics } from '../../src/engine/noop_metrics.js';
import { Registry } from '../../src/engine/registry.js';
import { ResourceManager } from '../../src/engine/resources.js';
import { Stream } from '../../src/engine/stream.js';
import { component, DurableQueue, FaultyOutputScript, letters } from './support.js';

const TOTAL = 1000;
const POISON = 'm500';

const batching = (count: number) => ({ count, byte_size: 0, period: '', check: '', processors: [] });

/** `durable_queue` bound to `queue`, and `scripted_output` whose `name` picks one of `scripts`. */
function registryFor(queue: DurableQueue, scripts: Record<string, FaultyOutputScript>): Registry {
  const input: ComponentSpec<{ auto_replay_nacks: boolean; batch_size?: number }> = {
    name: 'durable_queue',
    kind: 'input',
    status: 'stable',
    summary: 'test double: a durable queue, `batch_size` messages per transaction (1 by default)',
    fields: [],
    build: (config, ctx) =>
      ctx.wrapReader(queue.reader(config.batch_size ?? 1), { autoReplayNacks: config.auto_replay_nacks }),
  };
  const output: ComponentSpec<{ name: string; batch_count: number }> = {
    name: 'scripted_output',
    kind: 'output',
    status: 'stable',
    summary: 'test double: an output whose writes a script may fail',
    fields: [],
    build(config, ctx) {
      const script = scripts[config.name]!;
      const writer: OutputWriter = {
        connect: async () => undefined,
        write: async (batch) => {
          const attempt = ++script.attempts;
          const payloads = batch.map((m) => m.text());
          if (script.rejectWhen(attempt, payloads)) throw new Error(`injected rejection ${attempt}`);
          for (const p of payloads) script.written.push(p);
        },
        close: async () => undefined,
      };
      const policy = config.batch_count ? batching(config.batch_count) : undefined;
      return ctx.wrapWriter(writer, { maxInFlight: 2, batching: policy });
    },
  };
  return new Registry([...builtins.list(), input, output] as ComponentSpec[]);
}

/** Fails the first write that holds POISON, and counts how often it did. */
function poisonedOnce(script: FaultyOutputScript): { failures: number } {
  const seen = { failures: 0 };
  script.rejectWhen = (_attempt, payloads) => {
    if (seen.failures > 0 || !payloads.includes(POISON)) return false;
    seen.failures++;
    return true;
  };
  return seen;
}

async function runStream(registry: Registry, input: ComponentConfig, output: ComponentConfig): Promise<void> {
  const abort = new AbortController();
  const env: EngineEnv = {
    registry,
    logger: pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }),
    metrics: noopMetrics,
    resources: new ResourceManager(),
    inproc: new MemoryInprocBus(),
    signal: abort.signal,
  };
  const stream = await Stream.build(
    { input, buffer: null, pipeline: { threads: 1, processors: [] }, output },
    new ComponentBuilder(env),
    env.logger,
    abort,
  );
  const timer = setTimeout(() => void stream.stop(1000), 30_000);
  try {
    await stream.run();
  } finally {
    clearTimeout(timer);
  }
}

/** An input broker batching `count` source transactions (one message each) into one. */
function batchedQueue(count: number): ComponentConfig {
  return component('broker', 'root.input', {
    copies: 1,
    inputs: [component('durable_queue', 'root.input.broker.inputs.0', { auto_replay_nacks: true })],
    batching: batching(count),
  });
}

/** Payloads written more than once, and payloads never written. */
function faults(written: string[]): { twice: string[]; missing: string[] } {
  const counts = new Map<string, number>();
  for (const p of written) counts.set(p, (counts.get(p) ?? 0) + 1);
  return {
    twice: [...counts].filter(([, n]) => n > 1).map(([p]) => p),
    missing: letters(TOTAL).filter((p) => !counts.has(p)),
  };
}

describe('one failed output batch among 1,000 messages', () => {
  it('input batching (30) + output batching (50): only the failed batch is nacked and written again', async () => {
    const queue = new DurableQueue(letters(TOTAL));
    const script = new FaultyOutputScript();
    const poison = poisonedOnce(script);
    const registry = registryFor(queue, { out: script });
    await runStream(
      registry,
      batchedQueue(30),
      component('scripted_output', 'root.output', { name: 'out', batch_count: 50 }),
    );
    assert.equal(poison.failures, 1, 'the poisoned batch never failed');
    const { twice, missing } = faults(script.written);
    // The input batches of 30 straddle the output batches of 50: a neighbour's failure must not
    // send the messages of a straddling input batch that were delivered again.
    assert.deepEqual(twice, [], `${twice.length} messages were written twice`);
    assert.deepEqual(missing, [], 'a message was lost');
    assert.deepEqual(queue.pending(), [], 'a message was never acked');
    assert.equal(queue.acked.length, TOTAL, 'a message was acked more than once or not at all');
  });

  it('source batches (20) + output batching (50): a straddling source batch replays only its failed messages', async () => {
    const queue = new DurableQueue(letters(TOTAL));
    const script = new FaultyOutputScript();
    const poison = poisonedOnce(script);
    const registry = registryFor(queue, { out: script });
    await runStream(
      registry,
      component('durable_queue', 'root.input', { auto_replay_nacks: true, batch_size: 20 }),
      component('scripted_output', 'root.output', { name: 'out', batch_count: 50 }),
    );
    assert.equal(poison.failures, 1, 'the poisoned batch never failed');
    const { twice, missing } = faults(script.written);
    // The source batch m540..m559 had m540..m549 in the batch that failed and m550..m559 in the
    // next: only the first ten are replayed (the reference's BatchError and auto-retry).
    assert.deepEqual(twice, [], `${twice.length} messages were written twice`);
    assert.deepEqual(missing, [], 'a message was lost');
    assert.deepEqual(queue.pending(), [], 'a message was never acked');
  });

  it('broker fan_out with batching (100) over a batching member (50) and a plain one: each member gets each message once', async () => {
    const queue = new DurableQueue(letters(TOTAL));
    const batchingMember = new FaultyOutputScript();
    const plainMember = new FaultyOutputScript();
    const poison = poisonedOnce(batchingMember);
    const registry = registryFor(queue, { batching: batchingMember, plain: plainMember });
    await runStream(
      registry,
      batchedQueue(30),
      component('broker', 'root.output', {
        copies: 1,
        pattern: 'fan_out',
        outputs: [
          component('scripted_output', 'root.output.broker.outputs.0', { name: 'batching', batch_count: 50 }),
          component('scripted_output', 'root.output.broker.outputs.1', { name: 'plain', batch_count: 0 }),
        ],
        batching: batching(100),
      }),
    );
    assert.equal(poison.failures, 1, 'the poisoned batch never failed');
    for (const [name, script] of [
      ['batching member', batchingMember],
      ['plain member', plainMember],
    ] as const) {
      const { twice, missing } = faults(script.written);
      assert.deepEqual(twice, [], `${name}: ${twice.length} messages were written twice`);
      assert.deepEqual(missing, [], `${name}: a message was lost`);
    }
    assert.deepEqual(queue.pending(), [], 'a message was never acked');
    assert.equal(queue.acked.length, TOTAL);
  });

  it('broker fan_out_fail_fast with batching: a member failure nacks only the broker batch that failed', async () => {
    const queue = new DurableQueue(letters(TOTAL));
    const failing = new FaultyOutputScript();
    const other = new FaultyOutputScript();
    const poison = poisonedOnce(failing);
    const registry = registryFor(queue, { failing, other });
    await runStream(
      registry,
      batchedQueue(30),
      component('broker', 'root.output', {
        copies: 1,
        pattern: 'fan_out_fail_fast',
        outputs: [
          component('scripted_output', 'root.output.broker.outputs.0', { name: 'failing', batch_count: 50 }),
          component('scripted_output', 'root.output.broker.outputs.1', { name: 'other', batch_count: 0 }),
        ],
        batching: batching(100),
      }),
    );
    assert.equal(poison.failures, 1, 'the poisoned batch never failed');
    const failed = faults(failing.written);
    assert.deepEqual(failed.twice, [], `failing member: ${failed.twice.length} messages were written twice`);
    assert.deepEqual(failed.missing, [], 'failing member: a message was lost');
    // fail_fast nacks the broker batch, so the other member gets that batch's messages again; none else.
    const again = faults(other.written);
    assert.deepEqual(again.missing, [], 'other member: a message was lost');
    assert.ok(again.twice.includes(POISON), 'the nacked broker batch was not replayed');
    const poisonBatch = letters(TOTAL).slice(500, 550);
    const outside = again.twice.filter((p) => !poisonBatch.includes(p));
    assert.deepEqual(outside, [], `other member: messages of batches that did not fail were written twice`);
    assert.deepEqual(queue.pending(), [], 'a message was never acked');
  });
});
