// The `sql_select` input: runs one SELECT on a table and emits every row as a JSON object, then ends.
import { defineComponent, field } from '../../config/spec.js';
import type { Input } from '../../engine/component.js';
import type { BuildContext } from '../../engine/context.js';
import { SqlDatabase } from '../sql/client.js';
import { connectionFields, lintSqlDriver, selectFields } from '../sql/fields.js';
import { SqlQueryReader } from '../sql/query_reader.js';

/** `[prefix] SELECT cols FROM table [WHERE where] [suffix]`, shared with anything that selects. */
export function selectStatement(c: {
  table: string;
  columns: string[];
  where?: string;
  prefix?: string;
  suffix?: string;
}): string {
  const parts = [c.prefix, `SELECT ${c.columns.join(', ')} FROM ${c.table}`];
  if (c.where?.trim()) parts.push(`WHERE ${c.where}`);
  parts.push(c.suffix);
  return parts.filter((s) => s?.trim()).join(' ');
}

export const spec = defineComponent({
  name: 'sql_select',
  kind: 'input',
  status: 'stable',
  categories: ['Services'],
  summary:
    'Selects rows from a SQL table and emits each as a JSON object; the input ends after the last row.',
  description:
    'Supports `postgres` (and `pgx`), `mysql` (MySQL, MariaDB) and `sqlite`. Placeholders in `where` are `$1`, `$2`... for postgres and `?` for mysql and sqlite, filled from `args_mapping`. Dates become RFC 3339 strings, binary columns text. The result is read whole before the first message is emitted, so select what fits in memory.',
  fields: [
    ...selectFields({ table: 'events', where: 'kind = $1 AND created_at > $2' }),
    field.bool('auto_replay_nacks', 'Re-deliver nacked rows inside nekton instead of dropping them.', {
      default: true,
    }),
    ...connectionFields(),
  ],
  lint: lintSqlDriver,
  examples: [
    {
      title: 'Every row of one kind, oldest first',
      config: `input:
  sql_select:
    driver: postgres
    dsn: postgres://postgres@127.0.0.1:5432/test?sslmode=disable
    table: events
    columns: [ id, kind, body ]
    where: kind = $1
    args_mapping: 'root = [ "click" ]'
    suffix: ORDER BY id ASC
output:
  stdout: {}
`,
    },
  ],
  build(config, ctx: BuildContext): Input {
    const statement = selectStatement(config);
    const reader = new SqlQueryReader(new SqlDatabase(config, ctx), statement, config.args_mapping ?? null);
    return ctx.wrapReader(reader, { autoReplayNacks: config.auto_replay_nacks });
  },
});
