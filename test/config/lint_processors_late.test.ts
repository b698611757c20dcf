// Mistakes in the processors from `noop` to `xml` that used to surface only when the stream was
// built, now reported by lint at the line of the component.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { registry } from '../../src/components/registry.js';
import { bloblangChecker } from '../../src/config/bloblang_check.js';
import { formatApiLint } from '../../src/config/lint.js';
import { lintStreamConfig } from '../../src/config/lint_config.js';
import { schemaProvider } from '../../src/config/schema.js';
import { parseYaml } from '../../src/config/yaml_document.js';

const provider = schemaProvider(registry);
const lint = (processor: string) =>
  lintStreamConfig(
    parseYaml(
      `input:\n  generate:\n    mapping: root = 1\npipeline:\n  processors:\n${processor}output:\n  drop: {}\n`,
    ),
    { provider, bloblang: bloblangChecker },
  ).map(formatApiLint);

describe('lint of processors noop..xml', () => {
  it('reports a switch case without processors', () => {
    assert.deepEqual(lint('    - switch:\n        - check: this.a == 1\n'), [
      "(7,1) case '0' parse error: case has no processors, in order to have a no-op case use a `noop` processor",
    ]);
  });

  it('reports a switch check that does not parse at its line', () => {
    const lints = lint(
      '    - switch:\n        - processors: [ noop: {} ]\n        - check: this.a ==\n          processors: [ noop: {} ]\n',
    );
    assert.equal(lints.length, 1);
    assert.match(lints[0] ?? '', /^\(8,1\) field check: /);
  });

  it('reports a while without a check', () => {
    assert.deepEqual(lint('    - while:\n        processors: [ noop: {} ]\n'), [
      '(7,1) a check query is required',
    ]);
  });

  it('reports an xml processor without an operator', () => {
    assert.deepEqual(lint('    - xml: {}\n'), ['(6,1) operator not recognised: ']);
  });

  it('reports an unarchive csv format whose delimiter cannot be used', () => {
    assert.deepEqual(lint('    - unarchive:\n        format: csv:ab\n'), [
      '(7,1) format: csv format requires a single character delimiter',
    ]);
  });

  it('reports a protobuf processor that asks for the Buf Schema Registry, which cannot run', () => {
    assert.deepEqual(
      lint(
        '    - protobuf:\n        operator: to_json\n        message: a.B\n        bsr:\n          - module: buf.build/x/y\n',
      ),
      ['(7,1) bsr: the Buf Schema Registry is not supported by nekton'],
    );
  });

  it('reports an interpolated sleep duration only when it is static', () => {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a Bloblang interpolation
    assert.deepEqual(lint("    - sleep:\n        duration: '${! @d }'\n"), []);
    assert.match(
      lint('    - sleep:\n        duration: 1 minute\n')[0] ?? '',
      /^\(7,1\) field duration: invalid duration/,
    );
  });
});
