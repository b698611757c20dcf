// The client fields every Redis component shares (url, kind, master, client_name, tls), the lint
// rules between them, and the target they describe, checked once at build time.
import { type ConfigOf, field, type RawConfigOf } from '../../config/spec.js';
import { ConfigError } from '../../engine/errors.js';
import { redactUrl } from '../connection/urls.js';
import { type TlsOptions, tlsField, tlsOptions } from '../fields/tls.js';

export const REDIS_KINDS = ['simple', 'cluster', 'failover'] as const;
export type RedisKind = (typeof REDIS_KINDS)[number];

export function redisClientFields() {
  return [
    field.string(
      'url',
      'The URL of the Redis server; the database is the optional path. `rediss://` connects over TLS. With `kind: cluster` a comma-separated list of cluster nodes (any subset: the others are discovered); with `kind: failover` a comma-separated list of sentinels.',
      {
        examples: [
          'redis://:6379',
          'redis://localhost:6379',
          'redis://user:password@redis:6379/1',
          'redis://node-1:6379,redis://node-2:6379',
        ],
      },
    ),
    field.enum(
      'kind',
      'The client kind: `simple` (one server), `cluster` (Redis Cluster; commands go to the node owning their key) or `failover` (a master found through Redis Sentinel, followed when a replica is promoted).',
      REDIS_KINDS,
      { default: 'simple', advanced: true },
    ),
    field.string('master', 'The master name when `kind` is `failover`.', {
      default: '',
      advanced: true,
      examples: ['mymaster'],
    }),
    field.string('client_name', 'The connection name set with CLIENT SETNAME (shown by CLIENT LIST).', {
      default: 'redpanda-connect',
      advanced: true,
    }),
    tlsField(),
  ] as const;
}

/** The client fields as a factory receives them. */
export type RedisClientConfig = ConfigOf<ReturnType<typeof redisClientFields>>;

/** The client fields as written, what a lint hook sees. */
type RawRedisClientConfig = RawConfigOf<ReturnType<typeof redisClientFields>>;

/** The kind as declared, whatever case it was written in. */
export function redisKindOf(config: { kind?: string }): RedisKind {
  const kind = (config.kind ?? 'simple').toLowerCase();
  return (REDIS_KINDS as readonly string[]).includes(kind) ? (kind as RedisKind) : 'simple';
}

/** Lint checks of the client fields, for every Redis component's lint hook. */
export function lintRedisClient(config: Partial<RawRedisClientConfig>): { field: string; message: string }[] {
  if (redisKindOf(config) === 'failover' && !config.master?.trim())
    return [{ field: 'master', message: 'kind failover needs the name of the master the sentinels monitor' }];
  return [];
}

export interface RedisNodeAddress {
  host: string;
  port: number;
}

/** Where and how to connect, checked once at build time. */
export interface RedisTarget {
  kind: RedisKind;
  /** The first URL (`redis://`), what a simple client connects to. */
  url: string;
  /** Every address of `url`: cluster seed nodes, or the sentinels. */
  nodes: RedisNodeAddress[];
  username: string | undefined;
  password: string | undefined;
  database: number;
  /** The master name (failover). */
  master: string;
  /** The addresses without passwords, for logs and errors. */
  address: string;
  name: string;
  tls: TlsOptions | undefined;
}

/** Checks the client fields: every URL of the list parses, failover has a master. */
export async function redisTarget(config: RedisClientConfig): Promise<RedisTarget> {
  const kind = redisKindOf(config);
  const urls = config.url
    .split(',')
    .map((u) => u.trim().replace(/^tcp:\/\//, 'redis://'))
    .filter((u) => u !== '');
  if (urls.length === 0) throw new ConfigError('url: a redis URL is required');
  const parsed = urls.map((u) => {
    let url: URL;
    try {
      url = new URL(u);
    } catch {
      throw new ConfigError(`url: not a valid redis URL: ${redactUrl(u)}`);
    }
    if (url.protocol !== 'redis:' && url.protocol !== 'rediss:')
      throw new ConfigError(`url: expected a redis:// or rediss:// URL, got ${redactUrl(u)}`);
    return url;
  });
  if (kind === 'failover' && !config.master.trim())
    throw new ConfigError('master: kind failover needs the name of the master the sentinels monitor');
  // As the reference: credentials and database come from the last URL of the list.
  const last = parsed[parsed.length - 1] as URL;
  const tls = await tlsOptions(config.tls);
  const address =
    kind === 'simple'
      ? redactUrl((parsed[0] as URL).toString())
      : `${kind} ${kind === 'failover' ? `'${config.master}' via ` : ''}${parsed.map((u) => u.host).join(',')}`;
  return {
    kind,
    url: urls[0] as string,
    nodes: parsed.map((u) => ({
      host: u.hostname.replace(/^\[|\]$/g, '') || '127.0.0.1',
      port: u.port ? Number(u.port) : 6379,
    })),
    username: last.username ? decodeURIComponent(last.username) : undefined,
    password: last.password ? decodeURIComponent(last.password) : undefined,
    database: Number(last.pathname.replace(/^\//, '') || 0) || 0,
    master: config.master,
    address,
    name: config.client_name,
    // The simple client reads `rediss://` from its URL; the others are told.
    tls:
      kind === 'simple'
        ? tls
        : (tls ?? (parsed.some((u) => u.protocol === 'rediss:') ? { rejectUnauthorized: true } : undefined)),
  };
}
