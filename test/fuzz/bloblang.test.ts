// Seeded fuzzing of the Bloblang parser: mutated conformance mappings, token soup, deep nesting and
// random bytes never throw anything but a BloblangParseError with a line and column, and never hang.
// Replay with FUZZ_SEED=<seed>; raise the volume with FUZZ_MAPPINGS.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { BloblangParseError, parseInterpolation, parseMapping } from '../../src/bloblang/index.js';
import { countFromEnv, int, mutate, pick, prng, type Random, randomBytes } from './support.js';

const SEED = Number(process.env.FUZZ_SEED ?? 9001);
const COUNT = countFromEnv('FUZZ_MAPPINGS', 4000);

const corpus = (
  JSON.parse(
    readFileSync(join(import.meta.dirname, '..', 'fixtures', 'bloblang', 'cases.json'), 'utf8'),
  ) as Array<{
    mapping: string;
  }>
).map((c) => c.mapping);

const TOKENS = [
  'root',
  'this',
  '.',
  ' = ',
  '(',
  ')',
  '[',
  ']',
  '{',
  '}',
  ',',
  ':',
  '"',
  "'",
  '"""',
  '\n',
  ' ',
  'if ',
  'else ',
  'match ',
  '=> ',
  '_ ',
  'let x = ',
  '$x',
  '@',
  'meta("a")',
  'map m { root = this }',
  'apply("m")',
  '.(v -> v)',
  'deleted()',
  'throw("x")',
  '.map_each(e -> e)',
  '| ',
  '&& ',
  '!',
  '-',
  '+',
  '*',
  '/',
  '%',
  '1',
  '1.5e3',
  'null',
  'true',
  '#',
  '\\',
  '\u0000',
  '🦀',
  '${!',
  '}',
];

function soup(random: Random, n: number): string {
  let s = '';
  for (let i = 0; i < n; i++) s += pick(random, TOKENS);
  return s;
}

function candidate(random: Random): string {
  switch (int(random, 6)) {
    case 0:
    case 1:
      return mutate(random, pick(random, corpus), 1 + int(random, 5));
    case 2:
      return soup(random, int(random, 80));
    case 3:
      return randomBytes(random, int(random, 256)).toString('utf8');
    case 4: {
      const depth = 100 + int(random, 3_000);
      return pick(random, [
        () => `root = ${'('.repeat(depth)}1${')'.repeat(depth)}`,
        () => `root = ${'['.repeat(depth)}${']'.repeat(depth)}`,
        () => `root = ${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`,
        () => `root = ${'!'.repeat(depth)}true`,
        () => `root = ${'-'.repeat(depth)}1`,
        () => `root = this${'.a'.repeat(depth)}`,
        () => `root = ${'if true { '.repeat(depth)}1${' }'.repeat(depth)}`,
        () => `root = 1${' + 1'.repeat(depth)}`,
      ])();
    }
    default:
      return `${pick(random, corpus)}\n${soup(random, 10)}`;
  }
}

function assertParseError(err: unknown, text: string, what: string): void {
  const shown = JSON.stringify(text.slice(0, 160));
  assert.ok(err instanceof BloblangParseError, `${what} threw ${String(err).slice(0, 200)} for ${shown}`);
  assert.ok(
    err.line >= 1 && err.column >= 1,
    `${what}: no position (${err.line},${err.column}) for ${shown}`,
  );
}

describe('Bloblang parser fuzz (seeded)', () => {
  it(`parses ${COUNT} mutated and adversarial mappings: only positioned parse errors`, () => {
    const random = prng(SEED);
    let parsed = 0;
    let rejected = 0;
    for (let i = 0; i < COUNT; i++) {
      const text = candidate(random);
      const started = Date.now();
      try {
        parseMapping(text);
        parsed++;
      } catch (err) {
        rejected++;
        assertParseError(err, text, `case ${i} (seed ${SEED})`);
      }
      assert.ok(Date.now() - started < 5_000, `case ${i} took over 5 s`);
    }
    if (process.env.SOAK_REPORT) console.log('bloblang fuzz', { parsed, rejected });
    assert.ok(parsed > 0 && rejected > 0, `parsed ${parsed}, rejected ${rejected}`);
  });

  it('parses interpolations the same way', () => {
    const random = prng(SEED + 1);
    for (let i = 0; i < Math.ceil(COUNT / 4); i++) {
      const inner = candidate(random).replace(/^root = /, '');
      const text = pick(random, [`\${! ${inner} }`, `a \${!${inner}`, `\${!${inner}}\${! }`, inner]);
      try {
        parseInterpolation(text);
      } catch (err) {
        assertParseError(err, text, `interpolation ${i} (seed ${SEED})`);
      }
    }
  });
});
