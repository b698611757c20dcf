// Reading a template file: lints at their lines against the reference's template fields, values
// with defaults, and the problems that keep a template from compiling, named by file and line.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compileTemplate } from '../../src/templates/compiled_template.js';
import { readTemplateText } from '../../src/templates/template_file.js';

const lintsOf = (text: string) =>
  readTemplateText(text, 't.yaml').lints.map((l) => `(${l.line}) ${l.message}`);

describe('template files', () => {
  it('reads the fields and fills the defaults of an unlinted template', () => {
    const read = readTemplateText(
      'name: x\ntype: processor\nfields:\n  - name: a\n    type: int\n    default: 3\nmapping: root.noop = {}\n',
      't.yaml',
    );
    assert.deepEqual(read.lints, []);
    const { config } = read;
    assert.equal(config.status, 'stable');
    assert.deepEqual(config.tests, []);
    assert.equal(config.metricsMapping, '');
    assert.deepEqual(config.fields, [
      { name: 'a', description: '', type: 'int', kind: 'scalar', advanced: false, default: 3, line: 4 },
    ]);
  });

  it('reports unknown keys, bad options, wrong types and missing fields at their lines', () => {
    const text = [
      'name: x',
      'type: pipeline',
      'fields:',
      '  - name: a',
      '    type: number',
      '    colour: red',
      'tests: {}',
    ].join('\n');
    assert.deepEqual(lintsOf(text), [
      '(2) value pipeline is not a valid option for this field',
      '(5) value number is not a valid option for this field',
      '(6) field colour not recognised',
      '(7) expected array value',
      '(1) field mapping is required',
    ]);
  });

  it('reports a mapping that does not parse at its line', () => {
    // The mapping's line 2 is the file's line 5: the block starts on line 4.
    assert.deepEqual(lintsOf('name: x\ntype: processor\nmapping: |\n  root = this.(\n'), [
      '(5) field mapping: line 2 char 1: required: expected query',
    ]);
  });
});

describe('compiling a template', () => {
  const compile = (text: string) => () => compileTemplate(readTemplateText(text, 'dir/t.yaml').config);

  it('refuses a field without a type, naming the file, line and field', () => {
    assert.throws(
      compile('name: x\ntype: cache\nfields:\n  - name: a\nmapping: root.memory = {}\n'),
      /^ConfigError: template dir\/t\.yaml\(4,1\) field 0: missing type field$/,
    );
  });

  it('refuses bad enum options and unknown kinds', () => {
    const field = (body: string) =>
      `name: x\ntype: cache\nfields:\n  - name: a\n${body}\nmapping: root.memory = {}\n`;
    assert.throws(
      compile(field('    type: string_enum\n    options: []')),
      /at least one option must be provided/,
    );
    assert.throws(
      compile(field('    type: string_enum\n    options: [a, a]')),
      /duplicate options are not allowed/,
    );
    assert.throws(
      compile(field('    type: string_annotated_enum\n    options: [a]')),
      /expected options to be an object/,
    );
    assert.throws(compile(field('    type: int\n    kind: tree')), /unrecognised kind: tree/);
  });

  it('refuses a kind that cannot be templated and a mapping that does not parse', () => {
    assert.throws(compile('name: x\ntype: buffer\nmapping: root = {}\n'), /component type 'buffer'/);
    assert.throws(compile('name: x\ntype: cache\n\nmapping: root = (\n'), /t\.yaml\(4,1\) parse mapping: /);
  });

  it('turns fields into specs: enums, annotated enums, lists, maps, bloblang and defaults', () => {
    const template = compile(
      [
        'name: x',
        'type: processor',
        'fields:',
        '  - {name: e, type: string_enum, options: [b, a]}',
        '  - {name: n, type: string_annotated_enum, options: {z: last, y: first}}',
        '  - {name: l, type: string, kind: list, default: [q]}',
        '  - {name: m, type: float, kind: map, advanced: true}',
        '  - {name: b, type: bloblang}',
        'mapping: root.noop = {}',
      ].join('\n'),
    )();
    assert.deepEqual(
      template.fields.map((f) => [f.name, f.type, f.kind, f.options ?? null, f.default ?? null]),
      [
        ['e', 'string', 'scalar', ['a', 'b'], null],
        ['n', 'string', 'scalar', ['y', 'z'], null],
        ['l', 'string', 'array', null, ['q']],
        ['m', 'float', 'map', null, null],
        ['b', 'string', 'scalar', null, null],
      ],
    );
    assert.equal(template.fields[3]!.advanced, true);
    assert.equal(template.fields[4]!.bloblang, true);
  });
});
