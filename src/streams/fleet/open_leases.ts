// The lease store of a fleet, on the same server as its stream store.

import type { LeaseStore } from './lease_store.js';
import { NatsLeases } from './nats_leases.js';
import { PostgresLeases } from './postgres_leases.js';

export function leaseStoreFor(storeUrl: string): LeaseStore {
  return storeUrl.startsWith('nats://') ? new NatsLeases(storeUrl) : new PostgresLeases(storeUrl);
}
