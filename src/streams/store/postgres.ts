// `postgres://...`: one row per stream and resource in `nekton_stream_store` (created when
// missing). Each write is one upsert that also NOTIFYs `nekton_stream_store` in its transaction,
// the change feed other processes LISTEN on. The listening connection doubles as the liveness
// signal: when it drops the store is reported lost (and reconnected every second) while the
// streams keep running.
import type PgModule from 'pg';
import { redactUrl } from '../../components/connection/urls.js';
import { errorMessage } from '../../engine/errors.js';
import {
  asStoredValue,
  isStoreSection,
  type StoreChange,
  type StoredRecord,
  type StoredValue,
  type StoreKey,
  StoreOpenError,
  StoreWriteError,
  type StreamStore,
} from './store.js';

const TABLE = 'nekton_stream_store';
const CHANNEL = 'nekton_stream_store';
const RECONNECT_MS = 1_000;
const TIMEOUT_MS = 10_000;

const CREATE = `CREATE TABLE IF NOT EXISTS ${TABLE} (
  section text NOT NULL,
  id text NOT NULL,
  value jsonb NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (section, id)
)`;

const UPSERT = `WITH written AS (
  INSERT INTO ${TABLE} (section, id, value) VALUES ($1, $2, $3)
  ON CONFLICT (section, id) DO UPDATE SET value = EXCLUDED.value, updated_at = now()
  RETURNING section, id
) SELECT pg_notify('${CHANNEL}', json_build_object('section', section, 'id', id, 'pid', pg_backend_pid())::text) FROM written`;

const DELETE = `WITH removed AS (
  DELETE FROM ${TABLE} WHERE section = $1 AND id = $2 RETURNING section, id
) SELECT pg_notify('${CHANNEL}', json_build_object('section', section, 'id', id, 'pid', pg_backend_pid())::text) FROM removed`;

export class PostgresStore implements StreamStore {
  readonly name: string;
  private pool: PgModule.Pool | undefined;
  private listener: PgModule.Client | undefined;
  private lost: string | undefined;
  private closed = false;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private readonly listeners: Array<(change: StoreChange) => void> = [];
  private pg: typeof PgModule | undefined;

  constructor(private readonly url: string) {
    this.name = redactUrl(url);
  }

  async open(): Promise<StoredRecord[]> {
    try {
      this.pg = (await import('pg')).default;
      this.pool = new this.pg.Pool({
        connectionString: this.url,
        max: 4,
        connectionTimeoutMillis: TIMEOUT_MS,
        query_timeout: TIMEOUT_MS,
        application_name: 'nekton-stream-store',
      });
      // An idle client that loses its server must not crash the process: the next query reconnects.
      this.pool.on('error', () => undefined);
      await this.createTable(this.pool);
      await this.listen();
      const { rows } = await this.pool.query(`SELECT section, id, value FROM ${TABLE} ORDER BY section, id`);
      return rows.flatMap((row: { section: string; id: string; value: unknown }) => {
        const value = asStoredValue(row.value);
        return value && isStoreSection(row.section) ? [{ section: row.section, id: row.id, value }] : [];
      });
    } catch (err) {
      await this.close();
      throw new StoreOpenError(this.name, errorMessage(err));
    }
  }

  /** Processes starting together (a fleet) would race CREATE TABLE IF NOT EXISTS: one at a time. */
  private async createTable(pool: PgModule.Pool): Promise<void> {
    const client = await pool.connect();
    client.on('error', () => undefined);
    try {
      await client.query('BEGIN');
      await client.query(`SELECT pg_advisory_xact_lock(hashtext('${TABLE}'))`);
      await client.query(CREATE);
      await client.query('COMMIT');
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
  }

  async put(key: StoreKey, value: StoredValue): Promise<void> {
    await this.write(UPSERT, [key.section, key.id, JSON.stringify(value)]);
  }

  async remove(key: StoreKey): Promise<void> {
    await this.write(DELETE, [key.section, key.id]);
  }

  problem(): string | undefined {
    return this.lost;
  }

  watch(listener: (change: StoreChange) => void): void {
    this.listeners.push(listener);
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.reconnectTimer);
    const listener = this.listener;
    this.listener = undefined;
    await listener?.end().catch(() => undefined);
    await this.pool?.end().catch(() => undefined);
  }

  private async write(sql: string, params: unknown[]): Promise<void> {
    if (!this.pool) throw new StoreWriteError(this.name, 'the store is not open');
    if (this.lost) throw new StoreWriteError(this.name, this.lost);
    try {
      await this.pool.query(sql, params);
    } catch (err) {
      throw new StoreWriteError(this.name, errorMessage(err));
    }
  }

  /** One connection LISTENs for changes; losing it marks the store lost until it is back. */
  private async listen(): Promise<void> {
    const client = new (this.pg as typeof PgModule).Client({
      connectionString: this.url,
      connectionTimeoutMillis: TIMEOUT_MS,
      application_name: 'nekton-stream-store-listen',
    });
    const onLost = (reason: string) => {
      if (this.listener !== client) return;
      this.listener = undefined;
      this.lost = `connection lost: ${reason}`;
      client.end().catch(() => undefined);
      this.scheduleReconnect();
    };
    client.on('error', (err) => onLost(errorMessage(err)));
    client.on('end', () => onLost('the server closed the connection'));
    client.on('notification', (msg) => this.notify(msg.payload));
    await client.connect();
    await client.query(`LISTEN ${CHANNEL}`);
    this.listener = client;
    this.lost = undefined;
  }

  private scheduleReconnect(): void {
    if (this.closed) return;
    this.reconnectTimer = setTimeout(() => {
      this.listen().catch((err) => {
        this.lost = `connection lost: ${errorMessage(err)}`;
        this.scheduleReconnect();
      });
    }, RECONNECT_MS);
    this.reconnectTimer.unref();
  }

  /** A NOTIFY from any writer; the value is read back when a listener wants it. */
  private notify(payload: string | undefined): void {
    if (!payload || this.listeners.length === 0 || !this.pool) return;
    let key: { section?: string; id?: string };
    try {
      key = JSON.parse(payload) as typeof key;
    } catch {
      return;
    }
    const { section, id } = key;
    if (typeof section !== 'string' || typeof id !== 'string' || !isStoreSection(section)) return;
    this.pool
      .query(`SELECT value FROM ${TABLE} WHERE section = $1 AND id = $2`, [section, id])
      .then(({ rows }) => {
        const value = rows.length > 0 ? asStoredValue((rows[0] as { value: unknown }).value) : undefined;
        for (const listener of this.listeners) listener({ section, id, value });
      })
      .catch(() => undefined);
  }
}
