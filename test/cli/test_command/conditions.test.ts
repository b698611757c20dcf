// Each output condition of a config unit test passes on a matching message and fails, saying
// why, on one that does not.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { buildConditions } from '../../../src/cli/test_command/conditions.js';
import { PLAIN } from '../../../src/cli/test_command/style.js';
import { Message } from '../../../src/message/message.js';
import { tempDir } from '../../helpers/cli.js';

function check(spec: Record<string, unknown>, msg: Message, dir = '.'): (string | undefined)[] {
  return buildConditions(spec, dir, PLAIN).map((c) => c.check(msg));
}

function message(content: string, meta: Record<string, unknown> = {}): Message {
  const msg = new Message(content);
  for (const [k, v] of Object.entries(meta)) msg.setMeta(k, v);
  return msg;
}

describe('config unit test conditions', () => {
  it('bloblang: true passes; false, a non-boolean or a failed query fails', () => {
    const msg = message('{"age":12}', { foo: 'x' });
    assert.deepEqual(check({ bloblang: 'this.age > 10 && @foo.length() > 0' }, msg), [undefined]);
    assert.deepEqual(check({ bloblang: 'this.age > 20' }, msg), ['bloblang expression was false']);
    assert.match(check({ bloblang: 'this.age' }, msg)[0] ?? '', /expected bool value, got number/);
    assert.match(check({ bloblang: 'this.nope.uppercase()' }, msg)[0] ?? '', /\w/);
    assert.throws(() => check({ bloblang: 'this.age >' }, msg), /bloblang:/);
  });

  it('bloblang reads the error a processor left on the message', () => {
    const msg = message('x');
    msg.error = new Error('boom');
    assert.deepEqual(check({ bloblang: 'errored() && error() == "boom"' }, msg), [undefined]);
  });

  it('content_equals compares the raw content, with a line diff for multi-line text', () => {
    assert.deepEqual(check({ content_equals: 'hello' }, message('hello')), [undefined]);
    assert.deepEqual(check({ content_equals: 1 }, message('1')), [undefined]);
    assert.equal(
      check({ content_equals: 'hello' }, message('world'))[0],
      'content mismatch\n  expected: hello\n  received: world',
    );
    assert.match(
      check({ content_equals: 'x\n' }, message('x'))[0] ?? '',
      /they differ in trailing whitespace: expected "x\\n", received "x"/,
    );
    const multi = check({ content_equals: 'a\nb\nc' }, message('a\nB\nc'))[0] ?? '';
    assert.match(multi, /--- expected\n\+\+\+ received\n {2}a\n- b\n\+ B\n {2}c/);
  });

  it('content_matches searches the content with a regular expression', () => {
    assert.deepEqual(
      check({ content_matches: 'unknown field "contains"$' }, message('error: unknown field "contains"')),
      [undefined],
    );
    assert.deepEqual(check({ content_matches: '(?i)^HELLO' }, message('hello there')), [undefined]);
    assert.equal(
      check({ content_matches: '^foo [a-z]+ bar$' }, message('foo 123 bar'))[0],
      'pattern mismatch\n   pattern: ^foo [a-z]+ bar$\n  received: foo 123 bar',
    );
  });

  it('metadata_equals compares values loosely (numbers by value, structures deeply)', () => {
    const msg = message('x', { a: 'hello', n: 5, s: { b: [1, { c: 'd' }] } });
    assert.deepEqual(check({ metadata_equals: { a: 'hello', n: 5.0, s: { b: [1, { c: 'd' }] } } }, msg), [
      undefined,
    ]);
    assert.equal(
      check({ metadata_equals: { missing: 'x' } }, msg)[0],
      "metadata key 'missing' expected but not found",
    );
    assert.equal(
      check({ metadata_equals: { a: 'bye' } }, msg)[0],
      "metadata key 'a' mismatch\n  expected: bye\n  received: hello",
    );
    assert.match(check({ metadata_equals: { s: { b: [1] } } }, msg)[0] ?? '', /metadata key 's' mismatch/);
  });

  it('json_equals ignores key order and formatting, and shows a diff of the documents', () => {
    const msg = message('{"b":1,"a":[1,2]}');
    assert.deepEqual(check({ json_equals: { a: [1, 2], b: 1.0 } }, msg), [undefined]);
    assert.deepEqual(check({ json_equals: '{ "a": [1,2], "b": 1 }' }, msg), [undefined]);
    const failed = check({ json_equals: { a: [1, 2], b: 2 } }, msg)[0] ?? '';
    assert.match(failed, /^JSON content mismatch\n--- expected\n\+\+\+ received\n/);
    assert.match(failed, /- {3}"b": 2\n\+ {3}"b": 1/);
    assert.match(check({ json_equals: { a: [1, 2] } }, msg)[0] ?? '', /\+ {3}"b": 1/);
    assert.match(check({ json_equals: { a: 1 } }, message('not json'))[0] ?? '', /message is not valid JSON/);
  });

  it('json_contains passes for a superset (extra keys, extra trailing items) and fails otherwise', () => {
    const msg = message('{"resource":{"host.id":"aaa","cloud":"aws"},"list":[1,2,3],"x":true}');
    assert.deepEqual(check({ json_contains: { resource: { 'host.id': 'aaa' }, list: [1, 2] } }, msg), [
      undefined,
    ]);
    const failed = check({ json_contains: { resource: { 'host.id': 'bbb' } } }, msg)[0] ?? '';
    assert.match(failed, /^JSON superset mismatch\n/);
    assert.match(failed, /- {5}"host.id": "bbb"\n\+ {5}"host.id": "aaa"/);
    assert.doesNotMatch(failed, /cloud/, 'the diff shows only what the condition names');
    assert.match(check({ json_contains: { list: [1, 2, 3, 4] } }, msg)[0] ?? '', /JSON superset mismatch/);
  });

  it('json_schema (nekton) validates the message against a schema', () => {
    const schema = { type: 'object', required: ['id'], properties: { id: { type: 'string' } } };
    assert.deepEqual(check({ json_schema: schema }, message('{"id":"a"}')), [undefined]);
    assert.match(check({ json_schema: schema }, message('{"id":1}'))[0] ?? '', /^JSON schema mismatch: /);
    assert.match(check({ json_schema: JSON.stringify(schema) }, message('{}'))[0] ?? '', /id/);
  });

  it('file_equals, file_json_equals and file_json_contains read the expectation from a file', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'out.txt'), 'HELLO\n');
    writeFileSync(join(dir, 'out.json'), '{"a": 1, "b": {"c": 2}}');
    assert.deepEqual(check({ file_equals: './out.txt' }, message('HELLO\n'), dir), [undefined]);
    assert.match(check({ file_equals: './out.txt' }, message('hello\n'), dir)[0] ?? '', /content mismatch/);
    assert.match(
      check({ file_equals: './nope.txt' }, message('x'), dir)[0] ?? '',
      /failed to read comparison file/,
    );
    assert.deepEqual(check({ file_json_equals: 'out.json' }, message('{"b":{"c":2},"a":1}'), dir), [
      undefined,
    ]);
    assert.match(
      check({ file_json_equals: 'out.json' }, message('{"a":1}'), dir)[0] ?? '',
      /JSON content mismatch/,
    );
    assert.deepEqual(
      check({ file_json_contains: 'out.json' }, message('{"b":{"c":2,"d":3},"a":1,"e":0}'), dir),
      [undefined],
    );
    assert.match(
      check({ file_json_contains: 'out.json' }, message('{"a":1,"b":{}}'), dir)[0] ?? '',
      /superset mismatch/,
    );
  });

  it('runs several conditions of one message in name order and rejects unknown ones', () => {
    const conditions = buildConditions(
      { metadata_equals: {}, content_equals: 'x', bloblang: 'true' },
      '.',
      PLAIN,
    );
    assert.deepEqual(
      conditions.map((c) => c.name),
      ['bloblang', 'content_equals', 'metadata_equals'],
    );
    assert.throws(
      () => buildConditions({ content_is: 'x' }, '.', PLAIN),
      /unknown output condition 'content_is'/,
    );
  });
});
