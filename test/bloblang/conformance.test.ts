// Conformance against the reference's harvested cases. Cases listed in known-failures.json must
// still fail (so the list only shrinks); any other failure fails the test.
// BLOBLANG_REPORT=1 prints every failing case with its diff and skips the known-failures check.
// BLOBLANG_WRITE_KNOWN=1 rewrites known-failures.json from the current failures (review the reasons).
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { after, test } from 'node:test';
import { parseMapping } from '../../src/bloblang/index.js';
import {
  type Case,
  fixturePath,
  loadFixture,
  type Outcome,
  runCase,
  runInterpolationCase,
} from './conformance_runner.js';

const report = process.env.BLOBLANG_REPORT === '1' || process.env.BLOBLANG_WRITE_KNOWN === '1';
const allFailures: Array<{ id: string; reason: string }> = [];
const known = new Map(
  loadFixture<Array<{ id: string; reason: string }>>('known-failures.json').map((k) => [k.id, k.reason]),
);

function runAll(cases: Case[], run: (c: Case) => Outcome, label: string) {
  const failures: Array<{ id: string; detail: string }> = [];
  let skipped = 0;
  const sorted = [...cases].sort((a, b) =>
    a.group && a.group === b.group ? (a.step ?? 0) - (b.step ?? 0) : 0,
  );
  for (const c of sorted) {
    if (c.skip_reason) {
      skipped++;
      continue;
    }
    let outcome: Outcome;
    try {
      outcome = run(c);
    } catch (e) {
      outcome = { pass: false, detail: `harness crash: ${e instanceof Error ? e.stack : String(e)}` };
    }
    if (!outcome.pass) failures.push({ id: c.id, detail: outcome.detail });
  }
  const total = cases.length - skipped;
  const passed = total - failures.length;
  console.log(
    `${label}: ${passed}/${total} passed (${((100 * passed) / total).toFixed(1)}%), ${skipped} skipped`,
  );
  if (process.env.BLOBLANG_REPORT === '1')
    for (const f of failures) console.log(`FAIL ${f.id}\n   ${f.detail}`);
  for (const f of failures) allFailures.push({ id: f.id, reason: known.get(f.id) ?? reasonFor(f.detail) });
  return failures;
}

/** A first-draft reason from the failure detail; edit the file to say why it really fails. */
function reasonFor(detail: string): string {
  const missing = /unrecognised (method|function) '([^']+)'/.exec(detail);
  if (missing) return `${missing[1]} ${missing[2]} is not implemented`;
  return detail.split('\n')[0].slice(0, 200);
}

after(() => {
  if (process.env.BLOBLANG_WRITE_KNOWN !== '1') return;
  writeFileSync(fixturePath('known-failures.json'), `${JSON.stringify(allFailures, null, 2)}\n`);
  console.log(`wrote ${allFailures.length} entries to known-failures.json`);
});

function check(failures: Array<{ id: string; detail: string }>, ids: Set<string>) {
  if (report) return;
  const failing = new Set(failures.map((f) => f.id));
  const unexpected = failures.filter((f) => !known.has(f.id));
  const nowPassing = [...known.keys()].filter((id) => ids.has(id) && !failing.has(id));
  assert.deepEqual(
    unexpected.map((f) => `${f.id}: ${f.detail}`),
    [],
    'cases failing that are not in known-failures.json',
  );
  assert.deepEqual(nowPassing, [], 'cases in known-failures.json that now pass: remove them from the list');
}

test('bloblang mapping conformance (cases.json)', () => {
  const cases = loadFixture<Case[]>('cases.json');
  check(runAll(cases, runCase, 'mapping cases'), new Set(cases.map((c) => c.id)));
});

test('bloblang interpolation conformance (interpolation_cases.json)', () => {
  const cases = loadFixture<Case[]>('interpolation_cases.json');
  check(runAll(cases, runInterpolationCase, 'interpolation cases'), new Set(cases.map((c) => c.id)));
});

test('bloblang plugin method conformance (connect_cases.json)', () => {
  const cases = loadFixture<Case[]>('connect_cases.json');
  check(runAll(cases, runCase, 'plugin cases'), new Set(cases.map((c) => c.id)));
});

test('documented example mappings parse (parse_only.json)', () => {
  const entries =
    loadFixture<Array<{ id: string; mapping: string; not_tested?: boolean }>>('parse_only.json');
  const cases: Case[] = entries
    .filter((e) => !e.not_tested)
    .map((e) => ({ id: e.id, mapping: e.mapping, input: '' }));
  const parseOnly = (c: Case): Outcome => {
    try {
      parseMapping(c.mapping ?? '');
      return { pass: true, detail: '' };
    } catch (e) {
      return { pass: false, detail: `parse error: ${e instanceof Error ? e.message : String(e)}` };
    }
  };
  check(runAll(cases, parseOnly, 'parse-only examples'), new Set(cases.map((c) => c.id)));
});
