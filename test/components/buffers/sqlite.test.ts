import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { StreamBuilder } from '../../../src/api/index.js';
import { SqliteBuffer, spec } from '../../../src/components/buffers/sqlite.js';
import { openStore } from '../../../src/components/buffers/sqlite_store.js';
import type { Transaction } from '../../../src/engine/component.js';
import { Message } from '../../../src/message/message.js';
import { Timestamp } from '../../../src/message/value.js';
import { tempDir } from '../../helpers/cli.js';
import { createTestContext } from '../../helpers/context.js';
import { waitFor } from '../../helpers/kit.js';

function txn(acks: string[], ...texts: string[]): Transaction {
  return {
    batch: texts.map((t) => new Message(t)),
    ack: async (err) => {
      acks.push(`${texts.join(',')}:${err ? 'nack' : 'ack'}`);
    },
  };
}

const texts = (t: Transaction | null) => t?.batch.map((m) => m.text());
const settledWithin = async (p: Promise<unknown>, ms: number) =>
  Promise.race([p.then(() => true), new Promise((r) => setTimeout(() => r(false), ms))]);

function dbPath(): string {
  return join(tempDir('nekton-sqlite-'), 'buffer.db');
}

describe('sqlite buffer', () => {
  it('acks the input once stored and keeps batches and metadata together', async () => {
    const acks: string[] = [];
    const buffer = new SqliteBuffer(await openStore(dbPath()));
    const t = txn(acks, 'a', 'b');
    t.batch[0]!.setMeta('k', 'v');
    t.batch[1]!.setMeta('n', 5);
    t.batch[1]!.setMeta('big', 2n ** 62n);
    t.batch[1]!.setMeta('at', new Timestamp(1_700_000_000_123_456_789n, 'Europe/Paris'));
    t.batch[1]!.setMeta('doc', { list: [1, 'two'], nested: { ok: true } });
    await buffer.write(t);
    assert.deepEqual(acks, ['a,b:ack']);
    const read = await buffer.read();
    assert.deepEqual(texts(read), ['a', 'b']);
    assert.equal(read!.batch[0]!.getMeta('k'), 'v');
    assert.equal(read!.batch[1]!.getMeta('n'), 5);
    assert.equal(read!.batch[1]!.getMeta('big'), 2n ** 62n);
    assert.deepEqual(
      read!.batch[1]!.getMeta('at'),
      new Timestamp(1_700_000_000_123_456_789n, 'Europe/Paris'),
    );
    assert.deepEqual(read!.batch[1]!.getMeta('doc'), { list: [1, 'two'], nested: { ok: true } });
    await read!.ack(null);
    await buffer.close();
  });

  it('deletes a row only when the output acked it, so a reopened file still holds the rest', async () => {
    const path = dbPath();
    const buffer = new SqliteBuffer(await openStore(path));
    for (const t of ['one', 'two', 'three']) await buffer.write(txn([], t));
    const first = await buffer.read();
    const second = await buffer.read();
    await first!.ack(null);
    assert.deepEqual(texts(second), ['two']);
    await buffer.close(); // `two` read but never acked

    const reopened = new SqliteBuffer(await openStore(path));
    reopened.endOfInput();
    const got: string[] = [];
    for (let t = await reopened.read(); t; t = await reopened.read()) {
      got.push(...texts(t)!);
      await t.ack(null);
    }
    assert.deepEqual(got, ['two', 'three']);
    await reopened.close();
    const store = await openStore(path);
    assert.equal(store.count(), 0);
    store.close();
  });

  it('reads a nacked batch again before newer ones', async () => {
    const buffer = new SqliteBuffer(await openStore(dbPath()));
    await buffer.write(txn([], 'first'));
    await buffer.write(txn([], 'second'));
    const first = await buffer.read();
    await first!.ack(new Error('output failed'));
    assert.deepEqual(texts(await buffer.read()), ['first']);
    await buffer.close();
  });

  it('ends reads after end of input only once every read batch was settled', async () => {
    const buffer = new SqliteBuffer(await openStore(dbPath()));
    await buffer.write(txn([], 'last'));
    buffer.endOfInput();
    const item = await buffer.read();
    const end = buffer.read();
    assert.equal(await settledWithin(end, 50), false, 'a nack may still bring the batch back');
    await item!.ack(new Error('retry'));
    const again = await end;
    assert.deepEqual(texts(again), ['last']);
    await again!.ack(null);
    assert.equal(await buffer.read(), null);
    await buffer.close();
  });

  it('runs pre_processors before storing and post_processors after reading', async () => {
    const ctx = createTestContext();
    const buffer = await spec.build(
      {
        path: dbPath(),
        pre_processors: [{ type: 'mapping', config: 'root = content().uppercase()' }],
        post_processors: [{ type: 'split', config: { size: 1, byte_size: 0 } }],
      } as never,
      ctx,
    );
    await buffer.write(txn([], 'x', 'y'));
    const a = await buffer.read();
    const b = await buffer.read();
    assert.deepEqual([texts(a), texts(b)], [['X'], ['Y']]);
    await buffer.close();
  });

  it('in a stream, redelivers from the file what the output failed, until everything is delivered once acked', async () => {
    const builder = new StreamBuilder();
    builder.setYaml(`logger:\n  level: warn\nbuffer:\n  sqlite:\n    path: ${JSON.stringify(dbPath())}\n`);
    const send = builder.addProducerFunc();
    const attempts = new Map<string, number>();
    const delivered: string[] = [];
    builder.addConsumerFunc((m) => {
      const text = m.asString();
      const n = (attempts.get(text) ?? 0) + 1;
      attempts.set(text, n);
      // Every third message fails its first two deliveries.
      if (Number(text) % 3 === 0 && n < 3) throw new Error('output down');
      delivered.push(text);
    });
    const stream = await builder.build();
    const running = stream.run();
    const texts = Array.from({ length: 30 }, (_, i) => String(i));
    for (const t of texts) await send(t);
    send.end();
    await running;
    assert.deepEqual([...delivered].sort(), [...texts].sort());
    assert.equal(attempts.get('3'), 3);
  });

  it('refuses a file another live process owns', async () => {
    const path = dbPath();
    const first = await openStore(path);
    // A live pid other than ours: the parent of the test runner.
    writeFileSync(`${path}.owner`, String(process.ppid));
    await assert.rejects(openStore(path), /in use by process/);
    first.close();
  });

  it('delivers every acknowledged message after the process is killed with SIGKILL mid-flow', async () => {
    const dir = tempDir('nekton-sqlite-kill-');
    const path = join(dir, 'buffer.db');
    const ackLog = join(dir, 'acked.log');
    const outLog = join(dir, 'out.log');
    const child = new URL('./sqlite_child.ts', import.meta.url).pathname;
    const lines = (file: string) =>
      existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : [];
    const total = 1500;

    const first = spawn(process.execPath, ['--import', 'tsx', child, path, ackLog, outLog, String(total)], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    first.stderr.on('data', (d) => (stderr += d));
    const firstExit = new Promise<number | null>((resolve) => first.on('exit', (code) => resolve(code)));
    // Mid-flow: the input has handed over a good part, the output has delivered some of it.
    await waitFor(() => lines(outLog).length >= 100 && lines(ackLog).length >= 300, {
      timeoutMs: 60_000,
      message: () => `the first run to get going (${stderr})`,
    });
    first.kill('SIGKILL');
    await firstExit;
    const acked = lines(ackLog);
    const deliveredBeforeKill = new Set(lines(outLog));
    const backlog = acked.filter((n) => !deliveredBeforeKill.has(n));
    assert.ok(backlog.length > 0, 'the kill left acknowledged messages undelivered');

    // The second run sends nothing: it only drains what the killed one left in the file.
    const second = spawn(process.execPath, ['--import', 'tsx', child, path, ackLog, outLog, '0'], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr2 = '';
    second.stderr.on('data', (d) => (stderr2 += d));
    const code = await new Promise<number | null>((resolve) => second.on('exit', (c) => resolve(c)));
    assert.equal(code, 0, stderr2);

    const delivered = new Set(lines(outLog));
    const lost = acked.filter((n) => !delivered.has(n));
    assert.deepEqual(lost, [], `${lost.length} of ${acked.length} acknowledged messages were lost`);
    const store = await openStore(path);
    assert.equal(store.count(), 0, 'every delivered row is deleted');
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });
});
