import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { StreamBuilder } from '../../../src/api/index.js';
import { spec } from '../../../src/components/buffers/system_window.js';
import {
  goRound,
  type Sleep,
  SystemWindowBuffer,
  WINDOW_CLOSED,
} from '../../../src/components/buffers/system_window_buffer.js';
import type { Transaction } from '../../../src/engine/component.js';
import { Message } from '../../../src/message/message.js';
import { createTestContext } from '../../helpers/context.js';
import { waitFor } from '../../helpers/kit.js';

const S = 1_000_000_000n;
/** 2024-01-01T00:00:00Z in nanoseconds. */
const T0 = 1_704_067_200n * S;

/** A clock the test moves; sleeping moves it past the time slept (a timer fires after it), at once. */
function fakeTime(start: bigint) {
  const state = { now: start, slept: [] as bigint[] };
  const clock = () => state.now;
  const sleep: Sleep = async (ns) => {
    state.slept.push(ns);
    state.now += ns + 1n;
  };
  return { state, clock, sleep };
}

/** Messages whose content is their event time in seconds after T0. */
function txn(acks: string[], ...seconds: number[]): Transaction {
  return {
    batch: seconds.map((s) => new Message(String(s))),
    ack: async (err) => {
      acks.push(`${seconds.join(',')}:${err ? err.message : 'ack'}`);
    },
  };
}

const eventTime = (batch: readonly Message[], i: number) => T0 + BigInt(Number(batch[i]!.text()) * 1e9);
const texts = (t: Transaction | null) => t?.batch.map((m) => m.text());

function windowBuffer(
  size: bigint,
  start: bigint,
  extra: { slide?: bigint; offset?: bigint; lateness?: bigint } = {},
) {
  const time = fakeTime(start);
  const buffer = new SystemWindowBuffer(
    eventTime,
    { size, slide: extra.slide ?? 0n, offset: extra.offset ?? 0n, allowedLateness: extra.lateness ?? 0n },
    time.clock,
    time.sleep,
  );
  return { buffer, time };
}

