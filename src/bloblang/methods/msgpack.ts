// MessagePack: parse_msgpack / format_msgpack (the reference's msgpack plugin methods).
import { fromMsgpack, toMsgpack } from '../../message/msgpack.js';
import type { Value } from '../library.js';
import { fail, simpleMethod, targetBytes } from './support.js';

simpleMethod('parse_msgpack', (t) => {
  try {
    return fromMsgpack(targetBytes(t)) as Value;
  } catch (e) {
    throw fail(`failed to parse value as MessagePack: ${(e as Error).message}`);
  }
});

simpleMethod('format_msgpack', (t) => toMsgpack(t));
