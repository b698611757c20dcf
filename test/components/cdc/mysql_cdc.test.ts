// mysql_cdc against the local MariaDB (row binlog, set by .ci/run): row changes in order with
// their metadata, snapshot then stream, the binlog position stored in the cache only after acks
// and resumed from, redelivery of nacked changes, and the errors of a gone position or address.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { pino } from 'pino';
import { parsePosition } from '../../../src/components/cdc/mysql_position.js';
import { MysqlCdcReader } from '../../../src/components/cdc/mysql_reader.js';
import { requireService, waitFor } from '../../helpers/kit.js';
import { cacheResources, MARIADB_DSN, MapCache, MariaFixture } from './mysql_helpers.js';
import { startInput, summary } from './pg_helpers.js';

let db: MariaFixture;
const KEY = 'mysql_binlog_position';

function config(table: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    dsn: MARIADB_DSN,
    tables: [table],
    checkpoint_cache: 'positions',
    stream_snapshot: false,
    ...extra,
  };
}

async function start(table: string, cache: MapCache, extra: Record<string, unknown> = {}) {
  return startInput('mysql_cdc', config(table, extra), await cacheResources('positions', cache));
}

describe('mysql_cdc', () => {
  before(() => {
    db = new MariaFixture();
  });
  after(async () => {
    await db.cleanup();
  });

  it('streams inserts, updates and deletes in order, and stores the position once they are acked', async (t) => {
    if (!(await requireService(t, 'mariadb'))) return;
    const table = await db.table();
    const cache = new MapCache();
    const run = await start(table, cache);
    try {
      // Without a stored position streaming starts at the server's current one, stored at once.
      const initial = await waitFor(() => cache.text(KEY), { message: 'the start position stored' });
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
      assert.deepEqual(got[2]!.batch[0]!.getMeta('before'), { id: 1, v: 'a' });
      assert.match(String(got[0]!.batch[0]!.getMeta('binlog_position')), /^[\w.-]+@[0-9A-F]{8}$/);
      assert.equal(cache.text(KEY), initial, 'nothing acknowledged yet: the position stays');
      for (const txn of got.slice(0, 3)) await txn.ack(null);
      const afterThree = await waitFor(() => (cache.text(KEY) !== initial ? cache.text(KEY) : undefined), {
        message: 'the position to move',
      });
      await got[3]!.ack(null);
      await waitFor(() => cache.text(KEY) !== afterThree, {
        message: 'the position to move past the delete',
      });
      const [a, b] = [parsePosition(afterThree), parsePosition(cache.text(KEY)!)];
      assert.ok(
        a.file < b.file || (a.file === b.file && a.pos < b.pos),
        `${afterThree} < ${cache.text(KEY)}`,
      );
    } finally {
      await run.stop();
    }
  });

  it('streams a consistent snapshot (paged), then the changes made after it', async (t) => {
    if (!(await requireService(t, 'mariadb'))) return;
    const table = await db.table();
    for (let i = 1; i <= 5; i++) await db.query(`INSERT INTO ${table} VALUES (?, ?)`, [i, `row${i}`]);
    const cache = new MapCache();
    const run = await start(table, cache, { stream_snapshot: true, snapshot_max_batch_size: 2 });
    try {
      const rows = [];
      for (let i = 0; i < 5; i++) {
        const txn = await run.next();
        await txn.ack(null);
        rows.push(summary(txn));
      }
      assert.deepEqual(
        rows,
        Array.from({ length: 5 }, (_, i) => ['read', table, { id: i + 1, v: `row${i + 1}` }]),
      );
      await waitFor(() => cache.text(KEY), { message: "the snapshot's position stored after its acks" });
      await db.query(`INSERT INTO ${table} VALUES (6, 'after')`);
      const change = await run.next();
      await change.ack(null);
      assert.deepEqual(summary(change), ['insert', table, { id: 6, v: 'after' }]);
    } finally {
      await run.stop();
    }
  });

  it('delivers a nacked change again, and after a restart resumes at the first unacknowledged one', async (t) => {
    if (!(await requireService(t, 'mariadb'))) return;
    const table = await db.table();
    const cache = new MapCache();
    let run = await start(table, cache, { auto_replay_nacks: false });
    try {
      await waitFor(() => cache.text(KEY), { message: 'the start position stored' });
      for (let i = 1; i <= 4; i++) await db.query(`INSERT INTO ${table} VALUES (?, 'x')`, [i]);
      const first = await run.next();
      await first.ack(new Error('output failed'));
      const again = await run.next();
      assert.deepEqual(summary(again)[2], { id: 1, v: 'x' }, 'the nacked change comes first again');
      await again.ack(null);
      const second = await run.next();
      await second.ack(null);
      // 3 and 4 are read but fail: the stored position must stay before them.
      for (let i = 0; i < 2; i++) await (await run.next()).ack(new Error('not delivered'));
    } finally {
      await run.stop();
    }
    run = await start(table, cache);
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

  it('reconnects when its binlog connection is killed, and misses nothing', async (t) => {
    if (!(await requireService(t, 'mariadb'))) return;
    const table = await db.table();
    const cache = new MapCache();
    const run = await start(table, cache);
    try {
      await waitFor(() => cache.text(KEY), { message: 'the start position stored' });
      await db.query(`INSERT INTO ${table} VALUES (1, 'a')`);
      const first = await run.next();
      await first.ack(null);
      const dumps = (await db.query(
        "SELECT ID FROM information_schema.PROCESSLIST WHERE COMMAND LIKE 'Binlog Dump%'",
      )) as {
        ID: number;
      }[];
      assert.ok(dumps.length > 0, 'a binlog dump thread to kill');
      // Other sessions' readers may be streaming too: killing theirs only makes them reconnect.
      for (const { ID } of dumps) await db.query(`KILL ${ID}`).catch(() => undefined);
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

  it('refuses a stored position whose binlog file is gone, naming the key and position', async (t) => {
    if (!(await requireService(t, 'mariadb'))) return;
    const table = await db.table();
    const cache = new MapCache();
    await cache.set(KEY, Buffer.from('mariadb-bin.999999@00000004'));
    const reader = new MysqlCdcReader(
      {
        tables: [table],
        checkpoint_cache: 'positions',
        checkpoint_key: KEY,
        snapshot_max_batch_size: 1000,
        stream_snapshot: false,
        checkpoint_limit: 1024,
      },
      { host: '127.0.0.1', port: 3306, user: 'root', database: 'test' },
      await cacheResources('positions', cache),
      pino({ level: 'silent' }),
    );
    try {
      await assert.rejects(
        reader.connect(),
        /mysql_cdc: checkpoint_key 'mysql_binlog_position': binlog position mariadb-bin\.999999@00000004 is gone: the server has no binlog file 'mariadb-bin\.999999'/,
      );
    } finally {
      await reader.close();
    }
  });

  it('names the dsn field when the server cannot be reached', async (t) => {
    if (!(await requireService(t, 'mariadb'))) return;
    const cache = new MapCache();
    const reader = new MysqlCdcReader(
      {
        tables: ['t'],
        checkpoint_cache: 'positions',
        checkpoint_key: KEY,
        snapshot_max_batch_size: 1000,
        stream_snapshot: false,
        checkpoint_limit: 1024,
      },
      { host: '127.0.0.1', port: 1, user: 'root', database: 'test' },
      await cacheResources('positions', cache),
      pino({ level: 'silent' }),
    );
    try {
      await assert.rejects(
        reader.connect(),
        /mysql_cdc: dsn: cannot connect to 127\.0\.0\.1:1\/test: .*ECONNREFUSED/,
      );
    } finally {
      await reader.close();
    }
  });
});
