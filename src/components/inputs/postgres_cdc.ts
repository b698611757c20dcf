// The `postgres_cdc` input: change data capture from PostgreSQL logical replication (pgoutput).
// The reader is in ../cdc/pg_reader.ts; publication, slot and snapshot in ../cdc/pg_*.ts.
import { defineComponent, field } from '../../config/spec.js';
import { isNoopPolicy } from '../../engine/batching.js';
import type { Input } from '../../engine/component.js';
import type { BuildContext } from '../../engine/context.js';
import { BatchedInput } from '../brokers/batched_input.js';
import { awsIamField, awsLint, tlsIsSet } from '../cdc/common_fields.js';
import { PgCdcReader } from '../cdc/pg_reader.js';
import { batchingEnabled, batchingField } from '../fields/batching.js';
import { tlsField, tlsOptions } from '../fields/tls.js';

const a = { advanced: true } as const;

const fields = [
  field.string(
    'dsn',
    'The PostgreSQL data source name, `postgres://user:password@host:port/db?sslmode=disable`.',
    {
      examples: ['postgres://foouser:foopass@localhost:5432/foodb?sslmode=disable'],
    },
  ),
  field.bool(
    'include_transaction_markers',
    'Emit empty messages with `operation` `begin` and `commit` at the start and end of each transaction.',
    { default: false },
  ),
  field.bool(
    'stream_snapshot',
    'When the slot is created, first stream every existing row of `tables` (operation `read`); the tables need a primary key.',
    { default: false, examples: [true] },
  ),
  field.float('snapshot_memory_safety_factor', 'Deprecated; has no effect.', {
    default: 1,
    deprecated: true,
  }),
  field.int('snapshot_batch_size', 'How many rows one snapshot query reads.', {
    default: 1000,
    examples: [10000],
  }),
  field.string('schema', 'The schema of `tables`.', {
    examples: ['public', '"MyCaseSensitiveSchemaNeedingQuotes"'],
  }),
  field.array(
    field.string(
      'tables',
      'The tables to replicate; empty means every table of the database (`FOR ALL TABLES`).',
      {
        examples: [['my_table_1', '"MyCaseSensitiveTableNeedingQuotes"']],
      },
    ),
  ),
  field.int(
    'checkpoint_limit',
    'The most changes in flight; the slot is confirmed only up to a commit whose changes, and all earlier ones, were delivered.',
    { default: 1024 },
  ),
  field.bool('temporary_slot', 'Create a temporary slot, dropped by the server when the connection closes.', {
    default: false,
  }),
  field.string(
    'slot_name',
    'The logical replication slot; created (with the publication `pglog_stream_<slot_name>`) when missing.',
    {
      examples: ['my_test_slot'],
    },
  ),
  field.duration('pg_standby_timeout', 'How often the confirmed position is reported to the server.', {
    default: '10s',
    examples: ['30s'],
  }),
  field.duration(
    'pg_wal_monitor_interval',
    'How often the replication lag is measured (accepted; not reported by nekton).',
    {
      default: '3s',
      examples: ['6s'],
    },
  ),
  field.int(
    'max_parallel_snapshot_tables',
    'Tables read in parallel during the snapshot (nekton reads them one after another).',
    {
      default: 1,
    },
  ),
  field.any('unchanged_toast_value', 'The value emitted for unchanged TOAST columns (null when unset).', {
    default: null,
    optional: true,
    ...a,
    examples: ['__redpanda_connect_unchanged_toast_value__'],
  }),
  field.duration(
    'heartbeat_interval',
    'How often a logical message is written to the WAL so the slot can advance on quiet tables; 0s disables it.',
    { default: '1h', ...a, examples: ['0s', '24h'] },
  ),
  tlsField({ withEnabled: false }),
  awsIamField(),
  field.string(
    'signal_table_name',
    'A table of control signals (not supported by nekton: lint refuses it).',
    {
      default: '',
      ...a,
    },
  ),
  field.bool(
    'auto_replay_nacks',
    'Deliver nacked messages again from inside nekton; when false the input delivers them again itself.',
    {
      default: true,
    },
  ),
  batchingField(),
] as const;

export const spec = defineComponent({
  name: 'postgres_cdc',
  kind: 'input',
  status: 'stable',
  categories: ['Services'],
  summary: 'Streams changes from a PostgreSQL database using logical replication (pgoutput).',
  description:
    'Creates (when missing) the publication `pglog_stream_<slot_name>` over `schema`.`tables` and the logical replication slot `slot_name`, then streams every insert, update and delete as a message whose content is the row as JSON (for a delete, the key columns, or the whole old row with REPLICA IDENTITY FULL). ' +
    'With `stream_snapshot`, a newly created slot exports its snapshot and every existing row of `tables` is emitted first (operation `read`), so nothing between snapshot and stream is missed or repeated.\n\n' +
    'Metadata: `table`, `operation` (`read`, `insert`, `update`, `delete`, and `begin`/`commit` with `include_transaction_markers`), `lsn`, `schema` (the table in the common schema form, fresh after every schema change), `commit_ts_ms`, and `before` (the old row or its key, for updates and deletes).\n\n' +
    "Delivery is at-least-once: the slot's confirmed position moves only to a commit whose changes, and every earlier one, were acknowledged by the output, so after a crash the server sends every unacknowledged transaction again. " +
    'A slot that exists but cannot serve (another plugin, another database, WAL removed) is an error naming it.\n\n' +
    'Not supported: `aws` IAM authentication and `signal_table_name` (refused by lint); `pg_wal_monitor_interval` is accepted without effect and the snapshot reads one table at a time. A snapshot interrupted by a crash is not restarted (the slot exists then), as in the reference.',
  fields,
  lint: (config) => {
    const problems = awsLint(config.aws);
    if (config.signal_table_name)
      problems.push('signal_table_name: signal tables are not supported by nekton');
    if (config.dsn && !/^postgres(ql)?:\/\//i.test(config.dsn) && !config.dsn.includes('='))
      problems.push('dsn: expected a postgres:// URL or key=value pairs');
    if (!/^[a-z0-9_]+$/.test(config.slot_name ?? ''))
      problems.push('slot_name: must be lower-case letters, digits and underscores (a PostgreSQL slot name)');
    if (config.snapshot_batch_size < 1) problems.push('snapshot_batch_size must be at least 1');
    return problems;
  },
  examples: [
    {
      title: 'Snapshot two tables, then stream their changes',
      config: `input:
  postgres_cdc:
    dsn: postgres://postgres@localhost:5432/shop?sslmode=disable
    schema: public
    tables: [ orders, customers ]
    slot_name: nekton_shop
    stream_snapshot: true
output:
  stdout: {}
`,
    },
  ],
  build: async (config, ctx: BuildContext): Promise<Input> => {
    const ssl = tlsIsSet(config.tls) ? await tlsOptions(config.tls) : undefined;
    const reader = new PgCdcReader({ ...config, ssl }, ctx.logger);
    const input = ctx.wrapReader(reader, { autoReplayNacks: config.auto_replay_nacks });
    if (!batchingEnabled(config.batching)) return input;
    const policy = await ctx.buildBatchPolicy(config.batching);
    return isNoopPolicy(policy) ? input : new BatchedInput(input, policy);
  },
});
