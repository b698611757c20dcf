// Writes the README's list of what the reference has that nekton lacks (between the
// `missing-components` markers), counted from the registry and the reference's component list.
// `--check` only compares (test/docs/missing_components.test.ts runs it that way).
// Run: node --import tsx scripts/missing-components.mts [--check]
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { missingComponentsBlock } from '../test/docs/missing_components.js';

const readme = join(import.meta.dirname, '..', 'README.md');
const text = readFileSync(readme, 'utf8');
const start = '<!-- missing-components:start -->\n';
const end = '<!-- missing-components:end -->';
const from = text.indexOf(start);
const to = text.indexOf(end);
if (from < 0 || to < from) throw new Error('README.md has no missing-components markers');
const next = `${text.slice(0, from + start.length)}${missingComponentsBlock()}${text.slice(to)}`;
if (process.argv.includes('--check')) {
  if (next !== text) {
    console.error(
      'README.md: the missing-components list is out of date; run node --import tsx scripts/missing-components.mts',
    );
    process.exitCode = 1;
  }
} else writeFileSync(readme, next);
