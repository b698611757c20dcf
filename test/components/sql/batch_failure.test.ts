// A batched sql_insert where one insert of 1,000 fails once (issue 29): only the batch that failed
// is written again, so every row arrives exactly once, and the failed batch is nacked and replayed.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { linesFile, runYamlToEnd } from '../../faults/yaml_stream.js';
import { requireService } from '../../helpers/kit.js';
import { postgres, uniqueTable } from './databases.js';

const MESSAGES = 1000;
const POISON = 500;

describe('sql_insert with batching, one failing insert in 1,000 (postgres)', () => {
  const db = postgres();
  after(() => db.close());

  it('writes every row exactly once and replays only the batch that failed', async (t) => {
    if (!(await requireService(t, 'postgres'))) return;
    const table = uniqueTable('nekton_batchfail');
    // The row with id POISON fails its first insert only: a sequence is not rolled back with the
    // failed statement, so the trigger raises once and lets the replay through.
    await db.sql(`CREATE SEQUENCE ${table}_seq`);
    await db.sql(`CREATE TABLE ${table} (id int NOT NULL, body text NOT NULL)`);
    await db.sql(`CREATE FUNCTION ${table}_fn() RETURNS trigger AS $$
      BEGIN
        IF NEW.id = ${POISON} AND nextval('${table}_seq') = 1 THEN
          RAISE EXCEPTION 'poisoned row %', NEW.id;
        END IF;
        RETURN NEW;
      END $$ LANGUAGE plpgsql`);
    await db.sql(
      `CREATE TRIGGER ${table}_trg BEFORE INSERT ON ${table} FOR EACH ROW EXECUTE FUNCTION ${table}_fn()`,
    );
    t.after(async () => {
      await db.sql(`DROP TABLE IF EXISTS ${table}`);
      await db.sql(`DROP FUNCTION IF EXISTS ${table}_fn()`);
      await db.sql(`DROP SEQUENCE IF EXISTS ${table}_seq`);
    });
    const file = linesFile(
      Array.from({ length: MESSAGES }, (_, i) => JSON.stringify({ id: i, body: `m${i}` })),
    );

    await runYamlToEnd(`
input:
  file:
    paths: [ ${file} ]
    codec: lines
output:
  sql_insert:
    driver: postgres
    dsn: ${db.dsn}
    table: ${table}
    columns: [ id, body ]
    args_mapping: 'root = [ this.id, this.body ]'
    max_in_flight: 4
    batching:
      count: 50
`);

    const rows = await db.sql(`SELECT id, count(*)::int AS n FROM ${table} GROUP BY id ORDER BY id`);
    const twice = rows.filter((r) => r.n !== 1).map((r) => r.id);
    assert.deepEqual(twice, [], `${twice.length} ids were written more than once`);
    assert.equal(rows.length, MESSAGES, 'a message was lost');
    const [attempts] = await db.sql(`SELECT last_value::int AS n FROM ${table}_seq`);
    assert.ok(Number(attempts!.n) >= 2, 'the poisoned row was not retried after it failed');
  });
});
