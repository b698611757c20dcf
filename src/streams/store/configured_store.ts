// The store named in the observability config (`streams: {store: URL}`), read after `${VAR}`
// expansion so a password can come from the environment.
import { isPlainObject } from '../../config/normalise.js';

export function configuredStore(raw: unknown): string | undefined {
  if (!isPlainObject(raw) || !isPlainObject(raw.streams)) return undefined;
  const store = raw.streams.store;
  return typeof store === 'string' && store !== '' ? store : undefined;
}
