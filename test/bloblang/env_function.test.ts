// env() reads a variable once per mapping (as the reference does), not once per process: a mapping
// built later, such as the next config unit test case with its own environment, sees the new value.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseMapping } from '../../src/bloblang/index.js';
import { Message } from '../../src/message/message.js';

const NAME = 'NEKTON_ENV_FUNCTION_TEST';

function run(mapping: ReturnType<typeof parseMapping>): unknown {
  return mapping.query([new Message('{}')], 0);
}

describe('env()', () => {
  it('caches per mapping, so a mapping compiled after a change sees the new value', () => {
    try {
      process.env[NAME] = 'first';
      const early = parseMapping(`root = env("${NAME}")`);
      assert.equal(run(early), 'first');
      process.env[NAME] = 'second';
      assert.equal(run(early), 'first', 'the first mapping keeps the value it read');
      assert.equal(run(parseMapping(`root = env("${NAME}")`)), 'second');
      delete process.env[NAME];
      assert.equal(run(parseMapping(`root = env("${NAME}")`)), null);
      assert.equal(run(early), 'first');
    } finally {
      delete process.env[NAME];
    }
  });
});
