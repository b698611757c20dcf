// Stream entries as the redis_streams input holds them: an entry's fields turned into a message,
// and the ids handed out and not yet acknowledged.
import { Message } from '../../message/message.js';
import type { RedisReply } from './client.js';

export interface Entry {
  stream: string;
  id: string;
  message: Message;
}

/** Entry ids held (handed out, not yet acked), per stream: no joined key string per entry. */
export class HeldIds {
  private readonly byStream = new Map<string, Set<string>>();

  has(stream: string, id: string): boolean {
    return this.byStream.get(stream)?.has(id) === true;
  }

  add(stream: string, id: string): void {
    let ids = this.byStream.get(stream);
    if (!ids) {
      ids = new Set();
      this.byStream.set(stream, ids);
    }
    ids.add(id);
  }

  delete(stream: string, id: string): void {
    this.byStream.get(stream)?.delete(id);
  }
}

/**
 * The message of an entry's field list (name, value, name, value...): the `bodyKey` field is the
 * content, every other field and the entry id (`redis_stream`) metadata. Null without a body field.
 */
export function entryMessage(
  id: string,
  fields: RedisReply[],
  bodyKey: Buffer,
  bodyKeyText: string,
): Message | null {
  let body: Buffer | null = null;
  const meta = new Map<string, unknown>();
  meta.set('redis_stream', id);
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const name = fields[i];
    const value = fields[i + 1] as Buffer;
    // Compared as bytes (replies are binary): no string made for the body's field name.
    const isBody = Buffer.isBuffer(name) ? name.equals(bodyKey) : String(name) === bodyKeyText;
    if (body === null && isBody) body = value;
    else meta.set(String(name), String(value));
  }
  return body === null ? null : new Message(body, meta);
}
