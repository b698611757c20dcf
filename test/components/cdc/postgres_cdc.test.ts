// postgres_cdc against the local PostgreSQL (wal_level=logical, set by .ci/run): changes in order
// with their metadata, snapshot then stream, schema changes, acks that move the slot, redelivery of
// nacked and unacknowledged changes, and the errors of a bad slot or address.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { pino } from 'pino';
import { lsnValue, PgCdcReader, type PgCdcSettings } from '../../../src/components/cdc/pg_reader.js';
import type { TransactionGroup } from '../../../src/engine/component.js';
import { requireService, waitFor } from '../../helpers/kit.js';
import { PgFixture, POSTGRES_DSN, startInput, summary } from './pg_helpers.js';

let db: PgFixture;

function config(table: string, slot: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    dsn: POSTGRES_DSN,
    schema: 'public',
    tables: [table],
    slot_name: slot,
    pg_standby_timeout: '100ms',
    ...extra,
  };
}

describe('postgres_cdc', () => {
  before(() => {
    db = new PgFixture();
  });
  after(async () => {
    await db.cleanup();
  });

  it('streams inserts, updates and deletes in order with their metadata, and acks move the slot', async (t) => {
    if (!(await requireService(t, 'postgres'))) return;
    const table = await db.table();
    await db.query(`ALTER TABLE ${table} REPLICA IDENTITY FULL`);
    const slot = db.slot();
    const run = await startInput('postgres_cdc', config(table, slot));
    try {
      await waitFor(async () => (await db.slotRow(slot))?.active, { message: 'slot active' });
      await db.query(`INSERT INTO ${table} VALUES (1, 'a'), (2, 'b')`);
      await db.query(`UPDATE ${table} SET v = 'c' WHERE id = 1`);
      await db.query(`DELETE FROM ${table} WHERE id = 2`);
      const got = [];
      for (let i = 0; i < 4; i++) got.push(await run.next());
      assert.deepEqual(got.map(summary), [
        ['insert', table, { id: 1, v: 'a' }],
        ['insert', table, { id: 2, v: 'b' }],
        ['update', table, { id: 1, v: 'c' }],
        ['delete', table, { id: 2, v: 'b' }],
      ]);
      const update = got[2]!.batch[0]!;
      assert.deepEqual(update.getMeta('before'), { id: 1, v: 'a' });
      assert.match(String(update.getMeta('lsn')), /^[0-9A-F]+\/[0-9A-F]+$/);
      assert.equal(typeof update.getMeta('commit_ts_ms'), 'number');
      assert.deepEqual(update.getMeta('schema'), {
        name: table,
        type: 'OBJECT',
        optional: false,
        children: [
          { name: 'id', type: 'INT32', optional: true },
          { name: 'v', type: 'STRING', optional: true },
        ],
      });
      const before = (await db.slotRow(slot))!.confirmed_flush_lsn!;
      for (const txn of got) await txn.ack(null);
      await waitFor(async () => (await db.slotRow(slot))!.confirmed_flush_lsn !== before, {
        message: 'the confirmed LSN moves after the acks',
      });
    } finally {
      await run.stop();
    }
  });

  it('streams a snapshot of the existing rows (paged), then the changes made after it', async (t) => {
    if (!(await requireService(t, 'postgres'))) return;
    const table = await db.table();
    await db.query(`INSERT INTO ${table} SELECT g, 'row' || g FROM generate_series(1, 7) g`);
    const slot = db.slot();
    const run = await startInput(
      'postgres_cdc',
      config(table, slot, { stream_snapshot: true, snapshot_batch_size: 3 }),
    );
    try {
      const snapshot = [];
      for (let i = 0; i < 7; i++) {
        const txn = await run.next();
        snapshot.push(summary(txn));
        await txn.ack(null);
      }
      assert.deepEqual(
        snapshot,
        Array.from({ length: 7 }, (_, i) => ['read', table, { id: i + 1, v: `row${i + 1}` }]),
      );
      await db.query(`INSERT INTO ${table} VALUES (8, 'after')`);
      const change = await run.next();
      await change.ack(null);
      assert.deepEqual(summary(change), ['insert', table, { id: 8, v: 'after' }]);
    } finally {
      await run.stop();
    }
  });

  it('reports a schema change in the schema metadata of the next change', async (t) => {
    if (!(await requireService(t, 'postgres'))) return;
    const table = await db.table();
    const slot = db.slot();
    const run = await startInput('postgres_cdc', config(table, slot));
    try {
      await waitFor(async () => (await db.slotRow(slot))?.active, { message: 'slot active' });
      await db.query(`INSERT INTO ${table} VALUES (1, 'a')`);
      await db.query(`ALTER TABLE ${table} ADD COLUMN n bigint`);
      await db.query(`INSERT INTO ${table} VALUES (2, 'b', 9007199254740991)`);
      const first = await run.next();
      const second = await run.next();
      await first.ack(null);
      await second.ack(null);
      const names = (txn: typeof first) =>
        (txn.batch[0]!.getMeta('schema') as { children: { name: string; type: string }[] }).children.map(
          (c) => `${c.name}:${c.type}`,
        );
      assert.deepEqual(names(first), ['id:INT32', 'v:STRING']);
      assert.deepEqual(names(second), ['id:INT32', 'v:STRING', 'n:INT64']);
      assert.deepEqual(summary(second)[2], { id: 2, v: 'b', n: 9007199254740991 });
    } finally {
      await run.stop();
    }
  });

  it('emits begin and commit markers with include_transaction_markers', async (t) => {
    if (!(await requireService(t, 'postgres'))) return;
    const table = await db.table();
    const slot = db.slot();
    const run = await startInput('postgres_cdc', config(table, slot, { include_transaction_markers: true }));
    try {
      await waitFor(async () => (await db.slotRow(slot))?.active, { message: 'slot active' });
      await db.query(`INSERT INTO ${table} VALUES (1, 'a'), (2, 'b')`);
      const ops = [];
      for (let i = 0; i < 4; i++) {
        const txn = await run.next();
        await txn.ack(null);
        ops.push(summary(txn));
      }
      assert.deepEqual(ops, [
        ['begin', undefined, null],
        ['insert', table, { id: 1, v: 'a' }],
        ['insert', table, { id: 2, v: 'b' }],
        ['commit', undefined, null],
      ]);
    } finally {
      await run.stop();
    }
  });

  it('delivers a nacked change again before newer ones (auto_replay_nacks: false)', async (t) => {
    if (!(await requireService(t, 'postgres'))) return;
    const table = await db.table();
    const slot = db.slot();
    const run = await startInput('postgres_cdc', config(table, slot, { auto_replay_nacks: false }));
    try {
      await waitFor(async () => (await db.slotRow(slot))?.active, { message: 'slot active' });
      await db.query(`INSERT INTO ${table} VALUES (1, 'a')`);
      await db.query(`INSERT INTO ${table} VALUES (2, 'b')`);
      const first = await run.next();
      assert.deepEqual(summary(first)[2], { id: 1, v: 'a' });
      await first.ack(new Error('output failed'));
      const again = await run.next();
      assert.deepEqual(summary(again)[2], { id: 1, v: 'a' });
      await again.ack(null);
      const second = await run.next();
      await second.ack(null);
      assert.deepEqual(summary(second)[2], { id: 2, v: 'b' });
    } finally {
      await run.stop();
    }
  });

  it('hands queued changes out as a group, each acked on its own; nacked ones come back first, in order', async (t) => {
    if (!(await requireService(t, 'postgres'))) return;
    const table = await db.table();
    const slot = db.slot();
    const run = await startInput('postgres_cdc', config(table, slot, { auto_replay_nacks: false }));
    try {
      await waitFor(async () => (await db.slotRow(slot))?.active, { message: 'slot active' });
      await db.query(`INSERT INTO ${table} SELECT g, 'v' || g FROM generate_series(1, 50) g`);
      const first = await run.next();
      assert.deepEqual(summary(first)[2], { id: 1, v: 'v1' });
      await first.ack(null);
      // The others are decoded and queued: a readMany takes those queued together.
      let group: TransactionGroup | null = null;
      let last = 1;
      while (group === null) {
        const got = await run.input.readMany!(256);
        assert.ok(got, 'the input ended');
        if ('batches' in got && got.batches.length >= 2) group = got;
        else if ('batches' in got) got.ack(null, got.batches);
        else {
          last = (JSON.parse(got.batch[0]!.text()) as { id: number }).id;
          await got.ack(null);
        }
        assert.ok(last < 50, 'every change came alone');
      }
      const batches = group!.batches;
      const ids = batches.map((b) => (JSON.parse(b[0]!.text()) as { id: number }).id);
      assert.deepEqual(
        ids,
        Array.from({ length: ids.length }, (_, i) => ids[0]! + i),
      );
      // Nack the first two of the group, ack the rest.
      group!.ack(new Error('output failed'), batches.slice(0, 2));
      group!.ack(null, batches.slice(2));
      const again = [await run.next(), await run.next()];
      assert.deepEqual(
        again.map((txn) => (summary(txn)[2] as { id: number }).id),
        ids.slice(0, 2),
      );
      for (const txn of again) await txn.ack(null);
    } finally {
      await run.stop();
    }
  });

  it('after a restart, delivers again every change that was not acknowledged, and no acknowledged one', async (t) => {
    if (!(await requireService(t, 'postgres'))) return;
    const table = await db.table();
    const slot = db.slot();
    let run = await startInput('postgres_cdc', config(table, slot, { auto_replay_nacks: false }));
    try {
      await waitFor(async () => (await db.slotRow(slot))?.active, { message: 'slot active' });
      for (let i = 1; i <= 4; i++) await db.query(`INSERT INTO ${table} VALUES ($1, 'x')`, [i]);
      const txns = [];
      for (let i = 1; i <= 4; i++) txns.push(await run.next());
      // 1 and 2 are delivered; 3 and 4 fail and are still waiting when the input stops.
      for (const [i, txn] of txns.entries()) await txn.ack(i < 2 ? null : new Error('not delivered'));
      const lsnAfterTwo = async () => (await db.slotRow(slot))?.confirmed_flush_lsn;
      await waitFor(async () => (await lsnAfterTwo()) !== null, { message: 'a confirmed LSN' });
    } finally {
      await run.stop();
    }
    await waitFor(async () => !(await db.slotRow(slot))?.active, { message: 'slot released' });
    run = await startInput('postgres_cdc', config(table, slot));
    try {
      const ids = [];
      for (let i = 0; i < 2; i++) {
        const txn = await run.next();
        await txn.ack(null);
        ids.push((summary(txn)[2] as { id: number }).id);
      }
      assert.deepEqual(ids, [3, 4]);
    } finally {
      await run.stop();
    }
  });

  it('reconnects when its replication connection is killed, and misses nothing', async (t) => {
    if (!(await requireService(t, 'postgres'))) return;
    const table = await db.table();
    const slot = db.slot();
    const run = await startInput('postgres_cdc', config(table, slot));
    try {
      await waitFor(async () => (await db.slotRow(slot))?.active, { message: 'slot active' });
      await db.query(`INSERT INTO ${table} VALUES (1, 'a')`);
      const first = await run.next();
      await first.ack(null);
      await db.query(
        'SELECT pg_terminate_backend(active_pid) FROM pg_replication_slots WHERE slot_name = $1',
        [slot],
      );
      await db.query(`INSERT INTO ${table} VALUES (2, 'b')`);
      // At-least-once: a change whose confirmation had not reached the server yet comes again.
      const after = [];
      for (;;) {
        const txn = await run.next(30_000);
        await txn.ack(null);
        const { id } = summary(txn)[2] as { id: number };
        after.push(id);
        if (id === 2) break;
      }
      assert.deepEqual(summary(first)[2], { id: 1, v: 'a' });
      assert.ok(
        after.every((id, k) => id === 1 || k === after.length - 1),
        `only repeats of 1 before 2: ${after}`,
      );
    } finally {
      await run.stop();
    }
  });

  it('drops a temporary slot when it stops', async (t) => {
    if (!(await requireService(t, 'postgres'))) return;
    const table = await db.table();
    const slot = db.slot();
    const run = await startInput('postgres_cdc', config(table, slot, { temporary_slot: true }));
    try {
      await waitFor(async () => (await db.slotRow(slot))?.active, { message: 'temporary slot active' });
      await db.query(`INSERT INTO ${table} VALUES (1, 'a')`);
      const txn = await run.next();
      await txn.ack(null);
      assert.deepEqual(summary(txn)[2], { id: 1, v: 'a' });
    } finally {
      await run.stop();
    }
    await waitFor(async () => (await db.slotRow(slot)) === undefined, { message: 'temporary slot gone' });
  });

  it('moves the slot on a quiet table through heartbeat messages', async (t) => {
    if (!(await requireService(t, 'postgres'))) return;
    const table = await db.table();
    const slot = db.slot();
    const run = await startInput('postgres_cdc', config(table, slot, { heartbeat_interval: '100ms' }));
    try {
      await waitFor(async () => (await db.slotRow(slot))?.active, { message: 'slot active' });
      // While the slot is being created it has no confirmed position yet.
      const start = await waitFor(async () => (await db.slotRow(slot))?.confirmed_flush_lsn, {
        message: 'a confirmed LSN',
      });
      // No change of the replicated table: only the heartbeats can move the confirmed position.
      let now = start;
      await waitFor(
        async () => {
          now = (await db.slotRow(slot))!.confirmed_flush_lsn!;
          return lsnValue(now) > lsnValue(start);
        },
        { message: () => `the confirmed LSN to move without changes (from ${start}, now ${now})` },
      );
    } finally {
      await run.stop();
    }
  });

  it('refuses a slot that cannot serve it, naming the slot', async (t) => {
    if (!(await requireService(t, 'postgres'))) return;
    const table = await db.table();
    const slot = db.slot();
    await db.query(`SELECT pg_create_logical_replication_slot($1, 'test_decoding')`, [slot]);
    const reader = new PgCdcReader(settings(table, slot), pino({ level: 'silent' }));
    try {
      await assert.rejects(reader.connect(), (err: Error) => {
        assert.match(
          err.message,
          new RegExp(`slot_name: replication slot '${slot}' is a logical slot of plugin 'test_decoding'`),
        );
        return true;
      });
    } finally {
      await reader.close();
    }
  });

  it('holds at most checkpoint_limit changes in flight, then streams the rest in order as acks make room', async (t) => {
    if (!(await requireService(t, 'postgres'))) return;
    const table = await db.table();
    const slot = db.slot();
    const reader = new PgCdcReader(
      { ...settings(table, slot), checkpoint_limit: 3 },
      pino({ level: 'silent' }),
    );
    try {
      await reader.connect();
      await db.query(`INSERT INTO ${table} SELECT g, 'v' || g FROM generate_series(1, 40) g`);
      const { rows } = await db.query('SELECT pg_current_wal_lsn()::text AS lsn');
      const beforeLast = lsnValue(rows[0].lsn);
      await db.query(`INSERT INTO ${table} VALUES (41, 'last')`);
      const ids: unknown[] = [];
      let held = 0;
      while (ids.length < 41) {
        const first = await reader.read();
        assert.ok(first, 'a change');
        const txns = [first];
        const group = reader.readBufferedGroup(100);
        // Decoded changes past the limit wait unqueued (their socket paused), never in the queue.
        held = Math.max(held, 1 + (group?.batches.length ?? 0));
        for (const txn of txns) {
          ids.push((txn.batch[0]!.structured() as { id: number }).id);
          await txn.ack(null);
        }
        for (const batch of group?.batches ?? []) ids.push((batch[0]!.structured() as { id: number }).id);
        await group?.ack(null, group.batches);
      }
      assert.deepEqual(
        ids,
        Array.from({ length: 41 }, (_, i) => i + 1),
      );
      assert.ok(held <= 3, `at most 3 changes in flight, saw ${held}`);
      // Every change acknowledged: the slot is confirmed past the second transaction.
      await waitFor(
        async () => {
          const row = await db.slotRow(slot);
          return row?.confirmed_flush_lsn != null && lsnValue(row.confirmed_flush_lsn) > beforeLast;
        },
        { message: 'slot confirmed past the last transaction' },
      );
    } finally {
      await reader.close();
    }
  });

  it('closes while changes past checkpoint_limit wait with the socket paused', async (t) => {
    if (!(await requireService(t, 'postgres'))) return;
    const table = await db.table();
    const slot = db.slot();
    const reader = new PgCdcReader(
      { ...settings(table, slot), checkpoint_limit: 2 },
      pino({ level: 'silent' }),
    );
    let closed = false;
    try {
      await reader.connect();
      await db.query(`INSERT INTO ${table} SELECT g, repeat('x', 200) || g FROM generate_series(1, 2000) g`);
      const first = await reader.read();
      assert.deepEqual((first!.batch[0]!.structured() as { id: number }).id, 1);
      await reader.close();
      closed = true;
      // Closed: the slot is released, so the server ended the connection (no unanswered socket).
      await waitFor(async () => (await db.slotRow(slot))?.active === false, { message: 'slot released' });
    } finally {
      if (!closed) await reader.close();
    }
  });

  it('names the dsn field when the server cannot be reached', async (t) => {
    if (!(await requireService(t, 'postgres'))) return;
    const reader = new PgCdcReader(
      { ...settings('t', 'unused_slot'), dsn: 'postgres://postgres@127.0.0.1:1/test?sslmode=disable' },
      pino({ level: 'silent' }),
    );
    try {
      await assert.rejects(
        reader.connect(),
        /postgres_cdc: dsn: cannot connect to 127\.0\.0\.1:1\/test: .*ECONNREFUSED/,
      );
    } finally {
      await reader.close();
    }
  });
});

function settings(table: string, slot: string): PgCdcSettings {
  return {
    dsn: POSTGRES_DSN,
    schema: 'public',
    tables: [table],
    slot_name: slot,
    temporary_slot: false,
    stream_snapshot: false,
    snapshot_batch_size: 1000,
    include_transaction_markers: false,
    checkpoint_limit: 1024,
    pg_standby_timeout: 10_000,
    heartbeat_interval: 0,
    unchanged_toast_value: null,
    auto_replay_nacks: true,
  };
}
