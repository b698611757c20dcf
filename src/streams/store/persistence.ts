// What streams mode writes to its store: API-made streams and resources, as posted. Streams from
// files are not written (their file keeps them); nothing is written while the stored set is
// being restored at start (it is already there).
import type { ResourceKind } from '../../engine/resources.js';
import type { StreamDefinition } from '../manager.js';
import type { StoredValue, StreamStore } from './store.js';

export class StorePersistence {
  private restoring = false;

  constructor(readonly store: StreamStore) {}

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
    if (!definition) return this.store.remove(key);
    await this.store.put(key, streamValue(definition));
  };

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
