// Configs are read as the reference's go-yaml reads them: its integer forms, and quoted scalars
// whose lines continue at any indentation. Both parse paths (the fast one and the full one) and
// the sliced reader of API bodies agree.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { registry } from '../../src/components/registry.js';
import { bloblangChecker } from '../../src/config/bloblang_check.js';
import { goYamlNumber } from '../../src/config/go_yaml.js';
import { formatApiLint } from '../../src/config/lint.js';
import { lintServiceConfig } from '../../src/config/lint_config.js';
import { loadConfigText } from '../../src/config/loader.js';
import { schemaProvider } from '../../src/config/schema.js';
import { parseSetOverride } from '../../src/config/set_overrides.js';
import { parseYaml, yamlToValue } from '../../src/config/yaml_document.js';
import { parseYamlSliced } from '../../src/config/yaml_sliced.js';
import { TimeSlicer } from '../../src/engine/time_slicer.js';

const read = (text: string) => yamlToValue(parseYaml(text));

const lint = (text: string) =>
  lintServiceConfig(parseYaml(text), { provider: schemaProvider(registry), bloblang: bloblangChecker }).map(
    formatApiLint,
  );

function errorOf(text: string): string {
  try {
    parseYaml(text);
  } catch (e) {
    return (e as Error).message;
  }
  assert.fail('parsed');
}

describe('numbers as go-yaml resolves them', () => {
  it('reads underscores, signed prefixes, 0b and leading-zero octal as ints', () => {
    const text = 'a: 30_000_000\nb: 0755\nc: -0x1F\nd: 0b101\ne: -0o17\nf: 1_000.5\ng: +5\nh: 1_\ni: 08\n';
    const expected = { a: 30_000_000, b: 493, c: -31, d: 5, e: -15, f: 1000.5, g: 5, h: 1, i: 8 };
    assert.deepEqual(read(text), expected);
    // The same through the full parser (a comment takes the fast path away) and the sliced one.
    assert.deepEqual(read(`# numbers\n${text}`), expected);
  });

  it('leaves strings that are not go-yaml numbers alone', () => {
    assert.deepEqual(read('a: 0x_\nb: _1\nc: "30_000_000"\nd: 1_2_x\ne: 12\nf: 1e3\ng: 0x1F\n'), {
      a: '0x_',
      b: '_1',
      c: '30_000_000',
      d: '1_2_x',
      e: 12,
      f: 1000,
      g: 31,
    });
  });

  it('gives a string field a number scalar as written, as go-yaml decodes it into a Go string', async () => {
    const text =
      'input:\n  generate:\n    mapping: root = {}\n    interval: 0755\n' +
      'output:\n  file:\n    path: 0x1F\n    codec: lines\n' +
      'pipeline:\n  processors:\n    - log:\n        message: 1e3\n    - log:\n        message: 10_000\n';
    // The fast parser, then the full one (a comment takes the fast path away).
    const settings = (c: { config: unknown }) => c.config as Record<string, unknown>;
    for (const written of [text, `# numbers\n${text}`]) {
      const config = (await loadConfigText(written, 'numbers.yaml', { provider: schemaProvider(registry) }))
        .config.stream!;
      assert.equal(settings(config.input).interval, '0755');
      assert.equal(settings(config.output).path, '0x1F');
      const [first, second] = config.pipeline.processors;
      assert.equal(settings(first!).message, '1e3');
      assert.equal(settings(second!).message, '10_000');
    }
    // An int field still gets the number go-yaml resolves.
    const counted = await loadConfigText(
      'input:\n  generate:\n    mapping: root = {}\n    count: 0x1F\noutput:\n  drop: {}\n',
      'count.yaml',
      { provider: schemaProvider(registry) },
    );
    assert.equal(settings(counted.config.stream!.input).count, 31);
  });

  it('follows Go ParseInt and the YAML float pattern', () => {
    assert.equal(goYamlNumber('1__0'), 10);
    assert.equal(goYamlNumber('9223372036854775807'), 9223372036854775807n);
    assert.equal(goYamlNumber('18446744073709551615'), 18446744073709551615n);
    assert.equal(goYamlNumber('0x10000000000000000'), undefined);
    assert.equal(goYamlNumber('99999999999999999999'), 1e20);
    assert.equal(goYamlNumber('abc'), undefined);
  });

  it('lints an underscored count as the int the field wants', () => {
    const config = 'input:\n  generate:\n    count: 30_000_000\n    mapping: root = 1\noutput:\n  drop: {}\n';
    assert.deepEqual(lint(config), []);
    assert.deepEqual(read(config), {
      input: { generate: { count: 30_000_000, mapping: 'root = 1' } },
      output: { drop: {} },
    });
  });
});

describe('--set values as go-yaml reads them', () => {
  it('reads an underscored number as an int', () => {
    assert.equal(parseSetOverride('input.generate.count=30_000_000').value, 30_000_000);
    assert.equal(parseSetOverride('a=0x_').value, '0x_');
  });
});

describe('quoted scalars across lines, as libyaml reads them', () => {
  const text = [
    'pipeline:',
    '  processors:',
    "    - mapping: 'root = this",
    '        .foo',
    "      '",
    '    - mapping: "root = this.bar',
    '    + 1"',
    'output:',
    '  drop: {}',
    '',
  ].join('\n');

  it('accepts a closing line at the key indentation, and lines left of it', async () => {
    const expected = {
      pipeline: { processors: [{ mapping: 'root = this .foo ' }, { mapping: 'root = this.bar + 1' }] },
      output: { drop: {} },
    };
    assert.deepEqual(read(text), expected);
    assert.deepEqual(yamlToValue(await parseYamlSliced(text, new TimeSlicer(0))), expected);
    assert.deepEqual(read("a:\n  b: 'x\n  y'\n  c: 1\n"), { a: { b: 'x y', c: 1 } });
  });

  it('keeps line numbers after such a scalar, and lints the mapping inside it', () => {
    const bad = `${text}  unknown_field: 1\n`.replace('drop: {}', 'drop: {}\n  nonsense: 1');
    assert.match(errorOf(`${text}x: [1,\n`), /^line 10: Flow sequence/);
    assert.ok(
      lint(bad).some((l) => l.startsWith('(10,')),
      lint(bad).join('\n'),
    );
    assert.match(lint(text.replace('.foo', '.foo +')).join('\n'), /^\(3,\d+\) .*expected/);
  });

  it('still refuses an unclosed quote and a document marker inside one', () => {
    assert.match(errorOf("a:\n  b: 'abc\n  def\n"), /Missing closing 'quote/);
    assert.match(errorOf("a:\n  b: 'abc\n---\n  '\n"), /^line 2.*Missing closing 'quote/);
  });
});
