// The `resource` output's proxy: groups reach the current resource in one call, and a resource
// replaced while a group is written is closed only after that write finishes.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ResourceManager } from '../../src/engine/resources.js';
import { Message } from '../../src/message/message.js';
import { CallRecorder, GroupCallRecorder } from '../helpers/kit.js';

const group = (...texts: string[]) => texts.map((t) => [new Message(t)]);

describe('resource output', () => {
  it('hands a group to the resource in one call when it takes groups, batch by batch otherwise', async () => {
    const resources = new ResourceManager();
    const grouped = new GroupCallRecorder();
    await resources.set('output', 'out', grouped, {});
    const proxy = resources.output('out');
    await proxy.writeGroup!(group('a', 'b'));
    assert.deepEqual(grouped.calls, [['a', 'b']]);

    const plain = new CallRecorder();
    await resources.set('output', 'out', plain, {});
    await proxy.writeGroup!(group('c', 'd'));
    assert.deepEqual(plain.calls, [['c'], ['d']]);
    assert.equal(grouped.closed, true);
  });

  it('keeps a replaced resource open until the group it is writing finishes', async () => {
    const resources = new ResourceManager();
    const slow = new GroupCallRecorder(true);
    await resources.set('output', 'out', slow, {});
    const writing = resources.output('out').writeGroup!(group('x'));
    await new Promise((r) => setImmediate(r));
    const replaced = resources.set('output', 'out', new GroupCallRecorder(), {});
    await new Promise((r) => setTimeout(r, 20));
    assert.equal(slow.closed, false);
    slow.release!();
    await writing;
    await replaced;
    assert.equal(slow.closed, true);
    assert.deepEqual(slow.calls, [['x']]);
  });

  it('fails a group for a resource that is not there', async () => {
    const resources = new ResourceManager();
    await assert.rejects(
      resources.output('gone').writeGroup!(group('a')),
      /output resource 'gone' was not found/,
    );
  });
});
