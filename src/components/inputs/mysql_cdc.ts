// The `mysql_cdc` input: change data capture from the MySQL/MariaDB binlog (row events), with the
// binlog position checkpointed in a cache resource. The reader is in ../cdc/mysql_reader.ts.
import { defineComponent, field } from '../../config/spec.js';
import { isNoopPolicy } from '../../engine/batching.js';
import type { Input } from '../../engine/component.js';
import type { BuildContext } from '../../engine/context.js';
import { BatchedInput } from '../brokers/batched_input.js';
import { awsIamField, awsLint, tlsIsSet } from '../cdc/common_fields.js';
import { MysqlCdcReader } from '../cdc/mysql_reader.js';
import { batchingEnabled, batchingField } from '../fields/batching.js';
import { tlsField, tlsOptions } from '../fields/tls.js';
import { parseMysqlDsn } from '../sql/dsn.js';

const fields = [
  field.enum(
    'flavor',
    'The server flavor (nekton detects MariaDB from the server version either way).',
    ['mariadb', 'mysql'],
    {
      default: 'mysql',
    },
  ),
  field.string('dsn', 'The data source name, `user:password@tcp(host:port)/database`.', {
    examples: ['user:password@tcp(localhost:3306)/database'],
  }),
  field.array(
    field.string('tables', "The tables of the DSN's database to stream.", {
      examples: [['table1', 'table2']],
    }),
  ),
  field.string('checkpoint_cache', 'A cache resource that keeps the binlog position between runs.'),
  field.string('checkpoint_key', 'The key of the binlog position in `checkpoint_cache`.', {
    default: 'mysql_binlog_position',
  }),
  field.int('snapshot_max_batch_size', 'How many rows one snapshot query reads.', { default: 1000 }),
  field.int('max_reconnect_attempts', 'Accepted; nekton reconnects with its usual backoff.', {
    default: 10,
    advanced: true,
  }),
  field.bool(
    'stream_snapshot',
    "When no position is stored yet, first stream every existing row of `tables` (operation `read`), then the binlog from the snapshot's position.",
  ),
  field.int(
    'max_parallel_snapshot_tables',
    'Tables read in parallel during the snapshot (nekton reads them one after another).',
    {
      default: 1,
    },
  ),
  field.bool(
    'auto_replay_nacks',
    'Deliver nacked messages again from inside nekton; when false the input delivers them again itself.',
    {
      default: true,
    },
  ),
  field.int(
    'checkpoint_limit',
    'The most changes in flight; the stored position moves only past a transaction whose changes, and all earlier ones, were delivered.',
    { default: 1024 },
  ),
  tlsField({ withEnabled: false, optional: true }),
  awsIamField(),
  batchingField(),
] as const;

export const spec = defineComponent({
  name: 'mysql_cdc',
  kind: 'input',
  status: 'stable',
  categories: ['Services'],
  summary:
    'Streams row changes of MySQL or MariaDB tables from the binlog, checkpointing the binlog position in a cache.',
  description:
    'Reads the binary log as a replica (with `@vlasky/zongji`; the server needs `log_bin`, `binlog_format=ROW` and ideally `binlog_row_image=FULL`) and emits each inserted, updated or deleted row of `tables` as a JSON message: the new row for inserts and updates, the old row for deletes. ' +
    'Metadata: `operation` (`read`, `insert`, `update`, `delete`), `table`, `binlog_position` and, for updates, `before` (the old row).\n\n' +
    'The binlog position (`file@OFFSET`, as the reference writes it) is stored under `checkpoint_key` in `checkpoint_cache` only once every change of a transaction, and of all earlier ones, was acknowledged: after a crash the stream resumes at the oldest unacknowledged transaction (at-least-once). ' +
    "Without a stored position, `stream_snapshot: true` first reads every row (operation `read`) in a consistent snapshot (MariaDB: `binlog_snapshot_file/position`; MySQL: a brief global read lock) and streams from the snapshot's position; otherwise streaming starts at the server's current position, which is stored at once. " +
    'A stored position whose binlog file the server no longer has is an error naming `checkpoint_key` and the position.\n\n' +
    '`tls` settings are passed to the MySQL client (not tested here: the local server has no TLS). Not supported: `aws` (refused by lint); the snapshot reads one table at a time.',
  fields,
  lint: (config) => {
    const problems = awsLint(config.aws);
    if (config.tables.length === 0) problems.push("field 'tables' must contain at least one table");
    if (config.max_parallel_snapshot_tables < 1)
      problems.push('max_parallel_snapshot_tables must be at least 1');
    if (config.dsn) {
      try {
        if (!parseMysqlDsn(config.dsn).database)
          problems.push('dsn: must name a database (…@tcp(host:port)/database)');
      } catch (err) {
        problems.push(`dsn: ${(err as Error).message}`);
      }
    }
    return problems;
  },
  examples: [
    {
      title: 'Stream two tables, keeping the binlog position in Redis',
      config: `input:
  mysql_cdc:
    dsn: cdc:secret@tcp(localhost:3306)/shop
    tables: [ orders, customers ]
    stream_snapshot: true
    checkpoint_cache: positions
cache_resources:
  - label: positions
    redis:
      url: redis://localhost:6379
output:
  stdout: {}
`,
    },
  ],
  build: async (config, ctx: BuildContext): Promise<Input> => {
    const ssl = tlsIsSet(config.tls) ? await tlsOptions(config.tls) : undefined;
    const reader = new MysqlCdcReader(
      config,
      { ...parseMysqlDsn(config.dsn), ssl },
      ctx.resources,
      ctx.logger,
    );
    const input = ctx.wrapReader(reader, { autoReplayNacks: config.auto_replay_nacks });
    if (!batchingEnabled(config.batching)) return input;
    const policy = await ctx.buildBatchPolicy(config.batching);
    return isNoopPolicy(policy) ? input : new BatchedInput(input, policy);
  },
});
