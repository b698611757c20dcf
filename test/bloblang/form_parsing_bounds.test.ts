import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { callInChild } from '../helpers/bounded_child.js';

const forms = new URL('../fixtures/hostile/form_bodies.ts', import.meta.url);

describe('parse_form_url_encoded on hostile bodies', () => {
  it('parses a 240 KB body of 60,000 repeated keys in linear time (it froze every stream for 20 s)', async () => {
    // 60,000 pairs of `k=N`: about 240 KB. Quadratic copying took ~20 s; linear takes milliseconds,
    // so a generous 15 s bound (child start-up included) separates the two on a loaded machine.
    const result = await callInChild(forms, 'parseRepeatedKey', [60_000], 15_000);
    assert.deepEqual(result, { keys: 1, values: 60_000, last: '9' });
  });
});
