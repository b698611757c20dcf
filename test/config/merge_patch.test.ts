import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mergePatch } from '../../src/config/merge_patch.js';

describe('RFC 7396 merge patch', () => {
  const stored = {
    input: { generate: { mapping: 'root = deleted()', interval: '1s' } },
    pipeline: { processors: [{ mapping: 'a' }, { mapping: 'b' }] },
  };

  it('merges nested objects', () => {
    assert.deepEqual(mergePatch(stored, { input: { generate: { interval: '2s' } } }), {
      input: { generate: { mapping: 'root = deleted()', interval: '2s' } },
      pipeline: stored.pipeline,
    });
  });

  it('replaces arrays wholesale and removes keys patched with null', () => {
    const merged = mergePatch(stored, {
      pipeline: { processors: [{ mapping: 'c' }] },
      input: { generate: { interval: null } },
    });
    assert.deepEqual(merged, {
      input: { generate: { mapping: 'root = deleted()' } },
      pipeline: { processors: [{ mapping: 'c' }] },
    });
  });

  it('replaces the whole target with a non-object patch and never mutates its inputs', () => {
    assert.equal(mergePatch({ a: 1 }, 'x'), 'x');
    assert.deepEqual(mergePatch('x', { a: { b: null, c: 1 } }), { a: { c: 1 } });
    const before = structuredClone(stored);
    const merged = mergePatch(stored, { x_note: 'n' }) as Record<string, unknown>;
    (merged.input as Record<string, unknown>).changed = true;
    assert.deepEqual(stored, before);
  });
});
