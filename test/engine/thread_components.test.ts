import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as all from '../../src/components/all.js';
import * as crossing from '../../src/components/thread_components.js';
import { CROSSING_PROCESSORS } from '../../src/engine/threads/pool.js';

test('a pipeline thread loads exactly the processors the pool lets cross', () => {
  const specs = Object.values(crossing);
  assert.ok(specs.every((s) => s.kind === 'processor'));
  assert.deepEqual(specs.map((s) => s.name).sort(), [...CROSSING_PROCESSORS].sort());
});

test("a pipeline thread's processors are the very specs the main thread registers", () => {
  const everything = all as Record<string, unknown>;
  for (const [name, spec] of Object.entries(crossing)) assert.equal(spec, everything[name], name);
});
