// The redis components, in one list the registry includes. Add one import and one entry per component.
import type { ComponentSpec } from '../../config/spec.js';
import { spec as redisCache } from '../caches/redis.js';
import { spec as redisListInput } from '../inputs/redis_list.js';
import { spec as redisPubsubInput } from '../inputs/redis_pubsub.js';
import { spec as redisStreamsInput } from '../inputs/redis_streams.js';
import { spec as redisHashOutput } from '../outputs/redis_hash.js';
import { spec as redisListOutput } from '../outputs/redis_list.js';
import { spec as redisPubsubOutput } from '../outputs/redis_pubsub.js';
import { spec as redisStreamsOutput } from '../outputs/redis_streams.js';
import { spec as redisProcessor } from '../processors/redis.js';
import { spec as redisRateLimit } from '../rate_limits/redis_ratelimit.js';

// biome-ignore lint/suspicious/noExplicitAny: specs of differing config types share one list
export const redisSpecs: ComponentSpec<any, any>[] = [
  redisStreamsInput,
  redisListInput,
  redisPubsubInput,
  redisStreamsOutput,
  redisListOutput,
  redisPubsubOutput,
  redisHashOutput,
  redisCache,
  redisRateLimit,
  redisProcessor,
];
