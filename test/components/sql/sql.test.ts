// The sql components against real PostgreSQL and MariaDB: inserts, selects, raw statements,
// enrichment, constraint violations (nacked, not lost) and unreachable servers.
import assert from 'node:assert/strict';
import { after, describe, it, type TestContext } from 'node:test';
import { InprocReader } from '../../../src/components/inputs/inproc.js';
import { spec as rawInput } from '../../../src/components/inputs/sql_raw.js';
import { spec as selectInput } from '../../../src/components/inputs/sql_select.js';
import { InprocWriter } from '../../../src/components/outputs/inproc.js';
import { spec as insertOutput, SqlInsertWriter } from '../../../src/components/outputs/sql_insert.js';
import { spec as rawOutput } from '../../../src/components/outputs/sql_raw.js';
import { spec as insertProcessor } from '../../../src/components/processors/sql_insert.js';
import { spec as rawProcessor } from '../../../src/components/processors/sql_raw.js';
import { spec as selectProcessor } from '../../../src/components/processors/sql_select.js';
import { registry } from '../../../src/components/registry.js';
import { SqlDatabase } from '../../../src/components/sql/client.js';
import { schemaProvider } from '../../../src/config/schema.js';
import { toServiceConfig } from '../../../src/config/service_config.js';
import { buildLineIndex, parseYaml, yamlToValue } from '../../../src/config/yaml_document.js';
import type { Input } from '../../../src/engine/component.js';
import { Stream } from '../../../src/engine/stream.js';
import { Message } from '../../../src/message/message.js';
import { buildResources } from '../../../src/service/build_resources.js';
import { createTestContext, createTestEnv } from '../../helpers/context.js';
import { requireService, waitFor } from '../../helpers/kit.js';
import { configOf } from '../reference.js';
import { mariadb, parsedInsertConfig, postgres, type TestDatabase, uniqueTable } from './databases.js';

const provider = schemaProvider(registry);

/** Builds and runs a stream from YAML; returns the stream and its in-process bus. */
async function runStream(yaml: string) {
  const parsed = parseYaml(yaml, 'test.yaml');
  const config = toServiceConfig(yamlToValue(parsed), { provider, lines: buildLineIndex(parsed) });
  const { builder, env, resources, abort } = createTestEnv();
  await buildResources(config, builder, resources);
  if (!config.stream) throw new Error('no stream');
  const stream = await Stream.build(config.stream, builder, env.logger, abort);
  const running = stream.run();
  return {
    bus: env.inproc,
    async stop() {
      await stream.stop(2000);
      await running;
    },
  };
}

async function drain(input: Input): Promise<unknown[]> {
  const out: unknown[] = [];
  for (let txn = await input.read(); txn; txn = await input.read()) {
    for (const m of txn.batch) out.push(m.structured());
    await txn.ack(null);
  }
  return out;
}

const json = (v: unknown) => new Message(JSON.stringify(v));

