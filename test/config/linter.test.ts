import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type BloblangChecker, bloblangChecker } from '../../src/config/bloblang_check.js';
import { formatApiLint } from '../../src/config/lint.js';
import {
  type LintOptions,
  lintComponentConfig,
  lintServiceConfig,
  lintStreamConfig,
} from '../../src/config/lint_config.js';
import { schemaProvider } from '../../src/config/schema.js';
import type { ComponentSpec } from '../../src/config/spec.js';
import { parseYaml } from '../../src/config/yaml_document.js';
import { Registry } from '../../src/engine/registry.js';
import { testSpecs } from '../fixtures/config/specs.js';
import { lintOptions } from './helpers.js';

const stream = (text: string, options: LintOptions = lintOptions) =>
  lintStreamConfig(parseYaml(text), options).map(formatApiLint);
const service = (text: string, withStreamSections = true) =>
  lintServiceConfig(parseYaml(text), { ...lintOptions, withStreamSections }).map(formatApiLint);

describe('stream config lint', () => {
  it('accepts a clean config', () => {
    assert.deepEqual(stream('input:\n  generate:\n    mapping: root = 1\noutput:\n  drop: {}\n'), []);
  });

  it('reports a missing required field at the line of its object, after the walk of that object', () => {
    assert.deepEqual(stream('input:\n  generate:\n    interval: 1s\n    nope: 1\noutput:\n  drop: {}\n'), [
      '(4,1) field nope not recognised',
      '(3,1) field mapping is required',
    ]);
  });

  it('words an unknown key by where it is, the same in block, flow and JSON style', () => {
    // Beside a component (where only wrapper keys may go) the message names the component; inside
    // its settings or at the top level the key is not recognised (spec §2.5). Same lines in each.
    const styles = {
      block: 'input:\n  stdin: {}\n  foo: 1\noutput:\n  stdout:\n    bar: 1\nbaz: 1\n',
      flow: 'input: {\n  stdin: {},\n  foo: 1 }\noutput: {\n  stdout: {\n    bar: 1 } }\nbaz: 1\n',
      json: '{"input": {\n  "stdin": {},\n  "foo": 1 },\n"output": {\n  "stdout": {\n    "bar": 1 } },\n"baz": 1 }\n',
    };
    for (const [style, text] of Object.entries(styles)) {
      assert.deepEqual(
        stream(text),
        [
          '(3,1) field foo is invalid when the component type is stdin (input)',
          '(6,1) field bar not recognised',
          '(7,1) field baz not recognised',
        ],
        style,
      );
    }
  });

  it('cannot infer a type from one unknown key, or from several', () => {
    assert.deepEqual(stream('input:\n  meow: {}\n'), ['(2,1) unable to infer component type: meow']);
    assert.deepEqual(stream('input:\n  label: x\n  meow: {}\n  woof: {}\n'), [
      '(2,1) unable to infer component type: [label meow woof]',
    ]);
  });

  it('names an explicit type it has no docs for', () => {
    assert.deepEqual(stream('output:\n  type: nope\n'), ['(2,1) failed to obtain docs for output type nope']);
  });

  it('rejects two component keys', () => {
    assert.deepEqual(stream('output:\n  drop: {}\n  stdout: {}\n'), [
      '(2,1) unable to infer component type: [drop stdout]',
    ]);
  });

  it('falls back to the default type when only wrapper keys are present', () => {
    assert.deepEqual(stream('input:\n  label: only_label\n'), []);
  });

  it('checks shapes: arrays, objects and scalars', () => {
    assert.deepEqual(stream('pipeline:\n  processors: nope\n'), ['(2,1) expected array value']);
    assert.deepEqual(stream('pipeline: 5\n'), ['(1,1) expected object value, got !!int']);
    assert.deepEqual(stream('input:\n  generate:\n    mapping: [1]\n'), ['(3,1) expected string value']);
    assert.deepEqual(stream('output:\n  drop: null\n'), ['(2,1) expected object value, got !!null']);
    assert.deepEqual(stream('buffer:\n  memory:\n    batch_policy: 3\n'), [
      '(3,1) expected object value, got !!int',
    ]);
  });

  it('matches options case-insensitively', () => {
    const base =
      'input:\n  generate:\n    mapping: root = 1\noutput:\n  broker:\n    outputs: [{drop: {}}]\n';
    assert.deepEqual(stream(`${base}    pattern: FAN_OUT\n`), []);
    assert.deepEqual(stream(`${base}    pattern: sideways\n`), [
      '(7,1) value sideways is not a valid option for this field',
    ]);
  });

  it('lints nested components inside arrays with their own lines', () => {
    const text =
      'output:\n  broker:\n    outputs:\n      - drop: {}\n      - stdout:\n          codec: lines\n          x: 1\n';
    assert.deepEqual(stream(text), ['(7,1) field x not recognised']);
  });

  it('lints root-value components (switch processor, bloblang processor)', () => {
    const text =
      'pipeline:\n  processors:\n    - switch:\n        - check: this.a\n          nope: 1\n    - bloblang: root = 1\n';
    assert.deepEqual(stream(text), ['(5,1) field nope not recognised']);
    assert.deepEqual(stream('pipeline:\n  processors:\n    - bloblang: {a: 1}\n'), [
      '(3,1) expected string value',
    ]);
  });

  it('checks labels: pattern and collisions within one config', () => {
    const text = [
      'input:',
      '  label: Bad-Label',
      '  generate:',
      '    mapping: root = 1',
      'pipeline:',
      '  processors:',
      '    - label: same',
      '      split: {}',
      '    - label: same',
      '      split: {}',
    ].join('\n');
    assert.deepEqual(stream(text), [
      "(2,1) invalid label 'Bad-Label': should match the regular expression /^[a-z0-9_]+$/ and must not start with an underscore",
      "(9,1) label 'same' collides with a previously defined label at line 7",
    ]);
  });

  it('asks to omit an empty processors list and a label on a resource reference', () => {
    assert.deepEqual(stream('input:\n  generate:\n    mapping: root = 1\n  processors: []\n'), [
      '(4,1) field processors is empty and can be removed',
    ]);
    assert.deepEqual(stream('pipeline:\n  processors:\n    - label: foo\n      resource: bar\n'), [
      '(3,1) label field should be omitted when pointing to a resource',
    ]);
  });

  it('reports a Bloblang parse error on the line of the problem within the field', () => {
    const failing: BloblangChecker = {
      checkMapping: (text) => (text.includes('!!') ? { message: 'expected query', line: 2 } : undefined),
      checkInterpolation: () => undefined,
    };
    const text = 'input:\n  generate:\n    mapping: |\n      root = 1\n      root.x = !!\n';
    assert.deepEqual(stream(text, { ...lintOptions, bloblang: failing }), [
      '(5,1) field mapping: expected query',
    ]);
    const inline = 'input:\n  generate:\n    mapping: "root = !!"\n';
    const single: BloblangChecker = { ...failing, checkMapping: () => ({ message: 'bad', line: 1 }) };
    assert.deepEqual(stream(inline, { ...lintOptions, bloblang: single }), ['(3,1) field mapping: bad']);
  });

  it("runs a component's own lint hook with the defaulted config", () => {
    const picky: ComponentSpec = {
      ...testSpecs.find((s) => s.name === 'split')!,
      lint: (config) => ((config as { size: number }).size > 5 ? ['size must be at most 5'] : []),
    };
    const registry = new Registry([...testSpecs.filter((s) => s.name !== 'split'), picky]);
    const options = { ...lintOptions, provider: schemaProvider(registry) };
    const text = 'pipeline:\n  processors:\n    - split:\n        size: 10\n    - split: {}\n';
    assert.deepEqual(stream(text, options), ['(4,1) size must be at most 5']);
  });

  it('does not expand an alias bomb', () => {
    const bomb = ['a: &a [x, x, x, x, x, x, x, x, x, x]'];
    for (let i = 0; i < 8; i++) {
      const prev = String.fromCharCode(97 + i);
      const next = String.fromCharCode(98 + i);
      bomb.push(
        `${next}: &${next} [*${prev}, *${prev}, *${prev}, *${prev}, *${prev}, *${prev}, *${prev}, *${prev}]`,
      );
    }
    const started = Date.now();
    const lints = stream(bomb.join('\n'));
    assert.ok(Date.now() - started < 2000);
    assert.equal(lints.length, 9);
  });
});

