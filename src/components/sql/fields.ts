// The connection fields every sql_* component shares, declared once in the reference's order and flags.
import type { Mapping } from '../../bloblang/index.js';
import { type ConfigOf, type FieldLint, type FieldSpec, field } from '../../config/spec.js';
import { errorMessage } from '../../engine/errors.js';
import { dialectOf } from './dsn.js';

/** Drivers the reference lists; nekton connects to `postgres`/`pgx`, `mysql` and `sqlite`, and lint refuses the rest. */
export const SQL_DRIVERS = [
  'mysql',
  'postgres',
  'pgx',
  'clickhouse',
  'mssql',
  'sqlite',
  'oracle',
  'snowflake',
  'trino',
  'gocosmos',
  'spanner',
  'databricks',
] as const;

export function driverField() {
  return field.enum(
    'driver',
    "The database driver: `postgres` (or `pgx`), `mysql` (MySQL, MariaDB) or `sqlite`. The reference's other drivers (`clickhouse`, `mssql`, `oracle`, `snowflake`, `trino`, `gocosmos`, `spanner`, `databricks`) are refused by lint: nekton has no client for them.",
    SQL_DRIVERS,
  );
}

export function dsnField() {
  return field.string(
    'dsn',
    'The data source name: a URL for postgres (`postgres://user:pass@host:5432/db?sslmode=disable`), the Go form for mysql (`user:pass@tcp(host:3306)/db`, a `mysql://` URL works too), a path for sqlite (`/var/lib/app.db`, `file:/var/lib/app.db?_pragma=foreign_keys(1)` or `:memory:`).',
    {
      examples: [
        'postgres://postgres@127.0.0.1:5432/test?sslmode=disable',
        'root@tcp(127.0.0.1:3306)/test',
        'file:/var/lib/nekton/events.db?_pragma=journal_mode(WAL)',
      ],
    },
  );
}

/** Lint of `driver`: a driver nekton has no client for cannot run, so it must not lint. */
export function lintSqlDriver(config: { driver?: unknown }): FieldLint[] {
  if (typeof config.driver !== 'string') return [];
  try {
    dialectOf(config.driver);
    return [];
  } catch (err) {
    return [{ field: 'driver', message: errorMessage(err) }];
  }
}

/** The factory receives the compiled mapping, or undefined when none is given. */
export function argsMappingField(
  optional: boolean,
): FieldSpec<'args_mapping', string | undefined, Mapping | undefined> {
  return field.mapping(
    'args_mapping',
    'A Bloblang mapping that must evaluate to an array: the values of the placeholders (`$1`, `$2`... for postgres, `?` for mysql and sqlite), in order.',
    { ...(optional ? { optional: true } : {}), examples: ['root = [ this.id, this.name ]'] },
  );
}

export function prefixSuffixFields() {
  return [
    field.string('prefix', 'An optional prefix for the statement.', { optional: true, advanced: true }),
    field.string('suffix', 'An optional suffix for the statement, e.g. `ON CONFLICT (id) DO NOTHING`.', {
      optional: true,
      advanced: true,
    }),
  ] as const;
}

/** `init_files` ... `conn_max_open`, in the reference's order. */
export function connectionFields() {
  return [
    field.array(
      field.string(
        'init_files',
        'SQL files run once, in order, when the first connection is made (e.g. to create tables). Globs are expanded.',
        {
          optional: true,
          advanced: true,
          examples: [['./init/*.sql']],
        },
      ),
    ),
    field.string(
      'init_statement',
      'A statement run once when the first connection is made, after `init_files`.',
      {
        optional: true,
        advanced: true,
        examples: ['CREATE TABLE IF NOT EXISTS things (id text, body text)'],
      },
    ),
    field.duration('conn_max_idle_time', 'How long a connection may stay idle before it is closed.', {
      optional: true,
      advanced: true,
    }),
    field.duration('conn_max_life_time', 'How long a connection may be reused before it is replaced.', {
      optional: true,
      advanced: true,
    }),
    field.int(
      'conn_max_idle',
      'The most idle connections kept open (mysql; postgres keeps up to `conn_max_open`).',
      {
        default: 2,
        optional: true,
        advanced: true,
      },
    ),
    field.int('conn_max_open', 'The most connections open at once (default 10).', {
      optional: true,
      advanced: true,
    }),
  ] as const;
}

/** What the connection fields (driver, dsn, init_files ... conn_max_open) hand a factory. */
export type SqlConnectionConfig = ConfigOf<
  [ReturnType<typeof driverField>, ReturnType<typeof dsnField>, ...ReturnType<typeof connectionFields>]
>;

/** `driver` ... `suffix`: what sql_select declares as an input and as a processor. */
export function selectFields(examples: { table: string; where: string }) {
  return [
    driverField(),
    dsnField(),
    field.string('table', 'The table to select from.', { examples: [examples.table] }),
    field.array(
      field.string('columns', 'The columns to select (`*` for all).', { examples: [['*'], ['id', 'name']] }),
    ),
    field.string('where', 'An optional WHERE condition, with placeholders for `args_mapping`.', {
      optional: true,
      examples: [examples.where],
    }),
    argsMappingField(true),
    ...prefixSuffixFields(),
  ] as const;
}

/** `driver` ... `options`: what sql_insert declares as an output and as a processor. */
export function insertFields(examples: { table: string; columns: string[]; options?: string[][] }) {
  return [
    driverField(),
    dsnField(),
    field.string('table', 'The table to insert into.', { examples: [examples.table] }),
    field.array(
      field.string('columns', 'The columns to insert, in the order of `args_mapping`.', {
        examples: [examples.columns],
      }),
    ),
    argsMappingField(false),
    ...prefixSuffixFields(),
    field.array(
      field.string('options', 'Keywords placed between INSERT and INTO, e.g. `IGNORE` for mysql.', {
        optional: true,
        advanced: true,
        ...(examples.options ? { examples: examples.options } : {}),
      }),
    ),
  ] as const;
}
