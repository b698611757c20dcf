// Simple patterns on short inputs run on V8 (src/regexp/fast_path.ts); they must give exactly what
// the linear engine (Go's semantics) gives, and patterns that can backtrack badly must never go there.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compileLinearOnly, compilePattern } from '../../src/regexp/index.js';

const PATTERNS = [
  'status=5\\d\\d',
  '^(?P<ts>\\S+) (?P<level>[A-Z]+) user=(?P<user>\\w+)',
  '\\d+',
  'ip=(\\d+)\\.(\\d+)\\.\\d+\\.\\d+',
  'a*',
  'a*?',
  'x?',
  '(?m)^\\w+$',
  '(?m)^$',
  '(?s)a.c',
  'a.c',
  '^',
  '$',
  '\\b\\w',
  '\\B',
  '\\Aab|c\\z',
  '[^a-c\\d]+x',
  '[]a]+',
  '[^]a]',
  '[a-]+',
  '[\\s\\w]+',
  '[\\D]+',
  '\\s+',
  '\\S+',
  '\\.json$',
  'a|ab|abc',
  '(a)|(b)',
  '(?:ab|a)(c|bcd)',
  'é+',
  '😀.',
  '.',
  'a{2}',
  'a{2,3}?',
  'a{2,}',
  '{',
  'a{,3}',
  '\\Q',
  '\\t\\n\\v\\f\\r\\a',
  '\\$\\^\\.\\*\\+\\?\\(\\)\\[\\]\\{\\}\\|\\\\\\/',
  '(?P<x>\\d)(?P<y>\\d)?',
  '',
];

const INPUTS = [
  '',
  'a',
  'aaa',
  'abcabc',
  'ab\nab\n',
  'a\r\nb\u2028c\u0085d',
  '2026-11-26T12:10:00Z ERROR user=carol id=10 ip=10.0.10.3 status=503',
  'x.json\nfoo.json',
  'éé😀x😀 ÿ',
  'word1 word2\tword3\v',
  ']a]b-',
  '{,3}a{,3}',
  '\t\n\u000b\f\r\u0007',
  '$^.*+?()[]{}|\\/',
  '12 34 5',
];

describe('the V8 fast path gives Go results', () => {
  for (const source of PATTERNS) {
    it(JSON.stringify(source), () => {
      let v8Calls = 0;
      const both = compilePattern(source);
      const linear = compileLinearOnly(source);
      for (const input of INPUTS) {
        if (both.engineFor(input) === 'v8') v8Calls++;
        const what = `${source} on ${JSON.stringify(input)}`;
        assert.equal(both.test(input), linear.test(input), `test: ${what}`);
        assert.deepEqual(both.find(input), linear.find(input), `find: ${what}`);
        assert.deepEqual(both.findAll(input), linear.findAll(input), `findAll: ${what}`);
        assert.deepEqual(both.spans(input), linear.spans(input), `spans: ${what}`);
      }
      const linearOnly = ['\\Q', '(?P<x>\\d)(?P<y>\\d)?'].includes(source); // escapes or groups it leaves alone
      assert.equal(v8Calls > 0, !linearOnly, `${source}: fast path taken ${v8Calls} times`);
    });
  }
});

describe('patterns that may backtrack badly stay on the linear engine', () => {
  const short = 'a'.repeat(20);
  for (const source of [
    '^(a+)+$',
    '(a|a)*b',
    '(a|aa)+$',
    '(x+x+)+y',
    '(\\w|\\d)+$',
    '(?i)a+b',
    'a*a*a*a*a*b',
  ]) {
    it(source, () => assert.equal(compilePattern(source).engineFor(short), 're2js'));
  }
  it('long inputs go to the linear engine even for simple patterns', () => {
    assert.equal(compilePattern('\\d+x').engineFor('1'.repeat(100)), 'v8');
    assert.equal(compilePattern('\\d+x').engineFor('1'.repeat(100_000)), 're2js');
    assert.equal(compilePattern('a*a*a*a*b').engineFor('a'.repeat(60)), 're2js');
    assert.equal(compilePattern('^\\d+x').engineFor('1'.repeat(5000)), 'v8'); // one start position
    assert.equal(compilePattern('^a|\\d+x').engineFor('1'.repeat(5000)), 're2js'); // any start position
    assert.equal(compilePattern('\\w+').engineFor('😀'), 're2js'); // surrogate pairs: see pattern.ts
  });
});

describe('random patterns: the fast path agrees with the linear engine', () => {
  it('on 3,000 patterns built from the syntax the fast path accepts, 5 inputs each', () => {
    let seed = 12345; // fixed, so a failure reproduces
    const pick = <T>(xs: readonly T[]): T => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return xs[seed % xs.length];
    };
    const pieces = [
      '(a)',
      '(a|b)',
      '(?:ab|a)',
      '(\\d+)',
      '(?P<x>b*)',
      'a',
      'b',
      '\\d',
      '\\w',
      '\\s',
      '\\S',
      '.',
    ];
    pieces.push('[ab]', '[^a]', '[a-c\\d]', '(', ')', '|', '*', '+', '?', '*?', '{1,2}', '{2}', '^', '$');
    pieces.push('\\b', '\\B', '(?:', '1', ' ', '\\.', '\\z', '\\A');
    const flags = ['', '', '', '(?m)', '(?s)', '(?ms)'];
    let compared = 0;
    for (let t = 0; t < 3000; t++) {
      let source = pick(flags);
      for (let i = 0, n = 1 + (seed % 8); i < n; i++) source += pick(pieces);
      let both: ReturnType<typeof compilePattern>;
      try {
        both = compilePattern(source);
      } catch {
        continue; // RE2 refuses it: nothing to compare
      }
      const linear = compileLinearOnly(source);
      for (let k = 0; k < 5; k++) {
        let input = '';
        for (let i = 0, n = seed % 16; i < n; i++) input += pick(['a', 'b', '1', ' ', '\n', '_', '.', 'c']);
        if (both.engineFor(input) === 'v8') compared++;
        const what = `${source} on ${JSON.stringify(input)}`;
        assert.deepEqual(both.find(input), linear.find(input), what);
        assert.deepEqual(both.findAll(input), linear.findAll(input), what);
      }
    }
    assert.ok(compared > 1000, `only ${compared} comparisons ran on V8`);
  });
});
