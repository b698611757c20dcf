// Mappings that are one query (shorthand for `root = <query>`) where the first word could also
// start a statement: an if expression, and a query starting with `meta("k")` (`check` fields).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { BloblangParseError, parseMapping } from '../../src/bloblang/index.js';
import { Message } from '../../src/message/message.js';

function out(mapping: string, input: string, meta?: Record<string, unknown>): string {
  const msg = new Message(input, meta ? new Map(Object.entries(meta)) : undefined);
  const res = parseMapping(mapping).apply([msg], 0);
  assert.ok(res, 'message was deleted');
  return res.text();
}

function parseErr(mapping: string): string {
  try {
    parseMapping(mapping);
  } catch (e) {
    assert.ok(e instanceof BloblangParseError, `not a parse error: ${e}`);
    return e.message;
  }
  assert.fail('mapping parsed');
}

describe('a mapping that is a single if expression', () => {
  test('evaluates to the value of the branch taken', () => {
    const m = 'if this.a == 1 { "one" } else if this.a == 2 { "two" } else { "many" }';
    assert.equal(out(m, '{"a":1}'), 'one');
    assert.equal(out(m, '{"a":2}'), 'two');
    assert.equal(out(m, '{"a":7}'), 'many');
  });

  test('spans lines and may follow comments', () => {
    const m = '# pick one\nif this.ok {\n  this.value.uppercase()\n} else {\n  deleted()\n}\n';
    assert.equal(out(m, '{"ok":true,"value":"x"}'), 'X');
    assert.equal(parseMapping(m).apply([new Message('{"ok":false}')], 0), null);
    // While an if statement with assignments still reads as a statement.
    const statement = 'if this.a == 1 {\n  root.x = "one"\n} else {\n  root.y = "other"\n}';
    assert.equal(out(statement, '{"a":1}'), '{"x":"one"}');
    assert.equal(out(statement, '{"a":2}'), '{"y":"other"}');
    assert.equal(out('if this.a == 1 {\n  root = "one"\n}\nroot.b = 2', '{"a":1}'), '{"b":2}');
  });

  test('cannot be followed by assignments, and keeps the error that got further', () => {
    assert.match(
      parseErr('if this.a { 1 } else { 2 }\nroot.b = 3'),
      /line 2 char 1: expected the mapping to end here as the beginning is shorthand for `root = if this.a {/,
    );
    assert.match(parseErr('if this.a {\n  root.x = 1\n  nonsense here\n}'), /^line 3 /);
  });
});

describe('a mapping that starts with meta("k")', () => {
  test('is a query, as in check and switch fields', () => {
    assert.equal(out('meta("op") == "insert"', '{}', { op: 'insert' }), 'true');
    assert.equal(out('meta("op") == "insert"', '{}', { op: 'delete' }), 'false');
    assert.equal(out('meta("op").or("none").uppercase()', '{}'), 'NONE');
    // While meta assignments, with or without a key, and a field named meta still parse.
    const m = 'meta foo = "a"\nmeta "bar" = "b"\nroot = [@foo, @bar]';
    assert.equal(out(m, '{}'), '["a","b"]');
    assert.equal(out('meta = {"k": "v"}\nroot = @k', '{}'), 'v');
    assert.equal(out('root.meta.x = 1', '{}'), '{"meta":{"x":1}}');
  });
});
