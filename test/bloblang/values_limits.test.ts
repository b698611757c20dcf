// Values the reference keeps or refuses: JSON numbers a float64 cannot hold, results JSON cannot
// carry, timestamps from huge numbers, and the bounds on what a mapping may allocate.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseMapping } from '../../src/bloblang/index.js';
import { Message } from '../../src/message/message.js';

function run(mapping: string, input = '{}'): string {
  const res = parseMapping(mapping).apply([new Message(input)], 0);
  assert.ok(res);
  return res.text();
}

describe('JSON numbers kept as written', () => {
  const doc = '{"id":2,"a":1e400}';

  it('pass through a mapping with the same digits', () => {
    assert.equal(run('root = this', doc), '{"a":1e400,"id":2}');
    assert.equal(run('root.copy = this.a', doc), '{"copy":1e400}');
  });

  it('are numbers to type(), string() and comparison with themselves', () => {
    assert.equal(run('root = this.a.type()', doc), 'number');
    assert.equal(run('root = this.a.string()', doc), '1e400');
    assert.equal(run('root = this.a == this.a', doc), 'true');
  });

  it('compute as their float64, and fail when it overflows as json.Number.Float64() does', () => {
    assert.throws(() => run('root = this.a + 1', doc), /value out of range/);
    assert.throws(() => run('root = this.a.number()', doc), /value out of range/);
    assert.throws(() => run('root = this.a > 5', doc), /value out of range/);
    assert.equal(run('root = this.a * 2', '{"a":1.5e300}'), '3e+300');
    assert.equal(run('root = this.a < 1', '{"a":1e-400}'), 'true');
    assert.equal(run('root = [this.a, 1].sum()', '{"a":2.5e100}'), '2.5e+100');
  });

  it('parse_json refuses 1e999 like Go, and keeps it with use_number', () => {
    assert.throws(() => run('root = "[1e999]".parse_json()'), /cannot unmarshal number 1e999/);
    assert.throws(
      () => run('root = this.s.parse_json()', '{"s":"[1e999]"}'),
      /cannot unmarshal number 1e999/,
    );
    assert.equal(run('root = this.s.parse_json(use_number: true)', '{"s":"[1e999]"}'), '[1e999]');
  });
});

describe('results JSON cannot carry fail the mapping, not the writer', () => {
  const cases: [string, RegExp][] = [
    ['root.v = "NaN".number()', /cannot be serialised: json: unsupported value: NaN/],
    ['root.v = "1e308".number() * 10', /unsupported value: \+Inf/],
    ['root.v = ".inf".parse_yaml()', /unsupported value: \+Inf/],
    ['root.v = [[0 - "1e308".number() * 10]]', /unsupported value: -Inf/],
  ];
  for (const [mapping, error] of cases) {
    it(mapping, () => {
      assert.throws(() => parseMapping(mapping).apply([new Message('{"id":2}')], 0), error);
      // Only the result is checked: a NaN that is read and dropped on the way is fine.
      assert.equal(run(`${mapping}\nroot = [this.v].length()`), '1');
    });
  }
});

describe('timestamps from numbers outside the calendar', () => {
  it('fail instead of formatting as 0NaN-NaN; far but representable instants still format', () => {
    assert.equal(run('root = this.n.ts_format()', '{"n":8000000000000}'), '255479-11-28T14:13:20Z');
    assert.equal(run('root = this.n.ts_format()', '{"n":253402300799}'), '9999-12-31T23:59:59Z');
    assert.throws(() => run('root = 100000000000000000000.ts_format()'), /timestamp out of range/);
    assert.throws(() => run('root = this.n.ts_unix()', '{"n":1e20}'), /timestamp out of range/);
    assert.throws(() => run('root = this.n.ts_format()', '{"n":-1e20}'), /timestamp out of range/);
    assert.throws(() => run('root = this.n.ts_format()', '{"n":1e400}'), /out of range/);
  });
});

describe('allocation bounds', () => {
  const big = '{"n":300000000}';
  const cases: [string, RegExp][] = [
    [
      'root = range(0, this.n).length()',
      /range would make 300000000 elements, more than the limit of 10000000/,
    ],
    ['root = "ab".repeat(this.n).length()', /repeat would make 600000000 characters/],
    ['root = bytes(this.n).length()', /bytes would make 300000000 bytes/],
    ['root = nanoid(this.n)', /nanoid would make 300000000 characters/],
    ['root = "%*d".format(this.n, 5)', /format width would make 300000000 characters/],
    ['root = ("%." + this.n.string() + "f").format(5)', /format precision would make 300000000 characters/],
  ];
  for (const [mapping, error] of cases) {
    it(`${mapping} fails the message`, () => assert.throws(() => run(mapping, big), error));
  }

  it('range and repeat work up to the bound and fail one past it', () => {
    assert.equal(run('root = range(0, this.n).length()', '{"n":10000000}'), '10000000');
    assert.throws(() => run('root = range(0, this.n).length()', '{"n":10000001}'), /more than the limit/);
    assert.equal(run('root = "ab".repeat(this.n).length()', '{"n":33554432}'), '67108864');
    assert.throws(() => run('root = "ab".repeat(this.n).length()', '{"n":33554433}'), /more than the limit/);
  });

  it('format_json of a small but deep value fails instead of making gigabytes', () => {
    const deep = `${'['.repeat(9000)}${']'.repeat(9000)}`;
    assert.throws(() => run('root = this.format_json()', deep), /format_json would make/);
  });
});
