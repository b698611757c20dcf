// The README's list of missing components is the one the registry gives today.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { missingComponentsBlock } from './missing_components.js';

describe('README missing-components list', () => {
  it('matches the registry (node --import tsx scripts/missing-components.mts rewrites it)', () => {
    const readme = readFileSync(join(import.meta.dirname, '..', '..', 'README.md'), 'utf8');
    const block = /<!-- missing-components:start -->\n([\s\S]*?)<!-- missing-components:end -->/.exec(readme);
    assert.ok(block, 'README.md has the missing-components markers');
    assert.equal(block[1], missingComponentsBlock());
  });

  it('counts a component the registry has as present', () => {
    assert.doesNotMatch(missingComponentsBlock(), /`http_server`|`mapping`/);
    assert.match(missingComponentsBlock(), /\*\*inputs\*\* \(\d+ of 83\)/);
  });
});
