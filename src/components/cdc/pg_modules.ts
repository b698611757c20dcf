// pg and pg-logical-replication are loaded when a postgres_cdc input first connects, not at every
// start of nekton (the two cost ~17 ms of a ~180 ms start, for configs that never use them).
import { createRequire } from 'node:module';
import type pg from 'pg';
import type * as Replication from 'pg-logical-replication';

const load = createRequire(import.meta.url);
let pgModule: typeof pg | undefined;
let replicationModule: typeof Replication | undefined;

export const pgModuleNow = (): typeof pg => (pgModule ??= load('pg') as typeof pg);

export const replicationNow = (): typeof Replication =>
  (replicationModule ??= load('pg-logical-replication') as typeof Replication);
