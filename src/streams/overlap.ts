// Whether an update may start the new instance of a stream before stopping the old one, so the
// stream never has a gap. Only when the two can share nothing that one holder must own: a listener
// on its own address, an inproc name, stdin, the members added to a dynamic broker at run time.
// Endpoints on the shared server are fine (the newest claimant serves a path, the table hands it
// back when it goes), and so are clients of brokers, databases and websocket servers (two for a moment).

/** Component types whose instances cannot run side by side with the same config. */
const EXCLUSIVE_TYPES = new Set(['http_server', 'inproc', 'stdin', 'dynamic', 'socket_server']);

/** True when a config (as accepted, any shape) names one of the exclusive types anywhere. */
function usesExclusive(value: unknown, depth = 0): boolean {
  if (depth > 200 || typeof value !== 'object' || value === null) return false;
  if (Array.isArray(value)) return value.some((item) => usesExclusive(item, depth + 1));
  for (const [key, item] of Object.entries(value)) {
    if (EXCLUSIVE_TYPES.has(key)) return true;
    if (key === 'type' && typeof item === 'string' && EXCLUSIVE_TYPES.has(item)) return true;
    if (usesExclusive(item, depth + 1)) return true;
  }
  return false;
}

export function canOverlap(oldRaw: unknown, newRaw: unknown): boolean {
  return !usesExclusive(oldRaw) && !usesExclusive(newRaw);
}
