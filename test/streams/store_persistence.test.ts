// What StorePersistence keeps per stream for dynamic output members: a stream whose members are all
// removed (on this node, or on a fleet peer through the store's change feed) leaves no entry behind,
// so a process that sees many short-lived streams does not hold one per id it ever saw.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { StorePersistence } from '../../src/streams/store/persistence.js';
import type { StoredRecord, StoredValue, StoreKey, StreamStore } from '../../src/streams/store/store.js';

/** A store in memory: enough for StorePersistence, which only puts and removes. */
class MemoryStore implements StreamStore {
  readonly name = 'memory';
  readonly records = new Map<string, StoredValue>();
  async open(): Promise<StoredRecord[]> {
    return [];
  }
  async put(key: StoreKey, value: StoredValue): Promise<void> {
    this.records.set(`${key.section}:${key.id}`, value);
  }
  async remove(key: StoreKey): Promise<void> {
    this.records.delete(`${key.section}:${key.id}`);
  }
  problem(): string | undefined {
    return undefined;
  }
  watch(): void {}
  async close(): Promise<void> {}
}

const member = (stream: string, path: string, id: string, body: string): StoredRecord => ({
  section: 'dynamic_members',
  id: `${stream}/${path}/${id}`,
  value: { config: body, interpolate: false },
});

describe('StorePersistence members', () => {
  it('forgets a stream once a peer has removed each of its members', () => {
    const persistence = new StorePersistence(new MemoryStore());
    persistence.loadMembers([
      member('a', 'root.output', 'm1', 'drop: {}'),
      member('a', 'root.output', 'm2', 'drop: {}'),
      member('b', 'root.output', 'm1', 'drop: {}'),
    ]);
    assert.deepEqual(persistence.streamsWithMembers(), ['a', 'b']);
    persistence.applyMemberChange('a/root.output/m1', undefined);
    assert.deepEqual(persistence.streamsWithMembers(), ['a', 'b'], 'a still has m2');
    assert.deepEqual([...persistence.membersOf('a').stored('root.output').keys()], ['m2']);
    persistence.applyMemberChange('a/root.output/m2', undefined);
    assert.deepEqual(persistence.streamsWithMembers(), ['b']);
    assert.equal(persistence.membersOf('a').stored('root.output').size, 0);
  });

  it('forgets a stream once its last member is removed here, and writes the removals', async () => {
    const store = new MemoryStore();
    const persistence = new StorePersistence(store);
    const members = persistence.membersOf('s');
    await members.put('root.output', 'm1', 'drop: {}');
    await members.put('root.other', 'm2', 'drop: {}');
    assert.equal(store.records.size, 2);
    await members.remove('root.output', 'm1');
    assert.deepEqual(persistence.streamsWithMembers(), ['s'], 'root.other still holds m2');
    await members.remove('root.other', 'm2');
    assert.deepEqual(persistence.streamsWithMembers(), []);
    assert.equal(store.records.size, 0);
  });

  it('forgets a deleted stream with its members, in the store too', async () => {
    const store = new MemoryStore();
    const persistence = new StorePersistence(store);
    await persistence.membersOf('gone').put('root.output', 'm1', 'drop: {}');
    await persistence.persistStream('gone', undefined);
    assert.deepEqual(persistence.streamsWithMembers(), []);
    assert.equal(store.records.size, 0);
  });
});