for (const make of [postgres, mariadb]) {
  const db: TestDatabase = make();
  const tables: string[] = [];

  /** A fresh table (id int primary key, name, tag, created), dropped after the suite. */
  async function table(rows: [number, string][] = []): Promise<string> {
    const name = uniqueTable();
    tables.push(name);
    await db.sql(
      `CREATE TABLE ${name} (id INT PRIMARY KEY, name VARCHAR(64), tag VARCHAR(64), created TIMESTAMP NULL)`,
    );
    for (const [id, n] of rows)
      await db.sql(`INSERT INTO ${name} (id, name, created) VALUES (${db.ph(1)}, ${db.ph(2)}, ${db.ph(3)})`, [
        id,
        n,
        new Date('2024-05-06T07:08:09Z'),
      ]);
    return name;
  }

  const ready = (t: TestContext) => requireService(t, db.service);

  describe(`sql components on ${db.name}`, () => {
    after(async () => {
      for (const t of tables) await db.sql(`DROP TABLE IF EXISTS ${t}`).catch(() => undefined);
      await db.close();
    });

    it('sql_insert writes a batch as one multi-row INSERT and every row is present', async (t) => {
      if (!(await ready(t))) return;
      const name = await table();
      const config = configOf(insertOutput, {
        driver: db.driver,
        dsn: db.dsn,
        table: name,
        columns: ['id', 'name', 'tag'],
        args_mapping: 'root = [ this.id, this.name, @tag ]',
      });
      const ctx = createTestContext();
      const parsed = parsedInsertConfig(config);
      const writer = new SqlInsertWriter(new SqlDatabase(parsed, ctx), parsed, parsed.args_mapping ?? null);
      const p = db.ph;
      assert.equal(
        writer.statement(2),
        `INSERT INTO ${name} (id, name, tag) VALUES (${p(1)}, ${p(2)}, ${p(3)}), (${p(4)}, ${p(5)}, ${p(6)})`,
      );

      const output = await insertOutput.build(config, createTestContext());
      const batch = Array.from({ length: 50 }, (_, i) => {
        const m = json({ id: i, name: `n${i}` });
        m.setMeta('tag', i % 2 ? 'odd' : 'even');
        return m;
      });
      await output.write(batch);
      await output.close();
      const rows = await db.sql(`SELECT id, name, tag FROM ${name} ORDER BY id`);
      assert.equal(rows.length, 50);
      assert.deepEqual(rows[7], { id: 7, name: 'n7', tag: 'odd' });
    });

    it('sql_insert fails a batch with a constraint violation as a whole; the source is nacked and nothing is lost', async (t) => {
      if (!(await ready(t))) return;
      const name = await table([[3, 'already there']]);
      const pipe = uniqueTable('pipe');
      const { bus, stop } = await runStream(`
input:
  inproc: ${pipe}
output:
  sql_insert:
    driver: ${db.driver}
    dsn: '${db.dsn}'
    table: ${name}
    columns: [ id, name ]
    args_mapping: 'root = [ this.id, this.name ]'
`);
      try {
        const source = new InprocWriter(bus, pipe);
        const batch = [1, 2, 3, 4].map((id) => json({ id, name: `row ${id}` }));
        await assert.rejects(source.write(batch), /duplicate|unique|primary/i);
        const partial = await db.sql(`SELECT id FROM ${name} ORDER BY id`);
        assert.deepEqual(
          partial.map((r) => r.id),
          [3],
          'the failed batch left rows behind',
        );
        // The source redelivers once the conflict is gone: every row arrives.
        await db.sql(`DELETE FROM ${name} WHERE id = 3`);
        await source.write(batch);
        const rows = await db.sql(`SELECT id, name FROM ${name} ORDER BY id`);
        assert.deepEqual(
          rows.map((r) => r.id),
          [1, 2, 3, 4],
        );
      } finally {
        await stop();
      }
    });

    it('a constraint violation with a fallback goes to the fallback output, not dropped', async (t) => {
      if (!(await ready(t))) return;
      const name = await table([[2, 'already there']]);
      const pipe = uniqueTable('pipe');
      const dead = uniqueTable('dead');
      const { bus, stop } = await runStream(`
input:
  inproc: ${pipe}
output:
  fallback:
    - sql_insert:
        driver: ${db.driver}
        dsn: '${db.dsn}'
        table: ${name}
        columns: [ id, name ]
        args_mapping: 'root = [ this.id, this.name ]'
    - inproc: ${dead}
`);
      const deadLetters = new InprocReader(bus, dead);
      try {
        const source = new InprocWriter(bus, pipe);
        await source.write([json({ id: 1, name: 'fine' })]);
        // Acknowledged to the source only once the fallback took it.
        const written = source.write([json({ id: 2, name: 'conflict' })]);
        const txn = await deadLetters.read();
        assert.deepEqual(
          txn?.batch.map((m) => m.structured()),
          [{ id: 2, name: 'conflict' }],
        );
        assert.match(
          String(txn?.batch[0]?.getMeta('fallback_error')),
          /duplicate|unique|primary/i,
          'the reason travels along',
        );
        await txn?.ack(null);
        await written;
        const rows = await db.sql(`SELECT id, name FROM ${name} ORDER BY id`);
        assert.deepEqual(rows, [
          { id: 1, name: 'fine' },
          { id: 2, name: 'already there' },
        ]);
      } finally {
        await deadLetters.close();
        await stop();
      }
    });

    it('wrong credentials, an unknown database and a missing table are clear errors naming the address', async (t) => {
      if (!(await ready(t))) return;
      const [user, database, where] =
        db.driver === 'postgres'
          ? [
              'postgres://nekton_nobody:pw@127.0.0.1:5432/test',
              'postgres://postgres@127.0.0.1:5432/nekton_no_db',
              /127\.0\.0\.1:5432/,
            ]
          : [
              'nekton_nobody:pw@tcp(127.0.0.1:3306)/test',
              'root@tcp(127.0.0.1:3306)/nekton_no_db',
              /127\.0\.0\.1:3306/,
            ];
      const connectError = async (dsn: string) => {
        const d = new SqlDatabase(parsedInsertConfig({ driver: db.driver, dsn }), createTestContext());
        const err = await d.connect().then(
          () => new Error('connected'),
          (e: Error) => e,
        );
        await d.close();
        return err.message;
      };
      const badUser = await connectError(user);
      assert.match(badUser, where);
      assert.match(badUser, /nekton_nobody.*(does not exist|Access denied)|Access denied.*nekton_nobody/);
      assert.doesNotMatch(badUser, /:pw@/, 'the password is not logged');
      const badDb = await connectError(database);
      assert.match(badDb, where);
      assert.match(badDb, /nekton_no_db/);

      // Wrong credentials in a running output: not connected, with the reason, and no crash.
      const output = await insertOutput.build(
        configOf(insertOutput, {
          driver: db.driver,
          dsn: user,
          table: 'x',
          columns: ['id'],
          args_mapping: 'root = [ 1 ]',
        }),
        createTestContext(),
      );
      const status = await waitFor(() => output.statuses()[0]?.error ?? '', {
        message: 'a connection error',
        timeoutMs: 5000,
      });
      assert.match(status, where);
      assert.equal(output.statuses()[0]?.connected, false);
      await output.close();

      // A missing table fails the write (the source is nacked), naming the table and the address.
      const missing = await insertOutput.build(
        configOf(insertOutput, {
          driver: db.driver,
          dsn: db.dsn,
          table: 'nekton_no_such_table',
          columns: ['id'],
          args_mapping: 'root = [ 1 ]',
        }),
        createTestContext(),
      );
      await assert.rejects(missing.write([json({})]), (err: Error) => {
        assert.match(err.message, where);
        assert.match(err.message, /nekton_no_such_table/);
        return true;
      });
      await missing.close();
    });

    it('sql_insert rejects a batch whose args_mapping is not an array', async (t) => {
      if (!(await ready(t))) return;
      const name = await table();
      const output = await insertOutput.build(
        configOf(insertOutput, {
          driver: db.driver,
          dsn: db.dsn,
          table: name,
          columns: ['id'],
          args_mapping: 'root = this.id',
        }),
        createTestContext(),
      );
      await assert.rejects(output.write([json({ id: 1 })]), /must produce an array/);
      await output.close();
    });

    it('sql_select emits the selected rows as JSON objects, then ends', async (t) => {
      if (!(await ready(t))) return;
      const name = await table([
        [1, 'a'],
        [2, 'b'],
        [3, 'c'],
      ]);
      const input = await selectInput.build(
        configOf(selectInput, {
          driver: db.driver,
          dsn: db.dsn,
          table: name,
          columns: ['id', 'name', 'created'],
          where: `id >= ${db.ph(1)}`,
          args_mapping: 'root = [ 2 ]',
          suffix: 'ORDER BY id DESC',
        }),
        createTestContext(),
      );
      const rows = await drain(input);
      await input.close();
      assert.deepEqual(rows, [
        { id: 3, name: 'c', created: '2024-05-06T07:08:09.000Z' },
        { id: 2, name: 'b', created: '2024-05-06T07:08:09.000Z' },
      ]);
    });

    it('sql_raw input emits the rows of any query', async (t) => {
      if (!(await ready(t))) return;
      const name = await table([
        [1, 'a'],
        [2, 'b'],
      ]);
      const input = await rawInput.build(
        configOf(rawInput, {
          driver: db.driver,
          dsn: db.dsn,
          query: `SELECT COUNT(*) AS n, MAX(name) AS last FROM ${name} WHERE id > ${db.ph(1)}`,
          args_mapping: 'root = [ 0 ]',
        }),
        createTestContext(),
      );
      assert.deepEqual(await drain(input), [{ n: 2, last: 'b' }]);
      await input.close();
    });

    it('sql_raw processor enriches messages inside a branch, and flags a failing statement', async (t) => {
      if (!(await ready(t))) return;
      const name = await table([
        [1, 'alice'],
        [2, 'bob'],
      ]);
      const into = uniqueTable('in');
      const out = uniqueTable('out');
      const { bus, stop } = await runStream(`
input:
  inproc: ${into}
pipeline:
  processors:
    - branch:
        request_map: 'root = this.user'
        processors:
          - sql_raw:
              driver: ${db.driver}
              dsn: '${db.dsn}'
              query: SELECT name FROM ${name} WHERE id = ${db.ph(1)}
              args_mapping: 'root = [ this ]'
        result_map: 'root.user_name = this.index(0).name'
output:
  inproc: ${out}
`);
      try {
        const { InprocReader } = await import('../../../src/components/inputs/inproc.js');
        const reader = new InprocReader(bus, out);
        const sent = new InprocWriter(bus, into).write([json({ user: 2 }), json({ user: 1 })]);
        const txn = await reader.read();
        assert.deepEqual(
          txn?.batch.map((m) => m.structured()),
          [
            { user: 2, user_name: 'bob' },
            { user: 1, user_name: 'alice' },
          ],
        );
        await txn?.ack(null);
        await sent;
        await reader.close();
      } finally {
        await stop();
      }

      const processor = await rawProcessor.build(
        configOf(rawProcessor, {
          driver: db.driver,
          dsn: db.dsn,
          query: `INSERT INTO ${name} (id, name) VALUES (${db.ph(1)}, ${db.ph(2)})`,
          args_mapping: 'root = [ this.id, this.name ]',
          exec_only: true,
        }),
        createTestContext(),
      );
      const [batch] = await processor.process([json({ id: 7, name: 'carol' }), json({ id: 1, name: 'dup' })]);
      await processor.close();
      assert.deepEqual(batch?.[0]?.structured(), { id: 7, name: 'carol' }, 'exec_only keeps the message');
      assert.equal(batch?.[0]?.error, null);
      assert.match(String(batch?.[1]?.error?.message), /duplicate|unique|primary/i);
      assert.deepEqual(await db.sql(`SELECT name FROM ${name} WHERE id = 7`), [{ name: 'carol' }]);
    });

    it('sql_raw output runs every statement of a batch in one transaction', async (t) => {
      if (!(await ready(t))) return;
      const name = await table([[1, 'old']]);
      const output = await rawOutput.build(
        configOf(rawOutput, {
          driver: db.driver,
          dsn: db.dsn,
          queries: [
            {
              query: `UPDATE ${name} SET name = ${db.ph(1)} WHERE id = ${db.ph(2)}`,
              args_mapping: 'root = [ this.name, this.id ]',
              when: 'this.op == "update"',
            },
            {
              query: `INSERT INTO ${name} (id, name) VALUES (${db.ph(1)}, ${db.ph(2)})`,
              args_mapping: 'root = [ this.id, this.name ]',
              when: 'this.op == "insert"',
            },
          ],
        }),
        createTestContext(),
      );
      await output.write([
        json({ op: 'update', id: 1, name: 'new' }),
        json({ op: 'insert', id: 2, name: 'two' }),
      ]);
      // The second message conflicts: the first one's insert of id 3 must be rolled back with it.
      await assert.rejects(
        output.write([
          json({ op: 'insert', id: 3, name: 'three' }),
          json({ op: 'insert', id: 2, name: 'again' }),
        ]),
      );
      await output.close();
      const rows = await db.sql(`SELECT id, name FROM ${name} ORDER BY id`);
      assert.deepEqual(rows, [
        { id: 1, name: 'new' },
        { id: 2, name: 'two' },
      ]);
    });

    it('sql_insert reconnects when the server drops its connections, and writes the next batch', async (t) => {
      if (!(await ready(t))) return;
      const name = await table();
      const iso = await db.isolated();
      try {
        const output = await insertOutput.build(
          configOf(insertOutput, {
            driver: db.driver,
            dsn: iso.dsn,
            table: name,
            columns: ['id', 'name'],
            args_mapping: 'root = [ this.id, this.name ]',
          }),
          createTestContext(),
        );
        await output.write([json({ id: 1, name: 'before' })]);
        assert.ok((await iso.kill()) > 0, 'no connection of the output was found to kill');
        await output.write([json({ id: 2, name: 'after' })]);
        await output.close();
        const rows = await db.sql(`SELECT id FROM ${name} ORDER BY id`);
        assert.deepEqual(
          rows.map((r) => r.id),
          [1, 2],
        );
      } finally {
        await iso.drop();
      }
    });

    it('sql_select and sql_insert processors look up and record per message', async (t) => {
      if (!(await ready(t))) return;
      const users = await table([
        [1, 'alice'],
        [2, 'bob'],
      ]);
      const audit = await table();
      const select = await selectProcessor.build(
        configOf(selectProcessor, {
          driver: db.driver,
          dsn: db.dsn,
          table: users,
          columns: ['name'],
          where: `id = ${db.ph(1)}`,
          args_mapping: 'root = [ this.user ]',
        }),
        createTestContext(),
      );
      const [looked] = await select.process([json({ user: 2 }), json({ user: 9 })]);
      await select.close();
      assert.deepEqual(
        looked?.map((m) => m.structured()),
        [[{ name: 'bob' }], []],
      );

      const insert = await insertProcessor.build(
        configOf(insertProcessor, {
          driver: db.driver,
          dsn: db.dsn,
          table: audit,
          columns: ['id', 'name'],
          args_mapping: 'root = [ this.id, "seen" ]',
        }),
        createTestContext(),
      );
      const [passed] = await insert.process([json({ id: 5 }), json({ id: 6 })]);
      assert.deepEqual(
        passed?.map((m) => [m.structured(), m.error]),
        [
          [{ id: 5 }, null],
          [{ id: 6 }, null],
        ],
      );
      // A conflict flags every message of the batch; none is dropped.
      const [failed] = await insert.process([json({ id: 7 }), json({ id: 5 })]);
      await insert.close();
      assert.equal(failed?.length, 2);
      assert.ok(failed?.every((m) => m.error !== null));
      const rows = await db.sql(`SELECT id FROM ${audit} ORDER BY id`);
      assert.deepEqual(
        rows.map((r) => r.id),
        [5, 6],
      );
    });

    it('a wrong DSN gives a clear error naming the host, reported as not connected, without crashing', async (t) => {
      if (!(await ready(t))) return;
      const bad =
        db.driver === 'postgres' ? 'postgres://postgres@127.0.0.1:1/test' : 'root@tcp(127.0.0.1:1)/test';
      const database = new SqlDatabase(
        parsedInsertConfig({ driver: db.driver, dsn: bad }),
        createTestContext(),
      );
      await assert.rejects(database.connect(), /127\.0\.0\.1:1\b.*ECONNREFUSED/);

      const output = await insertOutput.build(
        configOf(insertOutput, {
          driver: db.driver,
          dsn: bad,
          table: 'nowhere',
          columns: ['id'],
          args_mapping: 'root = [ this.id ]',
        }),
        createTestContext(),
      );
      const status = await waitFor(() => output.statuses()[0]?.error ?? '', {
        message: 'a connection error',
        timeoutMs: 5000,
      });
      assert.match(status, /127\.0\.0\.1:1/);
      assert.equal(output.statuses()[0]?.connected, false);
      await output.close();
    });
  });
}

describe('sql drivers', () => {
  it('a driver without a client fails clearly when the component is built, naming the field', () => {
    assert.throws(
      () =>
        new SqlDatabase(parsedInsertConfig({ driver: 'oracle', dsn: 'oracle://x' }), {
          logger: createTestContext().logger,
          path: 'root.output.sql_insert',
        }),
      {
        name: 'ConfigError',
        message: /root\.output\.sql_insert\.driver: sql driver 'oracle' is not supported/,
      },
    );
  });
});
