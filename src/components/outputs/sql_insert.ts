// The `sql_insert` output: writes each batch as one multi-row INSERT (postgres, mysql/MariaDB or sqlite).
// A failed insert (a constraint violation, a lost connection) fails the whole batch, which the
// engine retries or nacks upstream: no row is dropped silently.
import type { Mapping } from '../../bloblang/index.js';
import { type ConfigOf, defineComponent, field } from '../../config/spec.js';
import type { Output, OutputWriter } from '../../engine/component.js';
import type { BuildContext } from '../../engine/context.js';
import type { Batch } from '../../message/message.js';
import { batchingField } from '../fields/batching.js';
import { argsOf } from '../sql/args.js';
import { SqlDatabase } from '../sql/client.js';
import { connectionFields, insertFields, lintSqlDriver } from '../sql/fields.js';

const fields = [
  ...insertFields({ table: 'events', columns: ['id', 'name', 'topic'], options: [['IGNORE']] }),
  field.int('max_in_flight', 'The most batches inserted at once.', { default: 64 }),
  ...connectionFields(),
  batchingField(),
] as const;

export type SqlInsertConfig = ConfigOf<typeof fields>;

/** What the INSERT statement is built from (shared with the `sql_insert` processor). */
export type InsertStatementConfig = Pick<
  SqlInsertConfig,
  'table' | 'columns' | 'prefix' | 'suffix' | 'options'
>;

export class SqlInsertWriter implements OutputWriter {
  constructor(
    private readonly db: SqlDatabase,
    private readonly config: InsertStatementConfig,
    /** Null when the mapping is empty: every row then has no values and fails the column count. */
    private readonly args: Mapping | null,
  ) {}

  connect(): Promise<void> {
    return this.db.connect();
  }

  async write(batch: Batch): Promise<void> {
    const columns = this.config.columns.length;
    const rows: unknown[][] = [];
    for (let i = 0; i < batch.length; i++) {
      const args = argsOf(this.args, batch, i);
      if (args.length !== columns)
        throw new Error(`args_mapping produced ${args.length} values for ${columns} columns (message ${i})`);
      rows.push(args);
    }
    if (rows.length === 0) return;
    // A statement holds at most db.maxParameters values; bigger batches are split inside a transaction.
    const perStatement = Math.max(1, Math.floor(this.db.maxParameters / Math.max(1, columns)));
    if (rows.length <= perStatement) {
      await this.db.query(this.statement(rows.length), rows.flat());
      return;
    }
    await this.db.transaction(async (session) => {
      for (let at = 0; at < rows.length; at += perStatement) {
        const chunk = rows.slice(at, at + perStatement);
        await session.query(this.statement(chunk.length), chunk.flat());
      }
    });
  }

  close(): Promise<void> {
    return this.db.close();
  }

  /** `[prefix] INSERT [options] INTO table (cols) VALUES (...), (...) [suffix]` for n rows. */
  statement(n: number): string {
    const cols = this.config.columns;
    const values: string[] = [];
    let p = 0;
    for (let r = 0; r < n; r++) values.push(`(${cols.map(() => this.db.placeholder(++p)).join(', ')})`);
    const options = this.config.options?.length ? ` ${this.config.options.join(' ')}` : '';
    const parts = [
      this.config.prefix,
      `INSERT${options} INTO ${this.config.table} (${cols.join(', ')}) VALUES ${values.join(', ')}`,
      this.config.suffix,
    ];
    return parts.filter((s) => s?.trim()).join(' ');
  }
}

export const spec = defineComponent({
  name: 'sql_insert',
  kind: 'output',
  status: 'stable',
  categories: ['Services'],
  summary: 'Inserts a row per message into a SQL table, a whole batch as one multi-row INSERT.',
  description:
    "Supports `postgres` (and `pgx`), `mysql` (MySQL, MariaDB) and `sqlite`. `args_mapping` gives each message's values in the order of `columns`. A batch becomes one `INSERT ... VALUES (...), (...)` statement, so use `batching` for throughput. When the insert fails (a constraint violation, say) the whole batch fails and is retried or nacked upstream, never dropped.",
  fields,
  lint: lintSqlDriver,
  examples: [
    {
      title: 'Insert JSON events into PostgreSQL, 500 rows per statement',
      config: `input:
  stdin: {}
output:
  sql_insert:
    driver: postgres
    dsn: postgres://postgres@127.0.0.1:5432/test?sslmode=disable
    table: events
    columns: [ id, kind, body ]
    args_mapping: 'root = [ this.id, this.kind, content().string() ]'
    batching:
      count: 500
      period: 100ms
`,
    },
  ],
  async build(config, ctx: BuildContext): Promise<Output> {
    const db = new SqlDatabase(config, ctx);
    return ctx.wrapWriter(new SqlInsertWriter(db, config, config.args_mapping ?? null), {
      maxInFlight: config.max_in_flight,
      batching: config.batching,
    });
  },
});
