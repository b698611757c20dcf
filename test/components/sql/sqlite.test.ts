// The sql components on the `sqlite` driver (SQLite as WebAssembly, files in a temporary
// directory): round trips through each component, DSN forms, init_statement and init_files, a
// constraint violation failing the whole batch with nothing acked, and lint refusing drivers
// nekton has no client for. Tables are checked with a direct SQLite handle, not the component.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import sqliteWasm from 'node-sqlite3-wasm';
import { spec as rawInput } from '../../../src/components/inputs/sql_raw.js';
import { spec as selectInput } from '../../../src/components/inputs/sql_select.js';
import { spec as insertOutput } from '../../../src/components/outputs/sql_insert.js';
import { spec as rawOutput } from '../../../src/components/outputs/sql_raw.js';
import { spec as insertProcessor } from '../../../src/components/processors/sql_insert.js';
import { spec as rawProcessor } from '../../../src/components/processors/sql_raw.js';
import { spec as selectProcessor } from '../../../src/components/processors/sql_select.js';
import { registry } from '../../../src/components/registry.js';
import { parseSqliteDsn } from '../../../src/components/sql/sqlite.js';
import { bloblangChecker } from '../../../src/config/bloblang_check.js';
import { formatApiLint } from '../../../src/config/lint.js';
import { lintServiceConfig } from '../../../src/config/lint_config.js';
import { normaliseComponent } from '../../../src/config/normalise.js';
import { schemaProvider } from '../../../src/config/schema.js';
import { parseYaml } from '../../../src/config/yaml_document.js';
import type { Cache, Input } from '../../../src/engine/component.js';
import { Message } from '../../../src/message/message.js';
import { createTestContext, createTestEnv } from '../../helpers/context.js';
import { configOf } from '../reference.js';

const provider = schemaProvider(registry);
const dir = mkdtempSync(join(tmpdir(), 'nekton-sqlite-'));
let files = 0;
const json = (v: unknown) => new Message(JSON.stringify(v));

/** A new database file with `schema` run in it; its path. */
function database(schema = 'CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT NOT NULL, tag TEXT)'): string {
  const path = join(dir, `db${++files}.db`);
  const db = new sqliteWasm.Database(path);
  try {
    if (schema) db.exec(schema);
  } finally {
    db.close();
  }
  return path;
}

/** Rows read with a handle of the test's own. */
function rows(path: string, sql: string): Record<string, unknown>[] {
  const db = new sqliteWasm.Database(path, { readOnly: true });
  try {
    return db.all(sql) as Record<string, unknown>[];
  } finally {
    db.close();
  }
}

async function drain(input: Input): Promise<unknown[]> {
  const out: unknown[] = [];
  for (let txn = await input.read(); txn; txn = await input.read()) {
    for (const m of txn.batch) out.push(m.structured());
    await txn.ack(null);
  }
  return out;
}

