// The reference repositories' own config tests (test/fixtures/config-tests, see its README): every
// case whose components nekton has passes; every other case fails with a message naming what is
// missing; none fails for another reason. The tally is pinned so a regression shows.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runTests } from './run_helpers.js';

const FIXTURES = join(import.meta.dirname, '..', '..', 'fixtures', 'config-tests');
/** The reference runs these from its repository root: see that folder's README. */
const REFERENCE_CWD = join(import.meta.dirname, '..', '..', 'fixtures', 'reference-cwd');

/** What a failure names when nekton lacks a component, a Bloblang function or a field. */
const MISSING = [
  /unable to infer (?:\w+ )?type(?: from candidates)?: \[?(?:label )?(\w+)\]?/g,
  /unrecognised function '(\w+)'/g,
  /field (strategy) not recognised/g,
];

function missingNames(texts: string[]): string[] {
  const names = new Set<string>();
  for (const text of texts) for (const re of MISSING) for (const m of text.matchAll(re)) names.add(m[1]!);
  return [...names];
}

describe('the reference config tests', () => {
  it('pass where nekton has the components and otherwise fail naming the missing one', async () => {
    const cwd = process.cwd();
    process.chdir(REFERENCE_CWD);
    const { summary, output } = await runTests([`${FIXTURES}/...`]).finally(() => process.chdir(cwd));
    let passed = 0;
    let missing = 0;
    const other: string[] = [];
    const missingByCase = new Set<string>();
    for (const target of summary.targets) {
      assert.equal(target.problem, undefined, `${target.target.configPath}: ${target.problem}`);
      // Every lint of a reference config must be about something nekton lacks: anything else means
      // nekton refuses a config the reference accepts (e.g. a placeholder broker address).
      for (const lint of target.lints)
        if (missingNames([lint]).length === 0) other.push(`${target.target.configPath}: lint ${lint}`);
      for (const c of target.cases) {
        const texts = [...target.lints, ...c.failures.map((f) => f.reason)];
        if (texts.length === 0) {
          passed++;
          continue;
        }
        const names = missingNames(texts);
        if (names.length > 0) {
          missing++;
          for (const n of names) missingByCase.add(n);
        } else {
          other.push(`${target.target.configPath} / ${c.testCase.name}: ${texts.join('\n')}`);
        }
      }
    }
    assert.deepEqual(other, [], 'no case fails for a reason other than a missing component');
    assert.deepEqual(
      { targets: summary.targets.length, passed, missing },
      { targets: 89, passed: 145, missing: 4 },
      output,
    );
    assert.deepEqual([...missingByCase].sort(), ['awk', 'cache_get', 'cache_set', 'strategy']);
  });
});
