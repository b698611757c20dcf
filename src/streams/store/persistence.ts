// What streams mode writes to its store: API-made streams, resources and dynamic output members,
// as posted. Streams from files are not written (their file keeps them), though members posted
// to their dynamic outputs are; nothing is written while the stored set is being restored at
// start (it is already there).
import type { DynamicMemberStore } from '../../engine/member_store.js';
import type { ResourceKind } from '../../engine/resources.js';
import type { StreamDefinition } from '../manager.js';
import type { StoredRecord, StoredValue, StreamStore } from './store.js';

/** stream id → component path → member id → body as posted. */
type MemberTable = Map<string, Map<string, Map<string, string>>>;

export class StorePersistence {
  private restoring = false;
  private readonly members: MemberTable = new Map();

  constructor(readonly store: StreamStore) {}

  /** Takes the members out of the records read at open (the streams' builds read them). */
  loadMembers(records: readonly StoredRecord[]): void {
    for (const record of records) {
      if (record.section !== 'dynamic_members' || typeof record.value.config !== 'string') continue;
      const key = parseMemberKey(record.id);
      if (key) this.memberMap(key.stream, key.path).set(key.member, record.value.config);
    }
  }

  /** A member another fleet node wrote: the next build of that stream here starts with it. */
  applyMemberChange(id: string, body: string | undefined): void {
    const key = parseMemberKey(id);
    if (!key) return;
    if (body === undefined) this.forgetMember(key.stream, key.path, key.member);
    else this.memberMap(key.stream, key.path).set(key.member, body);
  }

  /** The manager's hook: what one stream's dynamic outputs keep. */
  readonly membersOf = (streamId: string): DynamicMemberStore => ({
    stored: (path) => new Map(this.members.get(streamId)?.get(path)),
    put: async (path, id, body) => {
      await this.store.put(
        { section: 'dynamic_members', id: memberKey(streamId, path, id) },
        { config: body, interpolate: false },
      );
      this.memberMap(streamId, path).set(id, body);
    },
    remove: async (path, id) => {
      await this.store.remove({ section: 'dynamic_members', id: memberKey(streamId, path, id) });
      this.forgetMember(streamId, path, id);
    },
  });

  /** Runs the start-up restore with writes switched off. */
  async whileRestoring(work: () => Promise<void>): Promise<void> {
    this.restoring = true;
    try {
      await work();
    } finally {
      this.restoring = false;
    }
  }

  /** The manager's hook: a stream created or changed (definition) or deleted (undefined). */
  readonly persistStream = async (id: string, definition: StreamDefinition | undefined): Promise<void> => {
    if (this.restoring || definition?.fromFile) return;
    const key = { section: 'streams', id } as const;
    if (definition) return this.store.put(key, streamValue(definition));
    await this.store.remove(key);
    await this.forgetMembers(id);
  };

  /** A deleted stream's members go with it. */
  private async forgetMembers(streamId: string): Promise<void> {
    for (const [path, byId] of this.members.get(streamId) ?? []) {
      for (const id of byId.keys())
        await this.store.remove({ section: 'dynamic_members', id: memberKey(streamId, path, id) });
    }
    this.members.delete(streamId);
  }

  /** Stream ids holding at least one member, ascending. */
  streamsWithMembers(): string[] {
    return [...this.members.keys()].sort();
  }

  /**
   * Forgets one member, and its path and stream once they hold none: a peer learns of a deleted
   * stream's members one removal at a time, and must not keep an empty entry per id ever used.
   */
  private forgetMember(streamId: string, path: string, member: string): void {
    const byPath = this.members.get(streamId);
    const byId = byPath?.get(path);
    if (!byPath || !byId) return;
    byId.delete(member);
    if (byId.size === 0) byPath.delete(path);
    if (byPath.size === 0) this.members.delete(streamId);
  }

  private memberMap(streamId: string, path: string): Map<string, string> {
    const byPath = this.members.get(streamId) ?? new Map<string, Map<string, string>>();
    this.members.set(streamId, byPath);
    const byId = byPath.get(path) ?? new Map<string, string>();
    byPath.set(path, byId);
    return byId;
  }

  async putResource(kind: ResourceKind, id: string, value: StoredValue): Promise<void> {
    if (this.restoring) return;
    await this.store.put({ section: `${kind}_resources`, id }, value);
  }

  async removeResource(kind: ResourceKind, id: string): Promise<void> {
    await this.store.remove({ section: `${kind}_resources`, id });
  }
}

/**
 * The posted form, never the expanded one. A body that named `${VAR}`s has a posted form apart
 * from its raw one and is expanded again on restore; one without (or a bulk `POST /streams`
 * body, never expanded) is stored as run.
 */
export function streamValue(definition: StreamDefinition): StoredValue {
  const posted = definition.posted;
  if (posted === undefined || posted === definition.raw)
    return { config: definition.raw, interpolate: false };
  return { config: posted, interpolate: true };
}

/** Stream and member ids hold no `/` (config/stream_id.ts): the first and last `/` separate them. */
function memberKey(streamId: string, path: string, member: string): string {
  return `${streamId}/${path}/${member}`;
}

function parseMemberKey(key: string): { stream: string; path: string; member: string } | undefined {
  const first = key.indexOf('/');
  const last = key.lastIndexOf('/');
  if (first < 0 || last <= first) return undefined;
  return { stream: key.slice(0, first), path: key.slice(first + 1, last), member: key.slice(last + 1) };
}
