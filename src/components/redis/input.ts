// What the Redis inputs share: their build (the configured server, wrapped by the engine, which
// replays nacked messages itself when `auto_replay_nacks` is on) and how a reader opens its connection.
import type { Logger } from 'pino';
import type { Input, InputReader } from '../../engine/component.js';
import type { BuildContext } from '../../engine/context.js';
import { type RedisClientConfig, RedisConnection, type RedisTarget, redisTarget } from './client.js';

export async function redisInput(
  config: RedisClientConfig & { auto_replay_nacks: boolean },
  ctx: BuildContext,
  reader: (target: RedisTarget) => InputReader,
): Promise<Input> {
  const target = await redisTarget(config);
  return ctx.wrapReader(reader(target), { autoReplayNacks: config.auto_replay_nacks });
}

/**
 * Opens a reader's connection and prepares it (`setup`: subscribe, create groups). The connection
 * is destroyed when setup fails, and when the reader was closed meanwhile (then null is returned).
 */
export async function openReaderConnection(
  target: RedisTarget,
  logger: Logger,
  setup: (connection: RedisConnection) => Promise<void>,
  isClosed: () => boolean,
): Promise<RedisConnection | null> {
  const connection = await RedisConnection.open(target, logger);
  try {
    await setup(connection);
  } catch (err) {
    connection.destroy();
    throw err;
  }
  if (isClosed()) {
    connection.destroy();
    return null;
  }
  return connection;
}
