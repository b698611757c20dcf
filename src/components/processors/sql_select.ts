// The `sql_select` processor: runs a SELECT per message; the rows (an array of JSON objects)
// replace the message. A failure flags the message.
import { defineComponent } from '../../config/spec.js';
import type { Processor } from '../../engine/component.js';
import type { BuildContext } from '../../engine/context.js';
import { perMessage, processorErrorLog } from '../../engine/processor_helpers.js';
import { selectStatement } from '../inputs/sql_select.js';
import { argsOf } from '../sql/args.js';
import { connectOnUse, SqlDatabase } from '../sql/client.js';
import { connectionFields, lintSqlDriver, selectFields } from '../sql/fields.js';

export const spec = defineComponent({
  name: 'sql_select',
  kind: 'processor',
  status: 'stable',
  categories: ['Integration'],
  summary: 'Runs a SELECT per message; the rows it returns replace the message as an array of objects.',
  description:
    'Supports `postgres` (and `pgx`), `mysql` (MySQL, MariaDB) and `sqlite`. Placeholders in `where` are `$1`... for postgres and `?` for mysql and sqlite, filled per message from `args_mapping`. Use it inside `branch` to keep the message and add the result to it. A failed query flags the message with the error.',
  fields: [...selectFields({ table: 'users', where: 'id = $1' }), ...connectionFields()],
  lint: lintSqlDriver,
  examples: [
    {
      title: 'Attach the matching user row to each message',
      config: `input:
  stdin: {}
pipeline:
  processors:
    - branch:
        processors:
          - sql_select:
              driver: postgres
              dsn: postgres://postgres@127.0.0.1:5432/test?sslmode=disable
              table: users
              columns: [ name, email ]
              where: id = $1
              args_mapping: 'root = [ this.user_id ]'
        result_map: 'root.user = this.index(0)'
output:
  stdout: {}
`,
    },
  ],
  build(config, ctx: BuildContext): Processor {
    const args = config.args_mapping ?? null;
    const sql = selectStatement(config);
    const db = new SqlDatabase(config, ctx);
    const connected = connectOnUse(db);
    const process = perMessage(
      async (msg, batch, index) => {
        const values = argsOf(args, batch, index);
        await connected();
        const rows = await db.query(sql, values);
        const out = msg.copy();
        out.setStructured(rows);
        return out;
      },
      { onError: processorErrorLog(ctx.logger) },
    );
    return { process, close: () => db.close() };
  },
});
