// Shared set-up of the mysql_cdc tests: unique tables on the local MariaDB and an in-memory cache
// resource the input keeps its binlog position in (readable by the test).
import mysql from 'mysql2/promise';
import type { Cache } from '../../../src/engine/component.js';
import { ResourceManager } from '../../../src/engine/resources.js';
import { MARIADB_DSN, SERVICES } from '../../helpers/services.js';
import { uniqueName } from './pg_helpers.js';

export { MARIADB_DSN };

export class MapCache implements Cache {
  readonly values = new Map<string, Uint8Array>();
  async get(key: string) {
    return this.values.get(key);
  }
  async set(key: string, value: Uint8Array) {
    this.values.set(key, value);
  }
  async add(key: string, value: Uint8Array) {
    if (this.values.has(key)) return false;
    this.values.set(key, value);
    return true;
  }
  async delete(key: string) {
    this.values.delete(key);
  }
  async close() {}
  text(key: string): string | undefined {
    const v = this.values.get(key);
    return v && Buffer.from(v).toString('utf8');
  }
}

export async function cacheResources(name: string, cache: Cache): Promise<ResourceManager> {
  const resources = new ResourceManager();
  await resources.set('cache', name, cache, {});
  return resources;
}

export class MariaFixture {
  private conn: mysql.Connection | null = null;
  private readonly tables: string[] = [];

  async db(): Promise<mysql.Connection> {
    this.conn ??= await mysql.createConnection({ ...SERVICES.mariadb, user: 'root', database: 'test' });
    return this.conn;
  }

  async table(columns = 'id INT PRIMARY KEY, v VARCHAR(32)'): Promise<string> {
    const name = uniqueName('cdc');
    await (await this.db()).query(`CREATE TABLE ${name} (${columns}) ENGINE=InnoDB`);
    this.tables.push(name);
    return name;
  }

  async query(sql: string, params: unknown[] = []): Promise<unknown> {
    const [rows] = await (await this.db()).query(sql, params);
    return rows;
  }

  async cleanup(): Promise<void> {
    for (const t of this.tables) await this.query(`DROP TABLE IF EXISTS ${t}`).catch(() => undefined);
    await this.conn?.end();
  }
}
