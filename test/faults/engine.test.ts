// At-least-once through the engine under injected faults: nacks come back on the next session,
// rejected and disconnected writes are retried until everything arrives, and nothing is ever
// acknowledged to the source before the output has it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ComponentSpec } from '../../src/config/spec.js';
import type { BuildContext } from '../../src/engine/context.js';
import { Registry } from '../../src/engine/registry.js';
import { Message } from '../../src/message/message.js';
import { waitFor } from '../helpers/kit.js';
import {
  component,
  countFromEnv,
  DurableQueue,
  exposeGc,
  FaultyOutputScript,
  faultRegistry,
  faultStream,
  letters,
  prng,
  seedFromEnv,
} from './support.js';

function assertAckedOnlyWhatWasWritten(queue: DurableQueue, script: FaultyOutputScript): void {
  const written = new Set(script.written);
  for (const p of queue.acked) assert.ok(written.has(p), `${p} was acked but never written`);
}

/** Runs sessions (stream build → run to the end of the queue) until nothing is pending. */
async function drainInSessions(
  queue: DurableQueue,
  script: FaultyOutputScript,
  options: Parameters<typeof faultStream>[1],
  maxSessions: number,
): Promise<number> {
  let sessions = 0;
  while (queue.pending().length > 0) {
    assert.ok(sessions < maxSessions, `still ${queue.pending().length} pending after ${sessions} sessions`);
    const stream = await faultStream(faultRegistry(queue, script), options);
    await stream.run();
    sessions++;
  }
  return sessions;
}

