// sql_insert's statement reuse: a row count that comes back is run as a prepared statement (parsed
// once per postgres connection), only a few counts are, and a server that loses its prepared
// statements (a pooler in between) fails one batch, after which statements run unnamed.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { SqlInsertWriter } from '../../../src/components/outputs/sql_insert.js';
import { type QueryOptions, SqlDatabase } from '../../../src/components/sql/client.js';
import { Message } from '../../../src/message/message.js';
import { createTestContext } from '../../helpers/context.js';
import { requireService } from '../../helpers/kit.js';
import { parsedInsertConfig, postgres, uniqueTable } from './databases.js';

const batchOf = (n: number, from = 0) =>
  Array.from({ length: n }, (_, i) => new Message(JSON.stringify({ id: from + i, name: `n${from + i}` })));

describe('sql_insert statement reuse', () => {
  it('reuses the statement of a row count from its second batch, for at most four counts', async () => {
    const runs: { rows: number; reuse: boolean }[] = [];
    const fakeDb = {
      maxParameters: 65_535,
      placeholder: (n: number) => `$${n}`,
      async query(sql: string, args: readonly unknown[], options?: QueryOptions) {
        assert.equal(args.length, (sql.match(/\$/g) ?? []).length);
        runs.push({ rows: args.length / 2, reuse: options?.reuse === true });
        return [];
      },
    } as unknown as SqlDatabase;
    const config = parsedInsertConfig({
      driver: 'postgres',
      dsn: 'postgres://x/y',
      table: 't',
      columns: ['id', 'name'],
      args_mapping: 'root = [ this.id, this.name ]',
    });
    const writer = new SqlInsertWriter(fakeDb, config, config.args_mapping ?? null);
    for (let i = 0; i < 3; i++) await writer.write(batchOf(500));
    assert.deepEqual(
      runs.map((r) => r.reuse),
      [false, true, true],
    );
    runs.length = 0;
    // Sizes 1..20, each twice: only the first three that repeat join 500 as reused.
    for (let n = 1; n <= 20; n++) for (let k = 0; k < 2; k++) await writer.write(batchOf(n));
    const reused = [...new Set(runs.filter((r) => r.reuse).map((r) => r.rows))];
    assert.deepEqual(reused, [1, 2, 3]);
    runs.length = 0;
    await writer.write(batchOf(500));
    assert.deepEqual(runs, [{ rows: 500, reuse: true }]);
  });

  describe('on postgres', () => {
    const db = postgres();
    after(() => db.close());

    it('runs unnamed after the server lost a prepared statement, failing only the batch that met it', async (t) => {
      if (!(await requireService(t, 'postgres'))) return;
      const table = uniqueTable('nekton_prepared');
      await db.sql(`CREATE TABLE ${table} (id int PRIMARY KEY, name text)`);
      t.after(() => db.sql(`DROP TABLE IF EXISTS ${table}`));
      const config = parsedInsertConfig({
        driver: 'postgres',
        dsn: db.dsn,
        table,
        columns: ['id', 'name'],
        args_mapping: 'root = [ this.id, this.name ]',
        conn_max_open: 1,
      });
      const database = new SqlDatabase(config, createTestContext());
      const writer = new SqlInsertWriter(database, config, config.args_mapping ?? null);
      await writer.connect();
      t.after(() => writer.close());
      await writer.write(batchOf(10, 0));
      await writer.write(batchOf(10, 10)); // prepared now
      await writer.write(batchOf(10, 20)); // run by name only
      // What a pooler handing the session to another server connection looks like to the driver.
      await database.query('DEALLOCATE ALL');
      await assert.rejects(writer.write(batchOf(10, 30)), /prepared statement .* does not exist/);
      await writer.write(batchOf(10, 30)); // the replay, unnamed
      await writer.write(batchOf(10, 40));
      const [count] = await db.sql(`SELECT count(*)::int AS n, count(DISTINCT id)::int AS d FROM ${table}`);
      assert.deepEqual(count, { n: 50, d: 50 });
    });
  });
});
