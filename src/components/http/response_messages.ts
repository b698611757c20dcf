// Turns an HTTP response into message contents and metadata, as the reference's http processor
// does: a multipart response is one message per part, anything else is one message.
import type { IncomingHttpHeaders } from 'node:http';
import type { Message } from '../../message/message.js';
import type { MetadataKeyFilter } from '../fields/metadata.js';
import { decodeMultipart } from './multipart.js';
import type { HttpResponse } from './requester.js';

/** The part bodies of a response: one per part for multipart/*, else the whole body. */
export function responseBodies(res: HttpResponse): Buffer[] {
  const type = String(res.headers['content-type'] ?? '');
  if (!/^\s*multipart\//i.test(type)) return [res.body];
  const boundary = /;\s*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(type);
  const name = boundary?.[1] ?? boundary?.[2];
  if (!name) throw new Error(`multipart response without a boundary: ${type}`);
  return decodeMultipart(res.body, name);
}

/**
 * Copies the response headers `include` accepts into msg's metadata, lower-cased; a header sent
 * more than once becomes a list.
 */
export function extractHeaderMeta(
  msg: Message,
  headers: IncomingHttpHeaders | undefined,
  include: MetadataKeyFilter,
): void {
  if (!include || !headers) return;
  for (const [key, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    const name = key.toLowerCase();
    if (!include(name)) continue;
    if (Array.isArray(value)) msg.setMeta(name, value.length === 1 ? value[0] : [...value]);
    else msg.setMeta(name, value);
  }
}
