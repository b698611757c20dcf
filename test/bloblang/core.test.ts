// Behaviour of the language core (parser, compiler, processor semantics) without the catalogue.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { BloblangParseError, MappingError, parseMapping } from '../../src/bloblang/index.js';
import { Message } from '../../src/message/message.js';

function run(mapping: string, input: string, meta?: Record<string, unknown>): Message | null {
  const msg = new Message(input, meta ? new Map(Object.entries(meta)) : undefined);
  return parseMapping(mapping).apply([msg], 0);
}

function out(mapping: string, input = '{}'): string {
  const res = run(mapping, input);
  assert.ok(res, 'message was deleted');
  return res.text();
}

function execError(mapping: string, input = '{}'): string {
  try {
    run(mapping, input);
  } catch (e) {
    assert.ok(e instanceof MappingError, `not a MappingError: ${e}`);
    return e.message;
  }
  assert.fail('mapping did not fail');
}

function parseErr(mapping: string): BloblangParseError {
  try {
    parseMapping(mapping);
  } catch (e) {
    assert.ok(e instanceof BloblangParseError, `not a parse error: ${e}`);
    return e;
  }
  assert.fail('mapping parsed');
}

describe('assignments and paths', () => {
  test('builds a new document from this', () => {
    assert.equal(
      out('root.a = this.x\nroot.b.c = this.y.z', '{"x":1,"y":{"z":"q"}}'),
      '{"a":1,"b":{"c":"q"}}',
    );
  });
  test('bare paths read this and write root', () => {
    assert.equal(out('foo = foo + 2\nbar = "x"', '{"foo":10}'), '{"bar":"x","foo":12}');
  });
  test('quoted path segments', () => {
    assert.equal(out('root."a.b".c = this."x.y"', '{"x.y":5}'), '{"a.b":{"c":5}}');
  });
  test('root never assigned keeps the payload', () => {
    assert.equal(out('let x = 5', 'not json at all'), 'not json at all');
  });
  test('string root becomes the raw payload', () => {
    assert.equal(out('root = "hello"'), 'hello');
  });
  test('deleted() drops fields and the message', () => {
    assert.equal(out('root = this\nroot.b = deleted()', '{"a":1,"b":2}'), '{"a":1}');
    assert.equal(run('root = deleted()', '{}'), null);
  });
  test('reading root snapshots it', () => {
    assert.equal(
      out('root = this\nroot.first = root\nroot.second = root', '{"foo":"bar"}'),
      '{"first":{"foo":"bar"},"foo":"bar","second":{"first":{"foo":"bar"},"foo":"bar"}}',
    );
  });
  test('a root replaced after field assignments is copied before it is edited', () => {
    // The first assignment makes the root object; `root = this` replaces it with the input
    // document, which the later assignments must not edit in place.
    const doc = { x: 1 };
    const result = parseMapping('root.a = 1\nroot = this\nroot.b = 2\nroot.a = deleted()').apply(
      [Message.fromStructured(doc)],
      0,
    );
    assert.equal(result?.text(), '{"b":2,"x":1}');
    assert.deepEqual(doc, { x: 1 });
    assert.equal(out('root.a = 1\nroot.b = root\nroot.a = 3'), '{"a":3,"b":{"a":1}}');
  });
  test('missing fields read as null', () => {
    assert.equal(out('root.a = this.nope.deeper', '{"x":1}'), '{"a":null}');
  });
  test('prototype names are ordinary keys', () => {
    assert.equal(out('root.a = this.constructor\nroot.b = this.toString', '{}'), '{"a":null,"b":null}');
    assert.equal(out('root.c = this.constructor', '{"constructor":3}'), '{"c":3}');
  });
  test('numeric path segments index arrays', () => {
    assert.equal(out('root = this.a.1', '{"a":[1,2,3]}'), '2');
  });
  test('shorthand single query', () => {
    assert.equal(out('this.foo + this.bar', '{"foo":5,"bar":3}'), '8');
  });
});

describe('operators', () => {
  test('integer arithmetic stays integer and division is float', () => {
    assert.equal(out('root = [4 / 2, 5 / 2, 7 % 3, 2 * 3, 10 - 20]'), '[2,2.5,1,6,-10]');
  });
  test('precedence and unary operators', () => {
    assert.equal(out('root = [1 + 2 * 3, -2 + 5, !false && true, 1 < 2 == true]'), '[7,3,true,true]');
  });
  test('string concatenation and comparisons', () => {
    assert.equal(
      out('root = ["a" + "b", "a" < "b", 1 == 1.0, [1] == [1], {"a":1} != {"a":2}]'),
      '["ab",true,true,true,true]',
    );
  });
  test('big integers survive arithmetic exactly', () => {
    assert.equal(
      out('root.id = this.id\nroot.next = this.id + 1', '{"id":9007199254740993}'),
      '{"id":9007199254740993,"next":9007199254740994}',
    );
  });
  test('type errors name their operands', () => {
    assert.match(
      execError('root = this.a + this.b', '{"a":1,"b":"x"}'),
      /^failed assignment \(line 1\): cannot add types number \(from field `this.a`\) and string \(from field `this.b`\)/,
    );
  });
  test('constant errors are reported at parse time', () => {
    assert.match(parseErr('root = 5 + "x"').message, /cannot add types number \(from number literal\)/);
  });
  test('division by zero fails', () => {
    assert.match(execError('root = this.a / 0', '{"a":1}'), /divide by zero/);
  });
  test('coalescing pipe', () => {
    assert.equal(out('root = this.a | this.b | "c"', '{"b":null}'), 'c');
    assert.equal(out('root = this.(a | b)', '{"b":2}'), '2');
  });
});