describe('sql components on sqlite', () => {
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('sql_insert output writes a batch (file: DSN with a pragma); sql_select input reads it back', async () => {
    const path = database();
    const dsn = `file:${path}?_pragma=foreign_keys(1)&_txlock=immediate`;
    const output = await insertOutput.build(
      configOf(insertOutput, {
        driver: 'sqlite',
        dsn,
        table: 't',
        columns: ['id', 'name', 'tag'],
        args_mapping: 'root = [ this.id, this.name, @tag ]',
      }),
      createTestContext(),
    );
    const batch = Array.from({ length: 30 }, (_, i) => {
      const m = json({ id: i, name: `n${i}` });
      m.setMeta('tag', i % 2 ? 'odd' : 'even');
      return m;
    });
    await output.write(batch);
    await output.close();
    const stored = rows(path, 'SELECT id, name, tag FROM t ORDER BY id');
    assert.equal(stored.length, 30);
    assert.deepEqual(stored[7], { id: 7, name: 'n7', tag: 'odd' });

    const input = await selectInput.build(
      configOf(selectInput, {
        driver: 'sqlite',
        dsn: path,
        table: 't',
        columns: ['id', 'name'],
        where: 'id >= ? AND tag = ?',
        args_mapping: 'root = [ 25, "even" ]',
        suffix: 'ORDER BY id DESC',
      }),
      createTestContext(),
    );
    assert.deepEqual(await drain(input), [
      { id: 28, name: 'n28' },
      { id: 26, name: 'n26' },
    ]);
    await input.close();
  });

  it('a constraint violation fails the whole batch, nothing is written or acked; the redelivery lands', async () => {
    const path = database();
    const output = await insertOutput.build(
      configOf(insertOutput, {
        driver: 'sqlite',
        dsn: path,
        table: 't',
        columns: ['id', 'name'],
        args_mapping: 'root = [ this.id, this.name ]',
      }),
      createTestContext(),
    );
    try {
      await output.write([json({ id: 3, name: 'already there' })]);
      const batch = [1, 2, 3, 4].map((id) => json({ id, name: `row ${id}` }));
      await assert.rejects(output.write(batch), /sqlite .*UNIQUE constraint failed: t\.id/);
      assert.deepEqual(
        rows(path, 'SELECT id FROM t ORDER BY id').map((r) => r.id),
        [3],
        'the failed batch left rows behind',
      );
      rows(path, 'SELECT 1'); // a reader beside the output is fine
      const direct = new sqliteWasm.Database(path);
      direct.run('DELETE FROM t WHERE id = 3');
      direct.close();
      await output.write(batch);
      assert.deepEqual(
        rows(path, 'SELECT id FROM t ORDER BY id').map((r) => r.id),
        [1, 2, 3, 4],
      );
    } finally {
      await output.close();
    }

    // The same through a stream: the source's transaction is nacked, never acked.
    const raw = await rawOutput.build(
      configOf(rawOutput, {
        driver: 'sqlite',
        dsn: path,
        query: 'INSERT INTO t (id, name) VALUES (?, ?)',
        args_mapping: 'root = [ this.id, this.name ]',
      }),
      createTestContext(),
    );
    try {
      // Statements of a batch run in one transaction: 10 is rolled back with the conflicting 1.
      await assert.rejects(
        raw.write([json({ id: 10, name: 'ten' }), json({ id: 1, name: 'dup' })]),
        /UNIQUE constraint failed/,
      );
      assert.deepEqual(rows(path, 'SELECT id FROM t WHERE id = 10'), []);
    } finally {
      await raw.close();
    }
  });

  it('init_statement and init_files create the schema on first connect (also in :memory:)', async () => {
    const path = join(dir, 'init.db');
    const init = join(dir, 'init.sql');
    writeFileSync(
      init,
      "CREATE TABLE IF NOT EXISTS a (x INTEGER);\nCREATE TABLE IF NOT EXISTS b (y TEXT);\nINSERT INTO b VALUES ('from file');\n",
    );
    const output = await rawOutput.build(
      configOf(rawOutput, {
        driver: 'sqlite',
        dsn: path,
        query: 'INSERT INTO a (x) SELECT ? + COUNT(*) FROM b',
        args_mapping: 'root = [ this.x ]',
        init_files: [init],
        init_statement: 'CREATE TABLE IF NOT EXISTS c (z INTEGER); INSERT INTO c VALUES (7)',
      }),
      createTestContext(),
    );
    await output.write([json({ x: 41 })]);
    await output.close();
    assert.deepEqual(rows(path, 'SELECT x FROM a'), [{ x: 42 }]);
    assert.deepEqual(rows(path, 'SELECT z FROM c'), [{ z: 7 }]);

    const memory = await rawInput.build(
      configOf(rawInput, {
        driver: 'sqlite',
        dsn: ':memory:',
        init_statement: "CREATE TABLE m (v TEXT); INSERT INTO m VALUES ('a'), ('b')",
        query: 'SELECT v FROM m ORDER BY v DESC',
      }),
      createTestContext(),
    );
    assert.deepEqual(await drain(memory), [{ v: 'b' }, { v: 'a' }]);
    await memory.close();
  });

  it('processors: sql_insert, sql_select and sql_raw on one file, and a failing statement flags its message', async () => {
    const path = database();
    const ctx = createTestContext();
    const insert = await insertProcessor.build(
      configOf(insertProcessor, {
        driver: 'sqlite',
        dsn: path,
        table: 't',
        columns: ['id', 'name'],
        args_mapping: 'root = [ this.id, this.name ]',
      }),
      ctx,
    );
    const select = await selectProcessor.build(
      configOf(selectProcessor, {
        driver: 'sqlite',
        dsn: path,
        table: 't',
        columns: ['name'],
        where: 'id = ?',
        args_mapping: 'root = [ this.id ]',
      }),
      ctx,
    );
    const raw = await rawProcessor.build(
      configOf(rawProcessor, {
        driver: 'sqlite',
        dsn: `file://${path}`,
        query: 'UPDATE t SET tag = ? WHERE id = ? RETURNING id, tag',
        args_mapping: 'root = [ this.tag, this.id ]',
      }),
      ctx,
    );
    try {
      const [inserted] = await insert.process([json({ id: 1, name: 'alice' }), json({ id: 2, name: 'bob' })]);
      assert.deepEqual(
        inserted?.map((m) => m.structured()),
        [
          { id: 1, name: 'alice' },
          { id: 2, name: 'bob' },
        ],
        'sql_insert passes messages on unchanged',
      );
      const [selected] = await select.process([json({ id: 2 })]);
      assert.deepEqual(selected?.[0]?.structured(), [{ name: 'bob' }]);
      const [updated] = await raw.process([json({ id: 1, tag: 'vip' })]);
      assert.deepEqual(updated?.[0]?.structured(), [{ id: 1, tag: 'vip' }]);
      const [dup] = await insert.process([json({ id: 1, name: 'again' })]);
      assert.match(String(dup?.[0]?.error?.message), /UNIQUE constraint failed/);
    } finally {
      await insert.close();
      await select.close();
      await raw.close();
    }
    assert.deepEqual(rows(path, 'SELECT id, name, tag FROM t ORDER BY id'), [
      { id: 1, name: 'alice', tag: 'vip' },
      { id: 2, name: 'bob', tag: null },
    ]);
  });

  it('sql cache: get, add only absent keys, upsert with set_suffix, delete', async () => {
    const path = database('CREATE TABLE kv (k TEXT PRIMARY KEY, v BLOB)');
    const env = createTestEnv();
    const cache = (await env.builder.buildCache(
      normaliseComponent(
        'cache',
        {
          sql: {
            driver: 'sqlite',
            dsn: path,
            table: 'kv',
            key_column: 'k',
            value_column: 'v',
            set_suffix: 'ON CONFLICT (k) DO UPDATE SET v = excluded.v',
          },
        },
        { docPath: [], configPath: 'root.cache' },
        { provider },
      ),
    )) as Cache;
    const text = (v: Uint8Array | undefined) => (v === undefined ? undefined : Buffer.from(v).toString());
    try {
      assert.equal(await cache.get('a'), undefined);
      assert.equal(await cache.add('a', Buffer.from('one')), true);
      assert.equal(await cache.add('a', Buffer.from('two')), false);
      assert.equal(text(await cache.get('a')), 'one');
      await cache.set('a', Buffer.from('three'));
      assert.equal(text(await cache.get('a')), 'three');
      assert.deepEqual(rows(path, "SELECT CAST(v AS TEXT) AS v FROM kv WHERE k = 'a'"), [{ v: 'three' }]);
      await cache.delete('a');
      assert.equal(await cache.get('a'), undefined);
    } finally {
      await cache.close();
    }
  });

  it('DSN forms of the reference driver', () => {
    assert.deepEqual(parseSqliteDsn('/var/x.db'), {
      path: '/var/x.db',
      readOnly: false,
      pragmas: [],
      begin: 'BEGIN',
    });
    assert.deepEqual(
      parseSqliteDsn('file:///var/x.db?mode=ro&_pragma=busy_timeout(5000)&_pragma=foreign_keys(1)'),
      {
        path: '/var/x.db',
        readOnly: true,
        pragmas: ['PRAGMA busy_timeout = 5000', 'PRAGMA foreign_keys = 1'],
        begin: 'BEGIN',
      },
    );
    assert.equal(parseSqliteDsn('file:rel%20dir/x.db?_txlock=exclusive').path, 'rel dir/x.db');
    assert.equal(parseSqliteDsn('file:x.db?_txlock=exclusive').begin, 'BEGIN EXCLUSIVE');
    assert.equal(parseSqliteDsn(':memory:').path, ':memory:');
    assert.equal(parseSqliteDsn('file::memory:?cache=shared').path, ':memory:');
    assert.equal(parseSqliteDsn('file:x?mode=memory').path, ':memory:');
    assert.throws(() => parseSqliteDsn('file:x.db?_txlock=later'), /_txlock must be/);
    assert.throws(() => parseSqliteDsn(''), /sqlite dsn is empty/);
  });

  it('lint refuses a driver nekton has no client for at the driver line, saying which work', () => {
    const yaml = `input:
  generate:
    mapping: root = 1
output:
  sql_insert:
    table: t
    driver: oracle
    dsn: oracle://x
    columns: [ id ]
    args_mapping: root = [ this ]
`;
    const lints = lintServiceConfig(parseYaml(yaml), {
      provider,
      bloblang: bloblangChecker,
      withStreamSections: true,
    }).map(formatApiLint);
    assert.deepEqual(lints, [
      "(7,1) field driver: sql driver 'oracle' is not supported by nekton: it has no client for it (working drivers: postgres, pgx, mysql, sqlite)",
    ]);
    const sqlite = yaml.replace('driver: oracle', 'driver: sqlite').replace('oracle://x', '/tmp/x.db');
    assert.deepEqual(
      lintServiceConfig(parseYaml(sqlite), { provider, bloblang: bloblangChecker, withStreamSections: true }),
      [],
    );
  });
});
