// Clients a test opens on the local services itself, to set up and check what a component did
// (never through the component under test).
import pg from 'pg';
import { POSTGRES_DSN } from './services.js';

/**
 * A small pool on the local PostgreSQL. Errors of idle connections are ignored: a test that kills
 * backends (or a server restart) must not crash the test process; queries still reject.
 */
export function postgresPool(connectionString = POSTGRES_DSN): pg.Pool {
  const pool = new pg.Pool({ connectionString, max: 2 });
  pool.on('error', () => undefined);
  return pool;
}
