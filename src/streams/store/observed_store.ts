// A store that tells someone about each write this process makes (the fleet coordinator, so it
// can tell its own changes from other nodes' when the change feed echoes them).
import type { StoredValue, StreamStore } from './store.js';

export function observedStore(
  store: StreamStore,
  onWrite: (section: string, id: string, value: StoredValue | undefined) => void,
): StreamStore {
  return {
    get name() {
      return store.name;
    },
    open: () => store.open(),
    put: async (key, value) => {
      await store.put(key, value);
      onWrite(key.section, key.id, value);
    },
    remove: async (key) => {
      await store.remove(key);
      onWrite(key.section, key.id, undefined);
    },
    problem: () => store.problem(),
    watch: (listener) => store.watch(listener),
    close: () => store.close(),
  };
}
