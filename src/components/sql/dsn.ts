// Data source names as the reference accepts them, turned into client options, plus a
// password-free description of the address for logs and errors.
import type { PoolConfig } from 'pg';
import { describeSqlite } from './sqlite.js';

export type SqlDialect = 'postgres' | 'mysql' | 'sqlite';

/** The drivers nekton has a client for, as the message of a refused one lists them. */
export const WORKING_DRIVERS = ['postgres', 'pgx', 'mysql', 'sqlite'] as const;

/** The dialect a driver name speaks; throws a clear error for drivers nekton has no client for. */
export function dialectOf(driver: string): SqlDialect {
  const d = driver.toLowerCase();
  if (d === 'postgres' || d === 'pgx') return 'postgres';
  if (d === 'mysql') return 'mysql';
  if (d === 'sqlite') return 'sqlite';
  throw new Error(
    `sql driver '${driver}' is not supported by nekton: it has no client for it (working drivers: ${WORKING_DRIVERS.join(', ')})`,
  );
}

export interface MysqlTarget {
  host: string;
  port: number;
  user?: string;
  password?: string;
  database?: string;
  socketPath?: string;
}

/**
 * The Go driver's form `[user[:password]@][net[(addr)]]/dbname[?params]`, or a `mysql://` URL.
 * Unknown parameters are ignored.
 */
export function parseMysqlDsn(dsn: string): MysqlTarget {
  if (/^mysql:\/\//i.test(dsn)) {
    const url = new URL(dsn);
    return {
      host: url.hostname || '127.0.0.1',
      port: url.port ? Number(url.port) : 3306,
      user: url.username ? decodeURIComponent(url.username) : undefined,
      password: url.password ? decodeURIComponent(url.password) : undefined,
      database: url.pathname.replace(/^\//, '') || undefined,
    };
  }
  const slash = dsn.lastIndexOf('/');
  if (slash < 0) throw new Error('mysql dsn must look like user:password@tcp(host:port)/dbname');
  const head = dsn.slice(0, slash);
  const database = dsn.slice(slash + 1).split('?')[0] || undefined;
  const at = head.lastIndexOf('@');
  const credentials = at >= 0 ? head.slice(0, at) : '';
  const network = at >= 0 ? head.slice(at + 1) : head;
  const colon = credentials.indexOf(':');
  const user = (colon >= 0 ? credentials.slice(0, colon) : credentials) || undefined;
  const password = colon >= 0 ? credentials.slice(colon + 1) : undefined;
  const m = /^(\w*)(?:\((.*)\))?$/.exec(network);
  if (!m) throw new Error(`mysql dsn has an unreadable address '${network}'`);
  const [, net, addr] = m;
  if (net === 'unix') return { host: 'localhost', port: 0, socketPath: addr, user, password, database };
  const address = addr || '127.0.0.1:3306';
  const portAt = address.lastIndexOf(':');
  const host = (portAt >= 0 ? address.slice(0, portAt) : address).replace(/^\[|\]$/g, '');
  const port = portAt >= 0 ? Number(address.slice(portAt + 1)) : 3306;
  return { host, port, user, password, database };
}

/** `host:port/db` of a DSN, never its password, for log lines and error messages. */
export function describeTarget(dialect: SqlDialect, dsn: string): string {
  if (dialect === 'sqlite') return describeSqlite(dsn);
  try {
    if (dialect === 'mysql') {
      const t = parseMysqlDsn(dsn);
      return `mysql ${t.socketPath ?? `${t.host}:${t.port}`}/${t.database ?? ''}`;
    }
    const url = new URL(dsn);
    return `postgres ${url.hostname || 'localhost'}:${url.port || 5432}${url.pathname}`;
  } catch {
    return dialect;
  }
}

/** pg pool options from a postgres URL DSN (key=value DSNs are passed through as well). */
export function postgresPoolConfig(dsn: string): PoolConfig {
  return { connectionString: dsn };
}