describe('delivery under faults', () => {
  it('send A–E, nack C and E, close and reopen: C and E arrive again', async () => {
    const queue = new DurableQueue(['A', 'B', 'C', 'D', 'E']);
    const script = new FaultyOutputScript();
    script.rejectWhen = (_attempt, payloads) => payloads.includes('C') || payloads.includes('E');
    const first = await faultStream(faultRegistry(queue, script));
    await first.run();
    assert.deepEqual(script.written, ['A', 'B', 'D']);
    assert.deepEqual(queue.pending().sort(), ['C', 'E']);
    assertAckedOnlyWhatWasWritten(queue, script);

    script.rejectWhen = () => false;
    const second = await faultStream(faultRegistry(queue, script));
    await second.run();
    assert.deepEqual(queue.deliveries.slice(5), ['C', 'E'], 'the reopened input redelivers C and E only');
    assert.deepEqual(script.written, ['A', 'B', 'D', 'C', 'E']);
    assert.deepEqual(queue.pending(), []);
  });

  it('rejecting every 10th write: with auto_replay_nacks every message arrives, acked once', async () => {
    const n = countFromEnv('FAULT_MESSAGES', 2000);
    const queue = new DurableQueue(letters(n));
    const script = new FaultyOutputScript();
    script.rejectWhen = (attempt) => attempt % 10 === 0;
    const stream = await faultStream(faultRegistry(queue, script), { autoReplayNacks: true, maxInFlight: 4 });
    await stream.run();
    assert.deepEqual(new Set(script.written), new Set(letters(n)));
    assert.equal(queue.acked.length, n, 'each message acked exactly once');
    assert.equal(queue.sessions, 1);
    assertAckedOnlyWhatWasWritten(queue, script);
  });

  it('rejecting every 10th write without replay: the source redelivers until all arrive', async () => {
    const n = countFromEnv('FAULT_MESSAGES', 2000);
    const queue = new DurableQueue(letters(n));
    const script = new FaultyOutputScript();
    script.rejectWhen = (attempt) => attempt % 10 === 0;
    const sessions = await drainInSessions(queue, script, { maxInFlight: 4, batchSize: 3 }, 20);
    assert.ok(sessions >= 2, 'the first session cannot have delivered everything');
    assert.deepEqual(new Set(script.written), new Set(letters(n)));
    assertAckedOnlyWhatWasWritten(queue, script);
  });

  it('the same across reconnects of input and output, with random batching (seeded)', async () => {
    const seed = seedFromEnv(7);
    const random = prng(seed);
    const n = countFromEnv('FAULT_MESSAGES', 2000);
    const queue = new DurableQueue(letters(n));
    const script = new FaultyOutputScript();
    queue.dropConnectionOn = (read) => read % 97 === 0;
    script.disconnectWhen = (attempt) => attempt % 13 === 0;
    script.rejectWhen = () => random() < 0.1;
    const options = {
      maxInFlight: 1 + Math.floor(random() * 8),
      batchSize: 1 + Math.floor(random() * 5),
      batchCount: Math.floor(random() * 4),
      threads: 1 + Math.floor(random() * 3),
    };
    await drainInSessions(queue, script, options, 40);
    assert.ok(queue.sessions > 1, 'the input never reconnected');
    assert.ok(script.connects > 1, 'the output never reconnected');
    assert.deepEqual(new Set(script.written), new Set(letters(n)), `seed ${seed}`);
    assertAckedOnlyWhatWasWritten(queue, script);
  });

  it('an output that fails every write at once: replays leave the event loop free, and stop() ends them', {
    timeout: 20_000,
  }, async () => {
    // Was: each nack was replayed within the same run of microtasks, so timers and signals never
    // ran (`nekton ... | head` spun a core and ignored SIGTERM once stdout was closed).
    const queue = new DurableQueue(letters(5));
    const script = new FaultyOutputScript();
    script.rejectWhen = () => true;
    const stream = await faultStream(faultRegistry(queue, script), { autoReplayNacks: true, maxInFlight: 4 });
    const running = stream.run();
    await waitFor(() => script.attempts > 50, { message: 'replayed writes', intervalMs: 10 });
    await stream.stop(1000);
    await running;
    assert.deepEqual(queue.acked, [], 'nothing acked: nothing was written');
    assert.deepEqual(
      new Set(queue.pending()),
      new Set(letters(5)),
      'everything is left for the next session',
    );
  });

  it('a replay after the input ended still reaches a batching output (needs a flush of its own)', async () => {
    const queue = new DurableQueue(letters(7));
    const script = new FaultyOutputScript();
    // The last write fails once: its replay comes after the input ended and the first flush.
    script.rejectWhen = (attempt) => attempt === 2;
    const stream = await faultStream(faultRegistry(queue, script), { autoReplayNacks: true, batchCount: 5 });
    await stream.run();
    assert.deepEqual(new Set(script.written), new Set(letters(7)));
    assert.deepEqual(queue.pending(), []);
  });

  it('a partly filled output batch is written when the input ends (was: the stream hung)', async () => {
    const queue = new DurableQueue(letters(7));
    const script = new FaultyOutputScript();
    const stream = await faultStream(faultRegistry(queue, script), { batchCount: 5 });
    await stream.run();
    assert.deepEqual(script.written, letters(7));
    assert.deepEqual(queue.pending(), []);
  });

  it('stop() during slow writes: acked ⊆ written, the rest is redelivered by the next session', async () => {
    const queue = new DurableQueue(letters(200));
    const script = new FaultyOutputScript();
    script.delayMs = 30;
    const stream = await faultStream(faultRegistry(queue, script), { maxInFlight: 4 });
    const running = stream.run();
    await waitFor(() => script.written.length >= 8, { message: 'some writes', intervalMs: 10 });
    await stream.stop(100);
    await running;
    assertAckedOnlyWhatWasWritten(queue, script);
    assert.ok(queue.pending().length > 0);
    script.delayMs = 0;
    await drainInSessions(queue, script, { maxInFlight: 4 }, 5);
    assert.deepEqual(new Set(script.written), new Set(letters(200)));
  });

  it('backpressure: a fast input into a 50 ms output keeps reads and heap bounded', async () => {
    const n = countFromEnv('BACKPRESSURE_MESSAGES', 20_000);
    const batchCount = countFromEnv('BACKPRESSURE_BATCH', 100);
    const payload = 'x'.repeat(1024);
    let produced = 0;
    let acked = 0;
    let maxOutstanding = 0;
    const script = new FaultyOutputScript();
    script.delayMs = 50;
    // An input that is never slow: it has the next message the moment it is asked.
    const registry = faultRegistry(null, script);
    const inputSpec: ComponentSpec<Record<string, never>> = {
      name: 'firehose',
      kind: 'input',
      status: 'stable',
      summary: 'test double',
      fields: [],
      build: (_c: unknown, ctx: BuildContext) =>
        ctx.wrapReader({
          connect: async () => undefined,
          read: async () => {
            if (produced >= n) return null;
            produced++;
            maxOutstanding = Math.max(maxOutstanding, produced - acked);
            return {
              batch: [new Message(`${produced}:${payload}`)],
              ack: async () => {
                acked++;
              },
            };
          },
          close: async () => undefined,
        }),
    };
    const withFirehose = new Registry([...registry.list(), inputSpec as ComponentSpec]);
    const gc = exposeGc();
    gc();
    const heapBefore = process.memoryUsage().heapUsed;
    let heapPeak = heapBefore;
    const sampler = setInterval(() => {
      heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed);
    }, 20);
    const stream = await faultStream(withFirehose, {
      input: component('firehose', 'root.input', {}),
      maxInFlight: 4,
      batchCount,
    });
    await stream.run();
    clearInterval(sampler);
    const growthMb = (heapPeak - heapBefore) / 1048576;
    if (process.env.SOAK_REPORT)
      console.log(
        `backpressure: ${n} msgs, peak heap growth ${growthMb.toFixed(1)} MB, max outstanding ${maxOutstanding}`,
      );
    assert.equal(script.written.length, n);
    assert.equal(acked, n);
    // The stream holds at most 4096 transactions between input and output, plus the writes in flight.
    assert.ok(maxOutstanding <= 4096 + 4 * batchCount + 8, `outstanding reached ${maxOutstanding}`);
    assert.ok(growthMb < 150, `heap grew by ${growthMb.toFixed(1)} MB`);
  });

  it('a memory buffer never holds more than its limit', async () => {
    const limit = 10_000;
    const size = 100;
    const queue = new DurableQueue(letters(600).map((p) => p.padEnd(size, '.')));
    const script = new FaultyOutputScript();
    script.delayMs = 2;
    let maxHeld = 0;
    const sampler = setInterval(() => {
      maxHeld = Math.max(maxHeld, queue.acked.length - script.written.length);
    }, 1);
    const buffer = component('memory', 'root.buffer', {
      limit,
      batch_policy: { enabled: false, count: 0, byte_size: 0, period: '', check: '', processors: [] },
    });
    const stream = await faultStream(faultRegistry(queue, script), { buffer, maxInFlight: 2 });
    await stream.run();
    clearInterval(sampler);
    assert.equal(script.written.length, 600);
    assert.ok(maxHeld > 10, `the buffer never filled (max ${maxHeld}): the test proves nothing`);
    assert.ok(maxHeld <= limit / size + 1, `buffer held ${maxHeld} messages, limit is ${limit / size}`);
  });
});
