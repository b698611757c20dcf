// Fleet leases in PostgreSQL: `nekton_fleet_nodes` and `nekton_fleet_leases`, every expiry compared
// with the server's now() so node clocks never matter. A lease is taken with one upsert that only
// wins over an expired row; a heartbeat renews the node and all its live leases in one statement
// pair inside a transaction. Changes NOTIFY `nekton_fleet`.
import type PgModule from 'pg';
import { redactUrl } from '../../components/connection/urls.js';
import type { FleetNode, LeaseStore } from './lease_store.js';

const CHANNEL = 'nekton_fleet';
const TIMEOUT_MS = 5_000;

const CREATE = [
  `CREATE TABLE IF NOT EXISTS nekton_fleet_nodes (
    node_id text PRIMARY KEY, address text NOT NULL, expires_at timestamptz NOT NULL)`,
  `CREATE TABLE IF NOT EXISTS nekton_fleet_leases (
    stream_id text PRIMARY KEY, node_id text NOT NULL, expires_at timestamptz NOT NULL)`,
];

const HEARTBEAT_NODE = `INSERT INTO nekton_fleet_nodes (node_id, address, expires_at)
  VALUES ($1, $2, now() + $3 * interval '1 millisecond')
  ON CONFLICT (node_id) DO UPDATE SET address = EXCLUDED.address, expires_at = EXCLUDED.expires_at
  RETURNING (xmax = 0) AS joined`;

// Only leases still live are renewed: an expired one may already be another node's to take.
const RENEW = `UPDATE nekton_fleet_leases SET expires_at = now() + $2 * interval '1 millisecond'
  WHERE node_id = $1 AND expires_at > now() RETURNING stream_id`;

const ACQUIRE = `INSERT INTO nekton_fleet_leases AS l (stream_id, node_id, expires_at)
  VALUES ($1, $2, now() + $3 * interval '1 millisecond')
  ON CONFLICT (stream_id) DO UPDATE SET node_id = EXCLUDED.node_id, expires_at = EXCLUDED.expires_at
  WHERE l.expires_at <= now() OR l.node_id = EXCLUDED.node_id
  RETURNING stream_id`;

export class PostgresLeases implements LeaseStore {
  readonly name: string;
  private pool: PgModule.Pool | undefined;
  private listener: PgModule.Client | undefined;
  private readonly listeners: Array<() => void> = [];
  private closed = false;

  constructor(private readonly url: string) {
    this.name = redactUrl(url);
  }

  async open(): Promise<void> {
    const pg = (await import('pg')).default;
    this.pool = new pg.Pool({
      connectionString: this.url,
      max: 3,
      connectionTimeoutMillis: TIMEOUT_MS,
      query_timeout: TIMEOUT_MS,
      application_name: 'nekton-fleet',
    });
    this.pool.on('error', () => undefined);
    // Nodes starting together would race CREATE TABLE IF NOT EXISTS (a duplicate-type error).
    const client = await this.pool.connect();
    client.on('error', () => undefined);
    try {
      await client.query('BEGIN');
      await client.query("SELECT pg_advisory_xact_lock(hashtext('nekton_fleet'))");
      for (const sql of CREATE) await client.query(sql);
      await client.query('COMMIT');
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
    await this.listen(pg);
  }

  async heartbeat(node: FleetNode, ttlMs: number): Promise<Set<string>> {
    const client = await this.db().connect();
    // A checked-out client whose server goes away emits 'error': without a listener that is fatal.
    const ignore = () => undefined;
    client.on('error', ignore);
    try {
      await client.query('BEGIN');
      const { rows: joined } = await client.query(HEARTBEAT_NODE, [node.id, node.address, ttlMs]);
      const { rows } = await client.query(RENEW, [node.id, ttlMs]);
      if ((joined[0] as { joined: boolean } | undefined)?.joined)
        await client.query('SELECT pg_notify($1, $2)', [CHANNEL, `joined ${node.id}`]);
      await client.query('COMMIT');
      return new Set(rows.map((row: { stream_id: string }) => row.stream_id));
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      client.off('error', ignore);
      client.release();
    }
  }

  async nodes(): Promise<FleetNode[]> {
    const { rows } = await this.db().query(
      'SELECT node_id, address FROM nekton_fleet_nodes WHERE expires_at > now() ORDER BY node_id',
    );
    return rows.map((row: { node_id: string; address: string }) => ({
      id: row.node_id,
      address: row.address,
    }));
  }

  async leases(): Promise<Map<string, string>> {
    const { rows } = await this.db().query(
      'SELECT stream_id, node_id FROM nekton_fleet_leases WHERE expires_at > now()',
    );
    return new Map(rows.map((row: { stream_id: string; node_id: string }) => [row.stream_id, row.node_id]));
  }

  async acquire(streamId: string, nodeId: string, ttlMs: number): Promise<boolean> {
    const { rows } = await this.db().query(ACQUIRE, [streamId, nodeId, ttlMs]);
    return rows.length > 0;
  }

  async release(streamId: string, nodeId: string): Promise<void> {
    await this.db().query(
      `WITH gone AS (DELETE FROM nekton_fleet_leases WHERE stream_id = $1 AND node_id = $2 RETURNING 1)
       SELECT pg_notify($3, 'released ' || $1) FROM gone`,
      [streamId, nodeId, CHANNEL],
    );
  }

  async leave(nodeId: string): Promise<void> {
    await this.db().query('DELETE FROM nekton_fleet_leases WHERE node_id = $1', [nodeId]);
    await this.db().query('DELETE FROM nekton_fleet_nodes WHERE node_id = $1', [nodeId]);
    await this.db().query('SELECT pg_notify($1, $2)', [CHANNEL, `left ${nodeId}`]);
  }

  onChange(listener: () => void): void {
    this.listeners.push(listener);
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.listener?.end().catch(() => undefined);
    await this.pool?.end().catch(() => undefined);
  }

  private db(): PgModule.Pool {
    if (!this.pool) throw new Error('the fleet store is not open');
    return this.pool;
  }

  /** The push channel; when it drops, ticks still converge (it only makes reactions faster). */
  private async listen(pg: typeof PgModule): Promise<void> {
    const client = new pg.Client({ connectionString: this.url, connectionTimeoutMillis: TIMEOUT_MS });
    let gone = false;
    const lost = () => {
      if (gone) return;
      gone = true;
      if (this.listener === client) this.listener = undefined;
      client.end().catch(() => undefined);
      if (!this.closed) setTimeout(() => this.listen(pg).catch(() => undefined), 1_000).unref();
    };
    client.on('error', lost);
    client.on('end', lost);
    client.on('notification', () => {
      for (const listener of this.listeners) listener();
    });
    this.listener = client;
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANNEL}`);
    } catch (err) {
      lost();
      throw err;
    }
  }
}