describe('control flow', () => {
  test('if expressions and statements', () => {
    assert.equal(out('root.a = if this.x > 1 { "big" } else { "small" }', '{"x":3}'), '{"a":"big"}');
    assert.equal(out('root.a = if this.x > 5 { "big" }\nroot.b = 1', '{"x":3}'), '{"b":1}');
    assert.equal(
      out(
        'if this.x == 3 {\n  root.a = 1\n} else if this.x == 4 {\n  root.b = 2\n} else {\n  root.c = 3\n}',
        '{"x":4}',
      ),
      '{"b":2}',
    );
  });
  test('match with literals, conditions and default', () => {
    const m = 'root = match this.v {\n  "a" => 1\n  this.length == 0 => 2\n  _ => 3\n}';
    assert.equal(out(m, '{"v":"a"}'), '1');
    assert.equal(out('root = match this.v { this > 10 => "big", _ => "small" }', '{"v":20}'), 'big');
    assert.equal(out('root = match { this.a == 1 => "one", _ => "other" }', '{"a":1}'), 'one');
  });
  test('variables', () => {
    assert.equal(out('let x = this.a\nroot.b = $x + 1', '{"a":1}'), '{"b":2}');
    assert.match(execError('root = $nope'), /variable 'nope' undefined/);
  });
  test('named maps', () => {
    const m = 'map inc {\n  root.v = this.v + 1\n}\nroot = this.apply("inc")';
    assert.equal(out(m, '{"v":1}'), '{"v":2}');
  });
  test('context captures and lambdas', () => {
    assert.equal(out('root = this.a.(x -> x.b + x.c)', '{"a":{"b":1,"c":2}}'), '3');
    assert.equal(out('root = this.a.(b + c)', '{"a":{"b":1,"c":2}}'), '3');
  });
  test('catch and or', () => {
    assert.equal(out('root = (this.a + 1).catch(0)', '{"a":"x"}'), '0');
    assert.equal(out('root = this.a.or("d")', '{}'), 'd');
    assert.equal(out('root = throw("boom").catch("caught")'), 'caught');
  });
  test('throw fails the mapping with its message', () => {
    assert.equal(execError('root = throw("nope")'), 'failed assignment (line 1): nope');
  });
});

describe('metadata', () => {
  test('meta assignments and @ reads', () => {
    const res = run('meta out = "x"\nroot.a = @in\nroot.b = meta("in")\nroot.all = @', '{}', { in: 'v' });
    assert.ok(res);
    assert.equal(res.getMeta('out'), 'x');
    assert.equal(res.text(), '{"a":"v","all":{"in":"v","out":"x"},"b":"v"}');
  });
  test('meta = deleted() clears and does not touch the input', () => {
    const input = new Message('{}', new Map([['k', 'v']]));
    const res = parseMapping('meta = deleted()').apply([input], 0);
    assert.equal(res?.metadata().size, 0);
    assert.equal(input.getMeta('k'), 'v');
  });
  test('meta is not allowed in maps', () => {
    assert.match(parseErr('map foo {\n  meta foo = "bar"\n}').message, /line 2 char 3: setting meta fields/);
  });
});

describe('mutation and query', () => {
  test('mutation edits a copy of the input', () => {
    const input = new Message('{"a":{"b":1},"c":2}');
    const before = input.structured();
    const res = parseMapping('root.a.b = 5\nroot.d = 1').applyMutation([input], 0);
    assert.equal(res?.text(), '{"a":{"b":5},"c":2,"d":1}');
    assert.deepEqual(before, { a: { b: 1 }, c: 2 });
    assert.equal(input.text(), '{"a":{"b":1},"c":2}');
  });
  test('mapping does not mutate a shared input structure', () => {
    const input = Message.fromStructured({ a: { b: 1 } });
    parseMapping('root = this\nroot.a.b = 2').apply([input], 0);
    assert.deepEqual(input.structured(), { a: { b: 1 } });
  });
  test('query returns the root value', () => {
    assert.equal(parseMapping('this.type == "foo"').query([new Message('{"type":"foo"}')], 0), true);
  });
  test('this on non-JSON input fails with the reference text', () => {
    assert.match(execError('root = this.a', 'hello'), /invalid character 'h' looking for beginning of value/);
  });
});

describe('parse errors', () => {
  test('positions and messages follow the reference', () => {
    const e = parseErr('foo = bar bar = baz');
    assert.equal(e.message, 'line 1 char 11: expected line break');
    assert.equal(e.line, 1);
    assert.equal(e.column, 11);
    assert.equal(parseErr('foo wat bar').message, 'line 1 char 5: expected =');
    assert.equal(parseErr('# only a comment').message, 'line 1 char 1: expected import, map, or assignment');
    assert.match(parseErr('root = nope_fn()').message, /unrecognised function 'nope_fn'/);
  });
  test('deep nesting is refused instead of overflowing the stack', () => {
    const deep = `root = ${'('.repeat(5000)}1${')'.repeat(5000)}`;
    assert.match(parseErr(deep).message, /nested too deeply/);
  });
});

describe('counter()', () => {
  test('each counter() written in a mapping counts on its own, across messages', () => {
    const mapping = parseMapping('root.a = counter()\nroot.b = counter()\nroot.c = counter(min: 10)');
    const first = mapping.apply([new Message('{}')], 0);
    const second = mapping.apply([new Message('{}')], 0);
    assert.equal(first?.text(), '{"a":1,"b":1,"c":10}');
    assert.equal(second?.text(), '{"a":2,"b":2,"c":11}');
  });
});
