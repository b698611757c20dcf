// A Bloblang field that does not parse names its place once: path, component, field, position.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createTestContext } from '../helpers/context.js';

describe('field errors of a component', () => {
  it('name the field and the position once', () => {
    const ctx = createTestContext({ type: 'generate', path: 'root.input' });
    assert.throws(
      () => ctx.mapping('root = )', 'mapping'),
      (err: Error) => {
        assert.match(err.message, /^root\.input\.generate\.mapping: line 1 char 8: [^\n]*$/);
        assert.equal(err.message.match(/line 1 char 8/g)?.length, 1);
        return true;
      },
    );
  });

  it('name a component whose whole config is the mapping once, not as type.type', () => {
    const ctx = createTestContext({ type: 'bloblang', path: 'root.pipeline.processors.0' });
    assert.throws(() => ctx.mapping('root = (', 'bloblang'), {
      message: /^root\.pipeline\.processors\.0\.bloblang: line 1 char \d+: /,
    });
  });
});
