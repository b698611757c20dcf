// Every registered component declares exactly the reference's fields (names, types, kinds,
// defaults, options, flags), so an existing Benthos config lints and runs unchanged.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { registry } from '../../src/components/registry.js';
import { referenceProblems } from './reference.js';

describe('component specs match the reference', () => {
  for (const spec of registry.list()) {
    it(`${spec.kind} ${spec.name}`, () => {
      assert.deepEqual(referenceProblems(spec as Parameters<typeof referenceProblems>[0]), []);
    });
  }
});
