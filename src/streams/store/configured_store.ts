// The store named in the observability config (`streams: {store: URL}`), read after `${VAR}`
// expansion so a password can come from the environment.
import { isPlainObject } from '../../config/normalise.js';

export function configuredStore(raw: unknown): string | undefined {
  if (!isPlainObject(raw) || !isPlainObject(raw.streams)) return undefined;
  const store = raw.streams.store;
  return typeof store === 'string' && store !== '' ? store : undefined;
}

export interface ClusterSettings {
  enabled?: boolean;
  nodeId?: string;
  advertiseAddress?: string;
  leaseTtl?: string;
}

/** `streams.cluster` of the observability config (flags override each field). */
export function configuredCluster(raw: unknown): ClusterSettings {
  if (!isPlainObject(raw) || !isPlainObject(raw.streams) || !isPlainObject(raw.streams.cluster)) return {};
  const c = raw.streams.cluster;
  const text = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);
  return {
    enabled: c.enabled === true,
    nodeId: text(c.node_id),
    advertiseAddress: text(c.advertise_address),
    leaseTtl: text(c.lease_ttl),
  };
}
