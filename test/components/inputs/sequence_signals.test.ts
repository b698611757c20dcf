// The `sequence` input's own state: how the exhaustion of each input reaches the stream, and a
// close while a read is still waiting.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SequenceInput } from '../../../src/components/inputs/sequence.js';
import type { ConnectionStatus, Input, Transaction } from '../../../src/engine/component.js';
import type { ComponentConfig } from '../../../src/engine/context.js';
import type { ExhaustedListener } from '../../../src/engine/exhaustion.js';
import { Message } from '../../../src/message/message.js';
import { createTestContext } from '../../helpers/context.js';

/** An input that hands out its messages, then waits (as one waiting for acks) until ended or closed. */
class WaitingInput implements Input {
  private readonly listeners: ExhaustedListener[] = [];
  private release: (() => void) | null = null;
  closed = false;
  constructor(private readonly texts: string[]) {}

  async read(): Promise<Transaction | null> {
    const text = this.texts.shift();
    if (text !== undefined) return { batch: [new Message(text)], ack: async () => undefined };
    for (const listener of this.listeners) listener();
    await new Promise<void>((resolve) => (this.release = resolve));
    return null;
  }

  /** Its acks settled: the pending read ends. */
  end(): void {
    this.release?.();
  }

  onExhausted(listener: ExhaustedListener): void {
    this.listeners.push(listener);
  }

  statuses(): ConnectionStatus[] {
    return [];
  }

  async close(): Promise<void> {
    this.closed = true;
    this.release?.();
  }
}

function sequenceOf(...inputs: WaitingInput[]) {
  const ctx = createTestContext({ type: 'sequence', path: 'root.input' });
  const queue = [...inputs];
  ctx.buildInput = async () => queue.shift()!;
  const configs = inputs.map(
    (): ComponentConfig => ({ type: 'x', label: '', config: {}, processors: [], path: '', raw: {} }),
  );
  return new SequenceInput(configs, ctx);
}

describe('sequence input signals', () => {
  it('reports an earlier input’s end as a part, the next start as resumed, and the last end as final', async () => {
    const first = new WaitingInput(['a']);
    const second = new WaitingInput(['b']);
    const sequence = sequenceOf(first, second);
    const events: string[] = [];
    sequence.onExhausted((event) => events.push(event ?? 'final'));

    assert.equal((await sequence.read())?.batch[0]?.text(), 'a');
    const next = sequence.read();
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(events, ['part']);
    first.end();
    assert.equal((await next)?.batch[0]?.text(), 'b');
    assert.deepEqual(events, ['part', 'resumed']);

    const last = sequence.read();
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(events, ['part', 'resumed', 'final']);
    second.end();
    assert.equal(await last, null);
    let late = '';
    sequence.onExhausted((event) => (late = event ?? 'final'));
    assert.equal(late, 'final');
    await sequence.close();
  });

  it('settles a waiting read with null when closed, and closes the input it was reading', async () => {
    const only = new WaitingInput([]);
    const sequence = sequenceOf(only);
    const read = sequence.read();
    await new Promise((r) => setImmediate(r));
    await sequence.close();
    assert.equal(await read, null);
    assert.equal(only.closed, true);
  });
});
