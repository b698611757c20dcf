// biome-ignore-all lint/suspicious/noTemplateCurlyInString: interpolation syntax is the subject of these tests
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BloblangParseError, parseInterpolation } from '../../src/bloblang/index.js';
import { Message } from '../../src/message/message.js';

test('static text is static', () => {
  const i = parseInterpolation('plain $ text');
  assert.equal(i.isStatic, true);
  assert.equal(i.render([], 0), 'plain $ text');
});

test('queries render with the string rules', () => {
  const i = parseInterpolation('id=${! json("id") } meta=${! @k } n=${! 1 + 2 } obj=${! this.o }');
  assert.equal(i.isStatic, false);
  const msg = new Message('{"id":"x","o":{"b":1}}', new Map([['k', 'v']]));
  assert.equal(i.render([msg], 0), 'id=x meta=v n=3 obj={"b":1}');
});

test('braces inside queries and escapes', () => {
  assert.equal(parseInterpolation('${! {"a": "}"}.a }').render([new Message('')], 0), '}');
  assert.equal(parseInterpolation('${{!not evaluated}}').render([], 0), '${!not evaluated}');
});

test('parse errors carry positions in the whole text', () => {
  assert.throws(
    () => parseInterpolation('foo ${!json(} bar'),
    (e: unknown) =>
      e instanceof BloblangParseError && e.message.includes('char 13: required: expected function argument'),
  );
});
