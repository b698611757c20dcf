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

/** Row counts whose statement text is kept, and of those how many are prepared on the server. */
const CACHED_COUNTS = 16;
const REUSED_COUNTS = 4;

interface CachedStatement {
  sql: string;
  runs: number;
  reuse: boolean;
}

export class SqlInsertWriter implements OutputWriter {
  private readonly statements = new Map<number, CachedStatement>();
  private reused = 0;

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
    // The values of every row in order, as the statement's placeholders take them.
    const values: unknown[] = [];
    for (let i = 0; i < batch.length; i++) {
      const args = argsOf(this.args, batch, i);
      if (args.length !== columns)
        throw new Error(`args_mapping produced ${args.length} values for ${columns} columns (message ${i})`);
      for (const v of args) values.push(v);
    }
    const rows = batch.length;
    if (rows === 0) return;
    // A statement holds at most db.maxParameters values; bigger batches are split inside a transaction.
    const perStatement = Math.max(1, Math.floor(this.db.maxParameters / Math.max(1, columns)));
    if (rows <= perStatement) {
      const { sql, reuse } = this.statementFor(rows);
      await this.db.query(sql, values, { reuse });
      return;
    }
    await this.db.transaction(async (session) => {
      for (let at = 0; at < rows; at += perStatement) {
        const n = Math.min(perStatement, rows - at);
        const { sql, reuse } = this.statementFor(n);
        await session.query(sql, values.slice(at * columns, (at + n) * columns), { reuse });
      }
    });
  }

  /**
   * The statement for n rows, built once per row count. A count that comes back (every full batch)
   * is marked for reuse, which postgres prepares once per connection: parsing a 500-row VALUES list
   * was most of the server's work per batch. Only a few counts are, each holding server memory.
   */
  private statementFor(n: number): CachedStatement {
    let cached = this.statements.get(n);
    if (!cached) {
      // Batches of many sizes (a period-driven policy): keep the prepared ones, rebuild the others.
      if (this.statements.size >= CACHED_COUNTS)
        for (const [count, s] of this.statements) if (!s.reuse) this.statements.delete(count);
      cached = { sql: this.statement(n), runs: 0, reuse: false };
      this.statements.set(n, cached);
    }
    cached.runs++;
    if (!cached.reuse && cached.runs >= 2 && this.reused < REUSED_COUNTS) {
      cached.reuse = true;
      this.reused++;
    }
    return cached;
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
