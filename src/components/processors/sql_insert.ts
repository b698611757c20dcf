// The `sql_insert` processor: inserts a row per message (a batch as one multi-row INSERT) and passes
// the messages on unchanged; when the insert fails every message of the batch is flagged.
import { defineComponent } from '../../config/spec.js';
import type { Processor } from '../../engine/component.js';
import type { BuildContext } from '../../engine/context.js';
import { flagged, processorErrorLog } from '../../engine/processor_helpers.js';
import type { Batch } from '../../message/message.js';
import { SqlInsertWriter } from '../outputs/sql_insert.js';
import { connectOnUse, SqlDatabase } from '../sql/client.js';
import { connectionFields, insertFields, lintSqlDriver } from '../sql/fields.js';

export const spec = defineComponent({
  name: 'sql_insert',
  kind: 'processor',
  status: 'stable',
  categories: ['Integration'],
  summary:
    'Inserts a row per message into a SQL table (a batch as one multi-row INSERT) and passes the messages on unchanged.',
  description:
    'Supports `postgres` (and `pgx`), `mysql` (MySQL, MariaDB) and `sqlite`. When the insert fails, every message of the batch is flagged with the error (handle it with `catch`).',
  fields: [...insertFields({ table: 'audit', columns: ['id', 'seen_at'] }), ...connectionFields()],
  lint: lintSqlDriver,
  examples: [
    {
      title: 'Keep an audit row of every message on its way',
      config: `input:
  stdin: {}
pipeline:
  processors:
    - sql_insert:
        driver: mysql
        dsn: root@tcp(127.0.0.1:3306)/test
        table: audit
        columns: [ id, seen_at ]
        args_mapping: 'root = [ this.id, now() ]'
output:
  stdout: {}
`,
    },
  ],
  build(config, ctx: BuildContext): Processor {
    const db = new SqlDatabase(config, ctx);
    const writer = new SqlInsertWriter(db, config, config.args_mapping ?? null);
    const connected = connectOnUse(db);
    const logError = processorErrorLog(ctx.logger);
    return {
      async process(batch: Batch): Promise<Batch[]> {
        try {
          await connected();
          await writer.write(batch);
          return [batch];
        } catch (err) {
          logError(err as Error);
          return [batch.map((m) => flagged(m, err))];
        }
      },
      close: () => db.close(),
    };
  },
});
