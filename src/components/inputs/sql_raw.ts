// The `sql_raw` input: runs one query and emits every row it returns as a JSON object, then ends.
import { defineComponent, field } from '../../config/spec.js';
import type { Input } from '../../engine/component.js';
import type { BuildContext } from '../../engine/context.js';
import { SqlDatabase } from '../sql/client.js';
import { argsMappingField, connectionFields, driverField, dsnField, lintSqlDriver } from '../sql/fields.js';
import { SqlQueryReader } from '../sql/query_reader.js';

export const spec = defineComponent({
  name: 'sql_raw',
  kind: 'input',
  status: 'stable',
  categories: ['Services'],
  summary:
    'Runs a SQL query and emits each returned row as a JSON object; the input ends after the last row.',
  description:
    'Supports `postgres` (and `pgx`), `mysql` (MySQL, MariaDB) and `sqlite`. Placeholders are `$1`, `$2`... for postgres and `?` for mysql and sqlite, filled from `args_mapping`. The result is read whole before the first message is emitted.',
  fields: [
    driverField(),
    dsnField(),
    field.string('query', 'The query to run.', { examples: ['SELECT * FROM footable WHERE user_id = $1;'] }),
    argsMappingField(true),
    field.bool('auto_replay_nacks', 'Re-deliver nacked rows inside nekton instead of dropping them.', {
      default: true,
    }),
    ...connectionFields(),
  ],
  lint: lintSqlDriver,
  examples: [
    {
      title: 'Rows of a join, with an argument from the environment',
      config: `input:
  sql_raw:
    driver: mysql
    dsn: root@tcp(127.0.0.1:3306)/test
    query: SELECT o.id, o.total, c.name FROM orders o JOIN customers c ON c.id = o.customer_id WHERE o.total > ?
    args_mapping: 'root = [ env("MIN_TOTAL").or("100").number() ]'
output:
  stdout: {}
`,
    },
  ],
  build(config, ctx: BuildContext): Input {
    const reader = new SqlQueryReader(
      new SqlDatabase(config, ctx),
      config.query,
      config.args_mapping ?? null,
    );
    return ctx.wrapReader(reader, { autoReplayNacks: config.auto_replay_nacks });
  },
});
