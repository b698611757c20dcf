// The `resource` output's proxy: groups reach the current resource in one call, and a resource
// replaced while a group is written is closed only after that write finishes.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ConnectionStatus, Output } from '../../src/engine/component.js';
import { ResourceManager } from '../../src/engine/resources.js';
import { type Batch, Message } from '../../src/message/message.js';

/** An output with no group write. */
class Recorder implements Output {
  readonly singles: string[] = [];
  closed = false;
  async write(batch: Batch): Promise<void> {
    for (const m of batch) this.singles.push(m.text());
  }
  statuses(): ConnectionStatus[] {
    return [];
  }
  async close(): Promise<void> {
    this.closed = true;
  }
}

/** An output with a group write, optionally held until released. */
class GroupRecorder extends Recorder {
  readonly groups: string[][] = [];
  release?: () => void;
  constructor(private readonly hold = false) {
    super();
  }
  async writeGroup(batches: readonly Batch[]): Promise<void> {
    if (this.hold) await new Promise<void>((resolve) => (this.release = resolve));
    this.groups.push(batches.map((b) => b.map((m) => m.text()).join('+')));
  }
}

const group = (...texts: string[]) => texts.map((t) => [new Message(t)]);

describe('resource output', () => {
  it('hands a group to the resource in one call when it takes groups, batch by batch otherwise', async () => {
    const resources = new ResourceManager();
    const grouped = new GroupRecorder();
    await resources.set('output', 'out', grouped, {});
    const proxy = resources.output('out');
    await proxy.writeGroup!(group('a', 'b'));
    assert.deepEqual(grouped.groups, [['a', 'b']]);
    assert.deepEqual(grouped.singles, []);

    const plain = new Recorder();
    await resources.set('output', 'out', plain, {});
    await proxy.writeGroup!(group('c', 'd'));
    assert.deepEqual(plain.singles, ['c', 'd']);
    assert.equal(grouped.closed, true);
  });

  it('keeps a replaced resource open until the group it is writing finishes', async () => {
    const resources = new ResourceManager();
    const slow = new GroupRecorder(true);
    await resources.set('output', 'out', slow, {});
    const writing = resources.output('out').writeGroup!(group('x'));
    await new Promise((r) => setImmediate(r));
    const replaced = resources.set('output', 'out', new GroupRecorder(), {});
    await new Promise((r) => setTimeout(r, 20));
    assert.equal(slow.closed, false);
    slow.release!();
    await writing;
    await replaced;
    assert.equal(slow.closed, true);
    assert.deepEqual(slow.groups, [['x']]);
  });

  it('fails a group for a resource that is not there', async () => {
    const resources = new ResourceManager();
    await assert.rejects(
      resources.output('gone').writeGroup!(group('a')),
      /output resource 'gone' was not found/,
    );
  });
});
