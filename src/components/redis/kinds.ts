// One small client face over node-redis's three clients (a server, a cluster, a master found
// through sentinels), so every Redis component works with every `kind`. Raw commands only: a
// cluster routes each by its first key (keys.ts), a sentinel client sends all to the master.
import type * as RedisModule from '@redis/client';
import type { RedisArgument } from '@redis/client';
import { errorMessage } from '../../engine/errors.js';
import { firstKeyOf } from './keys.js';
import type { RedisTarget } from './target.js';

type Listener = (message: Buffer, channel: Buffer) => void;

/** What RedisConnection uses of a client, whatever its kind. */
export interface KindClient {
  readonly isOpen: boolean;
  connect: () => Promise<unknown>;
  sendCommand(args: readonly RedisArgument[]): Promise<unknown>;
  subscribe(channels: string[], listener: Listener, bufferMode: true): Promise<unknown>;
  pSubscribe(patterns: string[], listener: Listener, bufferMode: true): Promise<unknown>;
  close(): Promise<void>;
  destroy(): void;
  /** Events that mean the connection is gone ('error' for a single server, 'end' for all). */
  on(event: 'error' | 'end', listener: (err?: Error) => void): void;
  /** The same connection with bulk strings decoded as Buffers. */
  binary(): Pick<KindClient, 'sendCommand'>;
}

// Loaded on first connect: a process that uses no Redis component never pays for it.
let redis: typeof RedisModule | undefined;

export async function loadRedis(): Promise<typeof RedisModule> {
  redis ??= await import('@redis/client');
  return redis;
}

/** True for errors the server replied with (the connection is fine; retrying will not help). */
export function isReplyError(err: unknown): boolean {
  return redis !== undefined && err instanceof redis.ErrorReply;
}

const CONNECT_TIMEOUT_MS = 5000;

function socketOptions(target: RedisTarget, host?: { host: string; port: number }) {
  return {
    ...(host ?? {}),
    ...(target.tls ? { tls: true as const, ...target.tls } : {}),
    connectTimeout: CONNECT_TIMEOUT_MS,
  };
}

/** A client for the target's kind, not yet connected. */
export async function createKindClient(target: RedisTarget): Promise<KindClient> {
  const r = await loadRedis();
  const bufferMapping = { [r.RESP_TYPES.BLOB_STRING]: Buffer };
  // Connections never reconnect by themselves: the owner opens a fresh client (see client.ts).
  const node = {
    username: target.username,
    password: target.password,
    name: target.name || undefined,
    // Commands fail at once while disconnected instead of queueing for a reconnect that never comes.
    disableOfflineQueue: true,
  };
  if (target.kind === 'simple') {
    const client = r.createClient({
      url: target.url,
      RESP: 2,
      name: target.name || undefined,
      disableOfflineQueue: true,
      // No per-command timer: the connection's watchdog times replies out.
      commandOptions: { timeout: 0 },
      socket: { ...socketOptions(target), reconnectStrategy: false },
    });
    const binary = client.withTypeMapping(bufferMapping);
    return wrap(
      client,
      'end',
      (args) => client.sendCommand(args as RedisArgument[]),
      (args) => binary.sendCommand(args as RedisArgument[]),
    );
  }
  if (target.kind === 'cluster') {
    const cluster = r.createCluster({
      rootNodes: target.nodes.map((n) => ({ socket: socketOptions(target, n) })),
      defaults: { ...node, socket: { ...socketOptions(target), reconnectStrategy: false } },
      RESP: 2,
      commandOptions: { timeout: 0 },
    });
    const binary = cluster.withTypeMapping(bufferMapping);
    return wrap(
      cluster,
      'disconnect',
      (args) => cluster.sendCommand(firstKeyOf(args), undefined, args as RedisArgument[]),
      (args) => binary.sendCommand(firstKeyOf(args), undefined, args as RedisArgument[]),
    );
  }
  const sentinel = r.createSentinel({
    name: target.master,
    sentinelRootNodes: target.nodes,
    // The sentinel client follows a promoted replica itself; its node connections must reconnect.
    nodeClientOptions: {
      ...node,
      database: target.database,
      disableOfflineQueue: false,
      socket: socketOptions(target),
    },
    sentinelClientOptions: { socket: socketOptions(target) },
    RESP: 2,
    commandOptions: { timeout: 0 },
  });
  const binary = sentinel.withTypeMapping(bufferMapping);
  const client = wrap(
    sentinel,
    'end',
    (args) => sentinel.sendCommand(undefined, args as RedisArgument[]),
    (args) => binary.sendCommand(undefined, args as RedisArgument[]),
  );
  // Assigned, not spread: a spread would freeze the isOpen getter's value.
  client.connect = () => connectSentinel(sentinel, target);
  return client;
}

interface Underlying {
  readonly isOpen: boolean;
  connect(): Promise<unknown>;
  subscribe(channels: string[], listener: Listener, bufferMode: true): Promise<unknown>;
  pSubscribe(patterns: string[], listener: Listener, bufferMode: true): Promise<unknown>;
  close(): Promise<void>;
  destroy(): unknown;
  on(event: string, listener: (...args: never[]) => void): unknown;
}

function wrap(
  u: unknown,
  endEvent: 'end' | 'disconnect',
  send: (args: readonly RedisArgument[]) => Promise<unknown>,
  sendBinary: (args: readonly RedisArgument[]) => Promise<unknown>,
): KindClient {
  const c = u as Underlying;
  return {
    get isOpen() {
      return c.isOpen;
    },
    connect: () => c.connect(),
    sendCommand: send,
    subscribe: (channels, listener) => c.subscribe(channels, listener, true),
    pSubscribe: (patterns, listener) => c.pSubscribe(patterns, listener, true),
    close: () => c.close(),
    destroy: () => {
      // The sentinel client's destroy() is async; a failure there has nothing left to tell.
      Promise.resolve(c.destroy()).catch(() => undefined);
    },
    on: (event, listener) => {
      c.on(event === 'end' ? endEvent : event, listener as (...args: never[]) => void);
    },
    binary: () => ({ sendCommand: sendBinary }),
  };
}

/**
 * Connects through the sentinels. A master name they do not know is reported at once, naming
 * `master` (the client itself would retry for many seconds and then blame the sentinels).
 */
async function connectSentinel(sentinel: unknown, target: RedisTarget): Promise<void> {
  const s = sentinel as Underlying;
  let unknownMaster: (err: Error) => void = () => undefined;
  const failed = new Promise<never>((_, reject) => {
    unknownMaster = reject;
  });
  const onError = (err: unknown) => {
    if (/no such master/i.test(errorMessage(err)))
      unknownMaster(new Error(`master: the sentinels know no master named '${target.master}'`));
  };
  s.on('error', onError as (...args: never[]) => void);
  const connecting = s.connect();
  try {
    await Promise.race([connecting, failed]);
  } catch (err) {
    connecting.catch(() => undefined);
    throw err;
  }
}
