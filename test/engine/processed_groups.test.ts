// Input and output `processors` keep groups whole: a group read together goes through the
// processors batch by batch and on as one group, and each source batch is settled exactly once.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ConnectionStatus, Input, Processor, TransactionGroup } from '../../src/engine/component.js';
import { ProcessedInput } from '../../src/engine/processed_input.js';
import { ProcessedOutput } from '../../src/engine/processed_output.js';
import { type Batch, Message } from '../../src/message/message.js';
import { CallRecorder, GroupCallRecorder } from '../helpers/kit.js';

const texts = (b: Batch) => b.map((m) => m.text()).join('+');
const group = (...t: string[]) => t.map((x) => [new Message(x)]);

/** b is filtered out, c is split in two, `boom` throws, the rest is upper-cased. */
const processor: Processor = {
  process(batch) {
    const text = batch[0]!.text();
    if (text === 'boom') throw new Error('processor failed');
    if (text === 'b') return [];
    if (text === 'c') return [[new Message('C1')], [new Message('C2')]];
    return [[new Message(text.toUpperCase())]];
  },
  close: async () => undefined,
};

/** An input that hands out one group and records how each source batch was settled. */
class GroupSource implements Input {
  readonly settled = new Map<string, (string | null)[]>();
  constructor(private batches: Batch[] | null) {}
  readMany(): TransactionGroup | Promise<null> {
    const batches = this.batches;
    if (!batches) return Promise.resolve(null);
    this.batches = null;
    return {
      batches,
      ack: (err, which) => {
        for (const b of which) {
          const key = texts(b);
          this.settled.set(key, [...(this.settled.get(key) ?? []), err?.message ?? null]);
        }
      },
    };
  }
  async read() {
    return null;
  }
  statuses(): ConnectionStatus[] {
    return [];
  }
  async close() {}
}

describe('input processors on a group', () => {
  it('hand on one group of what they made, and settle each source once its every part settled', async () => {
    const source = new GroupSource(group('a', 'b', 'c', 'd', 'boom'));
    const input = new ProcessedInput(source, [processor]);
    const got = await input.readMany!(256);
    assert.ok(got && 'batches' in got);
    assert.deepEqual(got.batches.map(texts), ['A', 'C1', 'C2', 'D']);
    // The filtered batch counts as delivered, the one whose processor threw is nacked.
    assert.deepEqual(Object.fromEntries(source.settled), { b: [null], boom: ['processor failed'] });

    const [A, C1, C2, D] = got.batches;
    got.ack(null, [A!, D!]);
    got.ack(new Error('write failed'), [C1!]);
    assert.equal(source.settled.has('c'), false, 'c waits for its second part');
    got.ack(null, [C2!]);
    assert.deepEqual(Object.fromEntries(source.settled), {
      a: [null],
      b: [null],
      boom: ['processor failed'],
      c: ['write failed'],
      d: [null],
    });
    assert.equal(await input.readMany!(256), null);
  });

  it('reads no groups from an input that gives none', () => {
    const plain: Input = { read: async () => null, statuses: () => [], close: async () => undefined };
    assert.equal(new ProcessedInput(plain, [processor]).readMany, undefined);
  });
});

describe('output processors on a group', () => {
  it('write what the processors made of the whole group in one call', async () => {
    const inner = new GroupCallRecorder();
    const output = new ProcessedOutput(inner, [processor]);
    await output.writeGroup!(group('a', 'b', 'c'));
    assert.deepEqual(inner.calls, [['A', 'C1', 'C2']]);
    await output.writeGroup!(group('b'));
    assert.equal(inner.calls.length, 1, 'nothing left to write: no call');
  });

  it('take no groups over an output that takes none', () => {
    assert.equal(new ProcessedOutput(new CallRecorder(), [processor]).writeGroup, undefined);
  });
});
