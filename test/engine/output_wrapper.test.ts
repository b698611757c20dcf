// WriterOutput around a writer: at most max_in_flight writes at once, a write that reports a lost
// connection is written again after reconnecting, a failed write rejects (and frees its slot), the
// metrics count what went through, and close() waits for the writes in flight.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pino } from 'pino';
import type { OutputWriter } from '../../src/engine/component.js';
import type { Counter, MetricsScope, Timer } from '../../src/engine/context.js';
import { NotConnectedError } from '../../src/engine/errors.js';
import { noopScope } from '../../src/engine/noop_metrics.js';
import { WriterOutput } from '../../src/engine/output_wrapper.js';
import { type Batch, Message } from '../../src/message/message.js';

/** A writer whose writes wait until the test settles them, one by one in order. */
class GatedWriter implements OutputWriter {
  connects = 0;
  closed = false;
  readonly started: string[] = [];
  readonly written: string[] = [];
  private readonly pending: Array<{ payload: string; settle: (err: Error | null) => void }> = [];

  async connect(): Promise<void> {
    this.connects++;
  }

  write(batch: Batch): Promise<void> {
    const payload = batch.map((m) => m.text()).join(',');
    this.started.push(payload);
    return new Promise((resolve, reject) => {
      this.pending.push({
        payload,
        settle: (err) => {
          if (err) reject(err);
          else {
            this.written.push(payload);
            resolve();
          }
        },
      });
    });
  }

  writeGroup(batches: readonly Batch[]): Promise<void> {
    return this.write(batches.flat());
  }

  /** Settles the oldest write in progress. */
  settleNext(err: Error | null = null): void {
    const next = this.pending.shift();
    assert.ok(next, 'no write in progress');
    next.settle(err);
  }

  async close(): Promise<void> {
    this.closed = true;
  }
}

/** Metrics that remember counter totals by name. */
function countingScope(): { scope: MetricsScope; totals: Map<string, number> } {
  const totals = new Map<string, number>();
  const timer: Timer = { observeNs: () => undefined, observeNsTimes: () => undefined };
  const scope: MetricsScope = {
    counter: (name): Counter => ({ inc: (n = 1) => totals.set(name, (totals.get(name) ?? 0) + n) }),
    timer: () => timer,
    gauge: () => noopScope.gauge('x'),
    child: () => scope,
  };
  return { scope, totals };
}

function wrap(writer: OutputWriter, maxInFlight: number, metrics: MetricsScope = noopScope): WriterOutput {
  return new WriterOutput(
    writer,
    { label: '', path: 'root.output', logger: pino({ level: 'silent' }), metrics },
    maxInFlight,
  );
}

const batch = (...texts: string[]): Batch => texts.map((t) => new Message(t));
const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('WriterOutput', () => {
  it('keeps at most max_in_flight writes going, starting the next as one settles', async () => {
    const writer = new GatedWriter();
    const output = wrap(writer, 2);
    await turn(); // connected
    const writes = ['a', 'b', 'c', 'd'].map((t) => output.write(batch(t)));
    await turn();
    assert.deepEqual(writer.started, ['a', 'b']);
    writer.settleNext();
    await writes[0];
    await turn();
    assert.deepEqual(writer.started, ['a', 'b', 'c']);
    writer.settleNext();
    writer.settleNext();
    await turn();
    writer.settleNext();
    await Promise.all(writes);
    assert.deepEqual(writer.written, ['a', 'b', 'c', 'd']);
  });

  it('reconnects and writes again when a write reports a lost connection', async () => {
    const writer = new GatedWriter();
    const output = wrap(writer, 1);
    await turn();
    assert.equal(writer.connects, 1);
    const write = output.write(batch('a'));
    const next = output.write(batch('b'));
    await turn();
    writer.settleNext(new NotConnectedError('gone'));
    while (writer.started.length < 2) await turn();
    assert.equal(writer.connects, 2);
    assert.deepEqual(writer.started, ['a', 'a'], 'another write took the slot of the retried one');
    writer.settleNext();
    await write;
    await turn();
    writer.settleNext();
    await next;
    assert.deepEqual(writer.written, ['a', 'b']);
  });

  it('rejects a failed write, counts it and frees its slot', async () => {
    const writer = new GatedWriter();
    const { scope, totals } = countingScope();
    const output = wrap(writer, 1, scope);
    await turn();
    const failing = output.write(batch('a', 'b'));
    const next = output.write(batch('c'));
    await turn();
    writer.settleNext(new Error('refused'));
    await assert.rejects(failing, /refused/);
    await turn();
    writer.settleNext();
    await next;
    assert.equal(totals.get('output_error'), 2);
    assert.equal(totals.get('output_sent'), 1);
    assert.equal(totals.get('output_batch_sent'), 1);
  });

  it('counts every message and batch of a group write', async () => {
    const writer = new GatedWriter();
    const { scope, totals } = countingScope();
    const output = wrap(writer, 1, scope);
    await turn();
    assert.ok(output.writeGroup);
    const written = output.writeGroup([batch('a', 'b'), batch('c')]);
    await turn();
    writer.settleNext();
    await written;
    assert.equal(totals.get('output_sent'), 3);
    assert.equal(totals.get('output_batch_sent'), 2);
  });

  it('close() while connecting logs no connection error and does not retry', async () => {
    let failConnect: (err: Error) => void = () => undefined;
    let connects = 0;
    const writer: OutputWriter = {
      connect: () => {
        connects++;
        return new Promise<void>((_, reject) => (failConnect = reject));
      },
      write: async () => undefined,
      // As a pool does: closing it fails the connect in progress.
      close: async () => failConnect(new Error('closed')),
    };
    const errors: string[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => errors.push(line) });
    const output = new WriterOutput(writer, { label: '', path: 'root.output', logger, metrics: noopScope });
    await turn();
    await output.close();
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.deepEqual(
      errors.filter((l) => l.includes('failed to connect')),
      [],
    );
    assert.equal(connects, 1);
  });

  it('close() waits for the writes in flight before closing the writer', async () => {
    const writer = new GatedWriter();
    const output = wrap(writer, 4);
    await turn();
    const write = output.write(batch('a'));
    let closed = false;
    const closing = output.close().then(() => (closed = true));
    await turn();
    assert.equal(closed, false);
    assert.equal(writer.closed, false);
    writer.settleNext();
    await write;
    await closing;
    assert.equal(writer.closed, true);
    await assert.rejects(output.write(batch('late')), /closed/);
  });
});
