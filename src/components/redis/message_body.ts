// A message's content as a Redis command argument.
import { stringifyJson } from '../../message/json.js';
import type { Message } from '../../message/message.js';
import { type RedisArgument, redisValue } from './client.js';

/**
 * The content as a command argument. A message holding only a structured value (what a mapping
 * leaves) is sent as its JSON text, the bytes `Message.bytes()` would have made: the client then
 * encodes the whole command as one string instead of a header, the payload Buffer and a trailer
 * (W4: three writev chunks per XADD, and a UTF-8 encode into a Buffer first, ~10% of the CPU).
 */
export function bodyArgument(msg: Message): RedisArgument {
  if (msg.unserialised) {
    const value = msg.structured();
    if (typeof value === 'string') return value;
    if (!(value instanceof Uint8Array)) return stringifyJson(value);
  }
  return redisValue(msg.bytes());
}