describe('service config lint', () => {
  it('accepts every service section', () => {
    const text = [
      'http:',
      '  address: 0.0.0.0:4195',
      'logger:',
      '  level: debug',
      'metrics:',
      '  prometheus: {}',
      'cache_resources:',
      '  - label: c',
      '    memory: {}',
      'shutdown_timeout: 5s',
    ].join('\n');
    assert.deepEqual(service(text), []);
  });

  it('flags the stream sections in a streams-mode observability file', () => {
    assert.deepEqual(service('input:\n  generate:\n    mapping: root = 1\n', false), [
      '(1,1) field input not recognised',
    ]);
  });

  it('checks logger level options and metrics mapping wrapper key', () => {
    assert.deepEqual(service('logger:\n  level: loud\n'), [
      '(2,1) value loud is not a valid option for this field',
    ]);
    assert.deepEqual(service('metrics:\n  mapping: root = this\n  json_api: {}\n'), []);
  });

  it('reports required fields inside tests entries', () => {
    assert.deepEqual(service('tests:\n  - target_mapping: ""\n'), ['(2,1) field name is required']);
  });
});

describe('single component lint', () => {
  it('lints a resource body of a kind', () => {
    const lints = lintComponentConfig(parseYaml('memory:\n  default_ttl: [1]\n'), 'cache', lintOptions);
    assert.deepEqual(lints.map(formatApiLint), ['(2,1) expected string value']);
  });
});

describe('lint with the real Bloblang parser', () => {
  const realReady = bloblangChecker.checkMapping('root = 1') === undefined;
  it('accepts a valid mapping and reports a broken one on its line', {
    skip: !realReady && 'Bloblang parser not ready',
  }, () => {
    const options = { provider: lintOptions.provider };
    assert.deepEqual(stream('input:\n  generate:\n    mapping: root = deleted()\n', options), []);
    const lints = stream('input:\n  generate:\n    mapping: |\n      root = 1\n      root.x = )(\n', options);
    assert.equal(lints.length, 1);
    assert.match(lints[0]!, /^\(5,1\) field mapping: /);
  });
});
