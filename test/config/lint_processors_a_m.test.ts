// biome-ignore-all lint/suspicious/noTemplateCurlyInString: Bloblang interpolations, not JS templates
// `nekton lint` on the processors archive..mutation: durations, interpolations and mappings are
// checked at the value's line, and the checks their factories used to make at start are lints.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { registry } from '../../src/components/registry.js';
import { bloblangChecker } from '../../src/config/bloblang_check.js';
import { formatApiLint } from '../../src/config/lint.js';
import { lintStreamConfig } from '../../src/config/lint_config.js';
import { schemaProvider } from '../../src/config/schema.js';
import { parseYaml } from '../../src/config/yaml_document.js';

/** Lints a stream whose processors (given indented under `processors:`) start at line 6. */
function lintProcessors(processors: string): string[] {
  const text = `input:\n  generate:\n    mapping: root = 1\npipeline:\n  processors:\n${processors}output:\n  drop: {}\n`;
  return lintStreamConfig(parseYaml(text), {
    provider: schemaProvider(registry),
    bloblang: bloblangChecker,
  }).map(formatApiLint);
}

describe('lint of processors a-m: durations', () => {
  it('reports a benchmark interval that is not a duration', () => {
    assert.deepEqual(lintProcessors('    - benchmark:\n        interval: 5 seconds\n'), [
      '(7,1) field interval: invalid duration "5 seconds": time: unknown unit " seconds" in duration "5 seconds"',
    ]);
    assert.deepEqual(lintProcessors('    - benchmark:\n        interval: 0s\n'), []);
  });

  it('reports a static cache ttl that is not a duration, and leaves an interpolated one to run time', () => {
    const cache = (ttl: string) =>
      lintProcessors(
        `    - cache:\n        resource: c\n        operator: set\n        key: k\n        ttl: ${ttl}\n`,
      );
    assert.deepEqual(cache('soon'), [
      '(10,1) field ttl: invalid duration "soon": time: invalid duration "soon"',
    ]);
    assert.deepEqual(cache("'${! @ttl }'"), []);
    assert.deepEqual(cache('90s'), []);
  });

  it('reports a static cached ttl that is not a duration', () => {
    const lints = lintProcessors(
      '    - cached:\n        cache: c\n        key: k\n        ttl: 10 minutes\n        processors:\n          - mapping: root = 1\n',
    );
    assert.equal(lints.length, 1);
    assert.match(lints[0] ?? '', /^\(9,1\) field ttl: invalid duration "10 minutes"/);
  });
});

describe('lint of processors a-m: interpolations and mappings', () => {
  it('reports a bad interpolation at its line', () => {
    assert.deepEqual(lintProcessors('    - dedupe:\n        cache: c\n        key: "${! json( }"\n'), [
      '(8,1) field key: line 1 char 11: required: expected function argument',
    ]);
    const labels = lintProcessors(
      '    - metric:\n        type: counter\n        name: n\n        labels:\n          topic: "${! meta( }"\n',
    );
    assert.equal(labels.length, 1);
    assert.match(labels[0] ?? '', /^\(10,1\) field labels: line 1 char 11: /);
    assert.match(
      lintProcessors('    - archive:\n        format: tar\n        path: "${! nope_fn() }.json"\n')[0] ?? '',
      /^\(8,1\) field path: /,
    );
  });

  it('reports a bad mapping at its line, within a block mapping too', () => {
    assert.deepEqual(
      lintProcessors(
        '    - branch:\n        request_map: root = this.\n        processors:\n          - noop: {}\n',
      ),
      ['(7,1) field request_map: line 1 char 13: required: expected method or field path'],
    );
    assert.deepEqual(
      lintProcessors(
        '    - log:\n        message: hi\n        fields_mapping: |\n          root.a = 1\n          root.b = )\n',
      ),
      ['(10,1) field fields_mapping: line 2 char 10: required: expected query'],
    );
    assert.match(
      lintProcessors('    - mapping: root = this.\n')[0] ?? '',
      /^\(6,1\) field mapping: line 1 char 13: /,
    );
    assert.match(
      lintProcessors(
        '    - cached:\n        cache: c\n        key: k\n        skip_on: errored(\n        processors:\n          - noop: {}\n',
      )[0] ?? '',
      /^\(9,1\) field skip_on: /,
    );
  });
});

describe('lint of processors a-m: checks that used to wait for start', () => {
  it('an empty dedupe key', () => {
    assert.deepEqual(lintProcessors('    - dedupe:\n        cache: c\n        key: ""\n'), [
      '(7,1) dedupe key must not be empty',
    ]);
  });

  it('a javascript processor without code or file, with both, or with code that does not compile', () => {
    assert.deepEqual(lintProcessors('    - javascript: {}\n'), [
      '(6,1) either the code or file field must be specified',
    ]);
    assert.deepEqual(lintProcessors('    - javascript:\n        code: x\n        file: a.js\n'), [
      '(7,1) cannot specify both the code and file fields',
    ]);
    const [bad] = lintProcessors("    - javascript:\n        code: 'let = ;'\n");
    assert.match(bad ?? '', /^\(7,1\) compiling javascript code: /);
    assert.deepEqual(lintProcessors("    - javascript:\n        code: 'benthos.v0_msg_as_string();'\n"), []);
  });

  it('an empty metric name', () => {
    assert.deepEqual(lintProcessors('    - metric:\n        type: counter\n        name: ""\n'), [
      '(7,1) metric name must not be empty',
    ]);
  });

  it('an avro processor without a schema, or with a schema_path that is not a file:// or http:// URL', () => {
    assert.deepEqual(lintProcessors('    - avro:\n        operator: to_json\n'), [
      '(7,1) a schema must be specified with either the `schema` or `schema_path` fields',
    ]);
    assert.deepEqual(
      lintProcessors('    - avro:\n        operator: to_json\n        schema_path: /tmp/x.avsc\n'),
      ['(7,1) invalid schema_path provided, must start with file:// or http://'],
    );
    assert.deepEqual(
      lintProcessors('    - avro:\n        operator: to_json\n        schema_path: file:///tmp/x.avsc\n'),
      [],
    );
  });

  it('a json_schema processor without a schema, or with a schema_path that is not a file:// or http:// URL', () => {
    assert.deepEqual(lintProcessors('    - json_schema: {}\n'), [
      '(6,1) either schema or schema_path must be provided',
    ]);
    assert.deepEqual(lintProcessors('    - json_schema:\n        schema_path: ftp://x/schema.json\n'), [
      '(7,1) invalid schema_path provided, must start with file:// or http://',
    ]);
    assert.deepEqual(lintProcessors('    - json_schema:\n        schema: \'{"type": "object"}\'\n'), []);
  });

  it('a branch without child processors', () => {
    assert.deepEqual(lintProcessors('    - branch:\n        request_map: root = this.id\n'), [
      '(7,1) the branch processor requires at least one child processor',
    ]);
  });
});
