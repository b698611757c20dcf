// Lint of the change data capture inputs: what cannot run is reported at the input's line, and the
// reference's own configs (required fields, the aws object left out) lint clean.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { registry } from '../../src/components/registry.js';
import { bloblangChecker } from '../../src/config/bloblang_check.js';
import { formatApiLint } from '../../src/config/lint.js';
import { lintStreamConfig } from '../../src/config/lint_config.js';
import { schemaProvider } from '../../src/config/schema.js';
import { parseYaml } from '../../src/config/yaml_document.js';

const provider = schemaProvider(registry);
const lint = (input: string) =>
  lintStreamConfig(parseYaml(`input:\n${input}output:\n  drop: {}\n`), {
    provider,
    bloblang: bloblangChecker,
  }).map(formatApiLint);

const pg = (extra = '') =>
  `  postgres_cdc:\n    dsn: postgres://u@localhost:5432/db\n    schema: public\n    tables: [ a ]\n    slot_name: my_slot\n${extra}`;
const my = (extra = '', tables = '[ a ]') =>
  `  mysql_cdc:\n    dsn: root@tcp(localhost:3306)/db\n    tables: ${tables}\n    checkpoint_cache: c\n    stream_snapshot: false\n${extra}`;

describe('lint of postgres_cdc and mysql_cdc', () => {
  it('accepts the usual configs', () => {
    assert.deepEqual(lint(pg()), []);
    assert.deepEqual(lint(my()), []);
  });

  it('requires the fields the reference requires', () => {
    assert.deepEqual(lint('  postgres_cdc:\n    dsn: postgres://u@localhost/db\n'), [
      '(3,1) field schema is required',
      '(3,1) field slot_name is required',
    ]);
    assert.deepEqual(lint('  mysql_cdc:\n    dsn: root@tcp(localhost:3306)/db\n    tables: [ a ]\n'), [
      '(3,1) field checkpoint_cache is required',
      '(3,1) field stream_snapshot is required',
    ]);
  });

  it('reports what cannot run', () => {
    assert.deepEqual(lint(pg('    aws:\n      enabled: true\n      endpoint: db.example\n')), [
      '(3,1) aws.enabled: AWS IAM authentication is not supported by nekton',
    ]);
    assert.deepEqual(lint(pg('    signal_table_name: signals\n')), [
      '(3,1) signal_table_name: signal tables are not supported by nekton',
    ]);
    assert.deepEqual(lint(pg().replace('my_slot', 'My-Slot')), [
      '(3,1) slot_name: must be lower-case letters, digits and underscores (a PostgreSQL slot name)',
    ]);
    assert.deepEqual(lint(pg().replace('postgres://u@localhost:5432/db', 'localhost')), [
      '(3,1) dsn: expected a postgres:// URL or key=value pairs',
    ]);
    assert.deepEqual(lint(my('', '[]')), ["(3,1) field 'tables' must contain at least one table"]);
    assert.deepEqual(lint(my('    max_parallel_snapshot_tables: 0\n')), [
      '(3,1) max_parallel_snapshot_tables must be at least 1',
    ]);
    assert.deepEqual(lint(my().replace('/db', '/')), [
      '(3,1) dsn: must name a database (…@tcp(host:port)/database)',
    ]);
  });
});
