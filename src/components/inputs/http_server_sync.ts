// The answer to an acked http_server request: empty 200, or the sync response the pipeline left
// (its status and headers interpolated over the response messages, a batch as multipart).
import type { ServerResponse } from 'node:http';
import type { Interpolation } from '../../bloblang/index.js';
import type { BuildContext } from '../../engine/context.js';
import type { Message } from '../../message/message.js';
import { encodeMultipart } from '../http/multipart.js';
import type { ResponseStore } from '../sync_response_store.js';

export interface SyncResponse {
  status: Interpolation;
  headers: [string, Interpolation][];
  metadataHeader: ((key: string) => boolean) | null;
}

/** Sends the answer to an acked request. */
export function sendSyncResponse(
  res: ServerResponse,
  store: ResponseStore,
  sync: SyncResponse,
  logger: BuildContext['logger'],
): void {
  // Answers are sent whole with `end` (no writeHead first), so they carry a Content-Length, as
  // the reference's do, rather than a chunked encoding.
  if (store.empty) {
    res.end();
    return;
  }
  const results = store.messages();
  if (results.length === 0) {
    res.end();
    return;
  }
  for (const [k, v] of sync.headers) res.setHeader(k, headerValue(v.render(results, 0)));
  const statusText = sync.status.render(results, 0);
  const status = Number(statusText);
  if (!Number.isInteger(status) || status < 100 || status > 999) {
    logger.error({ status: statusText }, 'sync response status is not a number');
    res.statusCode = 502;
    res.end();
    return;
  }
  for (const msg of results) {
    if (!sync.metadataHeader) break;
    for (const [k, v] of msg.metadata()) if (sync.metadataHeader(k)) res.setHeader(k, headerValue(String(v)));
  }
  res.statusCode = status;
  if (results.length === 1) {
    res.end((results[0] as Message).bytes());
    return;
  }
  const { body, contentType } = encodeMultipart(
    results.map((m) => ({ headers: { 'Content-Type': 'application/octet-stream' }, body: m.bytes() })),
  );
  res.setHeader('Content-Type', contentType);
  res.end(body);
}

/**
 * A header value as Go's net/http writes it: line breaks become spaces, and the text goes out as
 * its UTF-8 bytes. Node refuses both (it throws on `\n` and on characters above U+00FF), which
 * left the request unanswered.
 */
function headerValue(value: string): string {
  const flat = value.replace(/[\r\n]/g, ' ');
  if (!/[^\t\x20-\x7e]/.test(flat)) return flat;
  return Buffer.from(flat.replace(/[\x00-\x08\x0a-\x1f\x7f]/g, ''), 'utf8').toString('latin1');
}
