// Lint of the formats components (buffers sqlite and system_window, parquet, wasm): what the
// reference refuses at build is reported at the component's line.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { registry } from '../../src/components/registry.js';
import { bloblangChecker } from '../../src/config/bloblang_check.js';
import { formatApiLint } from '../../src/config/lint.js';
import { lintStreamConfig } from '../../src/config/lint_config.js';
import { schemaProvider } from '../../src/config/schema.js';
import { parseYaml } from '../../src/config/yaml_document.js';

const provider = schemaProvider(registry);
const lint = (yaml: string) =>
  lintStreamConfig(parseYaml(yaml), { provider, bloblang: bloblangChecker }).map(formatApiLint);
const withBuffer = (buffer: string) =>
  lint(`input:\n  generate:\n    mapping: root = 1\nbuffer:\n${buffer}output:\n  drop: {}\n`);
const withProcessor = (processor: string) =>
  lint(
    `input:\n  generate:\n    mapping: root = 1\npipeline:\n  processors:\n${processor}output:\n  drop: {}\n`,
  );

describe('lint of the formats components', () => {
  it('accepts the buffers as the reference documents them', () => {
    assert.deepEqual(
      withBuffer('  sqlite:\n    path: ./foo.db\n    post_processors:\n      - split: {}\n'),
      [],
    );
    assert.deepEqual(
      withBuffer('  system_window:\n    timestamp_mapping: root = this.created_at\n    size: 1h\n'),
      [],
    );
  });

  it('reports a sqlite buffer without a path', () => {
    assert.deepEqual(withBuffer('  sqlite: {}\n'), ['(5,1) field path is required']);
  });

  it('reports system_window durations the reference refuses', () => {
    assert.deepEqual(withBuffer('  system_window:\n    size: 1m\n    slide: 2m\n'), [
      "(6,1) invalid window slide '2m' must be lower than the size '1m'",
    ]);
    assert.deepEqual(withBuffer('  system_window:\n    size: often\n'), [
      `(6,1) failed to parse field 'size' as duration: time: invalid duration "often"`,
    ]);
  });

  it('reports a parquet_encode without a schema, and a bad column type', () => {
    assert.deepEqual(withProcessor('    - parquet_encode: {}\n'), [
      '(6,1) either a schema or schema_metadata must be specified',
    ]);
    const bad = withProcessor(
      '    - parquet_encode:\n        schema:\n          - name: a\n            type: INT128\n',
    );
    assert.deepEqual(bad, ['(9,1) value INT128 is not a valid option for this field']);
    const nested = withProcessor(
      '    - parquet_encode:\n        schema:\n          - name: g\n            fields:\n              - name: x\n                type: INT128\n',
    );
    assert.deepEqual(nested, ["(7,1) field x type of 'INT128' not recognised"]);
  });

  it('reports a wasm processor without a module_path', () => {
    assert.deepEqual(withProcessor('    - wasm: {}\n'), ['(6,1) field module_path is required']);
  });
});
