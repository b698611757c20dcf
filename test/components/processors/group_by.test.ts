// The group_by processor: groups by the first passing check, runs each group's processors, and
// puts the rest in a last group; cases follow the reference's processor_group_by_test.go.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { batchOf, lintComponent, processor, run, texts } from '../bloblang_components/build.js';

describe('group_by processor', () => {
  it('splits a batch by the first passing check and keeps the rest in a last group', async () => {
    const p = await processor({
      group_by: [
        { check: 'content().contains("foo")', processors: [{ mutation: 'meta grouping = "foo"' }] },
        { check: 'content().contains("bar")' },
      ],
    });
    const out = await run(p, batchOf('1 foo', '2 bar', '3 baz', '4 foo bar', '5 bar'));
    assert.deepEqual(texts(out), [['1 foo', '4 foo bar'], ['2 bar', '5 bar'], ['3 baz']]);
    assert.deepEqual(
      out[0]!.map((m) => m.getMeta('grouping')),
      ['foo', 'foo'],
    );
    assert.equal(out[1]![0]!.getMeta('grouping'), undefined);
    assert.equal(out[2]![0]!.getMeta('grouping'), undefined);
  });

  it('runs each group processors over the whole group as one batch', async () => {
    const p = await processor({
      group_by: [{ check: 'this.k == "a"', processors: [{ archive: { format: 'json_array' } }] }],
    });
    const out = await run(p, batchOf('{"k":"a","n":1}', '{"k":"b"}', '{"k":"a","n":2}'));
    assert.deepEqual(texts(out), [['[{"k":"a","n":1},{"k":"a","n":2}]'], ['{"k":"b"}']]);
  });

  it('treats a failing check as not passing, without flagging the message', async () => {
    const p = await processor({
      group_by: [
        { check: 'this.n.uppercase() == "X"' },
        { check: 'true', processors: [{ mutation: 'root.second = true' }] },
      ],
    });
    const out = await run(p, batchOf('{"n":1}'));
    assert.deepEqual(texts(out), [['{"n":1,"second":true}']]);
    assert.equal(out[0]![0]!.error, null);
  });

  it('drops a group its processors filter, and returns nothing for an empty batch', async () => {
    const p = await processor({
      group_by: [{ check: 'this.drop', processors: [{ mapping: 'root = deleted()' }] }],
    });
    assert.deepEqual(texts(await run(p, batchOf('{"drop":true}', '{"drop":false}'))), [['{"drop":false}']]);
    assert.deepEqual(await run(p, []), []);
  });

  it('waits for asynchronous group processors', async () => {
    const p = await processor({
      group_by: [
        { check: 'true', processors: [{ sleep: { duration: '1ms' } }, { mutation: 'root.done = true' }] },
      ],
    });
    const out = p.process(batchOf('{}'));
    assert.ok(out instanceof Promise);
    assert.deepEqual(texts(await out), [['{"done":true}']]);
  });

  it('lint requires a check in every group', () => {
    assert.deepEqual(lintComponent('processor', 'group_by:\n  - processors: [ noop: {} ]\n'), [
      'field check is required',
    ]);
  });
});
