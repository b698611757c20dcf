import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InprocReader } from '../../../src/components/inputs/inproc.js';
import { InprocWriter } from '../../../src/components/outputs/inproc.js';
import { MemoryInprocBus } from '../../../src/engine/inproc.js';
import { Message } from '../../../src/message/message.js';
import { listenerLeakWarnings } from '../../helpers/kit.js';

describe('inproc input and output', () => {
  it('a write completes only when the reader acks, and a nack fails it', async () => {
    const bus = new MemoryInprocBus();
    const writer = new InprocWriter(bus, 'pipe');
    const reader = new InprocReader(bus, 'pipe');
    let written = false;
    const write = writer.write([new Message('hello')]).then(() => {
      written = true;
    });
    const txn = await reader.read();
    assert.equal(txn?.batch[0]?.text(), 'hello');
    await new Promise((r) => setTimeout(r, 10));
    assert.equal(written, false, 'not delivered before the ack');
    await txn?.ack(null);
    await write;
    assert.equal(written, true);

    const failing = writer.write([new Message('bad')]);
    const txn2 = await reader.read();
    await txn2?.ack(new Error('downstream failed'));
    await assert.rejects(failing, /downstream failed/);
  });

  it('many writes waiting for a reader at once raise no listener-leak warning', async () => {
    // The output runs up to max_in_flight writes at once; each waits on the writer's stop signal.
    const bus = new MemoryInprocBus();
    const writer = new InprocWriter(bus, 'busy');
    let writes: Promise<void>[] = [];
    const warnings = await listenerLeakWarnings(async () => {
      writes = Array.from({ length: 30 }, (_, i) => writer.write([new Message(`${i}`)]));
    });
    assert.deepEqual(warnings, []);
    await writer.close();
    const settled = await Promise.allSettled(writes);
    assert.ok(
      settled.every((s) => s.status === 'rejected'),
      'a closed writer fails what waited',
    );
  });

  it('send waits for a reader (backpressure) and reports readers', async () => {
    const bus = new MemoryInprocBus();
    assert.equal(bus.hasReader('p'), false);
    let sent = false;
    const sending = bus.send('p', { batch: [], ack: async () => {} }).then(() => {
      sent = true;
    });
    await new Promise((r) => setTimeout(r, 10));
    assert.equal(sent, false);
    const stop = new AbortController();
    await bus.receive('p', stop.signal);
    await sending;
    assert.equal(bus.hasReader('p'), true);
    stop.abort();
    assert.equal(bus.hasReader('p'), false);
  });

  it('closing the reader ends a pending read with null', async () => {
    const reader = new InprocReader(new MemoryInprocBus(), 'q');
    const pending = reader.read();
    await reader.close();
    assert.equal(await pending, null);
  });
});
