import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { spec } from '../../../src/components/caches/noop.js';
import { createTestContext } from '../../helpers/context.js';

const bytes = (s: string) => new TextEncoder().encode(s);

describe('noop cache', () => {
  it('finds nothing after any write, and every add succeeds', async () => {
    const cache = await spec.build({}, createTestContext());
    await cache.set('k', bytes('v'));
    assert.equal(await cache.get('k'), undefined);
    assert.equal(await cache.add('k', bytes('v')), true);
    assert.equal(await cache.add('k', bytes('v')), true);
    await cache.delete('k');
    assert.equal(await cache.get('k'), undefined);
  });
});
