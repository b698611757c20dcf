// The `sql` cache: key/value items as rows of a table in PostgreSQL, MySQL/MariaDB or SQLite.
import { defineComponent, field } from '../../config/spec.js';
import type { Cache } from '../../engine/component.js';
import type { BuildContext } from '../../engine/context.js';
import { errorMessage, NotConnectedError } from '../../engine/errors.js';
import { connectOnUse, SqlDatabase } from '../sql/client.js';
import { connectionFields, driverField, dsnField, lintSqlDriver } from '../sql/fields.js';

/** What PostgreSQL (23505 "duplicate key value ..."), MySQL/MariaDB (1062 "Duplicate entry") and SQLite ("UNIQUE constraint failed") say on a collision. */
function isDuplicate(err: unknown): boolean {
  return /duplicate key|duplicate entry|unique constraint failed|primary key must be unique/i.test(
    errorMessage(err),
  );
}

export class SqlCache implements Cache {
  private readonly connected: () => Promise<void>;
  private readonly selectSql: string;
  private readonly insertSql: string;
  private readonly upsertSql: string;
  private readonly deleteSql: string;

  constructor(
    private readonly db: SqlDatabase,
    config: { table: string; key_column: string; value_column: string; set_suffix?: string | undefined },
  ) {
    this.connected = connectOnUse(db);
    const { table, key_column: key, value_column: value } = config;
    const [p1, p2] = [db.placeholder(1), db.placeholder(2)];
    // Table and column names go in as written, as the reference does (quote them in the config if needed).
    this.selectSql = `SELECT ${value} FROM ${table} WHERE ${key} = ${p1}`;
    this.insertSql = `INSERT INTO ${table} (${key},${value}) VALUES (${p1},${p2})`;
    this.upsertSql = config.set_suffix ? `${this.insertSql} ${config.set_suffix}` : this.insertSql;
    this.deleteSql = `DELETE FROM ${table} WHERE ${key} = ${p1}`;
  }

  async get(key: string): Promise<Uint8Array | undefined> {
    const rows = await this.run(this.selectSql, [key]);
    const row = rows[0];
    if (!row) return undefined;
    const value = Object.values(row)[0];
    if (value === null || value === undefined) return new Uint8Array(0);
    if (value instanceof Uint8Array) return value;
    return Buffer.from(typeof value === 'string' ? value : JSON.stringify(value));
  }

  async set(key: string, value: Uint8Array): Promise<void> {
    await this.run(this.upsertSql, [key, value]);
  }

  async add(key: string, value: Uint8Array): Promise<boolean> {
    try {
      await this.run(this.insertSql, [key, value]);
      return true;
    } catch (err) {
      if (isDuplicate(err)) return false;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    await this.run(this.deleteSql, [key]);
  }

  close(): Promise<void> {
    return this.db.close();
  }

  /** Runs a statement, connecting first; a connection found dead is replaced once and the statement sent again. */
  private async run(sql: string, args: unknown[]): Promise<Record<string, unknown>[]> {
    await this.connected();
    try {
      return await this.db.query(sql, args);
    } catch (err) {
      if (!(err instanceof NotConnectedError)) throw err;
      await this.connected();
      return this.db.query(sql, args);
    }
  }
}

const fields = [
  driverField(),
  dsnField(),
  field.string('table', 'The table to insert/read/delete cache items.', { examples: ['foo'] }),
  field.string(
    'key_column',
    'The name of a column to be used for storing cache item keys. This column should support strings of arbitrary size.',
    { examples: ['foo'] },
  ),
  field.string(
    'value_column',
    'The name of a column to be used for storing cache item values. This column should support strings of arbitrary size.',
    { examples: ['bar'] },
  ),
  field.string(
    'set_suffix',
    'An optional suffix to append to each insert query for a cache `set` operation. This should modify an insert statement into an upsert appropriate for the given SQL engine.',
    {
      optional: true,
      examples: [
        'ON DUPLICATE KEY UPDATE bar=VALUES(bar)',
        'ON CONFLICT (foo) DO UPDATE SET bar=excluded.bar',
        'ON CONFLICT (foo) DO NOTHING',
      ],
    },
  ),
  ...connectionFields(),
] as const;

export const spec = defineComponent({
  name: 'sql',
  kind: 'cache',
  status: 'stable',
  categories: ['Services'],
  summary: 'Uses an SQL database table as a destination for storing cache key/value items.',
  description: `Each cache key/value pair is a row of \`table\`: only the key and value columns are set, so any other column must allow NULL (or have a default) for \`set\` and \`add\` to work. Supports \`postgres\` (and \`pgx\`), \`mysql\` (MySQL, MariaDB) and \`sqlite\`.

- \`get\` is a \`SELECT\` of the value column by key; no row means the key is absent.
- \`delete\` is a \`DELETE\` by key.
- \`add\` is an \`INSERT\`; a duplicate key (which needs a primary key or unique index on the key column) means the key exists.
- \`set\` is an \`INSERT\` too, which fails on an existing key unless \`set_suffix\` turns it into an upsert for the engine at hand, e.g. \`ON CONFLICT (foo) DO UPDATE SET bar=excluded.bar\` (postgres, sqlite) or \`ON DUPLICATE KEY UPDATE bar=VALUES(bar)\` (mysql).

Per-item TTLs are ignored (expire rows with the database's own means). Values are written as bytes and read back as the column's text. The connection pool is opened on first use; a connection found dead is replaced and the statement sent again once.`,
  fields,
  lint: lintSqlDriver,
  examples: [
    {
      title: 'Deduplicate with a PostgreSQL table',
      config: `input:
  generate:
    count: 3
    interval: ''
    mapping: 'root = {"id": "order-1"}'
pipeline:
  processors:
    - dedupe:
        cache: seen
        key: '\${! this.id }'
output:
  stdout: {}
cache_resources:
  - label: seen
    sql:
      driver: postgres
      dsn: postgres://postgres@127.0.0.1:5432/test?sslmode=disable
      table: seen_ids
      key_column: id
      value_column: body
      init_statement: CREATE TABLE IF NOT EXISTS seen_ids (id TEXT PRIMARY KEY, body TEXT)
      set_suffix: ON CONFLICT (id) DO UPDATE SET body = excluded.body
`,
    },
  ],
  build(config, ctx: BuildContext): Cache {
    return new SqlCache(new SqlDatabase(config, ctx), config);
  },
});
