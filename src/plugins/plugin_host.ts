// The API object plugins register through, kept on a global so that every copy of nekton loaded
// in one process (the bundled CLI, the package's ES modules a plugin imports as 'nekton') uses the
// first one's: its component list, Bloblang catalogue and classes. The api layer installs it.
const HOST = Symbol.for('nekton.api');

type Slot = Record<symbol, unknown>;

/** Installs `api` unless a copy of nekton loaded earlier already did; returns the one in use. */
export function installPluginHost<T extends object>(api: T): T {
  const slot = globalThis as unknown as Slot;
  slot[HOST] ??= api;
  return slot[HOST] as T;
}

/** The API object in use (undefined until the api layer was loaded). */
export function pluginHost(): unknown {
  return (globalThis as unknown as Slot)[HOST];
}
