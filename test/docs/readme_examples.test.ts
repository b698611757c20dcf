// The README's and the guides' shell examples, run in order against the build as a reader would
// (scripts/check-docs.mjs): a broken example, or one nobody marked to run or skip, fails here.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { requireService } from '../helpers/kit.js';
import { runCheckDocs } from './run_check_docs.js';

describe('documented examples', () => {
  it('every shell example of the README and docs/guides runs and prints what the text says', async (t) => {
    // The Scaling out section and the SQL guide create their tables with psql.
    if (!(await requireService(t, 'postgres'))) return;
    const { code, output } = await runCheckDocs();
    assert.equal(code, 0, output);
    const readme = /README\.md: (\d+) command\(s\) run, every one as documented/.exec(output);
    assert.ok(readme, output);
    assert.ok(Number(readme[1]) >= 40, `only ${readme[1]} README commands ran`);
    assert.match(output, /docs\/guides\/sql\.md: \d+ command\(s\) run, every one as documented/);
  });
});
