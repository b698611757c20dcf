// The field builders that carry meaning: what they parse for the factory, and what lint says
// about them at the value's line.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseInterpolation, parseMapping } from '../../src/bloblang/index.js';
import { registry } from '../../src/components/registry.js';
import { bloblangChecker } from '../../src/config/bloblang_check.js';
import { formatApiLint } from '../../src/config/lint.js';
import { lintStreamConfig } from '../../src/config/lint_config.js';
import { schemaProvider } from '../../src/config/schema.js';
import { type ConfigOf, type FieldParseContext, field, parseFields } from '../../src/config/spec.js';
import { parseYaml } from '../../src/config/yaml_document.js';
import { Message } from '../../src/message/message.js';

const parseContext: FieldParseContext = {
  mapping: (text) => parseMapping(text),
  interpolation: (text) => parseInterpolation(text),
};

const fields = [
  field.duration('timeout', 'How long to wait.', { default: '5s' }),
  field.duration('period', 'Optional period.', { optional: true }),
  field.interpolated('path', 'Where to write.'),
  field.mapping('check', 'When to flush.', { default: '' }),
  field.enum('mode', 'How.', ['Fast', 'slow'], { default: 'Fast' }),
  field.urlList('urls', 'Where to connect.'),
  field.object('tls', 'TLS.', [
    field.bool('enabled', 'On.', { default: false }),
    field.secret('password', 'P.'),
  ]),
  field.array(field.duration('backoffs', 'Each wait.')),
] as const;

describe('typed field builders', () => {
  it('hand the factory parsed values: ms, compiled interpolations and mappings, options as declared', () => {
    const config: ConfigOf<typeof fields> = parseFields(
      fields,
      {
        timeout: '1.5s',
        // biome-ignore lint/suspicious/noTemplateCurlyInString: a Bloblang interpolation
        path: 'out-${! content() }.txt',
        check: 'root = this.done',
        mode: 'FAST',
        urls: ['nats://a:1, nats://b:2', '', 'nats://c:3'],
        tls: { enabled: true, password: 'x' },
        backoffs: ['1s', '250ms'],
      },
      parseContext,
    );
    assert.equal(config.timeout, 1500);
    assert.equal(config.period, undefined);
    assert.equal(config.path.render([Message.fromStructured('a')], 0), 'out-a.txt');
    assert.ok(config.check);
    assert.equal(config.mode, 'Fast');
    assert.deepEqual(config.urls, ['nats://a:1', 'nats://b:2', 'nats://c:3']);
    assert.deepEqual(config.tls, { enabled: true, password: 'x' });
    assert.deepEqual(config.backoffs, [1000, 250]);
  });

  it('give an empty mapping as undefined and an empty duration as 0', () => {
    const config = parseFields(
      fields,
      { timeout: '', path: 'x', check: '', mode: 'slow', urls: [], tls: {}, backoffs: [] },
      parseContext,
    );
    assert.equal(config.check, undefined);
    assert.equal(config.timeout, 0);
  });

  it('name the nested field of a value that cannot be parsed', () => {
    assert.throws(
      () =>
        parseFields(
          fields,
          { timeout: '1s', path: 'x', urls: [], tls: {}, backoffs: ['1s', 'soon'] },
          parseContext,
        ),
      /backoffs\.1: .*soon/,
    );
  });
});

describe('lint of typed fields', () => {
  const lint = (text: string) =>
    lintStreamConfig(parseYaml(text), { provider: schemaProvider(registry), bloblang: bloblangChecker }).map(
      formatApiLint,
    );

  it('reports a bad duration at its line, not at start', () => {
    const lints = lint(
      'input:\n  generate:\n    mapping: root = 1\noutput:\n  redis_list:\n    url: redis://localhost:6379\n    key: k\n    batching:\n      count: 2\n      period: 2 seconds\n',
    );
    assert.equal(lints.length, 1);
    assert.match(lints[0] ?? '', /^\(10,1\) field period: invalid duration "2 seconds"/);
  });

  it('leaves an interpolated duration to run time, but checks a static one', () => {
    const base =
      'input:\n  generate:\n    mapping: root = 1\npipeline:\n  processors:\n    - sleep:\n        duration: ';
    assert.deepEqual(lint(`${base}'\${! @delay }'\noutput:\n  drop: {}\n`), []);
    assert.match(
      lint(`${base}5x\noutput:\n  drop: {}\n`)[0] ?? '',
      /^\(7,1\) field duration: invalid duration "5x"/,
    );
  });
});
