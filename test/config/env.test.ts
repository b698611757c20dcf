// biome-ignore-all lint/suspicious/noTemplateCurlyInString: config text with ${ENV} references, not templates
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseEnvFile } from '../../src/config/env_file.js';
import { envLookup, interpolateEnv, missingEnvMessage } from '../../src/config/env_interpolation.js';

const lookup = envLookup({
  EMPTY: '',
  'DOTTED.NAME': 'dotted',
  MULTI: 'line one\nline two',
  B64: 'Zm9vYmFy',
  NEKTON_T: 'root.meow = 5',
});
const sub = (text: string) => interpolateEnv(text, lookup);

describe('env interpolation', () => {
  it('substitutes defined variables, including empty and dotted names', () => {
    assert.equal(sub('a ${NEKTON_T} b').text, 'a root.meow = 5 b');
    assert.equal(sub('a ${EMPTY} b').text, 'a  b');
    assert.equal(sub('${DOTTED.NAME}').text, 'dotted');
  });

  it('uses the default when the variable is undefined or empty', () => {
    assert.equal(sub('${NOPE:root = deleted()}').text, 'root = deleted()');
    assert.equal(sub('${EMPTY:fallback}').text, 'fallback');
    assert.equal(sub('${DOTTED.NAME:fallback}').text, 'dotted');
    assert.equal(sub('x ${NOPE:tcp://*:2020} y').text, 'x tcp://*:2020 y');
    assert.equal(sub('${NOPE::}').text, ':');
    assert.equal(sub('${NOPE:}').text, '');
  });

  it('does not re-expand ${...} chunks inside a default', () => {
    assert.equal(sub('${NOPE:${DOTTED.NAME}}').text, '${DOTTED.NAME}');
    assert.equal(sub('${NOPE:${!meta("a")}-x}').text, '${!meta("a")}-x');
  });

  it('writes newlines in values as \\n', () => {
    assert.equal(sub('v: ${MULTI}').text, 'v: line one\\nline two');
  });

  it('decodes base64 with or without a default, and rejects unknown functions', () => {
    assert.equal(sub('${B64|base64decode}').text, 'foobar');
    assert.equal(sub('${NOPE:Zm9vYmFy|base64decode}').text, 'foobar');
    assert.equal(sub('${B64:foo|bar|base64decode}').text, 'foobar');
    assert.deepEqual(sub('${B64|lolwut}').errors, ['unknown env var decode function: lolwut']);
    assert.deepEqual(sub('${NOPE:|kaboom|base64decode}').errors, [
      'failed to decode base64-encoded env var: illegal base64 data at input byte 0',
    ]);
  });

  it('honours the ${{...}} escape and leaves ${! } interpolations alone', () => {
    assert.equal(sub('x: "${{NEKTON_T}}"').text, 'x: "${NEKTON_T}"');
    assert.equal(sub('${{NOPE:bar}}').text, '${NOPE:bar}');
    assert.equal(sub('key: ${! json("id") }').text, 'key: ${! json("id") }');
    assert.equal(sub('${}').text, '${}');
  });

  it('collects missing variables in order and replaces them with ""', () => {
    const result = sub('a ${NOPE_A} b ${NOPE_B} c');
    assert.deepEqual(result.missing, ['NOPE_A', 'NOPE_B']);
    assert.equal(result.text, 'a  b  c');
    assert.equal(
      missingEnvMessage(result.missing),
      'required environment variables were not set: [NOPE_A NOPE_B]',
    );
  });
});

describe('env files', () => {
  it('reads KEY=VALUE lines with quotes, comments and export', () => {
    const vars = parseEnvFile(
      [
        '# comment',
        'PLAIN=value # trailing comment',
        'export EXPORTED=yes',
        "SINGLE='a # not a comment'",
        'DOUBLE="line\\nbreak"',
        'MULTI="first',
        'second"',
        '',
        'EMPTY=',
      ].join('\n'),
    );
    assert.deepEqual(vars, {
      PLAIN: 'value',
      EXPORTED: 'yes',
      SINGLE: 'a # not a comment',
      DOUBLE: 'line\nbreak',
      MULTI: 'first\nsecond',
      EMPTY: '',
    });
  });

  it('rejects a line that is not an assignment', () => {
    assert.throws(() => parseEnvFile('JUST TEXT', 'x.env'), /x\.env: line 1: expected KEY=VALUE/);
  });
});
