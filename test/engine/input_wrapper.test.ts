// ReaderInput around a reader that waits for each message (as http_server does): the read raced
// against the stop, failures and the end of the source, and the ack handed to the engine.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pino } from 'pino';
import type { AckFn, InputReader, Transaction } from '../../src/engine/component.js';
import { NotConnectedError } from '../../src/engine/errors.js';
import { ReaderInput } from '../../src/engine/input_wrapper.js';
import { noopScope } from '../../src/engine/noop_metrics.js';
import { Message } from '../../src/message/message.js';

/** A reader whose reads wait until the test feeds them a transaction, a failure or the end. */
class WaitingReader implements InputReader {
  connects = 0;
  closed = false;
  private next: { resolve: (t: Transaction | null) => void; reject: (e: Error) => void } | null = null;
  private readonly asked: Array<() => void> = [];

  async connect(): Promise<void> {
    this.connects++;
  }

  read(): Promise<Transaction | null> {
    return new Promise((resolve, reject) => {
      this.next = { resolve, reject };
      for (const wake of this.asked.splice(0)) wake();
    });
  }

  /** Resolves once a read is waiting. */
  async waiting(): Promise<void> {
    if (!this.next) await new Promise<void>((resolve) => this.asked.push(resolve));
  }

  async feed(txn: Transaction | null): Promise<void> {
    await this.waiting();
    const next = this.next!;
    this.next = null;
    next.resolve(txn);
  }

  async fail(err: Error): Promise<void> {
    await this.waiting();
    const next = this.next!;
    this.next = null;
    next.reject(err);
  }

  async close(): Promise<void> {
    this.closed = true;
  }
}

function wrap(reader: InputReader): ReaderInput {
  return new ReaderInput(reader, {
    label: '',
    path: 'root.input',
    logger: pino({ level: 'silent' }),
    metrics: noopScope,
  });
}

/** A transaction whose ack records what it was settled with. */
function txnOf(text: string, acks: Array<Error | null>, ack?: AckFn): Transaction {
  return {
    batch: [new Message(text)],
    ack:
      ack ??
      (async (err) => {
        acks.push(err);
      }),
  };
}

describe('ReaderInput with a reader that waits for each message', () => {
  it('hands out what the reader produces, settling the source once', async () => {
    const reader = new WaitingReader();
    const input = wrap(reader);
    const acks: Array<Error | null> = [];
    const first = input.read();
    await reader.feed(txnOf('a', acks));
    const txn = await first;
    assert.equal(txn?.batch[0]?.text(), 'a');
    // Unbound, as stream code may pass it around; a second settle changes nothing.
    const { ack } = txn!;
    await ack(null);
    await ack(new Error('late'));
    assert.deepEqual(acks, [null]);
    await input.close();
    assert.equal(reader.closed, true);
  });

  it('passes a failed source ack on, and still lets close() finish', async () => {
    const reader = new WaitingReader();
    const input = wrap(reader);
    const read = input.read();
    await reader.feed(txnOf('a', [], async () => Promise.reject(new Error('broker gone'))));
    const txn = await read;
    await assert.rejects(txn!.ack(null), /broker gone/);
    await input.close();
    assert.equal(reader.closed, true);
  });

  it('accepts a source ack that returns nothing, and one that throws', async () => {
    const reader = new WaitingReader();
    const input = wrap(reader);
    const plain = input.read();
    let called = 0;
    await reader.feed(
      txnOf('a', [], (() => {
        called++;
      }) as unknown as AckFn),
    );
    await (await plain)!.ack(null);
    assert.equal(called, 1);
    const throwing = input.read();
    await reader.feed(
      txnOf('b', [], () => {
        throw new Error('sync failure');
      }),
    );
    await assert.rejects((await throwing)!.ack(null), /sync failure/);
    await input.close();
    assert.equal(reader.closed, true);
  });

  it('close() waits until every handed-out message is acked', async () => {
    const reader = new WaitingReader();
    const input = wrap(reader);
    const read = input.read();
    await reader.feed(txnOf('a', []));
    const txn = await read;
    let closed = false;
    const closing = input.close().then(() => {
      closed = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(closed, false);
    await txn!.ack(null);
    await closing;
    assert.equal(reader.closed, true);
  });

  it('a read waiting at the stop returns null, and what the reader brings later is nacked', async () => {
    const reader = new WaitingReader();
    const input = wrap(reader);
    // The first read connects; the second waits in the reader.
    const first = input.read();
    await reader.feed(txnOf('a', []));
    const delivered = await first;
    const waiting = input.read();
    await reader.waiting();
    const closing = input.close();
    assert.equal(await waiting, null);
    const lateAcks: Array<Error | null> = [];
    await reader.feed(txnOf('late', lateAcks));
    await delivered!.ack(null);
    await closing;
    assert.equal(lateAcks.length, 1);
    assert.match(String(lateAcks[0]?.message), /input closed/);
  });

  it('after a failed read it tries again; after a lost connection it reconnects first', async () => {
    const reader = new WaitingReader();
    const input = wrap(reader);
    const first = input.read();
    await reader.feed(txnOf('a', []));
    await (await first)!.ack(null);
    assert.equal(reader.connects, 1);

    const afterFailure = input.read();
    await reader.fail(new Error('bad frame'));
    await reader.feed(txnOf('b', []));
    const b = await afterFailure;
    assert.equal(b?.batch[0]?.text(), 'b');
    await b!.ack(null);
    assert.equal(reader.connects, 1);

    const afterLoss = input.read();
    await reader.fail(new NotConnectedError('socket closed'));
    await reader.feed(txnOf('c', []));
    const c = await afterLoss;
    assert.equal(c?.batch[0]?.text(), 'c');
    assert.equal(reader.connects, 2);
    await c!.ack(null);
    await input.close();
  });

  it('the end of the source ends the reads and tells the listeners', async () => {
    const reader = new WaitingReader();
    const input = wrap(reader);
    const first = input.read();
    await reader.feed(txnOf('a', []));
    await (await first)!.ack(null);
    let exhausted = false;
    input.onExhausted(() => {
      exhausted = true;
    });
    const last = input.read();
    await reader.feed(null);
    assert.equal(await last, null);
    assert.equal(exhausted, true);
    assert.equal(await input.read(), null);
    await input.close();
  });
});
