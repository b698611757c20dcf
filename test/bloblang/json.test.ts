// Message JSON: exact big integers, Go-style output, and the fast path staying JSON.parse.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseMapping } from '../../src/bloblang/index.js';
import { toJson, valueToString } from '../../src/bloblang/value.js';
import { parseJson, stringifyJson } from '../../src/message/json.js';
import { Message } from '../../src/message/message.js';

test('integers beyond 2^53 parse as bigint and print exactly', () => {
  const doc = parseJson('{"id":9007199254740993,"small":1,"f":1.5,"neg":-12345678901234567890}') as Record<
    string,
    unknown
  >;
  assert.equal(doc.id, 9007199254740993n);
  assert.equal(doc.small, 1);
  assert.equal(doc.f, 1.5);
  assert.equal(stringifyJson(doc), '{"f":1.5,"id":9007199254740993,"neg":-12345678901234567890,"small":1}');
});

test('the exact parser handles strings, nesting and __proto__ keys', () => {
  const doc = parseJson(
    '{"__proto__":{"x":1},"s":"a\\"b\\u00e9","arr":[true,false,null,{"n":12345678901234567}]}',
  );
  assert.equal(Object.getPrototypeOf(doc), Object.prototype);
  assert.deepEqual(Object.keys(doc as object), ['__proto__', 's', 'arr']);
  assert.equal((doc as Record<string, unknown>).s, 'a"bé');
  assert.throws(() => parseJson('{"a":12345678901234567'), SyntaxError);
});

test('a mapping passes big ids through untouched', () => {
  const res = parseMapping('root.id = this.id\nroot.n = this.n / 2').apply(
    [new Message('{"id":9007199254740993,"n":4}')],
    0,
  );
  assert.equal(res?.text(), '{"id":9007199254740993,"n":2}');
});

test('Go formatting: sorted keys, no HTML escaping, exponents', () => {
  assert.equal(toJson({ b: '<&>', a: 1e21, c: 5e-7, d: [0.1] }), '{"a":1e+21,"b":"<&>","c":5e-7,"d":[0.1]}');
  assert.equal(toJson('\u2028'), '"\\u2028"');
  assert.equal(valueToString(12), '12');
  assert.equal(valueToString({ a: [1, 'x'] }), '{"a":[1,"x"]}');
});

test('keys sort by UTF-16 code unit at every size, as Go sorts them for these keys', () => {
  // Reverse order, shared prefixes, upper case before lower, non-ASCII last; small objects take
  // the insertion sort, larger ones Array.prototype.sort: both must give the same order.
  const small = Object.fromEntries(
    ['zeta', 'Zeta', 'a', 'ab', 'aa', '\u00e9', '_', '10', '9', 'b'].map((k, i) => [k, i]),
  );
  const order = (text: string) => [...text.matchAll(/"([^"]+)":/g)].map((m) => m[1]);
  assert.deepEqual(order(toJson(small)), ['10', '9', 'Zeta', '_', 'a', 'aa', 'ab', 'b', 'zeta', '\u00e9']);
  const many = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`k${(i * 7) % 40}`, i]));
  assert.deepEqual(order(toJson(many)), Object.keys(many).sort());
  const words = { pear: 1, apple: 2, fig: 3, Banana: 4, cherry: 5 };
  assert.equal(toJson(words), '{"Banana":4,"apple":2,"cherry":5,"fig":3,"pear":1}');
});

test('values nest up to 10,000 levels (the reference limit); deeper is an error, not a stack overflow', () => {
  let v: unknown = 1;
  for (let i = 0; i < 10_000; i++) v = [v];
  assert.equal(toJson(v), `${'['.repeat(10_000)}1${']'.repeat(10_000)}`);
  assert.throws(() => toJson([v]), /nested deeper than 10000 levels/);
});