describe('system_window buffer', () => {
  it('rounds as Go does, from Go zero time with halves up', () => {
    assert.equal(goRound(T0 + 29n * S, 60n * S), T0);
    assert.equal(goRound(T0 + 30n * S, 60n * S), T0 + 60n * S);
    // 7s windows do not divide the Unix epoch offset from year 1: alignment follows year 1.
    assert.equal(goRound(0n, 7n * S) % (7n * S) !== 0n, true);
  });

  it('flushes a tumbling window once the clock passes its end, with window_end_timestamp, acking after delivery', async () => {
    const acks: string[] = [];
    const { buffer, time } = windowBuffer(10n * S, T0 + 2n * S);
    await buffer.write(txn(acks, 3, 4));
    await buffer.write(txn(acks, 12));
    assert.deepEqual(acks, [], 'nothing is acked while its window is open');

    const first = await buffer.read();
    assert.deepEqual(texts(first), ['3', '4']);
    // Windows run from 1ns past their start to their end inclusive, as the reference's do: (0s, 10s].
    assert.equal(time.state.now, T0 + 10n * S + 1n, 'waited for the end of the window');
    assert.equal(first!.batch[0]!.getMeta('window_end_timestamp'), '2024-01-01T00:00:10Z');
    assert.deepEqual(acks, []);
    await first!.ack(null);
    assert.deepEqual(acks, ['3,4:ack']);

    const second = await buffer.read();
    assert.deepEqual(texts(second), ['12']);
    await second!.ack(new Error('output failed'));
    assert.deepEqual(acks, ['3,4:ack', '12:output failed']);
  });

  it('waits allowed_lateness past the end of a window', async () => {
    const { buffer, time } = windowBuffer(10n * S, T0 + 1n * S, { lateness: 3n * S });
    await buffer.write(txn([], 5));
    await buffer.read();
    assert.equal(time.state.now, T0 + 13n * S + 1n);
  });

  it('puts a message in every sliding window it falls in', async () => {
    // Windows of 10s every 5s: a message at 7s is in (0s, 10s] and (5s, 15s].
    const { buffer } = windowBuffer(10n * S, T0 + 6n * S, { slide: 5n * S });
    const acks: string[] = [];
    await buffer.write(txn(acks, 7));
    const first = await buffer.read();
    const second = await buffer.read();
    assert.deepEqual([texts(first), texts(second)], [['7'], ['7']]);
    assert.deepEqual(
      [first!.batch[0]!.getMeta('window_end_timestamp'), second!.batch[0]!.getMeta('window_end_timestamp')],
      ['2024-01-01T00:00:10Z', '2024-01-01T00:00:15Z'],
    );
    await first!.ack(null);
    await second!.ack(new Error('too late to matter'));
    assert.deepEqual(acks, ['7:ack'], 'the first delivery settles the message');
  });

  it('drops messages at or before the last flushed window end, acking them', async () => {
    const acks: string[] = [];
    const { buffer, time } = windowBuffer(10n * S, T0 + 1n * S);
    await buffer.write(txn(acks, 2));
    await (await buffer.read())!.ack(null);
    time.state.now = T0 + 11n * S;
    await buffer.write(txn(acks, 5));
    assert.deepEqual(acks, ['2:ack', '5:ack']);
  });

  it('nacks what waits for an incomplete window at end of input, and ends reads', async () => {
    const acks: string[] = [];
    const { buffer } = windowBuffer(10n * S, T0 + 1n * S);
    await buffer.write(txn(acks, 5, 6));
    buffer.endOfInput();
    assert.equal(await buffer.read(), null);
    assert.deepEqual(acks, [`5,6:${WINDOW_CLOSED}`]);
  });

  it('nacks a batch whose timestamp mapping fails', async () => {
    const acks: string[] = [];
    const buffer = await spec.build(
      {
        timestamp_mapping: 'root = this.ts',
        size: '1s',
        slide: '',
        offset: '',
        allowed_lateness: '',
      } as never,
      createTestContext(),
    );
    await buffer.write({
      batch: [new Message('{"ts":"not a time"}')],
      ack: async (err) => {
        acks.push(err ? 'nack' : 'ack');
      },
    });
    assert.deepEqual(acks, ['nack']);
    await buffer.close();
  });

  it('lints durations as the reference checks them', () => {
    const lint = (c: Record<string, string>) =>
      spec.lint!({
        timestamp_mapping: 'root = now()',
        slide: '',
        offset: '',
        allowed_lateness: '',
        ...c,
      } as never);
    assert.deepEqual(lint({ size: '1m' }), []);
    assert.deepEqual(lint({ size: 'soon' }), [
      `failed to parse field 'size' as duration: time: invalid duration "soon"`,
    ]);
    assert.deepEqual(lint({ size: '1m', slide: '1m' }), [
      "invalid window slide '1m' must be lower than the size '1m'",
    ]);
    assert.deepEqual(lint({ size: '1m', offset: '2m' }), [
      "invalid offset '2m' must be lower than the size '1m'",
    ]);
    assert.deepEqual(lint({ size: '1m', slide: '10s', offset: '10s' }), [
      "invalid offset '10s' must be lower than the slide '10s'",
    ]);
    assert.deepEqual(lint({ size: '1m', allowed_lateness: '1h' }), [
      "invalid allowed_lateness '1h' must be lower than the size '1m'",
    ]);
  });

  it('runs in a stream on the system clock: windows come out as batches and acks reach the producer after delivery', async () => {
    const builder = new StreamBuilder();
    builder.setYaml('logger:\n  level: warn\nbuffer:\n  system_window:\n    size: 200ms\n');
    const send = builder.addProducerFunc();
    const received: { text: string; end: unknown }[] = [];
    builder.addConsumerFunc((m) => {
      received.push({ text: m.asString(), end: m.metadata('window_end_timestamp') });
    });
    const stream = await builder.build();
    const running = stream.run();
    const acked: string[] = [];
    const sends = ['a', 'b', 'c'].map((t) => send(t).then(() => acked.push(t)));
    await waitFor(() => received.length === 3, { message: 'the window to be flushed' });
    await Promise.all(sends);
    assert.deepEqual(received.map((r) => r.text).sort(), ['a', 'b', 'c']);
    for (const r of received) assert.match(String(r.end), /^\d{4}-\d\d-\d\dT[\d:.]+Z$/);
    assert.deepEqual(acked.sort(), ['a', 'b', 'c']);
    await stream.stop(1000);
    await running;
  });
});
