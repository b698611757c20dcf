// Builds a Redis input the same way for every reader: the configured server, wrapped by the engine
// (which replays nacked messages itself when `auto_replay_nacks` is on).
import type { Input, InputReader } from '../../engine/component.js';
import type { BuildContext } from '../../engine/context.js';
import { type RedisClientConfig, type RedisTarget, redisTarget } from './client.js';

export async function redisInput(
  config: RedisClientConfig & { auto_replay_nacks: boolean },
  ctx: BuildContext,
  reader: (target: RedisTarget) => InputReader,
): Promise<Input> {
  const target = await redisTarget(config);
  return ctx.wrapReader(reader(target), { autoReplayNacks: config.auto_replay_nacks });
}
