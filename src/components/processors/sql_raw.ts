// The `sql_raw` processor: runs a query per message; its rows (an array of JSON objects) replace
// the message, or with `exec_only` the message stays as it was. A failure flags the message.
import { defineComponent, field } from '../../config/spec.js';
import type { Processor } from '../../engine/component.js';
import type { BuildContext } from '../../engine/context.js';
import { perMessage, processorErrorLog } from '../../engine/processor_helpers.js';
import { connectOnUse, SqlDatabase } from '../sql/client.js';
import { connectionFields, driverField, dsnField } from '../sql/fields.js';
import { lintStatements, RawStatements, rawQueryFields, rawTopFields, runBound } from '../sql/statements.js';

export const spec = defineComponent({
  name: 'sql_raw',
  kind: 'processor',
  status: 'stable',
  categories: ['Integration'],
  summary:
    'Runs a SQL statement per message; the rows it returns replace the message as an array of objects.',
  description:
    'Supports `postgres` (and `pgx`), `mysql` (MySQL, MariaDB) and `sqlite`. With `exec_only` the message is kept as it was (for inserts and updates). `queries` run in one transaction per message; the rows of the last statement that is not `exec_only` become the message. A failed statement flags the message with the error (handle it with `catch`), it is not dropped. Use it inside `branch` to enrich a message with a lookup.',
  fields: [
    driverField(),
    dsnField(),
    ...rawTopFields(),
    field.bool('exec_only', 'Keep the message as it was instead of replacing it with the result.', {
      optional: true,
    }),
    field.array(
      field.object(
        'queries',
        'Several statements run in order, in one transaction per message.',
        rawQueryFields('exec_only'),
        {
          optional: true,
        },
      ),
    ),
    ...connectionFields(),
  ],
  lint: lintStatements,
  examples: [
    {
      title: 'Enrich each message with a row looked up by its id',
      config: `input:
  stdin: {}
pipeline:
  processors:
    - branch:
        request_map: 'root = this.user_id'
        processors:
          - sql_raw:
              driver: postgres
              dsn: postgres://postgres@127.0.0.1:5432/test?sslmode=disable
              query: SELECT name, email FROM users WHERE id = $1
              args_mapping: 'root = [ this ]'
        result_map: 'root.user = this.index(0)'
output:
  stdout: {}
`,
    },
  ],
  build(config, ctx: BuildContext): Processor {
    const statements = new RawStatements(config, ctx);
    const db = new SqlDatabase(config, ctx);
    const connected = connectOnUse(db);
    const process = perMessage(
      async (msg, batch, index) => {
        const bound = statements.bind(batch, index);
        if (bound.length === 0) return msg;
        await connected();
        const rows = await runBound(db, bound);
        if (rows === null) return msg;
        const out = msg.copy();
        out.setStructured(rows);
        return out;
      },
      { onError: processorErrorLog(ctx.logger) },
    );
    return {
      process,
      close: () => db.close(),
    };
  },
});
