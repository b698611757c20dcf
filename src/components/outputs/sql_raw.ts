// The `sql_raw` output: runs statements per message; a whole batch runs in one transaction, so a
// failure rolls the batch back and the engine retries or nacks it.
import { defineComponent, field } from '../../config/spec.js';
import type { Output, OutputWriter } from '../../engine/component.js';
import type { BuildContext } from '../../engine/context.js';
import type { Batch } from '../../message/message.js';
import { batchingField } from '../fields/batching.js';
import { SqlDatabase } from '../sql/client.js';
import { connectionFields, driverField, dsnField } from '../sql/fields.js';
import {
  type BoundStatement,
  lintStatements,
  RawStatements,
  rawQueryFields,
  rawTopFields,
} from '../sql/statements.js';

export class SqlRawWriter implements OutputWriter {
  constructor(
    private readonly db: SqlDatabase,
    private readonly statements: RawStatements,
  ) {}

  connect(): Promise<void> {
    return this.db.connect();
  }

  async write(batch: Batch): Promise<void> {
    const bound: BoundStatement[] = [];
    for (let i = 0; i < batch.length; i++) bound.push(...this.statements.bind(batch, i));
    if (bound.length === 0) return;
    if (bound.length === 1) {
      const only = bound[0] as BoundStatement;
      await this.db.query(only.sql, only.args);
      return;
    }
    await this.db.transaction(async (session) => {
      for (const b of bound) await session.query(b.sql, b.args);
    });
  }

  close(): Promise<void> {
    return this.db.close();
  }
}

export const spec = defineComponent({
  name: 'sql_raw',
  kind: 'output',
  status: 'stable',
  categories: ['Services'],
  summary: 'Runs SQL statements for each message (inserts, updates, upserts, deletes).',
  description:
    'Supports `postgres` (and `pgx`), `mysql` (MySQL, MariaDB) and `sqlite`. The statements of a whole batch run in one transaction: when one fails the batch is rolled back and retried or nacked upstream, never half written. `queries` lists several statements, each with its own `args_mapping` and an optional `when` condition.',
  fields: [
    driverField(),
    dsnField(),
    ...rawTopFields(),
    field.array(
      field.object('queries', 'Several statements run in order for each message.', rawQueryFields('when'), {
        optional: true,
      }),
    ),
    field.int('max_in_flight', 'The most batches written at once.', { default: 64 }),
    ...connectionFields(),
    batchingField(),
  ],
  lint: lintStatements,
  examples: [
    {
      title: 'Upsert the latest state of each device',
      config: `input:
  stdin: {}
output:
  sql_raw:
    driver: postgres
    dsn: postgres://postgres@127.0.0.1:5432/test?sslmode=disable
    query: INSERT INTO devices (id, state) VALUES ($1, $2) ON CONFLICT (id) DO UPDATE SET state = EXCLUDED.state
    args_mapping: 'root = [ this.device, this.state ]'
    batching:
      count: 100
      period: 200ms
`,
    },
  ],
  build(config, ctx: BuildContext): Output {
    const statements = new RawStatements(config, ctx);
    const writer = new SqlRawWriter(new SqlDatabase(config, ctx), statements);
    return ctx.wrapWriter(writer, { maxInFlight: config.max_in_flight, batching: config.batching });
  },
});
