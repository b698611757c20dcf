// Small writers shared by every handler, so error bodies look the same everywhere (Go's http.Error).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { bodyLimitOf, bodyTooLarge, declaredTooLarge } from './body_limit.js';
import { HttpError } from './http-error.js';

export function sendText(res: ServerResponse, status: number, body: string): void {
  res.statusCode = status;
  res.setHeader('Content-Type', 'text/plain; charset=utf-8');
  res.end(body);
}

/** Compact JSON, no trailing newline (what Go's json.Marshal + Write produces). */
export function sendJson(res: ServerResponse, status: number, value: unknown): void {
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json');
  res.end(JSON.stringify(value));
}

/** Go's http.Error: plain text, nosniff, the message and exactly one newline. */
export function sendError(res: ServerResponse, status: number, message: string): void {
  res.statusCode = status;
  res.removeHeader('Content-Length');
  res.setHeader('Content-Type', 'text/plain; charset=utf-8');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.end(`${message}\n`);
}

/**
 * Reads the whole request body, refusing (413) as soon as it would exceed `limitBytes`; nothing past
 * the limit is kept in memory.
 */
export function readBody(req: IncomingMessage, ownLimitBytes: number): Promise<Buffer> {
  // The caller's limit, never above the server's `http.max_body_size`.
  const limitBytes = Math.min(ownLimitBytes, bodyLimitOf(req));
  const tooLarge = () => bodyTooLarge(limitBytes);
  if (declaredTooLarge(req, limitBytes)) {
    req.resume(); // discard rather than leave the socket stalled
    return Promise.reject(tooLarge());
  }
  // Already drained by someone else: waiting for 'end' would hang forever.
  if (req.readableEnded) return Promise.resolve(Buffer.alloc(0));
  // Gone before we listened: 'close' has fired already, so waiting would hang too.
  if (req.destroyed) return Promise.reject(new HttpError(400, 'client closed the connection'));
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const cleanup = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('close', onClose);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limitBytes) {
        cleanup();
        chunks.length = 0;
        req.resume();
        reject(tooLarge());
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      // No cleanup: the request is over, what could still fire ('close', a late 'error') is a
      // no-op now, and the listeners go with the request (removing four costs on every request).
      resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size));
    };
    const onError = (err: Error) => {
      cleanup();
      reject(new HttpError(400, `reading request body: ${err.message}`));
    };
    const onClose = () => {
      if (!req.complete) onError(new Error('client closed the connection'));
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('close', onClose);
  });
}
